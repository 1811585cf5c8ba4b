import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ErrorBody } from '../../contracts/errors';
import { DomainError, ServiceUnavailable } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';

const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
]);

/** Network failures on the way to a dependency (a queue, the table, a bucket): worth a retry. */
const NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

/**
 * A dependency that is slow or down for a moment — throttled, timed out, unreachable, or answering with
 * its own server fault (the AWS SDK's `$fault: 'server'`): the caller gets a 503 with Retry-After, which
 * says "nothing went wrong with your request, try again", instead of a 500.
 */
const isTransient = (err: unknown): boolean => {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { $fault?: string; code?: string; cause?: unknown };
  return (
    THROTTLING.has(e.name) ||
    e.name === 'TimeoutError' ||
    e.$fault === 'server' ||
    NETWORK.has(e.code ?? '') ||
    NETWORK.has((e.cause as { code?: string } | undefined)?.code ?? '')
  );
};

export const toErrorResponse = (err: unknown, requestId?: string): APIGatewayProxyStructuredResultV2 => {
  const domain = err instanceof DomainError ? err : isTransient(err) ? new ServiceUnavailable() : null;
  if (domain instanceof ServiceUnavailable && !(err instanceof DomainError)) {
    logger.warn('dependency unavailable', { requestId, ...errorFields(err) });
  }
  if (!domain) {
    logger.error('unhandled error', { requestId, ...errorFields(err) });
    const body: ErrorBody = { error: 'ERR_INTERNAL', message: 'Internal error', ...(requestId ? { requestId } : {}) };
    return {
      statusCode: 500,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
    };
  }
  const body: ErrorBody = {
    error: domain.code,
    message: domain.message,
    ...(domain.fields ? ({ fields: domain.fields } satisfies Partial<ErrorBody>) : {}),
    ...(domain.details ? ({ details: domain.details } satisfies Partial<ErrorBody>) : {}),
  };
  return {
    statusCode: domain.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...domain.headers },
    body: JSON.stringify(body),
  };
};

/** Registered last so it wraps the whole stack: the one place errors become HTTP answers. */
export const errorMapper = (): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => ({
  onError: async (request) => {
    request.response = toErrorResponse(request.error, request.event.requestContext?.requestId);
  },
});
