import type { WebSocketConstructor, WebSocketLike } from '@/realtime/socket';

/** One browser connection as a test drives it: the test plays the server. */
export interface FakeConnection extends WebSocketLike {
  readonly url: string;
  /** Messages the client sent, parsed. */
  readonly sent: unknown[];
  /** Set when the client called close(). */
  readonly closedByClient: boolean;
  accept(): void;
  push(message: unknown): void;
  drop(): void;
}

/**
 * A WebSocket class to inject into RealtimeSocket (jsdom has no server), recording every connection the
 * client opens. Events fire synchronously, which the client must (and does) tolerate.
 */
export const fakeWebSocketServer = () => {
  const connections: FakeConnection[] = [];

  class FakeWebSocket implements FakeConnection {
    readyState = 0;
    onopen: WebSocketLike['onopen'] = null;
    onclose: WebSocketLike['onclose'] = null;
    onmessage: WebSocketLike['onmessage'] = null;
    onerror: WebSocketLike['onerror'] = null;
    readonly sent: unknown[] = [];
    closedByClient = false;

    constructor(readonly url: string) {
      connections.push(this);
    }

    send(data: string): void {
      if (this.readyState !== 1) throw new Error('send() on a socket that is not open');
      this.sent.push(JSON.parse(data));
    }

    close(): void {
      this.closedByClient = true;
      this.drop();
    }

    accept(): void {
      this.readyState = 1;
      this.onopen?.(new Event('open'));
    }

    push(message: unknown): void {
      this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
    }

    drop(): void {
      if (this.readyState === 3) return;
      this.readyState = 3;
      this.onclose?.(new CloseEvent('close', { code: 1006 }));
    }
  }

  return {
    WebSocket: FakeWebSocket as WebSocketConstructor,
    connections,
    /** The newest connection; throws when the client opened none. */
    latest(): FakeConnection {
      const last = connections.at(-1);
      if (!last) throw new Error('the client opened no connection');
      return last;
    },
  };
};
