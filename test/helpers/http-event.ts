import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { buildHttpEvent, selectRoute } from '../../infra/local/http-api';
import { createLambdaContext } from '../../infra/local/lambda-context';
import { API_BASE } from '../../functions/http/route-matcher';

/**
 * The API Gateway v2 event a deployed HTTP API would send, built by the local gateway's own event
 * builder, for tests that call an area handler directly (fault injection, unit tests of the stack).
 */
export const httpEvent = (
  method: string,
  path: string,
  init: { body?: string | object; headers?: Record<string, string>; query?: Record<string, string> } = {},
): APIGatewayProxyEventV2 => {
  const rawPath = `${API_BASE}${path}`;
  const query = new URLSearchParams(init.query ?? {}).toString();
  const body = init.body === undefined ? '' : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const headers = { host: 'localhost', 'content-type': 'application/json', 'user-agent': 'vitest', ...init.headers };
  return buildHttpEvent(
    {
      method,
      target: query ? `${rawPath}?${query}` : rawPath,
      rawHeaders: Object.entries(headers).flat(),
      body: Buffer.from(body, 'utf8'),
      sourceIp: '127.0.0.1',
      protocol: 'HTTP/1.1',
    },
    selectRoute(method, rawPath),
  );
};

export const lambdaContext = (): Context =>
  createLambdaContext({ functionName: 'zapdesk-test', timeoutMs: 30_000, region: 'us-east-1' });
