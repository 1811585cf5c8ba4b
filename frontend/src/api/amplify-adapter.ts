import { Amplify } from 'aws-amplify';
import { del, get, patch, post, put } from 'aws-amplify/api';
import { ApiError } from './api-error';
import type { HttpAdapter, HttpMethod } from './transport';

/** The name our one REST API has in Amplify's configuration. */
export const API_NAME = 'main';

type Operation = typeof get;
const OPERATIONS: Record<HttpMethod, Operation> = { GET: get, POST: post, PUT: put, PATCH: patch, DELETE: del };

type AmplifyBody = NonNullable<NonNullable<Parameters<Operation>[0]['options']>['body']>;

/** JSON when it parses, the raw text otherwise, undefined for an empty body (204). */
const parseBody = (text: string | undefined): unknown => {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** Amplify rejects non-2xx answers with a RestApiError that carries the answer (status, text body). */
const errorAnswer = (err: unknown): { statusCode: number; body?: string } | undefined => {
  const response = (err as { response?: { statusCode?: unknown; body?: unknown } } | null)?.response;
  if (!response || typeof response.statusCode !== 'number') return undefined;
  return { statusCode: response.statusCode, ...(typeof response.body === 'string' ? { body: response.body } : {}) };
};

const abortError = () => new DOMException('The request was aborted', 'AbortError');

/**
 * The production HttpAdapter: `aws-amplify/api` REST against our own API, no Cognito (STACK.md, Amplify row).
 * - Auth mode 'none': the bearer token comes per request from the transport, so a retry after a refresh
 *   carries the new token and the refresh call carries none.
 * - Retries 'no-retry': Amplify's default retries 5xx and network errors with backoff, which would repeat
 *   non-idempotent POSTs; the only retry we want is the spec's one after a 403 refresh, done by the transport.
 */
export const createAmplifyAdapter = (endpoint: string): HttpAdapter => {
  Amplify.configure(
    { API: { REST: { [API_NAME]: { endpoint } } } },
    { API: { REST: { defaultAuthMode: 'none', retryStrategy: { strategy: 'no-retry' } } } },
  );

  return async ({ method, path, headers, query, body, withCredentials, signal }) => {
    if (signal?.aborted) throw abortError();
    const operation = OPERATIONS[method]({
      apiName: API_NAME,
      path,
      options: {
        headers,
        ...(query ? { queryParams: query } : {}),
        ...(body === undefined ? {} : { body: body as AmplifyBody }),
        ...(withCredentials ? { withCredentials } : {}),
      },
    });
    const cancel = () => operation.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const response = await operation.response;
      return { status: response.statusCode, body: parseBody(await response.body.text()) };
    } catch (err) {
      if (signal?.aborted) throw abortError();
      const answer = errorAnswer(err);
      if (answer) return { status: answer.statusCode, body: parseBody(answer.body) };
      throw ApiError.network(err);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  };
};
