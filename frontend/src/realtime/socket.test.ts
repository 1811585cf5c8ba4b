import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeWebSocketServer } from '@/testing/fake-web-socket';
import { RealtimeSocket, type SocketEvent } from './socket';

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
