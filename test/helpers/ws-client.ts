import WebSocket from 'ws';

/**
 * A browser-like WebSocket client for tests: keeps every event it receives, in order (a batch frame's
 * events one by one), so none is missed between awaits. `sockets` collects every client so a test file can terminate them in afterAll.
 */
export interface TestSocket {
  socket: WebSocket;
  next: () => Promise<unknown>;
  send: (message: Record<string, unknown>) => void;
}

export const openSockets: WebSocket[] = [];

export const connectSocket = (url: string): Promise<TestSocket> =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    openSockets.push(socket);
    const received: unknown[] = [];
    const waiting: ((m: unknown) => void)[] = [];
    socket.on('message', (data: WebSocket.RawData) => {
      const text = Buffer.from(data as Buffer).toString('utf8');
      let value: unknown = text;
      try {
        value = JSON.parse(text);
      } catch {
        // keep the text
      }
      // A batch frame (decisions D83) is its events, one after another, as the browser's socket reads it.
      const batch = (value as { batch?: unknown } | null)?.batch;
      for (const one of Array.isArray(batch) ? (batch as unknown[]) : [value]) {
        const waiter = waiting.shift();
        if (waiter) waiter(one);
        else received.push(one);
      }
    });
    const next = () =>
      received.length > 0 ? Promise.resolve(received.shift()) : new Promise<unknown>((r) => waiting.push(r));
    const send = (message: Record<string, unknown>) => socket.send(JSON.stringify(message));
    socket.once('open', () => resolve({ socket, next, send }));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade rejected with ${res.statusCode}`)));
    socket.once('error', reject);
  });

/** The HTTP status an upgrade was rejected with. */
export const upgradeRejectedWith = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.on('error', () => undefined);
    socket.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    socket.once('open', () => {
      socket.terminate();
      reject(new Error('the upgrade was accepted'));
    });
  });
