import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { CONNECTION_MESSAGES } from '../../functions/core/connections/connection-rules';
import {
  countConnections,
  defaultSchedules,
  findConnectionByToken,
  getConnectionCompanyId,
  getDefaultConnectionId,
  listConnections,
  setSessionState,
} from '../../functions/data/connection-repository';
import { createPlan } from '../../functions/data/plan-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { createUser, findUserIdByEmail } from '../../functions/data/user-repository';
import { getLease } from '../../functions/data/wa-lease-repository';
import { greetingForm, someConnection, waitFor, waitForConnection } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets, type TestSocket } from '../helpers/ws-client';

/** Connections API (core spec §3–§9, docs/data-model.md §2.9, decisions D22–D25). */
let t: TestCompany;
beforeAll(async () => {
  t = await freshCompany();
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const suffix = () => Math.random().toString(36).slice(2, 8);
const byField = (res: { body: { fields?: { field: string; reason: string }[] } }) =>
  Object.fromEntries((res.body.fields ?? []).map((f) => [f.field, f.reason]));
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** A plain user of the company with allowConnections on, and their token. */
const connectionsUser = async (companyId: number) => {
  const user = await createUser(companyId, {
    name: 'Gestora de Conexões',
    email: `conexoes-${suffix()}@test.local`,
    passwordHash: 'x',
    profile: 'user',
    allowConnections: 'enabled',
  });
  return { user, token: await signAccessToken({ companyId, userId: user.id, profile: 'user', super: false }) };
};

const superToken = async () => {
  const owner = await findUserIdByEmail('owner@zapdesk.local');
  return signAccessToken({ companyId: 1, userId: owner!.userId, profile: 'admin', super: true });
};

describe('creating a connection', () => {
  it("has the spec's defaults and a 30-character token, starts its session (OPENING + start command), and is the first so the default", async () => {
    const c = await freshCompany();
    const res = await api(c.adminToken).post('/whatsapp', { name: 'Atendimento' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Atendimento',
      companyId: c.company.id,
      channel: 'whatsapp',
      status: 'OPENING',
      isDefault: true,
      qrcode: '',
      retries: 0,
      maxUseBotQueues: 3,
      maxUseBotQueuesNPS: 3,
      provider: 'beta',
      groupAsTicket: 'disabled',
      allowGroup: false,
      greetingMediaAttachment: null,
      queues: [],
    });
    expect(res.body.schedules).toEqual(defaultSchedules());
    expect(res.body.schedules).toHaveLength(7);
    expect(res.body.schedules[0]).toEqual({
      weekday: 'Segunda-feira',
      weekdayEn: 'monday',
      startTimeA: '08:00',
      endTimeA: '12:00',
      startTimeB: '13:00',
      endTimeB: '18:00',
    });
    expect(res.body.token).toMatch(/^[A-Za-z0-9]{30}$/);
    for (const internal of ['version', 'sessionCommand', 'sessionCommandAt', 'session']) {
      expect(res.body).not.toHaveProperty(internal);
    }

    // The start command reached a worker (the local cloud runs one): it shows a QR code.
    const started = await waitForConnection(c.company.id, res.body.id, (w) => w?.status === 'qrcode');
    expect(started).toMatchObject({ sessionCommand: 'start', qrcode: expect.stringMatching(/^zapdesk-sim:/) });
    expect(await findConnectionByToken(res.body.token)).toEqual({ companyId: c.company.id, whatsappId: res.body.id });
    expect(await getConnectionCompanyId(res.body.id)).toBe(c.company.id);

    const second = await api(c.adminToken).post('/whatsapp', { name: 'Vendas', isDefault: false });
    expect(second.body.isDefault).toBe(false);
    expect(second.body.token).not.toBe(res.body.token);
    expect(second.body.id).toBeGreaterThan(res.body.id);
  });

  it('everyone in the company reads the connections; only managers see the token', async () => {
    const created = (await api(t.adminToken).post('/whatsapp', { name: 'Leitura' })).body;
    const asAdmin = await api(t.adminToken).get('/whatsapp', { session: '0' });
    expect(asAdmin.body.find((w: { id: number }) => w.id === created.id).token).toBe(created.token);
    const asUser = await api(t.attendantToken).get('/whatsapp', { session: '0' });
    expect(asUser.status).toBe(200);
    const seen = asUser.body.find((w: { id: number }) => w.id === created.id);
    expect(seen).toMatchObject({ id: created.id, name: 'Leitura' });
    expect(seen).not.toHaveProperty('token');
    const one = await api(t.attendantToken).get(`/whatsapp/${created.id}`, { session: '0' });
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('token');
    expect(JSON.stringify(asUser.body)).not.toContain(created.token);
  });

  it('a plain user without allowConnections cannot create, edit, delete or run sessions; with it they can', async () => {
    const target = await someConnection(t.company.id);
    const me = api(t.attendantToken);
    const denied = [
      await me.post('/whatsapp', { name: 'Proibida' }),
      await me.put(`/whatsapp/${target.id}`, { name: 'Renomeada' }),
      await me.delete(`/whatsapp/${target.id}`),
      await me.post(`/whatsappsession/${target.id}`),
      await me.post('/whatsapp-restart'),
    ];
    for (const res of denied) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    const manager = await connectionsUser(t.company.id);
    const ok = await api(manager.token).put(`/whatsapp/${target.id}`, { name: 'Renomeada' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Renomeada', token: target.token });
  });

  it('GET /whatsapp/filter lists one channel', async () => {
    const c = await freshCompany();
    await api(c.adminToken).post('/whatsapp', { name: 'Zap' });
    const fb = await api(c.adminToken).post('/whatsapp', { name: 'Página', channel: 'facebook' });
    expect(fb.status).toBe(201);
    expect(fb.body.status).toBe('DISCONNECTED'); // waits for its Meta login; no worker session
    const res = await api(c.adminToken).get('/whatsapp/filter', { session: '0', channel: 'facebook' });
    expect(res.body.map((w: { name: string }) => w.name)).toEqual(['Página']);
    const stored = (await listConnections(c.company.id)).find((w) => w.id === fb.body.id)!;
    expect(stored.sessionCommand).toBeUndefined();
    expect(await getLease(c.company.id, fb.body.id)).toBeNull();
  });
});

describe('validation', () => {
  it('bad shapes are a 400 naming each field, and nothing is written', async () => {
    const c = await freshCompany();
    const res = await api(c.adminToken).post('/whatsapp', {
      name: 'A',
      channel: 'telegram',
      schedules: [{ ...defaultSchedules()[0], startTimeA: '8:00' }],
      maxUseBotQueues: -1,
    });
    expect(res.status).toBe(400);
    const fields = byField(res);
    expect(fields['body.name']).toBe('Too Short!');
    expect(fields['body.channel']).toBe('must be whatsapp, facebook or instagram');
    expect(fields['body.schedules.0.startTimeA']).toBeDefined();
    expect(fields['body.maxUseBotQueues']).toBeDefined();
    const long = await api(c.adminToken).post('/whatsapp', { name: 'x'.repeat(51) });
    expect(byField(long)['body.name']).toBe('Too Long!');
    expect(await countConnections(c.company.id)).toBe(0);
    expect(await listConnections(c.company.id)).toEqual([]);
  });

  it("the spec's paired rules give its Portuguese messages on every field at once", async () => {
    const c = await freshCompany();
    const [q1, q2] = [
      await createQueue(c.company.id, { name: 'Um', color: '#101010' }),
      await createQueue(c.company.id, { name: 'Dois', color: '#202020' }),
    ];
    const res = await api(c.adminToken).post('/whatsapp', {
      name: 'Regras',
      timeSendQueue: 10,
      queueIds: [q1!.id, q2!.id],
      collectiveVacationMessage: 'Estamos de férias',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(byField(res)).toEqual({
      'body.sendIdQueue': CONNECTION_MESSAGES.sendQueuePair,
      'body.timeSendQueue': CONNECTION_MESSAGES.sendQueuePair,
      'body.greetingMessage': 'A mensagem de saudação é obrigatória quando há mais de uma fila.',
      'body.collectiveVacationStart': CONNECTION_MESSAGES.vacationDates,
      'body.collectiveVacationEnd': CONNECTION_MESSAGES.vacationDates,
    });
    expect(CONNECTION_MESSAGES.sendQueuePair).toBe(
      'Foi informado tempo para redirecionar fila, porém não foi selecionada fila para redirecionar. Os dois campos precisam estar preenchidos',
    );
    // The reverse of the pair: a queue without a time.
    const reverse = await api(c.adminToken).post('/whatsapp', { name: 'Regras', sendIdQueue: q1!.id });
    expect(byField(reverse)['body.timeSendQueue']).toBe(CONNECTION_MESSAGES.sendQueuePair);
    // Only the greeting missing: the catalogue's own code.
    const greeting = await api(c.adminToken).post('/whatsapp', { name: 'Regras', queueIds: [q1!.id, q2!.id] });
    expect(greeting.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    // Unknown queues, dates in the future or in the wrong order.
    const refs = await api(c.adminToken).post('/whatsapp', {
      name: 'Regras',
      queueIds: [987654],
      sendIdQueue: 987655,
      timeSendQueue: 5,
      importOldMessages: '2999-01-01',
      collectiveVacationStart: '2026-12-20',
      collectiveVacationEnd: '2026-12-01',
    });
    expect(byField(refs)).toMatchObject({
      'body.queueIds': 'no queue 987654',
      'body.sendIdQueue': 'no queue 987655',
      'body.importOldMessages': CONNECTION_MESSAGES.importFuture,
      'body.collectiveVacationEnd': CONNECTION_MESSAGES.vacationOrder,
    });
    expect(await countConnections(c.company.id)).toBe(0);

    const ok = await api(c.adminToken).post('/whatsapp', {
      name: 'Regras',
      queueIds: [q1!.id, q2!.id],
      greetingMessage: 'Olá! Escolha uma fila.',
      sendIdQueue: q2!.id,
      timeSendQueue: '10',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ timeSendQueue: 10, sendIdQueue: q2!.id });
    expect(ok.body.queues.map((q: { name: string }) => q.name)).toEqual(['Um', 'Dois']);
  });

  it('when the company rates tickets (userRating), the NPS message and wait time are required', async () => {
    const c = await freshCompany();
    const older = (await api(c.adminToken).post('/whatsapp', { name: 'Antiga' })).body;
    expect((await api(c.adminToken).put('/companySettings', { column: 'userRating', data: 'enabled' })).status).toBe(
      200,
    );
    const res = await api(c.adminToken).post('/whatsapp', { name: 'NPS', expiresTicketNPS: '' });
    expect(byField(res)).toEqual({
      'body.expiresTicketNPS': 'É obrigado informar um tempo para avaliação quando se utiliza o NPS.',
      'body.ratingMessage': 'É obrigado informar uma mensagem de avaliação quando se utiliza o NPS.',
    });
    const ok = await api(c.adminToken).post('/whatsapp', {
      name: 'NPS',
      ratingMessage: 'Dê uma nota de 0 a 10',
      expiresTicketNPS: 30,
    });
    expect(ok.status).toBe(201);
    // A later edit keeps the rule: clearing the message is refused.
    const cleared = await api(c.adminToken).put(`/whatsapp/${ok.body.id}`, { ratingMessage: ' ' });
    expect(byField(cleared)).toEqual({ 'body.ratingMessage': CONNECTION_MESSAGES.npsRatingMessage });
    // An edit that does not touch the NPS fields is not blocked by the company's later choice.
    const renamed = await api(c.adminToken).put(`/whatsapp/${older.id}`, { name: 'Antiga renomeada' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  });
});

describe('plan limits and flags', () => {
  it('a plan of one connection refuses the second atomically; deleting frees the seat', async () => {
    const c = await freshCompany(undefined, { planId: 2 }); // Básico: 1 connection (seeded)
    const first = await api(c.adminToken).post('/whatsapp', { name: 'Única' });
    expect(first.status).toBe(201);
    const second = await api(c.adminToken).post('/whatsapp', { name: 'Segunda' });
    expect(second.status).toBe(403);
    expect(second.body).toMatchObject({ error: 'ERR_PLAN_LIMIT_CONNECTIONS', details: { limit: 1 } });
    expect(await countConnections(c.company.id)).toBe(1);
    expect((await listConnections(c.company.id)).map((w) => w.name)).toEqual(['Única']);

    const parallel = await Promise.all([1, 2, 3].map((n) => api(c.adminToken).post('/whatsapp', { name: `P${n}` })));
    expect(parallel.map((r) => r.status)).toEqual([403, 403, 403]);

    expect((await api(c.adminToken).delete(`/whatsapp/${first.body.id}`)).status).toBe(200);
    expect(await countConnections(c.company.id)).toBe(0);
    expect((await api(c.adminToken).post('/whatsapp', { name: 'De novo' })).status).toBe(201);
  });

  it('a channel the plan does not include is a 403, and nothing is written', async () => {
    const plan = await createPlan({
      name: `Só WhatsApp ${suffix()}`,
      users: 5,
      connections: 5,
      queues: 5,
      amount: 10,
      isPublic: false,
      useWhatsapp: true,
      useFacebook: false,
      useInstagram: false,
      useCampaigns: false,
      useSchedules: false,
      useInternalChat: false,
      useExternalApi: false,
      useKanban: false,
      useOpenAi: false,
      useIntegrations: false,
    });
    const c = await freshCompany(undefined, { planId: plan.id });
    for (const channel of ['facebook', 'instagram']) {
      const res = await api(c.adminToken).post('/whatsapp', { name: 'Meta', channel });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect(await countConnections(c.company.id)).toBe(0);
    expect((await api(c.adminToken).post('/whatsapp', { name: 'Zap' })).status).toBe(201);

    const noWhatsapp = await createPlan({ ...plan, name: `Sem WhatsApp ${suffix()}`, useWhatsapp: false });
    const d = await freshCompany(undefined, { planId: noWhatsapp.id });
    expect((await api(d.adminToken).post('/whatsapp', { name: 'Zap' })).status).toBe(403);
  });
});

describe('exactly one default connection', () => {
  it('parallel "make default" calls leave exactly one default, and every answer was true when it was written', async () => {
    const c = await freshCompany();
    const ids: number[] = [];
    for (const n of [1, 2, 3, 4, 5]) ids.push((await api(c.adminToken).post('/whatsapp', { name: `C${n}` })).body.id);
    expect(await getDefaultConnectionId(c.company.id)).toBe(ids[0]);

    const results = await Promise.all(
      ids.slice(1).map((id) => api(c.adminToken).put(`/whatsapp/${id}`, { isDefault: true })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.map((r) => r.body.isDefault)).toEqual([true, true, true, true]);
    const list = (await api(c.adminToken).get('/whatsapp')).body as { id: number; isDefault: boolean }[];
    const defaults = list.filter((w) => w.isDefault);
    expect(defaults).toHaveLength(1);
    expect(ids.slice(1)).toContain(defaults[0]!.id);
    expect(await getDefaultConnectionId(c.company.id)).toBe(defaults[0]!.id);
  });

  it('parallel creates that each ask to be the default also leave exactly one', async () => {
    const c = await freshCompany();
    const created = await Promise.all(
      [1, 2, 3, 4].map((n) => api(c.adminToken).post('/whatsapp', { name: `D${n}`, isDefault: true })),
    );
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const list = await listConnections(c.company.id);
    expect(list).toHaveLength(4);
    expect(list.filter((w) => w.isDefault)).toHaveLength(1);
  });

  it('the default cannot be unset, only moved; moving it shows in both connections', async () => {
    const c = await freshCompany();
    const a = (await api(c.adminToken).post('/whatsapp', { name: 'Conexão A' })).body;
    const b = (await api(c.adminToken).post('/whatsapp', { name: 'Conexão B' })).body;
    const unset = await api(c.adminToken).put(`/whatsapp/${a.id}`, { isDefault: false });
    expect(unset.status).toBe(400);
    expect(unset.body.error, JSON.stringify(unset.body)).toBe('ERR_NO_OTHER_WHATSAPP');
    const moved = await api(c.adminToken).put(`/whatsapp/${b.id}`, { isDefault: true });
    expect(moved.body.isDefault).toBe(true);
    expect((await api(c.adminToken).get(`/whatsapp/${a.id}`)).body.isDefault).toBe(false);
  });

  it('the default may be deleted only as the last connection', async () => {
    const c = await freshCompany();
    const a = (await api(c.adminToken).post('/whatsapp', { name: 'Conexão A' })).body;
    const b = (await api(c.adminToken).post('/whatsapp', { name: 'Conexão B' })).body;
    await waitFor(
      () => getLease(c.company.id, b.id),
      (l) => l?.holder !== undefined && l.holder !== null,
      {
        what: 'a worker to hold B',
      },
    );

    const refused = await api(c.adminToken).delete(`/whatsapp/${a.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'ERR_NO_OTHER_WHATSAPP', fields: [{ field: 'params.id' }] });
    expect(await countConnections(c.company.id)).toBe(2);

    const removed = await api(c.adminToken).delete(`/whatsapp/${b.id}`);
    expect(removed.status).toBe(200);
    // The disconnect reached the worker: the session, its lease and its auth state are gone.
    await waitFor(
      () => getLease(c.company.id, b.id),
      (l) => l === null,
      { what: 'B’s lease to go' },
    );
    expect(await findConnectionByToken(b.token)).toBeNull();
    expect(await getConnectionCompanyId(b.id)).toBeNull();
    expect((await api(c.adminToken).get(`/whatsapp/${b.id}`)).status).toBe(404);

    const last = await api(c.adminToken).delete(`/whatsapp/${a.id}`);
    expect(last.status).toBe(200);
    expect(await getDefaultConnectionId(c.company.id)).toBeNull();
    expect(await countConnections(c.company.id)).toBe(0);
    const again = (await api(c.adminToken).post('/whatsapp', { name: 'Nova' })).body;
    expect(again.isDefault).toBe(true);
  });
});

describe('updating', () => {
  it('changes only the fields sent and keeps the rest', async () => {
    const created = (await api(t.adminToken).post('/whatsapp', { name: 'Editável', greetingMessage: 'Oi' })).body;
    const schedules = defaultSchedules().map((d) => ({ ...d, startTimeB: '', endTimeB: '' }));
    const res = await api(t.adminToken).put(`/whatsapp/${created.id}`, {
      complationMessage: 'Obrigado!',
      schedules,
      whenExpiresTicket: 1,
      groupAsTicket: 'enabled',
      status: 'CONNECTED', // not an admin field: ignored
      token: 'x'.repeat(30), // neither
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Editável',
      greetingMessage: 'Oi',
      complationMessage: 'Obrigado!',
      whenExpiresTicket: '1',
      groupAsTicket: 'enabled',
      token: created.token,
    });
    expect(res.body.status).not.toBe('CONNECTED');
    expect(res.body.schedules).toEqual(schedules);
    expect((await api(t.adminToken).get(`/whatsapp/${created.id}`)).body.complationMessage).toBe('Obrigado!');
  });

  it('the channel cannot change; a missing id is ERR_NO_WAPP_FOUND', async () => {
    const created = (await api(t.adminToken).post('/whatsapp', { name: 'Canal' })).body;
    const res = await api(t.adminToken).put(`/whatsapp/${created.id}`, { channel: 'instagram' });
    expect(res.status).toBe(400);
    expect(byField(res)).toHaveProperty('body.channel');
    const missing = await api(t.adminToken).put('/whatsapp/999999999', { name: 'Nada' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_WAPP_FOUND');
  });

  it('enabling the old-message import on a connected WhatsApp drops the session for a new pairing', async () => {
    const created = (await api(t.adminToken).post('/whatsapp', { name: 'Importação' })).body;
    await waitForConnection(t.company.id, created.id, (w) => w?.status === 'qrcode');
    await setSessionState(t.company.id, created.id, { status: 'CONNECTED', at: new Date().toISOString() });
    const res = await api(t.adminToken).put(`/whatsapp/${created.id}`, { importOldMessages: yesterday() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'qrcode', importOldMessages: yesterday() });
    const renewed = await waitForConnection(t.company.id, created.id, (w) => w?.status === 'qrcode' && w.qrcode !== '');
    expect(renewed).toMatchObject({ sessionCommand: 'new-qr' });
  });
});

describe('session actions', () => {
  let c: TestCompany;
  let admin: TestSocket;
  let plain: TestSocket;
  let manager: TestSocket;
  let managerToken: string;
  const wsUrl = () => inject('wsUrl');

  /** Nothing is queued for this socket: a ping's pong is the very next message. */
  const expectNothingPending = async (s: TestSocket) => {
    s.send({ action: 'ping' });
    expect(await s.next()).toEqual({ action: 'pong' });
  };

  beforeAll(async () => {
    c = await freshCompany();
    const m = await connectionsUser(c.company.id);
    managerToken = m.token;
    admin = await connectSocket(`${wsUrl()}?token=${c.adminToken}`);
    plain = await connectSocket(`${wsUrl()}?token=${c.attendantToken}`);
    manager = await connectSocket(`${wsUrl()}?token=${m.token}`);
  });

  /** Each status as its two events, in order: the session update, then the connection update. */
  const expectSessionEvents = async (s: TestSocket, id: number, ...statuses: string[]) => {
    for (const status of statuses) {
      expect(await s.next()).toMatchObject({
        channel: `company-${c.company.id}-whatsappSession`,
        action: 'update',
        session: { id, status },
      });
      expect(await s.next()).toMatchObject({
        channel: `company-${c.company.id}-whatsapp`,
        action: 'update',
        whatsapp: { id, status },
      });
    }
  };

  it('create, retry, new QR and disconnect each publish the waiting status, then the worker’s answer, to managers only', async () => {
    const created = (await api(c.adminToken).post('/whatsapp', { name: 'Sessão' })).body;
    // The API's waiting status always arrives before the worker's answer (a QR code from the simulator).
    await expectSessionEvents(admin, created.id, 'OPENING', 'qrcode');
    await expectSessionEvents(manager, created.id, 'OPENING', 'qrcode');
    await expectNothingPending(plain);

    const steps = [
      {
        call: () => api(c.adminToken).post(`/whatsappsession/${created.id}`),
        command: 'start',
        status: 'OPENING',
        then: ['qrcode'], // the running session shows its QR code again
      },
      {
        call: () => api(managerToken).put(`/whatsappsession/${created.id}`),
        command: 'new-qr',
        status: 'OPENING',
        then: ['qrcode'],
      },
      {
        call: () => api(c.adminToken).delete(`/whatsappsession/${created.id}`),
        command: 'disconnect',
        status: 'DISCONNECTED',
        then: [],
      },
    ];
    for (const step of steps) {
      const before = new Date().toISOString();
      const res = await step.call();
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.whatsapp).toMatchObject({ id: created.id, status: step.status });
      expect(typeof res.body.message).toBe('string');
      await expectSessionEvents(admin, created.id, step.status, ...step.then);
      await expectSessionEvents(manager, created.id, step.status, ...step.then);
      // The connection records the latest command, so a worker drops older, reordered ones.
      const stored = (await listConnections(c.company.id)).find((w) => w.id === created.id)!;
      expect(stored.sessionCommand).toBe(step.command);
      expect(stored.sessionCommandAt! >= before).toBe(true);
    }
    await waitFor(
      () => getLease(c.company.id, created.id),
      (l) => l?.holder === null,
      { what: 'the release' },
    );
    await expectNothingPending(plain);
    await expectNothingPending(admin);
  });

  it('restart sends a restart for every WhatsApp connection of the company', async () => {
    const d = await freshCompany();
    const one = (await api(d.adminToken).post('/whatsapp', { name: 'R1' })).body;
    const two = (await api(d.adminToken).post('/whatsapp', { name: 'R2' })).body;
    const meta = (await api(d.adminToken).post('/whatsapp', { name: 'R3', channel: 'instagram' })).body;
    const shown = await Promise.all(
      [one, two].map((w) => waitForConnection(d.company.id, w.id, (x) => x?.status === 'qrcode')),
    );
    const res = await api(d.adminToken).post('/whatsapp-restart');
    expect(res.body).toEqual({ message: 'Whatsapp restart.', restarted: 2 });
    // Restarted without a pairing: each shows a new QR code.
    for (const [i, w] of [one, two].entries()) {
      const again = await waitForConnection(
        d.company.id,
        w.id,
        (x) => x?.sessionCommand === 'restart' && x.status === 'qrcode' && x.qrcode !== shown[i]!.qrcode,
      );
      expect(again!.qrcode).toMatch(/^zapdesk-sim:/);
    }
    expect((await listConnections(d.company.id)).find((w) => w.id === meta.id)!.sessionCommand).toBeUndefined();
    const onMeta = await api(d.adminToken).post(`/whatsappsession/${meta.id}`);
    expect(onMeta.status).toBe(400);
  });

  it('deleting publishes a delete with the whatsappId to managers', async () => {
    const created = (await api(c.adminToken).post('/whatsapp', { name: 'Some' })).body;
    await expectSessionEvents(admin, created.id, 'OPENING', 'qrcode');
    await expectSessionEvents(manager, created.id, 'OPENING', 'qrcode');
    expect((await api(c.adminToken).delete(`/whatsapp/${created.id}`)).status).toBe(200);
    const deleted = { channel: `company-${c.company.id}-whatsapp`, action: 'delete', whatsappId: created.id };
    expect(await admin.next()).toEqual(deleted);
    expect(await manager.next()).toEqual(deleted);
    await expectNothingPending(plain);
  });
});

describe('super routes', () => {
  it("the platform owner reads any company's connection (without its token), lists all, and disconnects", async () => {
    const token = await superToken();
    const c = await freshCompany();
    const created = (await api(c.adminToken).post('/whatsapp', { name: 'Do Cliente' })).body;
    await waitForConnection(c.company.id, created.id, (w) => w?.status === 'qrcode');

    const one = await api(token).get(`/whatsapp-admin/${created.id}`, { session: '0' });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: created.id, companyId: c.company.id, name: 'Do Cliente' });
    expect(one.body).not.toHaveProperty('token');
    expect((await api(c.adminToken).get(`/whatsapp-admin/${created.id}`)).status).toBe(403);
    expect((await api(token).get('/whatsapp-admin/999999999')).body.error).toBe('ERR_NO_WAPP_FOUND');

    // Walk every page of the overview: this company's connection is there with its company's name.
    const seen: { id: number; company: { name: string }; status: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await api(token).get('/whatsapp/all', { session: '0', ...(cursor ? { cursor } : {}) });
      expect(page.status).toBe(200);
      seen.push(...page.body.whatsapps);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen.find((w) => w.id === created.id)).toMatchObject({
      companyId: c.company.id,
      company: { id: c.company.id, name: c.company.name },
      status: 'qrcode',
      isDefault: true,
    });
    expect(JSON.stringify(seen)).not.toContain(created.token);
    expect((await api(c.adminToken).get('/whatsapp/all')).status).toBe(403);

    const off = await api(token).delete(`/whatsappsession/admin/${created.id}`);
    expect(off.status).toBe(200);
    expect(off.body.whatsapp).toMatchObject({ id: created.id, status: 'DISCONNECTED' });
    const ended = await waitForConnection(c.company.id, created.id, (w) => w?.sessionCommand === 'disconnect');
    expect(ended!.status).toBe('DISCONNECTED');
    await waitFor(
      () => getLease(c.company.id, created.id),
      (l) => l?.holder === null,
      { what: 'the release' },
    );
    expect((await api(c.adminToken).delete(`/whatsappsession/admin/${created.id}`)).status).toBe(403);
  });
});

describe('greeting media', () => {
  const fetchMedia = (url: string) => fetch(`${inject('gatewayUrl')}${url}`);

  it('uploads any file under the connection prefix, typed by its bytes; a new one replaces the old; delete removes it', async () => {
    const created = (await api(t.adminToken).post('/whatsapp', { name: 'Mídia' })).body;
    const res = await api(t.adminToken).post(`/whatsapp/${created.id}/media-upload`, greetingForm());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const url = res.body.greetingMediaAttachment as string;
    expect(url).toMatch(
      new RegExp(`^/media/c/${t.company.id}/connections/${created.id}/[0-9a-f-]{36}/boas-vindas\\.pdf$`),
    );
    const pdf = await fetchMedia(url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');

    // HTML claiming to be an image is stored as a download, never rendered on our origin.
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const second = await api(t.adminToken).post(
      `/whatsapp/${created.id}/media-upload`,
      greetingForm(html, 'foto.png', 'image/png'),
    );
    expect(second.status).toBe(200);
    const secondUrl = second.body.greetingMediaAttachment as string;
    expect((await fetchMedia(secondUrl)).headers.get('content-type')).toBe('application/octet-stream');
    expect((await fetchMedia(url)).status).toBe(404);

    const removed = await api(t.adminToken).delete(`/whatsapp/${created.id}/media-upload`);
    expect(removed.status).toBe(200);
    expect(removed.body.greetingMediaAttachment).toBeNull();
    expect((await fetchMedia(secondUrl)).status).toBe(404);
    expect((await api(t.adminToken).delete(`/whatsapp/${created.id}/media-upload`)).status).toBe(200);
  });

  it('refuses an empty or too large file (400), a body over 3 MB (413), and plain users (403)', async () => {
    const created = (await api(t.adminToken).post('/whatsapp', { name: 'Limites' })).body;
    const path = `/whatsapp/${created.id}/media-upload`;
    const empty = await api(t.adminToken).post(path, greetingForm(Buffer.alloc(0)));
    expect(byField(empty)).toEqual({ 'body.file': 'is empty' });
    const big = await api(t.adminToken).post(path, greetingForm(Buffer.alloc(2.6 * 1024 * 1024, 1)));
    expect(big.status).toBe(400);
    expect(byField(big)).toEqual({ 'body.file': 'is larger than 2.5 MB' });
    const huge = await api(t.adminToken).post(path, greetingForm(Buffer.alloc(3.2 * 1024 * 1024, 1)));
    expect(huge.status).toBe(413);
    const denied = await api(t.attendantToken).post(path, greetingForm());
    expect(denied.status).toBe(403);
    expect((await api(t.adminToken).get(`/whatsapp/${created.id}`)).body.greetingMediaAttachment).toBeNull();
  });
});
