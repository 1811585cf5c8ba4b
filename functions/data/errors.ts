import { unmarshall } from '@aws-sdk/util-dynamodb';
import { Conflict, DomainError, ServiceUnavailable } from '../shared/errors';

/**
 * Turns DynamoDB SDK errors into domain errors, so services never see SDK types.
 * Conditional failures become the Conflict the caller names; throttling becomes a retryable 503.
 */
const THROTTLING = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

export interface ConditionalFailure {
  /** The item as it was when the condition failed, if the write asked for ALL_OLD. */
  item?: Record<string, unknown>;
  /** Per transaction item reason codes (`ConditionalCheckFailed`, `None`, ...). */
  reasons?: (string | undefined)[];
}

export const isConditionalFailure = (err: unknown): boolean =>
  err instanceof Error &&
  (err.name === 'ConditionalCheckFailedException' ||
    (err.name === 'TransactionCanceledException' &&
      ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).some(
        (r) => r.Code === 'ConditionalCheckFailed',
      )));

/**
 * The document client does not unmarshall the old item a failed transaction reports (`CancellationReasons`
 * keep DynamoDB's `{N: '5'}` form): turn such an item into plain values.
 */
const TYPES = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS']);
const plain = (item: Record<string, unknown>): Record<string, unknown> => {
  const marshalled = Object.values(item).every(
    (v) => typeof v === 'object' && v !== null && Object.keys(v).length === 1 && TYPES.has(Object.keys(v)[0]!),
  );
  return marshalled ? unmarshall(item as Parameters<typeof unmarshall>[0]) : item;
};

export const conditionalFailure = (err: unknown): ConditionalFailure => {
  const e = err as {
    Item?: Record<string, unknown>;
    CancellationReasons?: { Code?: string; Item?: Record<string, unknown> }[];
  };
  const failed = e.CancellationReasons?.find((r) => r.Code === 'ConditionalCheckFailed');
  const item = e.Item ?? failed?.Item;
  return {
    ...(item ? { item: plain(item) } : {}),
    ...(e.CancellationReasons ? { reasons: e.CancellationReasons.map((r) => r.Code) } : {}),
  };
};

/**
 * Runs a DynamoDB call; a failed condition becomes `onConflict(failure)` (a domain error), throttling a
 * 503, anything else is rethrown for the edge to log once.
 */
export const mapDynamoErrors = async <T>(
  call: () => Promise<T>,
  onConflict: (failure: ConditionalFailure) => DomainError = () => new Conflict(),
): Promise<T> => {
  try {
    return await call();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (isConditionalFailure(err)) throw onConflict(conditionalFailure(err));
    if (err instanceof Error && THROTTLING.has(err.name)) throw new ServiceUnavailable();
    if (err instanceof Error && err.name === 'TransactionCanceledException') {
      const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      if (reasons.some((r) => r.Code === 'ThrottlingError' || r.Code === 'TransactionConflict'))
        throw new ServiceUnavailable();
    }
    throw err;
  }
};
