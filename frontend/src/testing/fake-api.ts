import type { HttpAdapter, HttpRequest, HttpResponse } from '@/api/transport';

export type Route = (request: HttpRequest) => HttpResponse | Promise<HttpResponse>;

/**
 * An HttpAdapter that answers from a table of `'METHOD /path'` handlers (404 ERR_NOT_FOUND for others)
 * and records every request, the refresh calls included, for tests to inspect.
 */
export const fakeApi = (routes: Record<string, Route>) => {
  const requests: HttpRequest[] = [];
  const adapter: HttpAdapter = async (request) => {
    requests.push(request);
    const route = routes[`${request.method} ${request.path}`];
    if (!route) return { status: 404, body: { error: 'ERR_NOT_FOUND', message: 'Not found' } };
    return route(request);
  };
  return { adapter, requests, routes };
};

/** Answers the given responses in order (the last one repeats). */
export const sequence = (...responses: HttpResponse[]): Route => {
  let i = 0;
  return () => responses[Math.min(i++, responses.length - 1)] as HttpResponse;
};

export const json = (status: number, body: unknown): HttpResponse => ({ status, body });

/** A route that answers only when the test calls `answer`, to observe loading states. */
export const deferred = () => {
  let resolve: (response: HttpResponse) => void = () => undefined;
  const pending = new Promise<HttpResponse>((r) => {
    resolve = r;
  });
  return { route: (() => pending) as Route, answer: (response: HttpResponse) => resolve(response) };
};
