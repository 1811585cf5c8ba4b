import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';

/**
 * Quick message (quick reply; docs/data-model.md §2.20, §3.10; decisions D58–D59):
 * `pk = C#<c>#QUICKMSG, sk = QUICKMSG#<pad id>`, listed by shortcode on gsi1 `C#<c>#QUICKMSG` →
 * `<searchForm shortcode>#<pad id>`. `mediaPath` holds the attachment's media key
 * (`c/<c>/quick-messages/<id>/<uuid>.<ext>`), `mediaName` the file name people see.
 */
export interface QuickMessage {
  id: number;
  companyId: number;
  shortcode: string;
  message: string;
  /** Shared with everyone in the company. */
  geral: boolean;
  /** Others may use it but only its owner may change it (D59). */
  visao: boolean;
  status: boolean;
  userId: number;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
}

export const quickMessagePartition = (companyId: number): string => `${company(companyId)}#QUICKMSG`;
export const quickMessageKeys = (companyId: number, id: number) => ({
  pk: quickMessagePartition(companyId),
  sk: `QUICKMSG#${pad(id)}`,
});
const indexKeys = (q: Pick<QuickMessage, 'companyId' | 'id' | 'shortcode'>) => ({
  gsi1pk: quickMessagePartition(q.companyId),
  gsi1sk: `${searchForm(q.shortcode)}#${pad(q.id)}`,
});

const toQuickMessage = (item: Record<string, unknown>): QuickMessage => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, type: _t, ...rest } = item;
  return rest as unknown as QuickMessage;
};

/** Who may see a reply: shared ones everybody, the others only their owner (D58). */
const visibleTo = (userId: number) => ({
  expression: '#geral = :true OR #userId = :me',
  names: { '#geral': 'geral', '#userId': 'userId' },
  values: { ':true': true, ':me': userId },
});

export type NewQuickMessage = Pick<QuickMessage, 'shortcode' | 'message' | 'geral' | 'visao' | 'status' | 'userId'>;

export const createQuickMessage = async (companyId: number, input: NewQuickMessage): Promise<QuickMessage> => {
  const id = await nextId(companyId, 'quickMessage');
  const now = new Date().toISOString();
  const q: QuickMessage = { ...input, mediaPath: null, mediaName: null, id, companyId, createdAt: now, updatedAt: now };
  await createItem({ ...quickMessageKeys(companyId, id), ...indexKeys(q), type: 'QUICKMSG', ...q });
  return q;
};

export const getQuickMessage = async (companyId: number, id: number): Promise<QuickMessage | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: quickMessageKeys(companyId, id), ConsistentRead: true })),
  );
  return out.Item ? toQuickMessage(out.Item) : null;
};

const changedMeanwhile = () => new Conflict('ERR_CONFLICT', 'The quick reply changed meanwhile, reload it');

export type QuickMessageChanges = Partial<
  Pick<QuickMessage, 'shortcode' | 'message' | 'geral' | 'visao' | 'status' | 'mediaPath' | 'mediaName'>
>;

/**
 * Applies changes conditional on the reply being as the caller read it (`updatedAt`): the permission the
 * service checked on that read (D59) still holds when the write lands. 409 ERR_CONFLICT otherwise.
 */
export const updateQuickMessage = async (
  current: QuickMessage,
  changes: QuickMessageChanges,
): Promise<QuickMessage> => {
  const next: QuickMessage = { ...current, ...changes, updatedAt: new Date().toISOString() };
  const fields: Record<string, unknown> = { ...changes, updatedAt: next.updatedAt, ...indexKeys(next) };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':seen': current.updatedAt };
  const sets = Object.entries(fields).map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    return `#f${i} = :f${i}`;
  });
  await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: quickMessageKeys(current.companyId, current.id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      ),
    changedMeanwhile,
  );
  return next;
};

export const deleteQuickMessage = async (current: QuickMessage): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: quickMessageKeys(current.companyId, current.id),
          ConditionExpression: 'attribute_exists(pk) AND updatedAt = :seen',
          ExpressionAttributeValues: { ':seen': current.updatedAt },
        }),
      ),
    changedMeanwhile,
  );
};

/** A page of the replies `userId` may see, by shortcode, optionally by shortcode prefix. O(page). */
export const listQuickMessages = async (
  companyId: number,
  q: { userId: number; search?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<QuickMessage>> => {
  const partition = quickMessagePartition(companyId);
  const prefix = q.search ? searchForm(q.search) : '';
  const page = await queryPage<Record<string, unknown>>({
    scope: `${partition}#${pad(q.userId)}#${prefix}`,
    index: 'gsi1',
    partition,
    sortPrefix: prefix || undefined,
    limit: q.limit,
    cursor: q.cursor,
    filter: visibleTo(q.userId),
  });
  return { ...page, items: page.items.map(toQuickMessage) };
};

/** Every reply `userId` may see (the composer's list), by shortcode; at most `cap`. */
export const listAllQuickMessages = async (companyId: number, userId: number, cap = 1000): Promise<QuickMessage[]> => {
  const filter = visibleTo(userId);
  const found: QuickMessage[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          FilterExpression: filter.expression,
          ExpressionAttributeNames: filter.names,
          ExpressionAttributeValues: { ':pk': quickMessagePartition(companyId), ...filter.values },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    found.push(...(out.Items ?? []).map(toQuickMessage));
    startKey = out.LastEvaluatedKey;
  } while (startKey && found.length < cap);
  return found.slice(0, cap);
};

export const quickMessageNotFound = () => new NotFound('ERR_NO_QUICKMESSAGE_FOUND', 'Quick reply not found');
