import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { toErrorResponse } from '../../functions/http/middleware/error-mapper';
import { DEFAULT_ROUTE_AREA, areaEntry } from '../../functions/http/areas';
import { API_BASE, matchRoute } from '../../functions/http/route-matcher';
import { PayloadTooLarge } from '../../functions/shared/errors';
import type { Area } from '../../functions/routes';
import { loadHandler } from './handler-modules';
import { createUsagePlanThrottle, usagePlanCaller } from './usage-plan';
import {
  LOCAL_ACCOUNT_ID,
  createLambdaContext,
  gatewayTime,
  invokeWithTimeout,
  InvocationTimeout,
} from './lambda-context';

/**
 * The HTTP API half of the local gateway: turns a node:http request into the API Gateway HTTP API
 * (payload format 2.0) event the area Lambda would get in AWS, invokes the area's handler in-process and
 * writes its result back the way API Gateway does.
 */

/** API Gateway's request payload limit (HTTP APIs: 10 MB). */
export const API_GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** API Gateway's maximum integration timeout (HTTP APIs: 30 s). */
export const API_GATEWAY_TIMEOUT_MS = 30_000;

export interface HttpRequestSnapshot {
  method: string;
  /** The request target as sent: path and query, still percent-encoded. */
  target: string;
  /** node:http `rawHeaders`: [name, value, name, value, ...] in arrival order and case. */
  rawHeaders: readonly string[];
  body: Buffer;
  sourceIp: string;
  /** `HTTP/1.1` */
  protocol: string;
}

export interface RouteSelection {
  /** `GET /api/users/{id}` or `$default`. */
  routeKey: string;
  pathParameters?: Record<string, string>;
}

/** Bodies API Gateway passes as text; everything else arrives base64-encoded. */
const TEXT_CONTENT_TYPE =
  /^\s*(text\/[^;]+|application\/(json|xml|javascript|x-www-form-urlencoded|graphql)|[^;]+\+(json|xml))\s*(;|$)/i;

export const isTextBody = (contentType: string | undefined, contentEncoding: string | undefined): boolean =>
  contentType !== undefined &&
  TEXT_CONTENT_TYPE.test(contentType) &&
  (contentEncoding === undefined || contentEncoding.trim().toLowerCase() === 'identity');

/** Lower-cased header names, repeated headers joined with commas, cookies split out (API Gateway 2.0). */
const collectHeaders = (rawHeaders: readonly string[]) => {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? '').toLowerCase();
    const value = rawHeaders[i + 1] ?? '';
    if (name === 'cookie') {
      cookies.push(
        ...value
          .split(';')
          .map((c) => c.trim())
          .filter(Boolean),
      );
      continue;
    }
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  return { headers, cookies };
};

/** Repeated keys joined with commas, like API Gateway's `queryStringParameters`. */
const collectQuery = (rawQueryString: string): Record<string, string> | undefined => {
  if (!rawQueryString) return undefined;
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(rawQueryString)) {
    params[key] = key in params ? `${params[key]},${value}` : value;
  }
  return Object.keys(params).length > 0 ? params : undefined;
};

/** A trace header shaped like X-Ray's: `Root=1-<8 hex epoch>-<24 hex>`. */
const traceId = (now: Date): string =>
  `Root=1-${Math.floor(now.getTime() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;

export const buildHttpEvent = (
  req: HttpRequestSnapshot,
  route: RouteSelection,
  ids: { requestId?: string; now?: Date } = {},
): APIGatewayProxyEventV2 => {
  const now = ids.now ?? new Date();
  const queryAt = req.target.indexOf('?');
  const rawPath = queryAt === -1 ? req.target : req.target.slice(0, queryAt);
  const rawQueryString = queryAt === -1 ? '' : req.target.slice(queryAt + 1);
  const { headers, cookies } = collectHeaders(req.rawHeaders);
  const host = headers.host ?? 'localhost';
  const port = /:(\d+)$/.exec(host)?.[1] ?? '80';

  // What API Gateway adds in front of the integration.
  headers['x-forwarded-for'] = headers['x-forwarded-for']
    ? `${headers['x-forwarded-for']}, ${req.sourceIp}`
    : req.sourceIp;
  headers['x-forwarded-proto'] ??= 'http';
  headers['x-forwarded-port'] ??= port;
  headers['x-amzn-trace-id'] ??= traceId(now);

  const queryStringParameters = collectQuery(rawQueryString);
  const hasBody = req.body.byteLength > 0;
  const asText = isTextBody(headers['content-type'], headers['content-encoding']);

  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    requestContext: {
      accountId: LOCAL_ACCOUNT_ID,
      apiId: 'local',
      domainName: host,
      domainPrefix: host.split(/[.:]/)[0] ?? host,
      http: {
        method: req.method.toUpperCase(),
        path: rawPath,
        protocol: req.protocol,
        sourceIp: req.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: ids.requestId ?? randomUUID(),
      routeKey: route.routeKey,
      stage: '$default',
      time: gatewayTime(now),
      timeEpoch: now.getTime(),
    },
    ...(route.pathParameters && Object.keys(route.pathParameters).length > 0
      ? { pathParameters: route.pathParameters }
      : {}),
    ...(hasBody ? { body: asText ? req.body.toString('utf8') : req.body.toString('base64') } : {}),
    isBase64Encoded: hasBody && !asText,
  };
};

/** Which route (and so which area Lambda) API Gateway would pick for a request under /api. */
export const selectRoute = (method: string, rawPath: string): RouteSelection & { area: Area; external?: boolean } => {
  const match = matchRoute(method, rawPath);
  if (match.kind !== 'route') return { routeKey: '$default', area: DEFAULT_ROUTE_AREA };
  return {
    routeKey: `${match.route.method} ${API_BASE}${match.route.path}`,
    pathParameters: match.pathParameters,
    area: match.route.area,
    ...(match.route.external ? { external: true } : {}),
  };
};

/** The external messages API's usage plan, locally (decisions D123). */
const usagePlanAllows = createUsagePlanThrottle();

export interface GatewayResponse {
  statusCode: number;
  headers: Record<string, string>;
  /** Each becomes its own Set-Cookie header. */
  cookies: string[];
  body: Buffer;
}

class MalformedLambdaResponse extends Error {
  constructor(reason: string) {
    super(`Malformed Lambda proxy response: ${reason}`);
    this.name = 'MalformedLambdaResponse';
  }
}

/**
 * API Gateway's reading of a payload-2.0 result: an object with `statusCode` is taken as is; anything
 * else is a 200 JSON answer whose body is the value (a string is sent unchanged).
 */
export const toGatewayResponse = (result: unknown): GatewayResponse => {
  if (result === null || typeof result !== 'object' || !('statusCode' in result)) {
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      cookies: [],
      body: Buffer.from(typeof result === 'string' ? result : JSON.stringify(result ?? null), 'utf8'),
    };
  }
  const r = result as {
    statusCode: unknown;
    headers?: unknown;
    cookies?: unknown;
    body?: unknown;
    isBase64Encoded?: unknown;
  };
  if (typeof r.statusCode !== 'number' || !Number.isInteger(r.statusCode) || r.statusCode < 100 || r.statusCode > 599) {
    throw new MalformedLambdaResponse(`statusCode ${String(r.statusCode)}`);
  }
  if (r.body !== undefined && r.body !== null && typeof r.body !== 'string')
    throw new MalformedLambdaResponse('body is not a string');
  const headers: Record<string, string> = {};
  const cookies = Array.isArray(r.cookies) ? r.cookies.map(String) : [];
  for (const [name, value] of Object.entries((r.headers ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (name.toLowerCase() === 'set-cookie') cookies.push(String(value));
    else headers[name.toLowerCase()] = String(value);
  }
  const body = typeof r.body === 'string' ? r.body : '';
  return {
    statusCode: r.statusCode,
    headers,
    cookies,
    body: r.isBase64Encoded === true ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8'),
  };
};

const json = (statusCode: number, value: unknown, headers: Record<string, string> = {}): GatewayResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json', ...headers },
  cookies: [],
  body: Buffer.from(JSON.stringify(value), 'utf8'),
});

export type HttpLambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

/**
 * One invocation as API Gateway sees it: a thrown error or a malformed result is a 500 in the API's
 * error format (logged once, never a stack in the body), a timeout is API Gateway's own 503.
 */
export const invokeHttpHandler = async (
  handler: HttpLambdaHandler,
  event: APIGatewayProxyEventV2,
  fn: { functionName: string; region: string; timeoutMs?: number },
): Promise<GatewayResponse> => {
  const identity = {
    functionName: fn.functionName,
    region: fn.region,
    timeoutMs: fn.timeoutMs ?? API_GATEWAY_TIMEOUT_MS,
  };
  try {
    const result = await invokeWithTimeout(identity, () => handler(event, createLambdaContext(identity)));
    return toGatewayResponse(result);
  } catch (err) {
    if (err instanceof InvocationTimeout) return json(503, { message: 'Service Unavailable' });
    return toGatewayResponse(toErrorResponse(err, event.requestContext.requestId));
  }
};

export const writeGatewayResponse = (
  res: ServerResponse,
  response: GatewayResponse,
  extra: { method: string; requestId?: string },
): void => {
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (response.cookies.length > 0) res.setHeader('set-cookie', response.cookies);
  if (extra.requestId) res.setHeader('apigw-requestid', extra.requestId);
  res.setHeader('content-length', String(response.body.byteLength));
  res.statusCode = response.statusCode;
  res.end(extra.method === 'HEAD' ? undefined : response.body);
};

/**
 * Reads a request body up to `limit` bytes. Past the limit the rest is read and dropped (so the client
 * gets the 413 instead of a reset connection) and the result is null.
 */
export const readBody = (req: IncomingMessage, limit: number): Promise<Buffer | null> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limit) chunks.push(chunk);
      else if (size > limit * 4) req.destroy();
    });
    req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks)));
    req.on('close', () => resolve(null));
    req.on('error', reject);
  });

export const clientIp = (req: IncomingMessage): string =>
  (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');

/** Serves one request under /api: route selection, event, in-process invocation, response. */
export const handleApiRequest = async (
  req: IncomingMessage,
  res: ServerResponse,
  options: { functionPrefix: string; region: string },
): Promise<void> => {
  const requestId = randomUUID();
  const method = (req.method ?? 'GET').toUpperCase();
  const tooLarge = () =>
    writeGatewayResponse(res, toGatewayResponse(toErrorResponse(new PayloadTooLarge(API_GATEWAY_MAX_BODY_BYTES))), {
      method,
      requestId,
    });
  const body = await readBody(req, API_GATEWAY_MAX_BODY_BYTES);
  if (body === null) {
    if (!res.destroyed) tooLarge();
    return;
  }
  const target = req.url ?? '/';
  const route = selectRoute(method, target.split('?')[0] ?? target);
  if (route.external && !usagePlanAllows(usagePlanCaller(req.headers, clientIp(req)))) {
    writeGatewayResponse(res, json(429, { message: 'Too Many Requests' }), { method, requestId });
    return;
  }
  const event = buildHttpEvent(
    {
      method,
      target,
      rawHeaders: req.rawHeaders,
      body,
      sourceIp: clientIp(req),
      protocol: `HTTP/${req.httpVersion}`,
    },
    route,
    { requestId },
  );
  const functionName = `${options.functionPrefix}-http-${route.area}`;
  let response: GatewayResponse;
  try {
    const handler = await loadHandler<HttpLambdaHandler>(areaEntry(route.area));
    response = await invokeHttpHandler(handler, event, { functionName, region: options.region });
  } catch (err) {
    // The area module itself failed to load: what API Gateway shows for a broken function.
    response = toGatewayResponse(toErrorResponse(err, requestId));
  }
  writeGatewayResponse(res, response, { method, requestId });
};
