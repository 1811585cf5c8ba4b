import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { Conflict, type DomainError } from '../shared/errors';
import { db, tableName } from './client';
import { mapDynamoErrors, type ConditionalFailure } from './errors';

/**
 * One transaction on the table (decisions D85): the items name no table (this adds it), a failed condition
 * becomes the caller's domain error (default a plain Conflict, which CHANGED_MEANWHILE retries), a
 * transaction conflict or throttling a ServiceUnavailable (which BUSY retries) — see shared/retry.ts.
 * Either every item is written or none is.
 */
type SdkItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type Op<K extends keyof SdkItem> = { [P in K]: Omit<NonNullable<SdkItem[P]>, 'TableName'> };
export type TransactItem = Op<'Put'> | Op<'Update'> | Op<'Delete'> | Op<'ConditionCheck'>;

/** DynamoDB's limit of items in one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

const withTable = (item: TransactItem | SdkItem): SdkItem => {
  const [[op, body]] = Object.entries(item) as [[keyof SdkItem, object]];
  return { [op]: { ...body, TableName: tableName() } } as SdkItem;
};

export const transactWrite = async (
  /** Items built elsewhere with the SDK's type (and its TableName) are taken as they are. */
  items: readonly (TransactItem | SdkItem)[],
  onConflict: (failure: ConditionalFailure) => DomainError = () => new Conflict(),
): Promise<void> => {
  await mapDynamoErrors(() => db().send(new TransactWriteCommand({ TransactItems: items.map(withTable) })), onConflict);
};
