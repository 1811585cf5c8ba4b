import type { BatchFrame, RealtimeEvent } from '@contracts/realtime';

/**
 * The one WebSocket client (DESIGN §5). The browser opens `${wsUrl}?token=<access token>` (a browser
 * cannot set headers on a WebSocket), keeps the connection up for as long as it is started, and reconnects
 * forever with a fixed 1 s delay (core spec §7, §9).
 *
 * - Events arrive as JSON `{channel, action, ...payload}` (or several as a BatchFrame) and go to the handlers
 *   subscribed to `channel`; the names are the server's catalogue (functions/contracts/realtime.ts).
 * - Room joins (`join`) are remembered and sent again on every (re)connect, so the server knows the rooms
 *   of the new connection.
 * - `onReconnect` fires after a lost connection is back: a screen refetches what it shows there, because
 *   events published while the socket was down are gone (no silent gaps).
 * - With `refreshToken`, a (re)connect first renews the access token when it has expired, or when the
 *   server refused the previous upgrade (a browser cannot see the 403, only a close before `open`): once per
 *   run of refusals, so a broken endpoint does not turn every retry into a refresh.
 */
export type SocketState = 'idle' | 'connecting' | 'open' | 'reconnecting';

/** One event as it comes over the socket (the server's RealtimeEvent). */
export type SocketEvent = RealtimeEvent;

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
  /**
   * Renews the access token (the HTTP transport's shared refresh, so one is in flight at a time); resolves
   * once it is stored or failed. Without it the socket only ever retries with the stored token.
   */
  refreshToken?: () => Promise<unknown>;
  /** The clock for the token's expiry (tests). */
  now?: () => number;
}

export const RECONNECT_DELAY_MS = 1000;
export const HEARTBEAT_MS = 5 * 60 * 1000;
/** A token this close to its `exp` counts as expired: it would lapse between the check and the upgrade. */
export const TOKEN_EXPIRY_MARGIN_MS = 10_000;
const OPEN = 1;

/**
 * The `exp` of a JWT in ms, or undefined when the token is not a readable JWT (then only a refused upgrade
 * triggers a refresh). Reading the claim needs no key: the server still verifies the signature.
 */
export const tokenExpiresAt = (token: string): number | undefined => {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
};

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
  private readonly options: Required<Omit<RealtimeSocketOptions, 'WebSocketImpl' | 'refreshToken'>> & {
    WebSocketImpl: WebSocketConstructor;
    refreshToken: (() => Promise<unknown>) | undefined;
  };
  private ws: WebSocketLike | undefined;
  private started = false;
  private hasBeenOpen = false;
  /** A token refresh before a connect is under way. */
  private refreshing = false;
  /** Bumped by stop(), so a refresh that ends after it does not connect. */
  private epoch = 0;
  /** The last attempt closed before it opened: the server refused the upgrade (or was unreachable). */
  private refused = false;
  /** A refresh already ran for the current run of refusals. */
  private refreshedSinceRefusal = false;
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
      now: () => Date.now(),
      refreshToken: undefined,
      ...options,
    };
  }

  get state(): SocketState {
    return this.currentState;
  }

  /** Connects when there is a token; idempotent, so it can be called on every session change. */
  start(): void {
    this.started = true;
    if (this.ws || this.reconnectTimer || this.refreshing) return;
    this.connect();
  }

  /** Closes the connection and stops reconnecting (logout, expired session). */
  stop(): void {
    this.started = false;
    this.hasBeenOpen = false;
    this.refreshing = false;
    this.refused = false;
    this.refreshedSinceRefusal = false;
    this.epoch += 1;
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
    if (this.options.refreshToken && (this.isExpired(token) || (this.refused && !this.refreshedSinceRefusal))) {
      this.refreshThenConnect(this.options.refreshToken);
      return;
    }
    this.open(token);
  }

  private isExpired(token: string): boolean {
    const expiresAt = tokenExpiresAt(token);
    return expiresAt !== undefined && expiresAt - TOKEN_EXPIRY_MARGIN_MS <= this.options.now();
  }

  private refreshThenConnect(refreshToken: () => Promise<unknown>): void {
    this.refreshing = true;
    if (this.refused) this.refreshedSinceRefusal = true;
    const epoch = this.epoch;
    const done = () => {
      if (epoch !== this.epoch || !this.started) return; // stopped meanwhile
      this.refreshing = false;
      const token = this.options.getToken();
      if (!token)
        this.setState('idle'); // the refresh ended the session (401)
      else if (this.isExpired(token))
        this.scheduleReconnect(); // no new token: try again in a second
      else this.open(token);
    };
    refreshToken().then(done, done);
  }

  private open(token: string): void {
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
    let opened = false;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      opened = true;
      this.refused = false;
      this.refreshedSinceRefusal = false;
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
      if (!opened) this.refused = true;
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
    // Several events of one moment come as one frame `{batch: [...]}` (decisions D83): each in its order.
    const batch: unknown = (message as Partial<BatchFrame> | null)?.batch;
    if (Array.isArray(batch)) {
      for (const event of batch) this.dispatch(event);
      return;
    }
    if (isSocketEvent(message)) {
      this.dispatch(message);
      return;
    }
    // The server no longer knows this connection (functions/realtime/message.ts): connect again.
    if ((message as { error?: unknown } | null)?.error === 'ERR_SESSION_EXPIRED') this.ws?.close(4001, 'expired');
  }

  private dispatch(event: unknown): void {
    if (!isSocketEvent(event)) return;
    const handlers = this.channels.get(event.channel);
    if (handlers) for (const h of [...handlers]) callSafely(() => h(event));
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
