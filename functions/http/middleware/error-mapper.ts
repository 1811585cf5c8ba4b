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

export const toErrorResponse = (err: unknown, requestId?: string): APIGatewayProxyStructuredResultV2 => {
  const domain =
    err instanceof DomainError
      ? err
      : err instanceof Error && THROTTLING.has(err.name)
        ? new ServiceUnavailable()
        : null;
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
