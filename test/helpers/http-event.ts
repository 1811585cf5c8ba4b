import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { API_BASE, matchRoute } from '../../functions/http/route-matcher';

/**
 * Builds the API Gateway v2 event a deployed HTTP API would send for a request, for unit tests that call
 * an area handler directly (integration tests go through the local gateway instead).
 */
export const httpEvent = (
  method: string,
  path: string,
  init: { body?: string | object; headers?: Record<string, string>; query?: Record<string, string> } = {},
): APIGatewayProxyEventV2 => {
  const rawPath = `${API_BASE}${path}`;
  const match = matchRoute(method, rawPath);
  const body =
    init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const rawQueryString = new URLSearchParams(init.query ?? {}).toString();
  return {
    version: '2.0',
    routeKey: match.kind === 'route' ? `${match.route.method} ${API_BASE}${match.route.path}` : '$default',
    rawPath,
    rawQueryString,
    headers: { 'content-type': 'application/json', ...init.headers },
    ...(init.query ? { queryStringParameters: init.query } : {}),
    ...(match.kind === 'route' && Object.keys(match.pathParameters).length > 0
      ? { pathParameters: match.pathParameters }
      : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'unit',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: `req-${Math.random().toString(36).slice(2)}`,
      routeKey: match.kind === 'route' ? `${match.route.method} ${API_BASE}${match.route.path}` : '$default',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: false,
  };
};

export const lambdaContext = (): Context => ({
  callbackWaitsForEmptyEventLoop: false,
  functionName: 'unit',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:unit',
  memoryLimitInMB: '512',
  awsRequestId: 'unit',
  logGroupName: 'unit',
  logStreamName: 'unit',
  getRemainingTimeInMillis: () => 30_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
});
