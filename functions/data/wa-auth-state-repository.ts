import { BatchGetCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DomainError } from '../shared/errors';
import { db, tableName } from './client';
import { batchWriteAll, type WriteRequest } from './batch-write';
import { mapDynamoErrors } from './errors';
import { queryAll } from './query-page';
import { company, fnv1a, pad } from './keys';

/**
 * A WhatsApp session's auth state (docs/data-model.md §2.11): the credentials item and one item per
 * signal key, so a worker that takes a connection over resumes the session without a new QR code.
 * - credentials `pk = C#<c>#WHATSAPP#<pad id>#AUTH#0, sk = creds` (value, fence, updatedAt): written only
 *   by the lease holder, conditional on its fence, so a worker that lost the lease cannot overwrite the
 *   new holder's credentials;
 * - signal keys `pk = C#<c>#WHATSAPP#<pad id>#AUTH#<b>, sk = <type>#<keyId>` (value), where
 *   `b = fnv1a(type#keyId) mod 16`: the first send to a large group writes thousands of sessions in seconds,
 *   more than one partition takes.
 * Values are JSON text made with the session implementation's codec (Baileys passes its `BufferJSON`
 * replacer and reviver, which keep Buffers and Uint8Arrays); this module never loads Baileys itself.
 */
export const AUTH_BUCKETS = 16;
/** BatchGetItem reads at most 100 keys per call. */
const GET_CHUNK = 100;
/** Rounds of retrying what DynamoDB left unprocessed (throttling) before giving up. */
const UNPROCESSED_ROUNDS = 6;

export const authPartition = (companyId: number, whatsappId: number, bucket: number): string =>
  `${company(companyId)}#WHATSAPP#${pad(whatsappId)}#AUTH#${bucket}`;

export const credsKeys = (companyId: number, whatsappId: number) => ({
  pk: authPartition(companyId, whatsappId, 0),
  sk: 'creds',
});

export const signalKeyKeys = (companyId: number, whatsappId: number, type: string, keyId: string) => ({
  pk: authPartition(companyId, whatsappId, fnv1a(`${type}#${keyId}`) % AUTH_BUCKETS),
  sk: `${type}#${keyId}`,
});

/** How values become text and back (JSON.stringify's replacer, JSON.parse's reviver). */
export interface AuthStateCodec {
  replacer?: (key: string, value: unknown) => unknown;
  reviver?: (key: string, value: unknown) => unknown;
}

/** Signal keys by type and id; `null` deletes a key (Baileys' SignalDataSet shape). */
export type SignalKeyChanges = Record<string, Record<string, unknown>>;

export interface AuthStateStore {
  /** The stored credentials, or null when the connection has none (a new pairing). */
  readCreds: () => Promise<unknown>;
  /**
   * Stores the credentials as the lease holder with this fence. False when a holder with a newer fence
   * has written them meanwhile: this worker lost the connection and must stop.
   */
  writeCreds: (creds: unknown, fence: number) => Promise<boolean>;
  keys: {
    /** The stored keys of one type among `ids`; missing ids are left out. */
    get: (type: string, ids: string[]) => Promise<Record<string, unknown>>;
    /** Writes and deletes keys (`null` values), in batches of 25. */
    set: (changes: SignalKeyChanges) => Promise<void>;
  };
  /** Deletes the credentials and every key (logout, new QR, deleted connection). Returns how many. */
  clear: () => Promise<number>;
}

/** A newer lease holder wrote the credentials. Never leaves this module. */
class StaleFence extends DomainError {
  constructor() {
    super(409, 'ERR_CONFLICT', 'The credentials belong to a newer lease holder');
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Key = { pk: string; sk: string };
/** BatchWrite in chunks of 25, retrying unprocessed items with a growing pause. */
const batchWrite = (requests: WriteRequest[]): Promise<void> => batchWriteAll(requests, UNPROCESSED_ROUNDS);

const batchGet = async (keys: Key[]): Promise<Record<string, unknown>[]> => {
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += GET_CHUNK) {
    let pending: Key[] = keys.slice(i, i + GET_CHUNK);
    for (let round = 0; pending.length > 0; round += 1) {
      if (round >= UNPROCESSED_ROUNDS) throw new Error('BatchGet left auth-state keys unprocessed after retries');
      if (round > 0) await sleep(50 * 2 ** round);
      const request = pending;
      const out = await mapDynamoErrors(() =>
        db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: request, ConsistentRead: true } } })),
      );
      found.push(...((out.Responses?.[tableName()] ?? []) as Record<string, unknown>[]));
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[];
    }
  }
  return found;
};

/** Every item key of one auth partition (keys only), page by page. */
const partitionKeys = async (pk: string): Promise<Key[]> =>
  (await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true,
  })) as Key[];

/** The auth state of one connection, with the session implementation's codec. */
export const authStateStore = (companyId: number, whatsappId: number, codec: AuthStateCodec = {}): AuthStateStore => {
  const encode = (value: unknown): string =>
    JSON.stringify(value, codec.replacer as ((this: unknown, key: string, value: unknown) => unknown) | undefined);
  const decode = (text: unknown): unknown =>
    JSON.parse(String(text), codec.reviver as ((this: unknown, key: string, value: unknown) => unknown) | undefined);

  return {
    readCreds: async () => {
      const out = await mapDynamoErrors(() =>
        db().send(
          new GetCommand({ TableName: tableName(), Key: credsKeys(companyId, whatsappId), ConsistentRead: true }),
        ),
      );
      return out.Item ? decode(out.Item.value) : null;
    },

    writeCreds: async (creds, fence) => {
      try {
        await mapDynamoErrors(
          () =>
            db().send(
              new PutCommand({
                TableName: tableName(),
                Item: {
                  ...credsKeys(companyId, whatsappId),
                  type: 'WA_CREDS',
                  companyId,
                  whatsappId,
                  value: encode(creds),
                  fence,
                  updatedAt: new Date().toISOString(),
                },
                ConditionExpression: 'attribute_not_exists(fence) OR fence <= :fence',
                ExpressionAttributeValues: { ':fence': fence },
              }),
            ),
          () => new StaleFence(),
        );
        return true;
      } catch (err) {
        if (err instanceof StaleFence) return false;
        throw err;
      }
    },

    keys: {
      get: async (type, ids) => {
        const unique = [...new Set(ids)];
        const items = await batchGet(unique.map((id) => signalKeyKeys(companyId, whatsappId, type, id)));
        const prefix = `${type}#`;
        const found: Record<string, unknown> = {};
        for (const item of items) found[String(item.sk).slice(prefix.length)] = decode(item.value);
        return found;
      },
      set: async (changes) => {
        // One request per key (the last change wins): BatchWrite refuses two requests for the same key.
        const requests = new Map<string, WriteRequest>();
        for (const [type, values] of Object.entries(changes)) {
          for (const [id, value] of Object.entries(values ?? {})) {
            const key = signalKeyKeys(companyId, whatsappId, type, id);
            requests.set(
              `${key.pk}|${key.sk}`,
              value === null || value === undefined
                ? { DeleteRequest: { Key: key } }
                : { PutRequest: { Item: { ...key, type: 'WA_KEY', value: encode(value) } } },
            );
          }
        }
        await batchWrite([...requests.values()]);
      },
    },

    clear: async () => {
      const buckets = Array.from({ length: AUTH_BUCKETS }, (_, b) => authPartition(companyId, whatsappId, b));
      const keys = (await Promise.all(buckets.map(partitionKeys))).flat();
      await batchWrite(keys.map((Key) => ({ DeleteRequest: { Key } })));
      return keys.length;
    },
  };
};
