import { ApiError } from './api-error';
import { session as browserSession, type Session, type SessionAnswer } from './session';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One request as the adapter sends it: path relative to the API base, query already stringified. */
export interface HttpRequest {
  method: HttpMethod;
  path: string;
  headers: Record<string, string>;
  query?: Record<string, string>;
  /** A JSON value or FormData (multipart uploads). */
  body?: unknown;
  /** Send cookies even cross-origin (the refresh call; same-origin requests send them anyway). */
  withCredentials?: boolean;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Parsed JSON, or the raw text when the answer is not JSON, or undefined when empty. */
  body: unknown;
}

/**
 * Sends one request and resolves with whatever HTTP answer arrives, errors included; rejects only when no
 * answer arrived (ApiError with status 0) or the caller aborted (DOMException `AbortError`).
 * The production adapter is Amplify's REST client (amplify-adapter.ts); tests pass their own.
 */
export type HttpAdapter = (request: HttpRequest) => Promise<HttpResponse>;

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

export interface Transport {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  put<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
  /**
   * Renews the access token now (the refresh cookie), sharing a refresh already under way; true when a new
   * token was stored. The socket calls it before reconnecting with an expired or refused token.
   */
  refreshSession(): Promise<boolean>;
}

export const REFRESH_PATH = '/auth/refresh_token';

const stringifyQuery = (query: Record<string, QueryValue> | undefined): Record<string, string> | undefined => {
  if (!query) return undefined;
  const entries = Object.entries(query).filter((e): e is [string, string | number | boolean] => e[1] != null);
  return entries.length > 0 ? Object.fromEntries(entries.map(([k, v]) => [k, String(v)])) : undefined;
};

const isSessionAnswer = (body: unknown): body is SessionAnswer =>
  typeof body === 'object' && body !== null && typeof (body as { token?: unknown }).token === 'string';

const isSuccess = (status: number) => status >= 200 && status < 300;

/**
 * The one transport every typed client (`src/api/<area>.ts`) calls through. It adds the bearer token and
 * applies the spec's session rule (core §4, §8):
 * - a 403 triggers ONE token refresh (POST /auth/refresh_token with the refresh cookie) and ONE retry with
 *   the new token; calls that hit 403 together share that refresh;
 * - a 401 (on any call, the refresh included) clears the session and notifies `session.onExpired`.
 * Error answers reject with a typed ApiError.
 */
export const createTransport = ({ adapter, session = browserSession }: { adapter: HttpAdapter; session?: Session }) => {
  let refreshing: Promise<HttpResponse | undefined> | undefined;

  const send = (method: HttpMethod, path: string, options: RequestOptions): Promise<HttpResponse> => {
    const token = session.getToken();
    const query = stringifyQuery(options.query);
    return adapter({
      method,
      path,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      ...(query ? { query } : {}),
      ...(options.body === undefined ? {} : { body: options.body }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  };

  const refresh = async (): Promise<HttpResponse | undefined> => {
    let answer: HttpResponse;
    try {
      answer = await adapter({ method: 'POST', path: REFRESH_PATH, headers: {}, withCredentials: true });
    } catch {
      return undefined; // no answer: the caller gets its original 403
    }
    if (isSuccess(answer.status) && isSessionAnswer(answer.body)) session.start(answer.body);
    else if (answer.status === 401) session.end();
    return answer;
  };

  const refreshOnce = (): Promise<HttpResponse | undefined> => {
    refreshing ??= refresh().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  const request = async <T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> => {
    let answer = await send(method, path, options);
    if (answer.status === 403) {
      const refreshed = await refreshOnce();
      if (refreshed?.status === 401) throw ApiError.fromResponse(401, refreshed.body);
      if (refreshed && isSuccess(refreshed.status) && isSessionAnswer(refreshed.body)) {
        answer = await send(method, path, options);
      }
    }
    if (answer.status === 401) session.end();
    if (!isSuccess(answer.status)) throw ApiError.fromResponse(answer.status, answer.body);
    return answer.body as T;
  };

  const transport: Transport = {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
    refreshSession: async () => {
      const answer = await refreshOnce();
      return answer !== undefined && isSuccess(answer.status) && isSessionAnswer(answer.body);
    },
  };
  return transport;
};

let current: Transport | undefined;

/** main.tsx installs the production transport before the first render; tests install their own. */
export const configureApi = (transport: Transport): void => {
  current = transport;
};

/** The transport the typed clients use. */
export const api = (): Transport => {
  if (!current) throw new Error('API transport not configured: call configureApi() before the first request');
  return current;
};
