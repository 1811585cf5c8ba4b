import { describe, expect, it } from 'vitest';
import { clearedRefreshCookie, readCookie, refreshCookie } from '../../functions/core/auth/refresh-cookie';
import {
  checkSession,
  isCompanyInactive,
  isSubscriptionExpired,
  userFlagsOf,
} from '../../functions/core/auth/request-context';
import { rateLimitKeys, rateLimitWindow } from '../../functions/data/rate-limit-repository';
import type { SessionUser } from '../../functions/data/session-repository';

describe('the refresh cookie', () => {
  it('is httpOnly, SameSite=Strict, scoped to /api/auth, and Secure only when asked', () => {
    expect(refreshCookie('abc', 60, { secure: true })).toBe(
      'jrt=abc; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=60; Secure',
    );
    expect(refreshCookie('abc', 60, { secure: false })).not.toContain('Secure');
    expect(clearedRefreshCookie({ secure: false })).toBe('jrt=; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=0');
  });

  it('is read from API Gateway 2.0 cookies or from a cookie header', () => {
    expect(readCookie({ cookies: ['a=1', 'jrt=tok=en'] }, 'jrt')).toBe('tok=en');
    expect(readCookie({ headers: { cookie: 'a=1; jrt=xyz' } }, 'jrt')).toBe('xyz');
    expect(readCookie({ cookies: ['jrt='] }, 'jrt')).toBeNull();
    expect(readCookie({}, 'jrt')).toBeNull();
  });
});

describe('subscription expiry', () => {
  const now = new Date('2026-05-10T15:00:00Z');
  it('is by calendar day: the due date itself is still valid, the day after is not', () => {
    expect(isSubscriptionExpired({ id: 2, dueDate: '2026-05-10' }, now)).toBe(false);
    expect(isSubscriptionExpired({ id: 2, dueDate: '2026-05-09' }, now)).toBe(true);
    expect(isSubscriptionExpired({ id: 2, dueDate: '2026-05-09T23:59:59.000Z' }, now)).toBe(true);
  });

  it('never applies to company 1', () => {
    expect(isSubscriptionExpired({ id: 1, dueDate: '2000-01-01' }, now)).toBe(false);
  });
});

describe('company status', () => {
  it('is inactive only when status is false, and never for company 1', () => {
    expect(isCompanyInactive({ id: 2, status: false })).toBe(true);
    expect(isCompanyInactive({ id: 2, status: true })).toBe(false);
    expect(isCompanyInactive({ id: 2 } as { id: number; status: boolean })).toBe(false); // older items
    expect(isCompanyInactive({ id: 1, status: false })).toBe(false);
  });
});

describe('the request context', () => {
  it('turns the stored per-user flags into booleans and leaves absent ones out', () => {
    expect(
      userFlagsOf({ allTicket: 'enable', allowGroup: false, allHistoric: 'enabled', showDashboard: 'disabled' }),
    ).toEqual({ allTicket: true, allowGroup: false, allHistoric: true, showDashboard: false });
  });

  it("accepts a token only for the user's current session (none for none)", () => {
    const user = (sessionId?: string) => ({ id: 1, ...(sessionId ? { sessionId } : {}) }) as SessionUser;
    expect(() => checkSession({ sessionId: 's1' }, user('s1'))).not.toThrow();
    expect(() => checkSession({}, user())).not.toThrow();
    expect(() => checkSession({ sessionId: 's1' }, user('s2'))).toThrow(/Session expired/);
    expect(() => checkSession({ sessionId: 's1' }, user())).toThrow(/Session expired/);
    expect(() => checkSession({}, user('s1'))).toThrow(/Session expired/);
    expect(() => checkSession({ sessionId: 's1' }, null)).toThrow(/Session expired/);
  });
});

describe('rate-limit windows', () => {
  it('are fixed windows aligned to their length', () => {
    expect(rateLimitWindow(900, 1_000_000_123)).toEqual({ start: 999_900, end: 1_000_800 });
  });

  it('key the subject by hash, case-insensitively, never in clear', () => {
    const a = rateLimitKeys('login-email', 'Ana@Example.com', 900);
    expect(a).toEqual(rateLimitKeys('login-email', 'ana@example.com', 900));
    expect(a.pk).toMatch(/^RL#login-email#[\w-]{43}$/);
    expect(a.pk).not.toContain('ana');
    expect(a.sk).toBe('900');
  });
});
