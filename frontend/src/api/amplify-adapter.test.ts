import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAmplifyAdapter } from './amplify-adapter';
import { ApiError, NETWORK_ERROR } from './api-error';
import { REFRESH_PATH, createTransport } from './transport';

/**
 * The production path, Amplify's REST client included, with only the browser's fetch replaced: what the
 * server receives and what the caller gets back.
 */
interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  credentials: RequestCredentials | undefined;
}

const server = (answer: (seen: Seen) => Response | Promise<Response>) => {
  const seen: Seen[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request: Seen = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: typeof init?.body === 'string' ? init.body : undefined,
      credentials: init?.credentials,
    };
    seen.push(request);
    return answer(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { seen, fetchMock };
};

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const transport = () => createTransport({ adapter: createAmplifyAdapter('https://desk.example.com/api') });

describe('Amplify adapter under the transport', () => {
  beforeEach(() => {
    localStorage.setItem('token', 'tok-1');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('calls the API base with the bearer token and returns the JSON answer', async () => {
    const { seen } = server(() => jsonResponse(200, { version: '7.0.0' }));

    await expect(transport().get('/version', { query: { lang: 'pt' } })).resolves.toEqual({ version: '7.0.0' });

    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('https://desk.example.com/api/version?lang=pt');
    expect(seen[0]?.headers.authorization).toBe('Bearer tok-1');
  });

  it('sends JSON bodies', async () => {
    const { seen } = server(() => jsonResponse(201, { id: 1, name: 'VIP' }));

    await expect(transport().post('/tags', { name: 'VIP', color: '#ff0000' })).resolves.toEqual({
      id: 1,
      name: 'VIP',
    });
    expect(seen[0]).toMatchObject({ method: 'POST', body: JSON.stringify({ name: 'VIP', color: '#ff0000' }) });
    expect(seen[0]?.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers undefined for an empty 204', async () => {
    server(() => new Response(null, { status: 204 }));
    await expect(transport().delete('/tags/1')).resolves.toBeUndefined();
  });

  it('turns an error answer into an ApiError with code, message and fields', async () => {
    server(() =>
      jsonResponse(400, {
        error: 'ERR_VALIDATION',
        message: 'Invalid',
        fields: [{ field: 'body.name', reason: 'Required' }],
      }),
    );

    const err: unknown = await transport()
      .post('/tags', {})
      .catch((e: unknown) => e);

    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 400,
      code: 'ERR_VALIDATION',
      message: 'Invalid',
      fields: [{ field: 'body.name', reason: 'Required' }],
    });
  });

  it('does not repeat a request that failed with 500 (Amplify would retry it by default)', async () => {
    const { fetchMock } = server(() => jsonResponse(500, { error: 'ERR_INTERNAL', message: 'Internal error' }));

    await expect(transport().post('/messages/1', { body: 'oi' })).rejects.toMatchObject({
      status: 500,
      code: 'ERR_INTERNAL',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('reports a network failure as status 0 ERR_NETWORK, once', async () => {
    const { fetchMock } = server(() => {
      throw new TypeError('Failed to fetch');
    });

    await expect(transport().get('/version')).rejects.toMatchObject({ status: 0, code: NETWORK_ERROR });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('refreshes on 403 with cookie credentials and retries with the new token', async () => {
    const { seen } = server((req) => {
      if (req.url.endsWith(REFRESH_PATH)) return jsonResponse(200, { token: 'tok-2', user: { id: 1 } });
      return req.headers.authorization === 'Bearer tok-2'
        ? jsonResponse(200, { ok: true })
        : jsonResponse(403, { error: 'ERR_SESSION_EXPIRED', message: 'expired' });
    });

    await expect(transport().get('/auth/me')).resolves.toEqual({ ok: true });

    expect(seen.map((s) => `${s.method} ${new URL(s.url).pathname}`)).toEqual([
      'GET /api/auth/me',
      'POST /api/auth/refresh_token',
      'GET /api/auth/me',
    ]);
    expect(seen[1]?.credentials).toBe('include');
    expect(seen[1]?.headers.authorization).toBeUndefined();
    expect(localStorage.getItem('token')).toBe('tok-2');
  });

  it('rejects with AbortError when the caller aborts', async () => {
    server(
      (req) =>
        new Promise<Response>(() => {
          void req; // never answers
        }),
    );
    const controller = new AbortController();
    const pending = transport().get('/version', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
