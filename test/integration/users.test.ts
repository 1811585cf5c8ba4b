import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createQueue } from '../../functions/data/queue-repository';
import { countUsers, findUserIdByEmail, getUser } from '../../functions/data/user-repository';
import { api, freshCompany, userWithPassword, type TestCompany } from '../helpers/fixtures';
import { someConnection } from '../helpers/connections';
import { connectSocket, openSockets, type TestSocket } from '../helpers/ws-client';
import { signAccessToken } from '../../functions/core/access-token';

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

describe("a user's default connection", () => {
  it("must be one of the company's connections: another company's or a missing one is a 400 and nothing changes", async () => {
    const other = await freshCompany();
    const foreign = await someConnection(other.company.id);
    const own = await someConnection(t.company.id);

    for (const whatsappId of [foreign.id, 999_999_999]) {
      const res = await api(t.adminToken).put(`/users/${t.attendant.id}`, { whatsappId });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual([{ field: 'body.whatsappId', reason: `no connection ${whatsappId}` }]);
    }
    expect((await getUser(t.company.id, t.attendant.id))?.whatsappId).toBeNull();

    const ok = await api(t.adminToken).put(`/users/${t.attendant.id}`, { whatsappId: own.id });
    expect(ok.status).toBe(200);
    expect(ok.body.whatsappId).toBe(own.id);
  });
});

describe('company-{id}-user events', () => {
  let c: TestCompany;
  let admin: TestSocket;
  let subject: TestSocket;
  let bystander: TestSocket;

  /** Nothing is queued for this socket: a ping's pong is the very next message. */
  const expectNothingPending = async (s: TestSocket) => {
    s.send({ action: 'ping' });
    expect(await s.next()).toEqual({ action: 'pong' });
  };

  beforeAll(async () => {
    c = await freshCompany();
    const other = await userWithPassword(c.company.id, 'Senha@2026');
    const otherToken = await signAccessToken({
      companyId: c.company.id,
      userId: other.id,
      profile: 'user',
      super: false,
    });
    const url = (token: string) => `${inject('wsUrl')}?token=${token}`;
    [admin, subject, bystander] = await Promise.all([
      connectSocket(url(c.adminToken)),
      connectSocket(url(c.attendantToken)),
      connectSocket(url(otherToken)),
    ]);
  });
  afterAll(() => {
    for (const s of openSockets) s.terminate();
  });

  it('a change reaches the admins and the user changed, never another plain user, and never carries the hash', async () => {
    const res = await api(c.adminToken).put(`/users/${c.attendant.id}`, { showDashboard: 'enabled' });
    expect(res.status).toBe(200);
    for (const s of [admin, subject]) {
      const event = await s.next();
      expect(event).toMatchObject({
        channel: `company-${c.company.id}-user`,
        action: 'update',
        user: { id: c.attendant.id, showDashboard: 'enabled' },
      });
      expect(JSON.stringify(event)).not.toMatch(/passwordHash|sessionId/);
    }
    await expectNothingPending(bystander);
  });

  it('creating and deleting a user reach the admins', async () => {
    const created = await api(c.adminToken).post('/users', newUser());
    expect(await admin.next()).toMatchObject({ action: 'create', user: { id: created.body.id } });
    await api(c.adminToken).delete(`/users/${created.body.id}`);
    expect(await admin.next()).toMatchObject({ action: 'delete', userId: created.body.id });
    await expectNothingPending(subject);
    await expectNothingPending(bystander);
  });
});
