import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, json, sequence } from '@/testing/fake-api';
import { ApiError } from './api-error';
import { session } from './session';
import { createTransport, REFRESH_PATH } from './transport';

const USER = { id: 3, name: 'Ana', companyId: 1 };

/** Collects what the session tells the app. */
const listen = () => {
  const events: string[] = [];
  const offChange = session.onChange((answer) => events.push(`change:${answer.token}`));
  const offExpired = session.onExpired(() => events.push('expired'));
  return { events, off: () => (offChange(), offExpired()) };
};

const caught = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
};

describe('transport', () => {
  let listener: ReturnType<typeof listen>;
  beforeEach(() => {
    localStorage.setItem('token', 'old-token');
    listener = listen();
  });
  afterEach(() => listener.off());

  it('sends the stored token as a bearer header and answers the body', async () => {
    const server = fakeApi({ 'GET /version': () => json(200, { version: '7.0.0' }) });
    const transport = createTransport({ adapter: server.adapter });

    await expect(
      transport.get('/version', { query: { pageNumber: 2, searchParam: 'ana', skip: undefined } }),
    ).resolves.toEqual({
      version: '7.0.0',
    });
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      path: '/version',
      headers: { Authorization: 'Bearer old-token' },
      query: { pageNumber: '2', searchParam: 'ana' },
    });
  });

  it('on 403 refreshes the token once with the cookie and retries once with the new token', async () => {
    const server = fakeApi({
      'GET /tickets': (req) =>
        req.headers.Authorization === 'Bearer new-token'
          ? json(200, { tickets: [], hasMore: false })
          : json(403, { error: 'ERR_SESSION_EXPIRED', message: 'expired' }),
      [`POST ${REFRESH_PATH}`]: () => json(200, { token: 'new-token', user: USER }),
    });
    const transport = createTransport({ adapter: server.adapter });

    await expect(transport.get('/tickets')).resolves.toEqual({ tickets: [], hasMore: false });

    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /tickets',
      `POST ${REFRESH_PATH}`,
      'GET /tickets',
    ]);
    expect(server.requests[1]).toMatchObject({ withCredentials: true, headers: {} });
    expect(localStorage.getItem('token')).toBe('new-token');
    expect(listener.events).toEqual(['change:new-token']);
  });

  it('gives up after the one retry when the answer is still 403', async () => {
    const server = fakeApi({
      'DELETE /tickets/9': () => json(403, { error: 'ERR_NO_PERMISSION', message: 'No permission' }),
      [`POST ${REFRESH_PATH}`]: () => json(200, { token: 'new-token', user: USER }),
    });
    const transport = createTransport({ adapter: server.adapter });

    const err = await caught(transport.delete('/tickets/9'));

    expect(err).toMatchObject({ status: 403, code: 'ERR_NO_PERMISSION', message: 'No permission' });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'DELETE /tickets/9',
      `POST ${REFRESH_PATH}`,
      'DELETE /tickets/9',
    ]);
  });

  it('shares one refresh between calls that hit 403 together', async () => {
    const server = fakeApi({
      'GET /a': (req) =>
        req.headers.Authorization === 'Bearer new-token' ? json(200, 'a') : json(403, { error: 'E' }),
      'GET /b': (req) =>
        req.headers.Authorization === 'Bearer new-token' ? json(200, 'b') : json(403, { error: 'E' }),
      [`POST ${REFRESH_PATH}`]: () => json(200, { token: 'new-token', user: USER }),
    });
    const transport = createTransport({ adapter: server.adapter });

    await expect(Promise.all([transport.get('/a'), transport.get('/b')])).resolves.toEqual(['a', 'b']);
    expect(server.requests.filter((r) => r.path === REFRESH_PATH)).toHaveLength(1);
  });

  it('when the refresh itself answers 401, clears the session and fails with 401 without retrying', async () => {
    const server = fakeApi({
      'GET /tickets': () => json(403, { error: 'ERR_SESSION_EXPIRED', message: 'expired' }),
      [`POST ${REFRESH_PATH}`]: () => json(401, { error: 'ERR_SESSION_EXPIRED', message: 'Session expired' }),
    });
    const transport = createTransport({ adapter: server.adapter });

    const err = await caught(transport.get('/tickets'));

    expect(err).toMatchObject({ status: 401, code: 'ERR_SESSION_EXPIRED' });
    expect(localStorage.getItem('token')).toBeNull();
    expect(listener.events).toEqual(['expired']);
    expect(server.requests.filter((r) => r.path === '/tickets')).toHaveLength(1);
  });

  it('when the refresh fails otherwise, keeps the session and reports the original 403', async () => {
    const server = fakeApi({
      'GET /tickets': () => json(403, { error: 'ERR_NO_PERMISSION', message: 'No permission' }),
      [`POST ${REFRESH_PATH}`]: () => json(503, { error: 'ERR_SERVICE_UNAVAILABLE', message: 'try again' }),
    });
    const transport = createTransport({ adapter: server.adapter });

    const err = await caught(transport.get('/tickets'));

    expect(err).toMatchObject({ status: 403, code: 'ERR_NO_PERMISSION' });
    expect(localStorage.getItem('token')).toBe('old-token');
    expect(listener.events).toEqual([]);
  });

  it('on 401 clears the stored token, notifies the app and rejects with the answer', async () => {
    const server = fakeApi({
      'GET /auth/me': sequence(json(401, { error: 'ERR_SESSION_EXPIRED', message: 'Authentication required' })),
    });
    const transport = createTransport({ adapter: server.adapter });

    const err = await caught(transport.get('/auth/me'));

    expect(err).toMatchObject({ status: 401, code: 'ERR_SESSION_EXPIRED', message: 'Authentication required' });
    expect(localStorage.getItem('token')).toBeNull();
    expect(listener.events).toEqual(['expired']);
    expect(server.requests.map((r) => r.path)).toEqual(['/auth/me']); // no refresh on 401
  });

  it('exposes the code, message and field errors of a 400', async () => {
    const server = fakeApi({
      'POST /tags': () =>
        json(400, {
          error: 'ERR_VALIDATION',
          message: 'Invalid request',
          fields: [{ field: 'body.name', reason: 'Too short' }],
        }),
    });
    const transport = createTransport({ adapter: server.adapter });

    const err = await caught(transport.post('/tags', { name: 'a' }));

    expect(server.requests[0]?.body).toEqual({ name: 'a' });
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'ERR_VALIDATION', message: 'Invalid request' });
    expect(err.fields).toEqual([{ field: 'body.name', reason: 'Too short' }]);
    expect(localStorage.getItem('token')).toBe('old-token');
  });

  it('keeps the details of a conflict for the screen (the other open ticket)', async () => {
    const details = { userId: 2, user: { name: 'Bia' }, queue: { name: 'Vendas' }, uuid: 'u-1', status: 'open' };
    const server = fakeApi({
      'POST /tickets': () => json(409, { error: 'ERR_OTHER_OPEN_TICKET', message: 'open', details }),
    });
    const transport = createTransport({ adapter: server.adapter });

    const err = await caught(transport.post('/tickets', { contactId: 5 }));

    expect(err).toMatchObject({ status: 409, code: 'ERR_OTHER_OPEN_TICKET', details });
  });

  it('reports an answer that is not our JSON without a code', async () => {
    const server = fakeApi({ 'GET /version': () => json(502, '<html>Bad gateway</html>') });
    const transport = createTransport({ adapter: server.adapter });

    const err = await caught(transport.get('/version'));

    expect(err).toMatchObject({ status: 502, code: undefined, message: 'HTTP 502' });
  });
});
