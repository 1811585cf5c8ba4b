import { beforeAll, describe, expect, it } from 'vitest';
import { createQueue } from '../../functions/data/queue-repository';
import { countUsers, findUserIdByEmail, getUser } from '../../functions/data/user-repository';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';

let t: TestCompany;
beforeAll(async () => {
  t = await freshCompany();
});

const newUser = (extra: Record<string, unknown> = {}) => ({
  name: 'Carla Souza',
  email: `carla-${Math.random().toString(36).slice(2, 8)}@Test.Local`,
  password: 'Segredo1',
  ...extra,
});

describe('users API', () => {
  it("an admin creates a user with the spec's defaults; the answer never carries the password", async () => {
    const input = newUser();
    const res = await api(t.adminToken).post('/users', input);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Carla Souza',
      email: input.email.toLowerCase(),
      profile: 'user',
      startWork: '00:00',
      endWork: '23:59',
      allTicket: 'disable',
      userClosePendingTicket: 'enabled',
      allowConnections: 'disabled',
      defaultTheme: 'light',
      online: false,
      queues: [],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|Segredo1/);
  });

  it('bad input is a 400 with every field and the spec text, and writes nothing', async () => {
    const before = await countUsers(t.company.id);
    const res = await api(t.adminToken).post('/users', { name: 'A', email: 'nope', password: '123', profile: 'root' });
    expect(res.status).toBe(400);
    const byField = Object.fromEntries(
      (res.body.fields as { field: string; reason: string }[]).map((f) => [f.field, f.reason]),
    );
    expect(byField).toMatchObject({
      'body.name': 'Too Short!',
      'body.email': 'Invalid email',
      'body.password': 'Too Short!',
    });
    expect(byField['body.profile']).toBeDefined();
    expect(await countUsers(t.company.id)).toBe(before);
    expect(await findUserIdByEmail('nope')).toBeNull();
  });

  it('profile is compared case-insensitively; unknown queues are refused', async () => {
    const res = await api(t.adminToken).post('/users', newUser({ profile: 'ADMIN' }));
    expect(res.body.profile).toBe('admin');
    const badQueue = await api(t.adminToken).post('/users', newUser({ queueIds: [987654] }));
    expect(badQueue.status).toBe(400);
    expect(badQueue.body.fields[0].field).toBe('body.queueIds');
  });

  it('a taken e-mail (in any company) is a 409', async () => {
    const other = await freshCompany();
    const res = await api(t.adminToken).post('/users', newUser({ email: other.admin.email }));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
  });

  it('lists by name with accent-insensitive search; /users/list gives ids and names to everyone', async () => {
    const c = await freshCompany();
    for (const n of ['Zeca', 'Zélia', 'Zuleica']) await api(c.adminToken).post('/users', newUser({ name: n }));
    const search = await api(c.adminToken).get('/users', { searchParam: 'ze' });
    expect(search.body.users.map((u: { name: string }) => u.name)).toEqual(['Zeca', 'Zélia']);
    const names = await api(c.attendantToken).get('/users/list');
    expect(names.body).toEqual(expect.arrayContaining([{ id: c.attendant.id, name: 'Atendente' }]));
    expect(names.body[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
  });

  it('shows queues by name and colour', async () => {
    const q = await createQueue(t.company.id, { name: 'Financeiro', color: '#ff9900' });
    const res = await api(t.adminToken).post('/users', newUser({ queueIds: [q.id] }));
    expect(res.body.queues).toEqual([{ id: q.id, name: 'Financeiro', color: '#ff9900' }]);
  });
});

describe('who may change what', () => {
  it('a plain user edits their own name and theme, but not their profile or permissions', async () => {
    const me = api(t.attendantToken);
    const ok = await me.put(`/users/${t.attendant.id}`, { name: 'Atendente Renomeada', defaultTheme: 'dark' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Atendente Renomeada', defaultTheme: 'dark' });
    const escalate = await me.put(`/users/${t.attendant.id}`, { profile: 'admin', allowConnections: 'enabled' });
    expect(escalate.status).toBe(403);
    expect((await getUser(t.company.id, t.attendant.id))?.profile).toBe('user');
  });

  it('a plain user cannot read or edit another user, and cannot list or create users', async () => {
    const me = api(t.attendantToken);
    expect((await me.get(`/users/${t.admin.id}`)).status).toBe(403);
    expect((await me.put(`/users/${t.admin.id}`, { name: 'Hacked' })).status).toBe(403);
    expect((await me.get('/users')).status).toBe(403);
    expect((await me.post('/users', newUser())).status).toBe(403);
  });

  it('an admin changes permissions and e-mail; the old e-mail is free again', async () => {
    const created = (await api(t.adminToken).post('/users', newUser())).body;
    const newEmail = `novo-${Math.random().toString(36).slice(2, 8)}@test.local`;
    const res = await api(t.adminToken).put(`/users/${created.id}`, { email: newEmail, allowConnections: 'enabled' });
    expect(res.body).toMatchObject({ email: newEmail, allowConnections: 'enabled' });
    expect(await findUserIdByEmail(created.email)).toBeNull();
    expect(await findUserIdByEmail(newEmail)).toEqual({ companyId: t.company.id, userId: created.id });
  });

  it('an admin deletes a user (freeing the e-mail and a plan seat) but not themself', async () => {
    const created = (await api(t.adminToken).post('/users', newUser())).body;
    const before = await countUsers(t.company.id);
    expect((await api(t.adminToken).delete(`/users/${created.id}`)).status).toBe(200);
    expect(await countUsers(t.company.id)).toBe(before - 1);
    expect(await findUserIdByEmail(created.email)).toBeNull();
    expect((await api(t.adminToken).get(`/users/${created.id}`)).status).toBe(404);
    const self = await api(t.adminToken).delete(`/users/${t.admin.id}`);
    expect(self.status).toBe(400);
    expect(self.body.error).toBe('ERR_CANNOT_DELETE_SELF');
  });
});

describe('the plan limit on users', () => {
  it('a company on a 3-user plan cannot create a 4th user, and deleting one frees a seat', async () => {
    const c = await freshCompany(undefined, { planId: 2 }); // Básico: 3 users (seeded)
    expect(await countUsers(c.company.id)).toBe(2);
    const third = await api(c.adminToken).post('/users', newUser());
    expect(third.status).toBe(201);
    const fourth = await api(c.adminToken).post('/users', newUser());
    expect(fourth.status).toBe(403);
    expect(fourth.body).toMatchObject({ error: 'ERR_PLAN_LIMIT_USERS', details: { limit: 3 } });
    expect(await countUsers(c.company.id)).toBe(3);
    await api(c.adminToken).delete(`/users/${third.body.id}`);
    expect((await api(c.adminToken).post('/users', newUser())).status).toBe(201);
  });
});
