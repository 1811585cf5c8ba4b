import { describe, expect, it } from 'vitest';
import type { AuthUser } from './api/auth';
import type { Session } from './api/session';
import { createSessionUserStore } from './session-user';

const quietSession = { onChange: () => () => undefined, onExpired: () => () => undefined } as unknown as Session;
const ana = { id: 7, name: 'Ana Atendente' } as AuthUser;

describe('session user store', () => {
  it('shares one GET /auth/me between the start-up read and the shell, and keeps its answer', async () => {
    const store = createSessionUserStore(quietSession);
    let calls = 0;
    let answer: (user: AuthUser) => void = () => undefined;
    const load = () => {
      calls += 1;
      return new Promise<AuthUser>((resolve) => (answer = resolve));
    };

    const atStart = store.fetch(load);
    const fromShell = store.fetch(load);
    answer(ana);

    expect(await atStart).toBe(ana);
    expect(await fromShell).toBe(ana);
    expect(calls).toBe(1);
    expect(store.get()).toBe(ana);
  });

  it('lets the next read try again after a failure', async () => {
    const store = createSessionUserStore(quietSession);
    const failed = store.fetch(() => Promise.reject(new Error('network')));

    await expect(failed).rejects.toThrow('network');
    expect(await store.fetch(() => Promise.resolve(ana))).toBe(ana);
    expect(store.get()).toBe(ana);
  });
});
