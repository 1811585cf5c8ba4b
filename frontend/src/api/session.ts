import type { LoginAnswer } from '@contracts/auth';

/**
 * The browser side of the session: the access token in localStorage (key `token`, as the spec's client
 * keeps it) and two notifications the app listens to. The refresh cookie is httpOnly and never seen here.
 */
export const TOKEN_STORAGE_KEY = 'token';

/** What POST /auth/login and POST /auth/refresh_token answer; `user` is typed by the auth area. */
export type SessionAnswer = Omit<LoginAnswer, 'user'> & { user: unknown };

type Listener<T> = (value: T) => void;

const listeners = {
  /** A new token was stored (login or refresh); carries the answer's user. */
  change: new Set<Listener<SessionAnswer>>(),
  /** The server ended the session (401) or the app logged out: the token is gone. */
  expired: new Set<Listener<void>>(),
};

const subscribe =
  <T>(set: Set<Listener<T>>) =>
  (listener: Listener<T>): (() => void) => {
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };

export const session = {
  getToken(): string | null {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  },

  /** Stores a token from a login or refresh answer and tells the listeners (e.g. the socket connects). */
  start(answer: SessionAnswer): void {
    localStorage.setItem(TOKEN_STORAGE_KEY, answer.token);
    for (const l of [...listeners.change]) l(answer);
  },

  /** Forgets the token and tells the listeners (the app goes to /login, the socket stops). */
  end(): void {
    localStorage.removeItem(TOKEN_STORAGE_KEY);
    for (const l of [...listeners.expired]) l();
  },

  onChange: subscribe(listeners.change),
  onExpired: subscribe(listeners.expired),
};

export type Session = typeof session;
