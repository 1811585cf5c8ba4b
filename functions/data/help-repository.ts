import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_HELPS } from '../contracts/helps';
import { NotFound } from '../shared/errors';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { mapDynamoErrors } from './errors';
import { pad } from './keys';

/**
 * Help entries (docs/data-model.md §1.3, §2.25; decisions D146): platform items written by the owner for
 * every company, `pk = HELP, sk = HELP#<pad id>`, ids from the platform counter `help`. The partition is
 * small (at most MAX_HELPS) and read whole, in id order.
 */
export interface Help {
  id: number;
  title: string;
  description: string;
  video: string;
  createdAt: string;
  updatedAt: string;
}

export const HELP_PARTITION = 'HELP';
export const helpKeys = (id: number) => ({ pk: HELP_PARTITION, sk: `HELP#${pad(id)}` });

const toHelp = (item: Record<string, unknown>): Help => ({
  id: Number(item.id),
  title: String(item.title),
  description: String(item.description ?? ''),
  video: String(item.video),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

export const helpNotFound = () => new NotFound('ERR_NO_HELP_FOUND', 'Help entry not found');

export const createHelp = async (input: Pick<Help, 'title' | 'description' | 'video'>): Promise<Help> => {
  const id = await nextId(null, 'help');
  const now = new Date().toISOString();
  const help: Help = { id, ...input, createdAt: now, updatedAt: now };
  await createItem({ ...helpKeys(id), type: 'HELP', ...help });
  return help;
};

export const getHelp = async (id: number): Promise<Help | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: helpKeys(id), ConsistentRead: true })),
  );
  return out.Item ? toHelp(out.Item) : null;
};

/** Every entry, by id (one Query of the small platform partition). */
export const listHelps = async (): Promise<Help[]> => {
  const found: Help[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await mapDynamoErrors(() =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': HELP_PARTITION },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      ),
    );
    found.push(...(out.Items ?? []).map(toHelp));
    startKey = out.LastEvaluatedKey;
  } while (startKey && found.length < MAX_HELPS);
  return found.slice(0, MAX_HELPS);
};

export const updateHelp = async (
  id: number,
  changes: Partial<Pick<Help, 'title' | 'description' | 'video'>>,
): Promise<Help> => {
  const fields: Record<string, unknown> = { ...changes, updatedAt: new Date().toISOString() };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(fields).map(([k, v], i) => {
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    return `#f${i} = :f${i}`;
  });
  const out = await mapDynamoErrors(
    () =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: helpKeys(id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    helpNotFound,
  );
  return toHelp(out.Attributes!);
};

export const deleteHelp = async (id: number): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new DeleteCommand({ TableName: tableName(), Key: helpKeys(id), ConditionExpression: 'attribute_exists(pk)' }),
      ),
    helpNotFound,
  );
};
