import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod';
import type { ZodType } from 'zod';
import type { AuthContext } from '../shared/auth-context';
import {
  BadRequest,
  Forbidden,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  Unauthorized,
  ValidationError,
} from '../shared/errors';
import type { FieldError } from '../shared/errors';
import { routesOfArea, routeKey, type Area, type RouteDef } from '../routes';
import { startEntryPoint } from '../realtime/entry-point';
import { resolveCaller, verifiedToken } from './authenticate';
import { accessLog } from './middleware/access-log';
import { errorMapper } from './middleware/error-mapper';
import { API_BASE, matchRoute } from './route-matcher';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** Default JSON body limit; a route may raise or lower it with `maxBodyBytes`. */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** Null exactly on `auth: 'public'` routes (they never resolve a caller, token or not). */
  auth: AuthContext | null;
  event: HttpEvent;
  requestId: string;
  sourceIp: string;
}

/** A handler's answer: a plain value becomes 200 JSON; `respond()` sets status, headers and cookies. */
export interface Reply {
  readonly __reply: true;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: string[];
  /** Sent as is instead of JSON (text/plain unless `headers` say otherwise), e.g. a webhook's challenge. */
  text?: string;
}

export const respond = (
  status: number,
  body?: unknown,
  extra: Pick<Reply, 'headers' | 'cookies' | 'text'> = {},
): Reply => ({
  __reply: true,
  status,
  ...(body === undefined ? {} : { body }),
  ...extra,
});

/** A file part of a multipart/form-data body, as the route's body schema receives it. */
export interface UploadedFile {
  readonly kind: 'file';
  filename: string;
  /** What the browser claimed; services check the bytes, not this. */
  contentType: string;
  bytes: Buffer;
}

export const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' && value !== null && (value as UploadedFile).kind === 'file';

export interface RouteHandler<P = unknown, Q = unknown, B = unknown> {
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  maxBodyBytes?: number;
  /**
   * `multipart`: the body is multipart/form-data (uploads, as the spec's calls send them); the body schema
   * gets an object of its fields, text parts as strings and file parts as `UploadedFile`. `raw`: the body
   * schema gets the bytes as sent (a Buffer, or undefined when empty), whatever the content type — for
   * webhooks that sign the exact bytes (Meta's `X-Hub-Signature-256`). Default `json`.
   */
  bodyType?: 'json' | 'multipart' | 'raw';
  /**
   * Multipart fields that may come several times (the spec's `POST /files/uploadList/{id}` sends `files`,
   * `id`, `name` and `mediaType` once per file): the body schema gets each as an array of its parts, in
   * order, even when sent once. Any other field keeps one value, the last part of its name.
   */
  repeatedParts?: readonly string[];
  handle: (input: RouteInput<P, Q, B>) => Promise<unknown>;
}

/** Typed helper: the schemas infer the handler's input types. */
export const defineRoute = <P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  def: RouteHandler<P, Q, B>,
): RouteHandler<P, Q, B> => def;

export type AreaHandlers = Record<string, RouteHandler<any, any, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any

const toFieldErrors = (where: 'params' | 'query' | 'body', error: z.ZodError): FieldError[] =>
  error.issues.map((issue) => ({
    field: [where, ...issue.path.map(String)].join('.'),
    reason: issue.message,
  }));

const parsePart = <T>(where: 'params' | 'query' | 'body', schema: ZodType<T> | undefined, value: unknown): T => {
  if (!schema) return (value ?? {}) as T;
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(toFieldErrors(where, result.error));
  return result.data;
};

const unsupportedMediaType = (expected: string) =>
  new BadRequest('ERR_UNSUPPORTED_MEDIA_TYPE', `Content-Type must be ${expected}`, [
    { field: 'headers.content-type', reason: `expected ${expected}` },
  ]);

/** Parses multipart/form-data with the runtime's own parser (undici's, in Node 20 and 22). */
type FormValue = string | UploadedFile;

const readMultipart = async (
  raw: Buffer,
  contentType: string,
  repeated: ReadonlySet<string>,
): Promise<Record<string, FormValue | FormValue[]>> => {
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new BadRequest('ERR_MALFORMED_BODY', 'Malformed multipart body', [
      { field: 'body', reason: 'not valid multipart/form-data' },
    ]);
  }
  const fields: Record<string, FormValue | FormValue[]> = {};
  for (const name of repeated) fields[name] = [];
  for (const [name, value] of form) {
    const part: FormValue =
      typeof value === 'string'
        ? value
        : {
            kind: 'file',
            filename: value.name,
            contentType: value.type,
            bytes: Buffer.from(await value.arrayBuffer()),
          };
    if (repeated.has(name)) (fields[name] as FormValue[]).push(part);
    else fields[name] = part;
  }
  return fields;
};

const readBody = async (
  event: HttpEvent,
  limit: number,
  bodyType: 'json' | 'multipart' | 'raw',
  repeated: ReadonlySet<string> = new Set(),
): Promise<unknown> => {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
  if (raw.byteLength > limit) throw new PayloadTooLarge(limit);
  if (bodyType === 'raw') return raw;
  const contentType = event.headers?.['content-type'] ?? (bodyType === 'json' ? 'application/json' : '');
  if (bodyType === 'multipart') {
    if (!contentType.toLowerCase().startsWith('multipart/form-data')) throw unsupportedMediaType('multipart/form-data');
    return readMultipart(raw, contentType, repeated);
  }
  if (!contentType.toLowerCase().includes('json')) throw unsupportedMediaType('application/json');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BadRequest('ERR_MALFORMED_JSON', 'Malformed JSON body', [{ field: 'body', reason: 'not valid JSON' }]);
  }
};

/** Checks a route's auth level and plan flag against the caller (the services refine further). */
export const authorize = (route: Pick<RouteDef, 'auth' | 'planFlag'>, auth: AuthContext | null): void => {
  if (route.auth === 'public') return;
  if (!auth) throw new Unauthorized('ERR_SESSION_EXPIRED', 'Authentication required');
  if (route.auth === 'super' && !auth.super) throw new Forbidden();
  if (route.auth === 'admin' && auth.profile !== 'admin' && !auth.super) throw new Forbidden();
  if (route.planFlag && auth.planFlags[route.planFlag] === false) throw new Forbidden();
};

const toResult = (value: unknown): HttpResult => {
  const reply: Reply =
    value && typeof value === 'object' && (value as Reply).__reply === true ? (value as Reply) : respond(200, value);
  const text = reply.text !== undefined;
  return {
    statusCode: reply.status,
    headers: {
      ...(text
        ? { 'content-type': 'text/plain; charset=utf-8' }
        : reply.body === undefined
          ? {}
          : { 'content-type': 'application/json; charset=utf-8' }),
      'cache-control': 'no-store',
      ...reply.headers,
    },
    ...(reply.cookies ? { cookies: reply.cookies } : {}),
    body: text ? reply.text : reply.body === undefined ? '' : JSON.stringify(reply.body),
  };
};

const invokeRoute = async (route: RouteDef, def: RouteHandler, event: HttpEvent): Promise<HttpResult> => {
  const claims = await verifiedToken(event, route);
  const body = await readBody(
    event,
    def.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    def.bodyType ?? 'json',
    new Set(def.repeatedParts),
  );
  const params = parsePart('params', def.params, event.pathParameters ?? {});
  const query = parsePart('query', def.query, event.queryStringParameters ?? {});
  const parsedBody = parsePart('body', def.body, body);
  const auth = await resolveCaller(claims, route);
  authorize(route, auth);
  const input: RouteInput<unknown, unknown, unknown> = {
    params,
    query,
    body: parsedBody,
    auth,
    event,
    requestId: event.requestContext.requestId,
    sourceIp: event.requestContext.http.sourceIp,
  };
  return toResult(await def.handle(input));
};

interface RestEvent {
  httpMethod: string;
  resource: string;
  path: string;
  headers?: Record<string, string | undefined> | null;
  queryStringParameters?: Record<string, string | undefined> | null;
  pathParameters?: Record<string, string | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
  requestContext: { requestId: string; identity?: { sourceIp?: string; userAgent?: string } };
}

/**
 * The external messages API is an API Gateway REST API (usage plans and API keys), which sends payload
 * 1.0 events. They are turned into the 2.0 shape once, here, so every route handler sees one shape.
 */
export const toHttpEventV2 = (event: HttpEvent | RestEvent): HttpEvent => {
  if ((event as HttpEvent).version === '2.0' || !('httpMethod' in event)) return event as HttpEvent;
  const headers = Object.fromEntries(
    Object.entries(event.headers ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [[k.toLowerCase(), v]])),
  );
  const query = Object.entries(event.queryStringParameters ?? {}).filter(
    (e): e is [string, string] => e[1] !== undefined,
  );
  const routeKey = `${event.httpMethod} ${event.resource}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: event.path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers,
    ...(query.length > 0 ? { queryStringParameters: Object.fromEntries(query) } : {}),
    ...(event.pathParameters ? { pathParameters: event.pathParameters } : {}),
    ...(event.body ? { body: event.body } : {}),
    isBase64Encoded: event.isBase64Encoded ?? false,
    requestContext: {
      accountId: '',
      apiId: '',
      domainName: headers.host ?? '',
      domainPrefix: '',
      http: {
        method: event.httpMethod,
        path: event.path,
        protocol: 'HTTP/1.1',
        sourceIp: event.requestContext.identity?.sourceIp ?? '',
        userAgent: event.requestContext.identity?.userAgent ?? '',
      },
      requestId: event.requestContext.requestId,
      routeKey,
      stage: '',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
  };
};

/**
 * Builds an area's Lambda handler. API Gateway has already matched the request to a route and put its
 * key in `event.routeKey` (`GET /api/users/{id}`), so dispatch is a map lookup; requests that reach an
 * area without one of its route keys (the `$default` route) get the table-wide 404 or 405.
 */
export const createAreaHandler = (area: Area, handlers: AreaHandlers) => {
  startEntryPoint();
  const byRouteKey = new Map<string, { route: RouteDef; def: RouteHandler }>();
  for (const route of routesOfArea(area)) {
    const def = handlers[route.handler];
    if (!def) throw new Error(`Route ${routeKey(route)} names missing handler '${route.handler}' in area '${area}'`);
    byRouteKey.set(`${route.method} ${API_BASE}${route.path}`, { route, def: def as RouteHandler });
  }

  const dispatch = async (incoming: HttpEvent, _context: Context): Promise<HttpResult> => {
    const event = toHttpEventV2(incoming);
    const entry = byRouteKey.get(event.routeKey);
    if (entry) return invokeRoute(entry.route, entry.def, event);
    const match = matchRoute(event.requestContext.http.method, event.rawPath);
    if (match.kind === 'method-not-allowed') throw new MethodNotAllowed(match.allowed);
    throw new NotFound('ERR_NOT_FOUND', 'Route not found');
  };

  return middy<HttpEvent, HttpResult>(dispatch).use(accessLog()).use(errorMapper());
};
