import type { AuthUser } from './api/auth';
import { session as browserSession, type Session } from './api/session';

/**
 * The signed-in user as the last session answer carried it (login and refresh answer `{token, user}`), so
 * the app shell has the user right after a login without asking GET /auth/me again. Built once in
 * main.tsx (it must hear the login, which happens before the shell's chunk loads); a reload starts empty
 * and the shell fills it from GET /auth/me. A logout or a 401 empties it.
 */
export interface SessionUserStore {
  get(): AuthUser | null;
  set(user: AuthUser | null): void;
  subscribe(listener: () => void): () => void;
  /**
   * Reads the user with `load` (GET /auth/me) unless a read is already under way, which it shares: main.tsx
   * starts one for a returning user before the shell's chunk has loaded, and the shell joins it. The answer
   * is stored; a failure rejects every caller and the next call tries again.
   */
  fetch(load: () => Promise<AuthUser>): Promise<AuthUser>;
}

export const createSessionUserStore = (session: Session = browserSession): SessionUserStore => {
  let current: AuthUser | null = null;
  let reading: Promise<AuthUser> | undefined;
  const listeners = new Set<() => void>();
  const set = (user: AuthUser | null) => {
    if (user === current) return;
    current = user;
    for (const l of [...listeners]) l();
  };
  session.onChange((answer) => set(answer.user as AuthUser));
  session.onExpired(() => set(null));
  return {
    get: () => current,
    set,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    fetch(load) {
      reading ??= load().then(
        (user) => {
          reading = undefined;
          set(user);
          return user;
        },
        (error: unknown) => {
          reading = undefined;
          throw error;
        },
      );
      return reading;
    },
  };
};
