import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { logger } from '../../core/logger';

/** One structured line per request: route, status and duration. No bodies, headers or tokens. */
export const accessLog = (): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => {
  const started = new WeakMap<object, number>();
  const log = (request: middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>) => {
    const t0 = started.get(request) ?? Date.now();
    logger.info('request', {
      requestId: request.event.requestContext?.requestId,
      route: request.event.routeKey,
      path: request.event.rawPath,
      status: request.response?.statusCode,
      ms: Date.now() - t0,
    });
  };
  return {
    before: async (request) => {
      started.set(request, Date.now());
    },
    after: async (request) => log(request),
    onError: async (request) => {
      // The error mapper (registered after this) has already set the response when this runs.
      log(request);
    },
  };
};
