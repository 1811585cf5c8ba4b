import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, type DomainError } from '../shared/errors';
import { db, tableName } from './client';
import { transactWrite } from './transactions';
import { mapDynamoErrors, type ConditionalFailure } from './errors';

/**
 * Creating items that must not exist yet: one conditional Put, or several in one transaction when an
 * entity comes with guard items (unique e-mail, unique queue colour, ...). Either every item is written or
 * none is, and a taken key becomes the caller's domain Conflict.
 */
type Item = Record<string, unknown> & { pk: string; sk: string };

export const createItem = async (
  item: Item,
  onConflict: (f: ConditionalFailure) => DomainError = () => new Conflict(),
): Promise<void> => {
  await mapDynamoErrors(
    () =>
      db().send(
        new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
      ),
    onConflict,
  );
};

export const createItemsTogether = async (
  items: Item[],
  onConflict: (f: ConditionalFailure) => DomainError = () => new Conflict(),
): Promise<void> => {
  await transactWrite(
    items.map((Item) => ({
      Put: { Item, ConditionExpression: 'attribute_not_exists(pk)' },
    })),
    onConflict,
  );
};
