import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD_RESET_LIMITS,
  RESET_CODE_MAX_ATTEMPTS,
  RESET_CODE_TTL_SECONDS,
  resetCodeHash,
} from '../../functions/core/auth/password-reset-service';
import { db, tableName } from '../../functions/data/client';
import { getResetCode, resetCodeKeys, saveResetCode } from '../../functions/data/password-reset-repository';
import { getUser, type User } from '../../functions/data/user-repository';
import { freshCompany, userWithPassword, type TestCompany } from '../helpers/fixtures';
import { latestResetCode, outboxMessages } from '../helpers/outbox';
import { sessionClient, type SessionClient } from '../helpers/session-client';

const OLD_PASSWORD = 'Antiga@2026';
const NEW_PASSWORD = 'N0vaSenha/1'; // a '/' too: the client percent-encodes the path segment
const RULE = 'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.';

let t: TestCompany;
beforeAll(async () => {
  t = await freshCompany();
});

const segment = encodeURIComponent;
const forgot = (client: SessionClient, email: string) => client.call('POST', `/forgetpassword/${segment(email)}`);
const reset = (client: SessionClient, email: string, code: string, password = NEW_PASSWORD) =>
  client.call('POST', `/resetpasswords/${segment(email)}/${segment(code)}/${segment(password)}`);
const login = (client: SessionClient, email: string, password: string) =>
  client.call('POST', '/auth/login', { body: { email, password } });

/** A code that is certainly not `code`. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** A user of the file's company with OLD_PASSWORD; each test takes its own (the limits count per e-mail). */
const someone = (): Promise<User> => userWithPassword(t.company.id, OLD_PASSWORD);

describe('POST /forgetpassword/{email}', () => {
  it("answers an unknown e-mail with 404 'Email não encontrado' and sends nothing", async () => {
    const email = `ninguem-${Date.now()}@test.local`;
    const res = await forgot(sessionClient(), email);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERR_NOT_FOUND', message: 'Email não encontrado' });
    expect(await outboxMessages(email)).toEqual([]);
  });

  it('e-mails a 6-digit code, in Portuguese, with its validity, to the address in any case', async () => {
    const user = await someone();
    const res = await forgot(sessionClient(), user.email.toUpperCase());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ message: 'Email enviado com sucesso!' });
    const [mail, ...more] = await outboxMessages(user.email);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ to: user.email, from: 'no-reply@zapdesk.local' });
    expect(mail!.subject).toBe('Código para redefinir sua senha');
    expect(mail!.text).toMatch(/Seu código de verificação é: \d{6}\n/);
    expect(mail!.text).toContain(`${RESET_CODE_TTL_SECONDS / 60} minutos`);
  });

  it('answers a malformed e-mail with 400 naming the field', async () => {
    const res = await forgot(sessionClient(), 'nao-e-email');
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ field: 'params.email', reason: 'E-mail inválido' }]);
  });

  it('stores the code only as a keyed hash, never in plain text', async () => {
    const user = await someone();
    const requestedFrom = Date.now();
    await forgot(sessionClient(), user.email);
    const requestedUntil = Date.now();
    const code = await latestResetCode(user.email);

    const raw = (
      await db().send(new GetCommand({ TableName: tableName(), Key: resetCodeKeys(user.email), ConsistentRead: true }))
    ).Item!;
    expect(raw).toBeDefined();
    for (const [name, value] of Object.entries(raw)) expect(String(value), name).not.toBe(code);
    expect(raw.codeHash).toBe(await resetCodeHash(user.email, code));
    // Keyed: not the plain sha256 of the code, which a million guesses would reverse.
    for (const encoding of ['hex', 'base64', 'base64url'] as const) {
      expect(raw.codeHash).not.toBe(createHash('sha256').update(code).digest(encoding));
    }
    expect(raw).toMatchObject({ companyId: t.company.id, userId: user.id, attempts: 0 });
    expect(raw.ttl).toBe(Math.ceil(Date.parse(raw.expiresAt as string) / 1000));
    // Valid exactly RESET_CODE_TTL_SECONDS from when the request was served (bracketed by the call).
    const expiresAt = Date.parse(raw.expiresAt as string);
    expect(expiresAt).toBeGreaterThanOrEqual(requestedFrom + RESET_CODE_TTL_SECONDS * 1000);
    expect(expiresAt).toBeLessThanOrEqual(requestedUntil + RESET_CODE_TTL_SECONDS * 1000);
  });
});

describe('POST /resetpasswords/{email}/{token}/{newPassword}', () => {
  it('sets the new password with the e-mailed code: the old password and the old session stop working', async () => {
    const user = await someone();
    const browser = sessionClient();
    const before = await login(browser, user.email, OLD_PASSWORD);
    expect(before.status).toBe(200);

    const elsewhere = sessionClient();
    expect((await forgot(elsewhere, user.email)).status).toBe(200);
    const code = await latestResetCode(user.email);
    const res = await reset(elsewhere, user.email, code);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ message: 'Senha redefinida com sucesso.' });

    // The session that was open ends: its access token, then its refresh token.
    const me = await browser.call('GET', '/auth/me', { token: before.body.token });
    expect(me.status).toBe(403);
    expect(me.body.error).toBe('ERR_SESSION_EXPIRED');
    expect((await browser.call('POST', '/auth/refresh_token')).status).toBe(401);

    const old = await login(sessionClient(), user.email, OLD_PASSWORD);
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('ERR_INVALID_CREDENTIALS');
    const fresh = await login(sessionClient(), user.email, NEW_PASSWORD);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body.user.id).toBe(user.id);

    // A used code is gone: it cannot set a password twice.
    expect(await getResetCode(user.email)).toBeNull();
    const again = await reset(elsewhere, user.email, code, 'Outra@2026x');
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('ERR_INVALID_RESET_CODE');
  });

  it('accepts only the latest code', async () => {
    const user = await someone();
    const client = sessionClient();
    await forgot(client, user.email);
    const first = await latestResetCode(user.email);
    await forgot(client, user.email);
    const second = await latestResetCode(user.email);
    expect((await outboxMessages(user.email)).length).toBe(2);

    if (first !== second) {
      const stale = await reset(client, user.email, first);
      expect(stale.status).toBe(400);
      expect(stale.body.error).toBe('ERR_INVALID_RESET_CODE');
    }
    expect((await reset(client, user.email, second)).status).toBe(200);
  });

  it(`answers a wrong code with 400 ERR_INVALID_RESET_CODE, and ${RESET_CODE_MAX_ATTEMPTS} wrong codes burn the right one`, async () => {
    const user = await someone();
    const client = sessionClient();
    await forgot(client, user.email);
    const code = await latestResetCode(user.email);

    for (let attempt = 1; attempt <= RESET_CODE_MAX_ATTEMPTS; attempt += 1) {
      const wrong = await reset(client, user.email, otherThan(code));
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({
        error: 'ERR_INVALID_RESET_CODE',
        fields: [{ field: 'params.token', reason: expect.any(String) }],
      });
      if (attempt < RESET_CODE_MAX_ATTEMPTS) expect((await getResetCode(user.email))?.attempts).toBe(attempt);
    }
    expect(await getResetCode(user.email)).toBeNull();
    const late = await reset(client, user.email, code);
    expect(late.status).toBe(400);
    expect(late.body.error).toBe('ERR_INVALID_RESET_CODE');
    expect((await login(sessionClient(), user.email, OLD_PASSWORD)).status).toBe(200);
  });

  it('refuses an expired code, though the item is still there (the TTL sweep runs late)', async () => {
    const user = await someone();
    const client = sessionClient();
    const stored = (expiresAt: Date) =>
      resetCodeHash(user.email, '123456').then((codeHash) =>
        saveResetCode(user.email, {
          companyId: t.company.id,
          userId: user.id,
          codeHash,
          expiresAt: expiresAt.toISOString(),
        }),
      );
    await stored(new Date(Date.now() - 1000));
    const expired = await reset(client, user.email, '123456');
    expect(expired.status).toBe(400);
    expect(expired.body.error).toBe('ERR_INVALID_RESET_CODE');
    expect((await login(sessionClient(), user.email, OLD_PASSWORD)).status).toBe(200);

    // The same code, not expired, works: the refusal was the expiry.
    await stored(new Date(Date.now() + 60_000));
    expect((await reset(client, user.email, '123456')).status).toBe(200);
  });

  it.each([
    ['too short', 'Ab1defg'],
    ['without upper case', 'semmaiuscula1'],
    ['without lower case', 'SEMMINUSCULA1'],
    ['without a digit', 'SemNumeroAqui'],
  ])('refuses a new password %s with 400 and the spec message, changing nothing', async (_case, weak) => {
    const user = await someone();
    const client = sessionClient();
    await forgot(client, user.email);
    const code = await latestResetCode(user.email);
    const storedBefore = await getUser(t.company.id, user.id);

    const res = await reset(client, user.email, code, weak);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: [{ field: 'params.newPassword', reason: RULE }],
    });
    expect(await getUser(t.company.id, user.id)).toEqual(storedBefore);
    expect((await getResetCode(user.email))?.attempts).toBe(0); // the code was not even checked
    expect((await reset(client, user.email, code)).status).toBe(200);
  });

  it('refuses a new password over 50 characters', async () => {
    const user = await someone();
    const res = await reset(sessionClient(), user.email, '123456', `Aa1${'x'.repeat(48)}`);
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ field: 'params.newPassword', reason: 'Muito longo!' }]);
  });
});

describe('password-reset rate limits', () => {
  it(`allows ${PASSWORD_RESET_LIMITS.forgotEmail.max} codes per e-mail an hour, then 429 with Retry-After`, async () => {
    const user = await someone();
    for (let i = 0; i < PASSWORD_RESET_LIMITS.forgotEmail.max; i += 1) {
      expect((await forgot(sessionClient(), user.email)).status).toBe(200);
    }
    const refused = await forgot(sessionClient(), user.email);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('ERR_TOO_MANY_REQUESTS');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(PASSWORD_RESET_LIMITS.forgotEmail.windowSeconds);
    expect(refused.body.details).toEqual({ retryAfter });
    expect((await outboxMessages(user.email)).length).toBe(PASSWORD_RESET_LIMITS.forgotEmail.max);
  });

  it('counts unknown e-mails against the address: after its limit, a known e-mail is refused too', async () => {
    const client = sessionClient();
    for (let i = 0; i < PASSWORD_RESET_LIMITS.forgotIp.max; i += 1) {
      expect((await forgot(client, `sonda-${i}-${Date.now()}@test.local`)).status).toBe(404);
    }
    const user = await someone();
    const refused = await forgot(client, user.email);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await outboxMessages(user.email)).toEqual([]);
    expect((await forgot(sessionClient(), user.email)).status).toBe(200); // another address goes on
  });

  it(`allows ${PASSWORD_RESET_LIMITS.resetEmail.max} reset attempts per e-mail an hour, then 429`, async () => {
    const user = await someone();
    for (let i = 0; i < PASSWORD_RESET_LIMITS.resetEmail.max; i += 1) {
      expect((await reset(sessionClient(), user.email, '000000')).status).toBe(400);
    }
    const refused = await reset(sessionClient(), user.email, '000000');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
