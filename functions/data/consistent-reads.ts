import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { mapDynamoErrors } from './errors';

/**
 * Consistent single-item reads, coalesced (decisions D82): every `consistentGet` asked for in the same
 * turn of the event loop goes out as one BatchGetItem (up to 100 keys; more in several), so the inbound
 * job's parallel runs — each reading its contact's identities, its contact, its open-ticket guard and its
 * ticket — cost four requests per batch instead of four per chat. A turn with one read sends a GetItem.
 * The answer is what a GetItem with ConsistentRead would give at that moment; an error fails every read
 * of its request, as it would have failed each.
 */
export type ItemKey = { pk: string; sk: string };
type Item = Record<string, unknown>;

interface Waiter {
  key: ItemKey;
  resolve: (item: Item | undefined) => void;
  reject: (err: unknown) => void;
}

const BATCH_LIMIT = 100;
const UNPROCESSED_ATTEMPTS = 8;

let waiting: Waiter[] = [];
let scheduled = false;

const keyOf = (k: ItemKey): string => `${k.pk}\u0000${k.sk}`;

const readOne = async (key: ItemKey): Promise<Item | undefined> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true })),
  );
  return out.Item;
};

/** One BatchGet of ≤ 100 distinct keys, retrying the keys DynamoDB left unprocessed (with backoff). */
const readMany = async (keys: ItemKey[]): Promise<Map<string, Item>> => {
  const found = new Map<string, Item>();
  const table = tableName();
  let pending: ItemKey[] = keys;
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt >= UNPROCESSED_ATTEMPTS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
    if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    const out = await mapDynamoErrors(() =>
      db().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } })),
    );
    for (const item of out.Responses?.[table] ?? []) {
      found.set(keyOf({ pk: String(item.pk), sk: String(item.sk) }), item);
    }
    pending = (out.UnprocessedKeys?.[table]?.Keys ?? []) as ItemKey[];
  }
  return found;
};

const flush = (): void => {
  scheduled = false;
  const batch = waiting;
  waiting = [];
  const distinct = new Map<string, ItemKey>();
  for (const w of batch) distinct.set(keyOf(w.key), w.key);
  const keys = [...distinct.values()];
  for (let i = 0; i < keys.length; i += BATCH_LIMIT) {
    const chunk = keys.slice(i, i + BATCH_LIMIT);
    const mine = new Set(chunk.map(keyOf));
    const waiters = batch.filter((w) => mine.has(keyOf(w.key)));
    const read =
      chunk.length === 1
        ? readOne(chunk[0]!).then((item) => new Map(item ? [[keyOf(chunk[0]!), item]] : []))
        : readMany(chunk);
    read.then(
      (found) => {
        for (const w of waiters) w.resolve(found.get(keyOf(w.key)));
      },
      (err: unknown) => {
        for (const w of waiters) w.reject(err);
      },
    );
  }
};

/** The item under `key`, read consistently together with the other reads of this turn; undefined if none. */
export const consistentGet = (key: ItemKey): Promise<Item | undefined> =>
  new Promise((resolve, reject) => {
    waiting.push({ key, resolve, reject });
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });

/**
 * Consistent reads asked for before the code that needs them gets there (decisions D84), so they share a
 * request with reads of the same turn: the inbound job reads its batch's provider ids and its chats'
 * contact identities together, then each chat's contact and its open-ticket guard together — instead of
 * one after another. A read ahead is used once, by the first reader of its key that was handed this
 * object; any later read of that key goes to the table again. One per inbound batch, never shared.
 */
export class ReadAhead {
  private readonly reads = new Map<string, Promise<Item | undefined>>();

  /** Starts a consistent read of `key` in this turn (at most once per key). */
  prefetch(key: ItemKey): void {
    const id = keyOf(key);
    if (this.reads.has(id)) return;
    const read = consistentGet(key);
    read.catch(() => undefined); // a read nobody takes must not be an unhandled rejection
    this.reads.set(id, read);
  }

  /** The read ahead of `key`, handed over once; undefined when there is none (left). */
  take(key: ItemKey): Promise<Item | undefined> | undefined {
    const id = keyOf(key);
    const read = this.reads.get(id);
    if (read) this.reads.delete(id);
    return read;
  }
}

/** `consistentGet`, or the read `readAhead` started for this key earlier in the same batch. */
export const consistentGetAhead = (key: ItemKey, readAhead?: ReadAhead): Promise<Item | undefined> =>
  readAhead?.take(key) ?? consistentGet(key);
