/**
 * The one WebSocket client (DESIGN §5). The browser opens `${wsUrl}?token=<access token>` (a browser
 * cannot set headers on a WebSocket), keeps the connection up for as long as it is started, and reconnects
 * forever with a fixed 1 s delay (core spec §7, §9).
 *
 * - Events arrive as JSON `{channel, action, ...payload}` and go to the handlers subscribed to `channel`.
 * - Room joins (`join`) are remembered and sent again on every (re)connect, so the server knows the rooms
 *   of the new connection.
 * - `onReconnect` fires after a lost connection is back: a screen refetches what it shows there, because
 *   events published while the socket was down are gone (no silent gaps).
 */
export type SocketState = 'idle' | 'connecting' | 'open' | 'reconnecting';

export interface SocketEvent {
  channel: string;
  action: string;
  [payload: string]: unknown;
}

/** What the browser sends; API Gateway routes on `action` (functions/realtime/routes.ts). */
export interface SocketMessage {
  action: string;
  [field: string]: unknown;
}

/** The part of the browser's WebSocket the client uses; tests inject a fake class with this shape. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface RealtimeSocketOptions {
  /** Absolute ws(s) URL from the runtime config. */
  url: string;
  /** Read at every connect, so a reconnect uses the latest (refreshed) token; null means no session. */
  getToken: () => string | null;
  WebSocketImpl?: WebSocketConstructor;
  /** Spec: 1 s, unlimited attempts. */
  reconnectDelayMs?: number;
  /** Keeps an idle connection from being closed by the gateway (API Gateway drops it after 10 idle minutes). */
  heartbeatMs?: number;
}

export const RECONNECT_DELAY_MS = 1000;
export const HEARTBEAT_MS = 5 * 60 * 1000;
const OPEN = 1;

type EventHandler = (event: SocketEvent) => void;
type Listener = () => void;

const isSocketEvent = (value: unknown): value is SocketEvent =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as SocketEvent).channel === 'string' &&
  typeof (value as SocketEvent).action === 'string';

const callSafely = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    // One broken screen handler must not stop the others from hearing the event.
    console.error('realtime handler failed', err);
  }
};

export class RealtimeSocket {
  private readonly options: Required<Omit<RealtimeSocketOptions, 'WebSocketImpl'>> & {
    WebSocketImpl: WebSocketConstructor;
  };
  private ws: WebSocketLike | undefined;
  private started = false;
  private hasBeenOpen = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  private currentState: SocketState = 'idle';
  private readonly channels = new Map<string, Set<EventHandler>>();
  private readonly joins = new Set<SocketMessage>();
  private readonly stateListeners = new Set<Listener>();
  private readonly reconnectListeners = new Set<Listener>();

  constructor(options: RealtimeSocketOptions) {
    this.options = {
      reconnectDelayMs: RECONNECT_DELAY_MS,
      heartbeatMs: HEARTBEAT_MS,
      WebSocketImpl: globalThis.WebSocket as unknown as WebSocketConstructor,
      ...options,
    };
  }

  get state(): SocketState {
    return this.currentState;
  }

  /** Connects when there is a token; idempotent, so it can be called on every session change. */
  start(): void {
    this.started = true;
    if (this.ws || this.reconnectTimer) return;
    this.connect();
  }

  /** Closes the connection and stops reconnecting (logout, expired session). */
  stop(): void {
    this.started = false;
    this.hasBeenOpen = false;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const ws = this.ws;
    this.ws = undefined;
    this.stopHeartbeat();
    ws?.close(1000, 'stopped');
    this.setState('idle');
  }

  /** Listens to one channel (e.g. `company-1-ticket`); returns the unsubscribe function. */
  subscribe(channel: string, handler: EventHandler): () => void {
    let handlers = this.channels.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.channels.set(channel, handlers);
    }
    handlers.add(handler);
    return () => {
      handlers.delete(handler);
      if (handlers.size === 0) this.channels.delete(channel);
    };
  }

  /** Sends a message now; false when the socket is not open (the message is dropped). */
  send(message: SocketMessage): boolean {
    if (!this.ws || this.ws.readyState !== OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /**
   * Joins a room (`{action: 'joinTickets', status: 'open'}`) now and after every reconnect. The returned
   * function stops that and sends `leave` (e.g. `{action: 'leaveTickets', ...}`) when given.
   */
  join(message: SocketMessage, leave?: SocketMessage): () => void {
    this.joins.add(message);
    this.send(message);
    return () => {
      if (!this.joins.delete(message)) return;
      if (leave) this.send(leave);
    };
  }

  /** Called each time a lost connection is back (not on the first connect). */
  onReconnect(listener: Listener): () => void {
    this.reconnectListeners.add(listener);
    return () => {
      this.reconnectListeners.delete(listener);
    };
  }

  onStateChange(listener: Listener): () => void {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  private connect(): void {
    const token = this.options.getToken();
    if (!token) {
      this.setState('idle'); // no session yet: start() is called again when one begins
      return;
    }
    this.setState(this.currentState === 'idle' ? 'connecting' : 'reconnecting');
    const url = new URL(this.options.url);
    url.searchParams.set('token', token);
    let ws: WebSocketLike;
    try {
      ws = new this.options.WebSocketImpl(url.href);
    } catch (err) {
      console.error('realtime connect failed', err);
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      const reconnected = this.hasBeenOpen;
      this.hasBeenOpen = true;
      this.setState('open');
      for (const message of this.joins) ws.send(JSON.stringify(message));
      this.startHeartbeat();
      if (reconnected) for (const l of [...this.reconnectListeners]) callSafely(l);
    };
    ws.onmessage = (event) => {
      if (this.ws === ws) this.receive(event.data);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.stopHeartbeat();
      this.scheduleReconnect();
    };
    // Browsers follow every `error` with a `close`; reconnecting happens there.
    ws.onerror = null;
  }

  private scheduleReconnect(): void {
    if (!this.started) {
      this.setState('idle');
      return;
    }
    this.setState('reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.started) this.connect();
    }, this.options.reconnectDelayMs);
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (isSocketEvent(message)) {
      const handlers = this.channels.get(message.channel);
      if (handlers) for (const h of [...handlers]) callSafely(() => h(message));
      return;
    }
    // The server no longer knows this connection (functions/realtime/message.ts): connect again.
    if ((message as { error?: unknown } | null)?.error === 'ERR_SESSION_EXPIRED') this.ws?.close(4001, 'expired');
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    this.heartbeatTimer = setInterval(() => this.send({ action: 'ping' }), this.options.heartbeatMs);
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
  }

  private setState(state: SocketState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    for (const l of [...this.stateListeners]) callSafely(l);
  }
}
