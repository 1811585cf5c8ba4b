import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/api/session';
import { createTransport } from '@/api/transport';
import { deferred, fakeApi, json, sequence } from '@/testing/fake-api';
import { fakeWebSocketServer } from '@/testing/fake-web-socket';
import { RealtimeSocket, tokenExpiresAt, type SocketEvent } from './socket';

const URL_BASE = 'wss://desk.example.com/ws';

const setup = (initialToken: string | null = 'token-1') => {
  let token = initialToken;
  const server = fakeWebSocketServer();
  const socket = new RealtimeSocket({ url: URL_BASE, getToken: () => token, WebSocketImpl: server.WebSocket });
  const states: string[] = [];
  socket.onStateChange(() => states.push(socket.state));
  return {
    server,
    socket,
    states,
    setToken: (value: string | null) => {
      token = value;
    },
  };
};

describe('RealtimeSocket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('connects to the configured URL with the token in the query', () => {
    const { server, socket } = setup('abc.def');
    socket.start();
    expect(server.connections).toHaveLength(1);
    expect(server.latest().url).toBe(`${URL_BASE}?token=abc.def`);
    expect(socket.state).toBe('connecting');
    server.latest().accept();
    expect(socket.state).toBe('open');
  });

  it('does not connect without a session, and connects once a token exists', () => {
    const { server, socket, setToken } = setup(null);
    socket.start();
    expect(server.connections).toHaveLength(0);
    expect(socket.state).toBe('idle');

    setToken('fresh');
    socket.start();
    expect(server.connections).toHaveLength(1);
    expect(server.latest().url).toBe(`${URL_BASE}?token=fresh`);
  });

  it('reconnects 1 s after the connection drops, with the latest token, forever', () => {
    const { server, socket, setToken } = setup();
    socket.start();
    server.latest().accept();

    for (let attempt = 1; attempt <= 3; attempt += 1) {
      server.latest().drop();
      expect(socket.state).toBe('reconnecting');
      vi.advanceTimersByTime(999);
      expect(server.connections).toHaveLength(attempt);
      vi.advanceTimersByTime(1);
      expect(server.connections).toHaveLength(attempt + 1);
    }

    setToken('refreshed');
    server.latest().drop();
    vi.advanceTimersByTime(1000);
    expect(server.latest().url).toBe(`${URL_BASE}?token=refreshed`);
    server.latest().accept();
    expect(socket.state).toBe('open');
  });

  it('keeps trying when the server refuses the connection before it ever opens', () => {
    const { server, socket } = setup();
    socket.start();
    server.latest().drop(); // e.g. $connect answered 401
    vi.advanceTimersByTime(1000);
    server.latest().drop();
    vi.advanceTimersByTime(1000);
    expect(server.connections).toHaveLength(3);
    expect(socket.state).toBe('reconnecting');
  });

  it('dispatches events to the handlers of their channel only, before and after a reconnect', () => {
    const { server, socket } = setup();
    const tickets: SocketEvent[] = [];
    const contacts: SocketEvent[] = [];
    socket.subscribe('company-1-ticket', (e) => tickets.push(e));
    socket.subscribe('company-1-contact', (e) => contacts.push(e));
    socket.start();
    server.latest().accept();

    server.latest().push({ channel: 'company-1-ticket', action: 'update', ticket: { id: 7 } });
    server.latest().drop();
    vi.advanceTimersByTime(1000);
    server.latest().accept();
    server.latest().push({ channel: 'company-1-ticket', action: 'delete', ticketId: 7 });
    server.latest().push({ channel: 'company-2-ticket', action: 'update', ticket: { id: 99 } });
    server.latest().push('not json at all');

    expect(tickets).toEqual([
      { channel: 'company-1-ticket', action: 'update', ticket: { id: 7 } },
      { channel: 'company-1-ticket', action: 'delete', ticketId: 7 },
    ]);
    expect(contacts).toEqual([]);
  });

  it('delivers the events of a batch frame one by one, in order, each to its channel (D83)', () => {
    const { server, socket } = setup();
    const seen: string[] = [];
    socket.subscribe('company-1-appMessage', (e) => seen.push(`${e.channel} ${e.action} ${String(e.n)}`));
    socket.subscribe('company-1-ticket', (e) => seen.push(`${e.channel} ${e.action} ${String(e.n)}`));
    socket.start();
    server.latest().accept();

    server.latest().push({
      batch: [
        { channel: 'company-1-appMessage', action: 'create', n: 1 },
        { channel: 'company-2-ticket', action: 'update', n: 2 },
        'not an event',
        { channel: 'company-1-appMessage', action: 'create', n: 3 },
        { channel: 'company-1-ticket', action: 'update', n: 4 },
      ],
    });

    expect(seen).toEqual([
      'company-1-appMessage create 1',
      'company-1-appMessage create 3',
      'company-1-ticket update 4',
    ]);
  });

  it('stops delivering to a handler after it unsubscribes, and a failing handler does not starve the others', () => {
    const { server, socket } = setup();
    const seen: string[] = [];
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    socket.subscribe('company-1-chat', () => {
      throw new Error('broken screen');
    });
    const unsubscribe = socket.subscribe('company-1-chat', (e) => seen.push(e.action));
    socket.start();
    server.latest().accept();

    server.latest().push({ channel: 'company-1-chat', action: 'new-message' });
    unsubscribe();
    server.latest().push({ channel: 'company-1-chat', action: 'update' });

    expect(seen).toEqual(['new-message']);
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });

  it('sends room joins on connect and again after every reconnect, until left', () => {
    const { server, socket } = setup();
    socket.start();
    const leave = socket.join({ action: 'joinTickets', status: 'open' }, { action: 'leaveTickets', status: 'open' });
    server.latest().accept();
    expect(server.latest().sent).toEqual([{ action: 'joinTickets', status: 'open' }]);

    server.latest().drop();
    vi.advanceTimersByTime(1000);
    server.latest().accept();
    expect(server.latest().sent).toEqual([{ action: 'joinTickets', status: 'open' }]);

    leave();
    expect(server.latest().sent).toEqual([
      { action: 'joinTickets', status: 'open' },
      { action: 'leaveTickets', status: 'open' },
    ]);
    server.latest().drop();
    vi.advanceTimersByTime(1000);
    server.latest().accept();
    expect(server.latest().sent).toEqual([]);
  });

  it('calls onReconnect when a lost connection is back, not on the first connect', () => {
    const { server, socket } = setup();
    const onReconnect = vi.fn();
    socket.onReconnect(onReconnect);
    socket.start();
    server.latest().accept();
    expect(onReconnect).not.toHaveBeenCalled();

    server.latest().drop();
    vi.advanceTimersByTime(1000);
    expect(onReconnect).not.toHaveBeenCalled(); // not yet open again
    server.latest().accept();
    expect(onReconnect).toHaveBeenCalledTimes(1);
  });

  it('reports its state changes in order', () => {
    const { server, socket, states } = setup();
    socket.start();
    server.latest().accept();
    server.latest().drop();
    vi.advanceTimersByTime(1000);
    server.latest().accept();
    socket.stop();
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open', 'idle']);
  });

  it('stop() closes the connection and does not reconnect', () => {
    const { server, socket } = setup();
    socket.start();
    server.latest().accept();
    socket.stop();
    expect(server.latest().closedByClient).toBe(true);
    vi.advanceTimersByTime(10_000);
    expect(server.connections).toHaveLength(1);
    expect(socket.send({ action: 'ping' })).toBe(false);
  });

  it('reconnects when the server says it no longer knows the connection', () => {
    const { server, socket } = setup();
    socket.start();
    server.latest().accept();
    server.latest().push({ error: 'ERR_SESSION_EXPIRED' });
    expect(server.latest().closedByClient).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(server.connections).toHaveLength(2);
  });

  it('pings every 5 minutes while open, so the gateway does not close an idle connection', () => {
    const { server, socket } = setup();
    socket.start();
    server.latest().accept();
    vi.advanceTimersByTime(5 * 60 * 1000);
    expect(server.latest().sent).toEqual([{ action: 'ping' }]);
    server.latest().drop();
    vi.advanceTimersByTime(1000);
    server.latest().accept();
    vi.advanceTimersByTime(5 * 60 * 1000);
    // one ping per interval on the new connection: the old connection's timer is gone
    expect(server.latest().sent).toEqual([{ action: 'ping' }]);
  });
});

/** A JWT-shaped token whose payload carries `exp` (seconds); the signature is never checked here. */
const jwt = (expSeconds: number, id = 'a') => {
  const payload = btoa(JSON.stringify({ sub: '5', exp: expSeconds, id }))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return `eyJhbGciOiJIUzI1NiJ9.${payload}.sig`;
};

describe('RealtimeSocket token refresh before (re)connecting', () => {
  const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
  const valid = (id: string) => jwt(NOW / 1000 + 15 * 60, id);
  const expired = (id: string) => jwt(NOW / 1000 - 60, id);

  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A socket whose refresh the test answers: `finish(token)` stores a token (or null: the session ended). */
  const setupWithRefresh = (initialToken: string | null) => {
    let token = initialToken;
    const server = fakeWebSocketServer();
    const pending: ((value: string | null) => void)[] = [];
    const refreshToken = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          pending.push((value) => {
            token = value;
            resolve();
          });
        }),
    );
    const socket = new RealtimeSocket({
      url: URL_BASE,
      getToken: () => token,
      WebSocketImpl: server.WebSocket,
      refreshToken,
    });
    const finish = async (value: string | null) => {
      const next = pending.shift();
      if (!next) throw new Error('no refresh pending');
      next(value);
      await vi.advanceTimersByTimeAsync(0);
    };
    return { server, socket, refreshToken, finish, setToken: (value: string) => (token = value) };
  };

  it('reads the expiry from a JWT and ignores tokens that are not JWTs', () => {
    expect(tokenExpiresAt(jwt(1_800_000_000))).toBe(1_800_000_000_000);
    expect(tokenExpiresAt('token-1')).toBeUndefined();
    expect(tokenExpiresAt('a.%%%.c')).toBeUndefined();
  });

  it('refreshes an expired token first and connects with the new one', async () => {
    const { server, socket, refreshToken, finish } = setupWithRefresh(expired('old'));
    socket.start();
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(server.connections).toHaveLength(0);
    expect(socket.state).toBe('connecting');

    socket.start(); // a session change meanwhile does not start a second attempt
    expect(refreshToken).toHaveBeenCalledTimes(1);

    await finish(valid('new'));
    expect(server.connections).toHaveLength(1);
    expect(server.latest().url).toBe(`${URL_BASE}?token=${valid('new')}`);
  });

  it('connects at once with a token that is still valid', () => {
    const { server, socket, refreshToken } = setupWithRefresh(valid('ok'));
    socket.start();
    expect(refreshToken).not.toHaveBeenCalled();
    expect(server.connections).toHaveLength(1);
  });

  it('refreshes before reconnecting when the token expired while the connection was up', async () => {
    const { server, socket, refreshToken, finish } = setupWithRefresh(jwt(NOW / 1000 + 30, 'short'));
    socket.start();
    server.latest().accept();

    vi.advanceTimersByTime(60_000);
    server.latest().drop();
    vi.advanceTimersByTime(1000);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(server.connections).toHaveLength(1);

    await finish(jwt(NOW / 1000 + 3600, 'renewed'));
    expect(server.connections).toHaveLength(2);
    expect(server.latest().url).toContain(jwt(NOW / 1000 + 3600, 'renewed'));
    server.latest().accept();
    expect(socket.state).toBe('open');
  });

  it('refreshes once after the server refuses the upgrade, then retries plainly until a connection opens', async () => {
    const { server, socket, refreshToken, finish } = setupWithRefresh(valid('kicked'));
    socket.start();
    server.latest().drop(); // $connect answered 403: the browser only sees a close before open
    vi.advanceTimersByTime(1000);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    await finish(valid('fresh'));
    expect(server.latest().url).toContain(valid('fresh'));

    // Refused again with the fresh token: no refresh loop, a plain retry every second.
    server.latest().drop();
    vi.advanceTimersByTime(1000);
    server.latest().drop();
    vi.advanceTimersByTime(1000);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(server.connections).toHaveLength(4);

    // Once a connection has opened, a later refusal earns a refresh again.
    server.latest().accept();
    server.latest().drop();
    vi.advanceTimersByTime(1000);
    expect(server.connections).toHaveLength(5); // dropped after opening: plain reconnect
    server.latest().drop(); // and this one was refused
    vi.advanceTimersByTime(1000);
    expect(refreshToken).toHaveBeenCalledTimes(2);
  });

  it('goes idle without connecting when the refresh ends the session', async () => {
    const { server, socket, finish } = setupWithRefresh(expired('old'));
    socket.start();
    await finish(null);
    expect(server.connections).toHaveLength(0);
    expect(socket.state).toBe('idle');
  });

  it('tries again a second later when the refresh brought no new token', async () => {
    const { server, socket, refreshToken, finish } = setupWithRefresh(expired('old'));
    socket.start();
    await finish(expired('old')); // e.g. no network: the stored token is unchanged
    expect(server.connections).toHaveLength(0);
    expect(socket.state).toBe('reconnecting');
    vi.advanceTimersByTime(1000);
    expect(refreshToken).toHaveBeenCalledTimes(2);
    await finish(valid('back'));
    expect(server.connections).toHaveLength(1);
  });

  it('does not connect when stopped while a refresh was under way', async () => {
    const { server, socket, finish } = setupWithRefresh(expired('old'));
    socket.start();
    socket.stop();
    await finish(valid('late'));
    expect(server.connections).toHaveLength(0);
    expect(socket.state).toBe('idle');
  });

  it('shares one refresh call with the HTTP transport (one refresh in flight at a time)', async () => {
    const refresh = deferred();
    const api = fakeApi({
      'POST /auth/refresh_token': refresh.route,
      'GET /tags': sequence(json(403, { error: 'ERR_SESSION_EXPIRED' }), json(200, [])),
    });
    const transport = createTransport({ adapter: api.adapter });
    session.start({ token: expired('old'), user: {} });
    const server = fakeWebSocketServer();
    const socket = new RealtimeSocket({
      url: URL_BASE,
      getToken: () => session.getToken(),
      WebSocketImpl: server.WebSocket,
      refreshToken: () => transport.refreshSession(),
    });

    socket.start();
    const tags = transport.get('/tags');
    await vi.advanceTimersByTimeAsync(0);
    expect(api.requests.filter((r) => r.path === '/auth/refresh_token')).toHaveLength(1);

    refresh.answer(json(200, { token: valid('shared'), user: {} }));
    await expect(tags).resolves.toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(api.requests.filter((r) => r.path === '/auth/refresh_token')).toHaveLength(1);
    expect(server.latest().url).toBe(`${URL_BASE}?token=${valid('shared')}`);
    socket.stop();
    session.end();
  });
});
