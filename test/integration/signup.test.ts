import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { TRIAL_DAYS } from '../../functions/core/auth/signup-service';
import { db, tableName } from '../../functions/data/client';
import { getCompany } from '../../functions/data/company-repository';
import { searchForm } from '../../functions/data/keys';
import { findUserIdByEmail } from '../../functions/data/user-repository';
import { api, freshCompany } from '../helpers/fixtures';
import { sessionClient } from '../helpers/session-client';

const BASIC_PLAN = 2; // seeded: Básico, public
const PLATFORM_PLAN = 1; // seeded: Plataforma, private

const form = (extra: Record<string, unknown> = {}) => ({
  name: 'Marina Lopes',
  companyName: 'Floricultura Ipê',
  email: `marina-${Math.random().toString(36).slice(2, 8)}@Flor.Local`,
  password: 'Flores123',
  phone: '+55 (11) 98888-7777',
  planId: BASIC_PLAN,
  ...extra,
});

/** Companies whose name starts with `name`, through the companies-by-name index the super listing reads. */
const companiesNamed = async (name: string) =>
  (
    await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk AND begins_with(gsi2sk, :name)',
        ExpressionAttributeValues: { ':pk': 'COMPANIES', ':name': searchForm(name) },
      }),
    )
  ).Items ?? [];

describe('sign-up', () => {
  it('creates a company on a trial of the chosen public plan, whose admin can log in at once', async () => {
    const client = sessionClient();
    const input = form();
    const res = await client.call('POST', '/auth/signup', { body: input });
    expect(res.status).toBe(201);
    const expectedDue = new Date(Date.now() + TRIAL_DAYS * 86_400_000).toISOString().slice(0, 10);
    expect(res.body).toEqual({ companyId: expect.any(Number), userId: 1, dueDate: expectedDue });
    const company = await getCompany(res.body.companyId);
    expect(company).toMatchObject({
      name: 'Floricultura Ipê',
      planId: BASIC_PLAN,
      recurrence: 'MENSAL',
      dueDate: expectedDue,
    });

    const login = await client.call('POST', '/auth/login', { body: { email: input.email, password: input.password } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({
      profile: 'admin',
      email: input.email.toLowerCase(),
      company: { name: 'Floricultura Ipê' },
    });
  });

  it("bad input answers 400 with the spec's texts and creates nothing", async () => {
    const res = await sessionClient().call('POST', '/auth/signup', {
      body: { name: 'M', companyName: 'x'.repeat(51), email: 'marina@', password: '123', phone: '', planId: 0 },
    });
    const almost = form({ companyName: `Quase ${Math.random().toString(36).slice(2, 8)}`, password: '123' });
    const second = await sessionClient().call('POST', '/auth/signup', { body: almost });
    expect(res.status).toBe(400);
    const byField = Object.fromEntries(
      (res.body.fields as { field: string; reason: string }[]).map((f) => [f.field, f.reason]),
    );
    expect(byField).toMatchObject({
      'body.name': 'Muito curto!',
      'body.companyName': 'Muito longo!',
      'body.email': 'E-mail inválido',
      'body.password': 'Muito curto!',
      'body.phone': 'Obrigatório',
      'body.planId': 'Obrigatório',
    });
    expect(second.status).toBe(400);
    expect(await findUserIdByEmail(almost.email as string)).toBeNull();
    expect(await companiesNamed(almost.companyName as string)).toEqual([]);
  });

  it('a private or unknown plan is refused', async () => {
    for (const planId of [PLATFORM_PLAN, 424242]) {
      const res = await sessionClient().call('POST', '/auth/signup', { body: form({ planId }) });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([{ field: 'body.planId', reason: 'not an available plan' }]);
    }
  });

  it('a taken e-mail is a 409 and leaves no company behind', async () => {
    const existing = await freshCompany();
    const companyName = `Rejeitada ${Math.random().toString(36).slice(2, 8)}`;
    const res = await sessionClient().call('POST', '/auth/signup', {
      body: form({ email: existing.admin.email, companyName }),
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    expect(await companiesNamed(companyName)).toEqual([]);
    expect(await findUserIdByEmail(existing.admin.email)).toEqual({
      companyId: existing.company.id,
      userId: existing.admin.id,
    });
  });

  it('is refused while the platform owner has user creation disabled', async () => {
    const owner = await findUserIdByEmail('owner@zapdesk.local');
    const { signAccessToken } = await import('../../functions/core/access-token');
    const superToken = await signAccessToken({ companyId: 1, userId: owner!.userId, profile: 'admin', super: true });
    await api(superToken).put('/settings/userCreation', { key: 'userCreation', value: 'disabled' });
    try {
      const res = await sessionClient().call('POST', '/auth/signup', { body: form() });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_USER_CREATION_DISABLED');
    } finally {
      await api(superToken).put('/settings/userCreation', { key: 'userCreation', value: 'enabled' });
    }
  });

  it('one address may sign up 10 companies an hour, then gets 429 with Retry-After', async () => {
    const client = sessionClient();
    for (let i = 0; i < 10; i += 1)
      expect((await client.call('POST', '/auth/signup', { body: form() })).status).toBe(201);
    const refused = await client.call('POST', '/auth/signup', { body: form() });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
