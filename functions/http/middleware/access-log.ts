import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { logger } from '../../shared/logger';
import { ROUTES } from '../../routes';
import { API_BASE } from '../route-matcher';

/** Route keys whose paths carry secrets (a reset code and a new password): logged without the path. */
const SECRET_PATH_ROUTE_KEYS = new Set(
  ROUTES.filter((r) => r.secretPath).map((r) => `${r.method} ${API_BASE}${r.path}`),
);

/**
 * One structured line per request: route, path, status and duration. No bodies, headers or tokens, and no
 * path for routes marked `secretPath`.
 */
export const accessLog = (): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => {
  const started = new WeakMap<object, number>();
  const log = (request: middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>) => {
    const t0 = started.get(request) ?? Date.now();
    logger.info('request', {
      requestId: request.event.requestContext?.requestId,
      route: request.event.routeKey,
      ...(SECRET_PATH_ROUTE_KEYS.has(request.event.routeKey) ? {} : { path: request.event.rawPath }),
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
