import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LOGIN_LIMITS, REFRESH_REUSE_GRACE_SECONDS } from '../../functions/core/auth/auth-service';
import { db, tableName } from '../../functions/data/client';
import { companyKeys, getCompany } from '../../functions/data/company-repository';
import { refreshTokenHash, refreshTokenKeys } from '../../functions/data/session-repository';
import { api, freshCompany, userWithPassword, type TestCompany } from '../helpers/fixtures';
import { randomLoopback, sessionClient, type SessionClient } from '../helpers/session-client';
import { connectSocket, openSockets } from '../helpers/ws-client';

const PASSWORD = 'Senha@2026';
let t: TestCompany;
let expired: TestCompany;
// Every login of this file leaves from its own loopback address: its per-IP budget is its own.
const fileIp = randomLoopback();

beforeAll(async () => {
  [t, expired] = await Promise.all([
    freshCompany(),
    freshCompany(undefined, { dueDate: new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10) }),
  ]);
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const loggedIn = async (email: string, client: SessionClient = sessionClient(fileIp)) => {
  const res = await client.call('POST', '/auth/login', { body: { email, password: PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { client, token: res.body.token as string, user: res.body.user, res };
};

describe('POST /auth/login', () => {
  it('answers a token and the spec user, and sets the refresh token as an httpOnly cookie', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD, 'admin');
    const { res, token } = await loggedIn(user.email);
    expect(token.split('.')).toHaveLength(3);
    expect(res.body.user).toMatchObject({
      id: user.id,
      name: user.name,
      email: user.email,
      profile: 'admin',
      super: false,
      companyId: t.company.id,
      company: { id: t.company.id, name: t.company.name, dueDate: t.company.dueDate },
      companieSettings: [],
      profileImage: null,
      queues: [],
      allTicket: 'disable',
      userClosePendingTicket: 'enabled',
      defaultTheme: 'light',
      defaultMenu: 'open',
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/passwordHash|sessionId|scrypt/);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^jrt=[\w-]{40,};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/api/auth');
    expect(cookie).not.toContain('Secure'); // the test stage serves plain http (D18)
    expect(text).not.toContain(cookie.slice(4, 40)); // the refresh token is never in the body
  });

  it('accepts the e-mail in any case', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD);
    await loggedIn(user.email.toUpperCase());
  });

  it('answers a wrong password and an unknown e-mail with the same 401 ERR_INVALID_CREDENTIALS', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD);
    const client = sessionClient(fileIp);
    const wrong = await client.call('POST', '/auth/login', { body: { email: user.email, password: 'Errada@1' } });
    const unknown = await client.call('POST', '/auth/login', {
      body: { email: 'ninguem-aqui@test.local', password: PASSWORD },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('ERR_INVALID_CREDENTIALS');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('answers a missing password with 400 naming the field', async () => {
    const res = await sessionClient(fileIp).call('POST', '/auth/login', { body: { email: 'a@b.c' } });
    expect(res.status).toBe(400);
    expect(res.body.fields.map((f: { field: string }) => f.field)).toEqual(['body.password']);
  });

  it('never puts internal fields into the users API after a login', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD);
    const { token } = await loggedIn(user.email);
    const shown = await api(token).get(`/users/${user.id}`);
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).not.toMatch(/passwordHash|sessionId|lastSeenAt/);
  });
});

describe('GET /auth/me', () => {
  it('answers the signed-in user, and 401 without a token', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD);
    const { token } = await loggedIn(user.email);
    const res = await api(token).get('/auth/me');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, company: { id: t.company.id } });
    expect(JSON.stringify(res.body)).not.toContain('passwordHash');
    expect((await api().get('/auth/me')).status).toBe(401);
  });
});

describe('POST /auth/refresh_token', () => {
  it('rotates the refresh token and answers a new access token and the user', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD);
    const { client } = await loggedIn(user.email);
    const first = client.cookies.get('jrt');
    const res = await client.call('POST', '/auth/refresh_token');
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, company: { id: t.company.id } });
    expect(client.cookies.get('jrt')).toBeDefined();
    expect(client.cookies.get('jrt')).not.toBe(first);
    expect((await api(res.body.token).get('/auth/me')).status).toBe(200);
  });

  it('answers 401 without the cookie', async () => {
    const res = await sessionClient(fileIp).call('POST', '/auth/refresh_token');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
  });

  /** Moves a refresh token's first use back in time, past the reuse grace (instead of waiting it out). */
  const usedLongAgo = (token: string) =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: refreshTokenKeys(refreshTokenHash(token)),
        UpdateExpression: 'SET usedAt = :then',
        ExpressionAttributeValues: {
          ':then': new Date(Date.now() - (REFRESH_REUSE_GRACE_SECONDS + 1) * 1000).toISOString(),
        },
      }),
    );

  it('two tabs refreshing with the same cookie at the same moment both get through, and the session lives on', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD);
    const { client } = await loggedIn(user.email);
    const shared = client.cookies.get('jrt')!;
    const otherTab = sessionClient(fileIp);
    otherTab.cookies.set('jrt', shared);

    const [a, b] = await Promise.all([
      client.call('POST', '/auth/refresh_token'),
      otherTab.call('POST', '/auth/refresh_token'),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await api(a.body.token).get('/auth/me')).status).toBe(200);
    expect((await api(b.body.token).get('/auth/me')).status).toBe(200);
    // Whichever cookie the browser kept refreshes again.
    expect((await client.call('POST', '/auth/refresh_token')).status).toBe(200);
    expect((await otherTab.call('POST', '/auth/refresh_token')).status).toBe(200);
  });

  it('a replayed refresh token ends the whole session: even the newest token and access token stop working', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD);
    const { client } = await loggedIn(user.email);
    const stolen = client.cookies.get('jrt')!;
    const rotated = await client.call('POST', '/auth/refresh_token');
    expect(rotated.status).toBe(200);
    const newest = client.cookies.get('jrt')!;
    await usedLongAgo(stolen);

    const thief = sessionClient(randomLoopback());
    thief.cookies.set('jrt', stolen);
    const replay = await thief.call('POST', '/auth/refresh_token');
    expect(replay.status).toBe(401);

    const owner = await client.call('POST', '/auth/refresh_token');
    expect(client.cookies.get('jrt') ?? newest).toBe(newest);
    expect(owner.status).toBe(401);
    const access = await api(rotated.body.token).get('/auth/me');
    expect(access.status).toBe(403);
    expect(access.body.error).toBe('ERR_SESSION_EXPIRED');
  });
});

describe('DELETE /auth/logout', () => {
  it('clears the cookie and ends the session', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD);
    const { client, token } = await loggedIn(user.email);
    const refresh = client.cookies.get('jrt')!;
    const res = await client.call('DELETE', '/auth/logout');
    expect(res.status).toBe(204);
    expect(res.headers.get('set-cookie')).toMatch(/^jrt=; .*Max-Age=0/);
    expect(client.cookies.has('jrt')).toBe(false);

    client.cookies.set('jrt', refresh);
    expect((await client.call('POST', '/auth/refresh_token')).status).toBe(401);
    const access = await api(token).get('/tags');
    expect(access.status).toBe(403);
    expect(access.body.error).toBe('ERR_SESSION_EXPIRED');
  });

  it('answers 204 without a cookie too', async () => {
    expect((await sessionClient(fileIp).call('DELETE', '/auth/logout')).status).toBe(204);
  });
});

describe('one session per user', () => {
  it('a login elsewhere ends the older session and tells its sockets', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD);
    const first = await loggedIn(user.email);
    const socket = await connectSocket(`${inject('wsUrl')}?token=${first.token}`);

    const second = await loggedIn(user.email, sessionClient(randomLoopback()));

    expect(await socket.next()).toEqual({
      channel: `company-${t.company.id}-auth`,
      action: 'update',
      user: { id: user.id },
    });
    const oldAccess = await api(first.token).get('/auth/me');
    expect(oldAccess.status).toBe(403);
    expect(oldAccess.body.error).toBe('ERR_SESSION_EXPIRED');
    expect((await first.client.call('POST', '/auth/refresh_token')).status).toBe(401);

    expect((await api(second.token).get('/auth/me')).status).toBe(200);
    expect((await second.client.call('POST', '/auth/refresh_token')).status).toBe(200);
  });
});

describe('an expired subscription', () => {
  it('still logs in, answers ERR_SUBSCRIPTION_EXPIRED with the due date elsewhere, and keeps /auth/*', async () => {
    const user = await userWithPassword(expired.company.id, PASSWORD, 'admin');
    const { client, token, user: shown } = await loggedIn(user.email);
    expect(shown.company.dueDate).toBe(expired.company.dueDate);

    const tags = await api(token).get('/tags');
    expect(tags.status).toBe(403);
    expect(tags.body).toMatchObject({
      error: 'ERR_SUBSCRIPTION_EXPIRED',
      details: { dueDate: expired.company.dueDate },
    });
    expect((await api(token).get('/auth/me')).status).toBe(200);
    expect((await client.call('POST', '/auth/refresh_token')).status).toBe(200);
    expect((await api(token).get('/version')).status).toBe(200);
  });
});

describe('login rate limits', () => {
  it('after 10 failures for one e-mail the next attempt is 429 with Retry-After, even with the right password', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD);
    const client = sessionClient(randomLoopback());
    for (let i = 0; i < LOGIN_LIMITS.email.max; i += 1) {
      const res = await client.call('POST', '/auth/login', { body: { email: user.email, password: 'Errada@1' } });
      expect(res.status).toBe(401);
    }
    const limited = await client.call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('ERR_TOO_MANY_REQUESTS');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_LIMITS.email.windowSeconds);
    expect(limited.body.details.retryAfter).toBe(retryAfter);
  });

  it(`after ${LOGIN_LIMITS.ip.max} failures from one address its next attempt is 429; other addresses go on`, async () => {
    const ip = randomLoopback();
    const attacker = sessionClient(ip);
    for (let i = 0; i < LOGIN_LIMITS.ip.max; i += 1) {
      const res = await attacker.call('POST', '/auth/login', {
        body: { email: `tentativa-${i}-${ip}@test.local`, password: 'Errada@1' },
      });
      expect(res.status).toBe(401);
    }
    const user = await userWithPassword(t.company.id, PASSWORD);
    const limited = await attacker.call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await loggedIn(user.email, sessionClient(randomLoopback()));
  });

  it('successful logins do not use up the limit', async () => {
    const user = await userWithPassword(t.company.id, PASSWORD);
    const client = sessionClient(randomLoopback());
    for (let i = 0; i <= LOGIN_LIMITS.email.max; i += 1) await loggedIn(user.email, client);
  });
});

/** What the platform owner's company switch does (the companies API comes with the administration issue). */
const setCompanyStatus = (companyId: number, status: boolean) =>
  db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: companyKeys(companyId),
      UpdateExpression: 'SET #status = :s',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':s': status },
    }),
  );

describe('an inactive company (status false)', () => {
  it('cannot log in, refresh or use a token it still holds, and can again once reactivated', async () => {
    const inactive = await freshCompany();
    const user = await userWithPassword(inactive.company.id, PASSWORD, 'admin');
    const before = await loggedIn(user.email);
    await setCompanyStatus(inactive.company.id, false);

    // Only the right password learns why.
    const client = sessionClient(randomLoopback());
    const wrong = await client.call('POST', '/auth/login', { body: { email: user.email, password: 'Errada@1' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('ERR_INVALID_CREDENTIALS');
    const refused = await client.call('POST', '/auth/login', { body: { email: user.email, password: PASSWORD } });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'ERR_COMPANY_INACTIVE', message: 'The company is inactive' });
    expect(refused.headers.get('set-cookie')).toBeNull();

    // A token from before: 403 (the client refreshes once), and the refresh's 401 ends the session (D9).
    const me = await api(before.token).get('/auth/me');
    expect(me.status).toBe(403);
    expect(me.body.error).toBe('ERR_COMPANY_INACTIVE');
    const refresh = await before.client.call('POST', '/auth/refresh_token');
    expect(refresh.status).toBe(401);
    expect(refresh.body.error).toBe('ERR_COMPANY_INACTIVE');

    await setCompanyStatus(inactive.company.id, true);
    await loggedIn(user.email, sessionClient(randomLoopback()));
  });
});

describe("the company's lastLogin", () => {
  it('is set by a login, and rewritten at most once an hour', async () => {
    const company = await freshCompany();
    expect((await getCompany(company.company.id))?.lastLogin).toBeUndefined();
    const user = await userWithPassword(company.company.id, PASSWORD);

    const before = Date.now();
    await loggedIn(user.email);
    const first = (await getCompany(company.company.id))?.lastLogin;
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(first!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(first!)).toBeLessThanOrEqual(Date.now());

    await loggedIn(user.email);
    expect((await getCompany(company.company.id))?.lastLogin).toBe(first);
  });
});
