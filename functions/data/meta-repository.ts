import { BatchGetCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { connectionPartition, type TransactItem } from './connection-repository';
import { mapDynamoErrors } from './errors';
import { pad } from './keys';

/**
 * Meta routing and credentials (docs/data-model.md §2.9; decisions D40). Items:
 * - routing pointer `pk = META#<page | ig | waphone>#<external id>, sk = META` (companyId, whatsappId): a
 *   webhook names a page, an Instagram account or a Cloud API phone number id, and finds our connection
 *   with one Get (platform item, read only after the request's signature was checked, data-model §1.3);
 * - credentials `pk = C#<c>#WHATSAPP#<pad id>, sk = META`, the connection's own partition (kind, externalId, pageId,
 *   and the access token **encrypted** by the caller): a separate item, so no connection read, list or
 *   event can carry the token by accident.
 */
export type MetaTargetKind = 'page' | 'ig' | 'waphone';

export interface MetaTarget {
  companyId: number;
  whatsappId: number;
}

export interface MetaCredentials {
  companyId: number;
  whatsappId: number;
  kind: MetaTargetKind;
  /** The page id, Instagram account id or Cloud API phone number id. */
  externalId: string;
  /** The Facebook page an Instagram account is linked to (its page token sends for it). */
  pageId?: string;
  /** The access token, encrypted at rest (functions/shared/token-cipher.ts). */
  tokenCipher: string;
  updatedAt: string;
}

export const metaTargetKeys = (kind: MetaTargetKind, externalId: string) => ({
  pk: `META#${kind}#${externalId}`,
  sk: 'META',
});
export const metaCredentialsKeys = (companyId: number, whatsappId: number) => ({
  pk: `${connectionPartition(companyId)}#${pad(whatsappId)}`,
  sk: 'META',
});

/**
 * The writes that make a new connection a Meta target, for the connection's create transaction: the
 * routing pointer only if the page (account, number) is nobody's yet, and the credentials.
 */
export const metaLinkItems = (
  companyId: number,
  whatsappId: number,
  credentials: Omit<MetaCredentials, 'companyId' | 'whatsappId'>,
): TransactItem[] => [
  {
    Put: {
      TableName: tableName(),
      Item: {
        ...metaTargetKeys(credentials.kind, credentials.externalId),
        type: 'META',
        companyId,
        whatsappId,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  {
    Put: {
      TableName: tableName(),
      Item: {
        ...metaCredentialsKeys(companyId, whatsappId),
        type: 'META_CREDENTIALS',
        companyId,
        whatsappId,
        ...credentials,
      },
    },
  },
];

/** Where webhook targets go, one BatchGet; unknown targets are absent. Keyed `<kind>#<id>`. */
export const getMetaTargets = async (
  targets: readonly { kind: MetaTargetKind; id: string }[],
): Promise<Map<string, MetaTarget>> => {
  const found = new Map<string, MetaTarget>();
  const unique = [...new Map(targets.map((t) => [`${t.kind}#${t.id}`, t])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Record<string, unknown>[] = unique.slice(i, i + 100).map((t) => metaTargetKeys(t.kind, t.id));
    for (let round = 0; pending.length > 0; round += 1) {
      if (round >= 6) throw new Error('BatchGet left Meta targets unprocessed after retries');
      const request = pending;
      const out = await mapDynamoErrors(() =>
        db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: request } } })),
      );
      for (const item of out.Responses?.[tableName()] ?? []) {
        found.set(String(item.pk).slice('META#'.length), {
          companyId: Number(item.companyId),
          whatsappId: Number(item.whatsappId),
        });
      }
      pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
};

export const getMetaTarget = async (kind: MetaTargetKind, externalId: string): Promise<MetaTarget | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: metaTargetKeys(kind, externalId), ConsistentRead: true })),
  );
  return out.Item ? { companyId: Number(out.Item.companyId), whatsappId: Number(out.Item.whatsappId) } : null;
};

export const getMetaCredentials = async (companyId: number, whatsappId: number): Promise<MetaCredentials | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: metaCredentialsKeys(companyId, whatsappId) })),
  );
  if (!out.Item) return null;
  const { pk: _pk, sk: _sk, type: _t, ...rest } = out.Item;
  return rest as MetaCredentials;
};

/** A reconnect (a new login): the new encrypted token; nothing when the connection is gone. */
export const setMetaToken = async (companyId: number, whatsappId: number, tokenCipher: string): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: metaCredentialsKeys(companyId, whatsappId),
          UpdateExpression: 'SET tokenCipher = :t, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':t': tokenCipher, ':now': new Date().toISOString() },
        }),
      ),
    () => new NotFound('ERR_NO_WAPP_FOUND', 'Connection not found'),
  );
};

/**
 * Removes a deleted connection's pointer (only while it still points at that connection) and credentials.
 * Nothing to remove is fine.
 */
export const deleteMetaLink = async (companyId: number, whatsappId: number): Promise<void> => {
  const credentials = await getMetaCredentials(companyId, whatsappId);
  if (!credentials) return;
  await transactWrite(
    [
      { Delete: { Key: metaCredentialsKeys(companyId, whatsappId) } },
      {
        Delete: {
          Key: metaTargetKeys(credentials.kind, credentials.externalId),
          ConditionExpression: 'attribute_not_exists(pk) OR (companyId = :c AND whatsappId = :w)',
          ExpressionAttributeValues: { ':c': companyId, ':w': whatsappId },
        },
      },
    ],
    () => new Conflict('ERR_CONFLICT', 'The Meta target belongs to another connection'),
  );
};
