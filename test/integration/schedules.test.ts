import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorReceivedPage } from '../../functions/contracts/simulator';
import type { ScheduleView } from '../../functions/contracts/schedules';
import { reserveSendSlot } from '../../functions/core/outbound/send-governor';
import { wallKey, wallOf } from '../../functions/core/outbound/zoned-time';
import {
  handleDueSchedule,
  runScheduleTick,
  SCHEDULE_TICK_NAME,
  type DueScheduleMessage,
} from '../../functions/core/schedules/schedule-sender';
import { getConnection } from '../../functions/data/connection-repository';
import { createContact, type Contact } from '../../functions/data/contact-repository';
import { nextId } from '../../functions/data/counter-repository';
import { listTicketMessages } from '../../functions/data/message-repository';
import { createSchedule, getSchedule, newScheduleId, type Schedule } from '../../functions/data/schedule-repository';
import { setTickCheckpoint } from '../../functions/data/tick-repository';
import { eventsUntil, someConnection, waitFor, waitForConnection } from '../helpers/connections';
import { api, channelPlan, freshCompany, TINY_PNG, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';
import { inject } from 'vitest';

/**
 * Scheduled messages and the send governor (issue 16 items 1 and 5; decisions D117–D120), through the
 * local cloud: the HTTP surface (CRUD, validation, isolation), the governor's shared state (two reservers
 * never share a slot, the daily cap, the pause while disconnected), and sends arriving on the simulated
 * phone exactly once — with the tick run twice at once, a consumer redelivered, a recurrence moving on, and
 * a tick that missed an hour following the catch-up policy (sent when under 2 hours late, else missed).
 * São Paulo is the companies' zone (the default): no DST, UTC−3.
 */
const ZONE = 'America/Sao_Paulo';
let t: TestCompany;
let other: TestCompany;
let whatsappId: number;

const suffix = () => String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
const customerNumber = () => `55119${suffix()}`;
const contactOf = (c: TestCompany, name = `Cliente ${randomUUID().slice(0, 6)}`): Promise<Contact> => {
  const number = customerNumber();
  return createContact(c.company.id, { name, number, isGroup: false, channel: 'whatsapp', whatsappId: null }, [
    `wa#${number}`,
  ]);
};
/** `YYYY-MM-DDTHH:mm` on the company's clock, `minutes` from now. */
const localIn = (minutes: number) => wallKey(wallOf(Date.now() + minutes * 60_000, ZONE));

const connectedConnection = async (name: string): Promise<number> => {
  const created = await api(t.adminToken).post('/whatsapp', { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  await waitForConnection(t.company.id, id, (c) => c?.status === 'qrcode', { timeoutMs: 40_000 });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const current = await getConnection(t.company.id, id);
    if (current?.status === 'CONNECTED') return id;
    if (current?.status === 'qrcode') await api(t.adminToken).post(`/simulator/${id}/scan`);
    if (Date.now() > deadline) throw new Error(`connection ${id} did not connect; last ${current?.status}`);
    await waitForConnection(t.company.id, id, (c) => c?.status === 'CONNECTED', { timeoutMs: 4_000 }).catch(
      () => undefined,
    );
  }
};

/** What the customer's phone received, oldest first. */
const received = async (number: string): Promise<string[]> => {
  const res = await api(t.adminToken).get(`/simulator/${whatsappId}/messages`, { number });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as SimulatorReceivedPage).messages.map((m) => m.body ?? '');
};

/**
 * Proof that nothing more arrives: an attendant's reply sent after the schedule is the sentinel — the
 * holder sends a chat's messages in order, so a duplicate would land before it.
 */
const sentinel = async (ticketId: number, number: string): Promise<string[]> => {
  const body = `sentinela ${randomUUID().slice(0, 4)}`;
  const reply = await api(t.adminToken).post(`/messages/${ticketId}`, { body });
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
  const all = await waitFor(
    () => received(number),
    (bodies) => bodies.includes(body),
    { what: 'the sentinel on the phone', timeoutMs: 60_000 },
  );
  return all.filter((b) => b !== body);
};

/** A schedule stored directly (past times the API refuses: an outage's leftovers). */
const storedSchedule = async (contact: Contact, sendAt: Date, fields: Partial<Schedule> = {}): Promise<Schedule> => {
  const id = await newScheduleId(t.company.id);
  const local = wallKey(wallOf(sendAt, ZONE));
  const s: Schedule = {
    id,
    companyId: t.company.id,
    body: `Lembrete ${randomUUID().slice(0, 6)}`,
    contactId: contact.id,
    contactName: contact.name,
    contactNumber: contact.number,
    sendAt: sendAt.toISOString(),
    sendAtLocal: local,
    startLocal: local,
    occurrenceIndex: 0,
    status: 'PENDENTE',
    sentAt: null,
    openTicket: 'enabled',
    ticketUserId: null,
    queueId: null,
    statusTicket: 'open',
    intervalo: 1,
    valorIntervalo: 0,
    enviarQuantasVezes: 1,
    tipoDias: 4,
    assinar: false,
    mediaPath: null,
    mediaName: null,
    mediaType: null,
    mediaSize: null,
    whatsappId,
    userId: t.admin.id,
    sentCount: 0,
    missedCount: 0,
    lastError: null,
    ticketId: null,
    ticketFor: null,
    dueAt: sendAt.toISOString(),
    heldUntil: null,
    claimedAt: null,
    claimToken: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    ...fields,
  };
  await createSchedule(s);
  return s;
};

const scheduleBody = (contact: Contact, fields: Record<string, unknown> = {}) => ({
  body: `Seu horário está confirmado ${randomUUID().slice(0, 4)}`,
  contactId: contact.id,
  sendAt: localIn(30),
  whatsappId,
  openTicket: 'enabled',
  statusTicket: 'open',
  ...fields,
});

beforeAll(async () => {
  [t, other] = await Promise.all([freshCompany(), freshCompany()]);
  whatsappId = await connectedConnection('Agendamentos');
  // Pacing out of the way for the send tests (the governor's own tests use another company).
  const saved = await api(t.adminToken).post('/campaign-settings', {
    settings: { messageInterval: 0, longerIntervalAfter: 0 },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}, 150_000);
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

describe('campaign settings and the send governor', { timeout: 120_000 }, () => {
  it('settings answer the spec defaults, take values within the bounds and refuse the rest writing nothing', async () => {
    const g = await freshCompany();
    const first = await api(g.adminToken).get('/campaign-settings');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      messageInterval: 20,
      longerIntervalAfter: 20,
      greaterInterval: 60,
      sabado: false,
      domingo: false,
      startHour: '09:00',
      endHour: '18:00',
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ messageInterval: 121 }, 'body.settings.messageInterval'],
      [{ longerIntervalAfter: -1 }, 'body.settings.longerIntervalAfter'],
      [{ greaterInterval: 181 }, 'body.settings.greaterInterval'],
      [{ startHour: '07:00' }, 'body.settings.startHour'],
      [{ endHour: '25:00' }, 'body.settings.endHour'],
      [{ startHour: '18:00', endHour: '10:00' }, 'body.settings.endHour'],
      [{ dailyLimit: 0 }, 'body.settings.dailyLimit'],
    ];
    for (const [settings, field] of cases) {
      const res = await api(g.adminToken).post('/campaign-settings', { settings });
      expect(res.status, JSON.stringify(settings)).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect((await api(g.adminToken).get('/campaign-settings')).body).toEqual(first.body);
    const saved = await api(g.adminToken).post('/campaign-settings', {
      settings: { messageInterval: '5', sabado: true, startHour: '08:00', endHour: '19:00' },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await api(g.adminToken).get('/campaign-settings')).body).toMatchObject({
      messageInterval: 5,
      sabado: true,
      startHour: '08:00',
      endHour: '19:00',
    });
    expect((await api(g.attendantToken).get('/campaign-settings')).status).toBe(403);
  });

  it('twenty reservers at once never share a slot: each 5 s after the one before', async () => {
    const g = await freshCompany();
    await api(g.adminToken).post('/campaign-settings', { settings: { messageInterval: 5, longerIntervalAfter: 0 } });
    const connection = await someConnection(g.company.id, { status: 'CONNECTED' });
    const now = new Date();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        reserveSendSlot({
          companyId: g.company.id,
          whatsappId: connection.id,
          kind: 'schedule',
          now,
          maxWaitMs: 3600_000,
        }),
      ),
    );
    const times = answers.map((a) => ('at' in a ? a.at.getTime() : NaN)).sort((a, b) => a - b);
    expect(new Set(times).size).toBe(20);
    expect(times.slice(1).map((x, i) => (x - times[i]!) / 1000)).toEqual(Array.from({ length: 19 }, () => 5));
  });

  it('the daily cap defers to the next local day; a disconnected connection pauses until it is back', async () => {
    const g = await freshCompany();
    await api(g.adminToken).post('/campaign-settings', {
      settings: { messageInterval: 0, longerIntervalAfter: 0, dailyLimit: 2 },
    });
    const connection = await someConnection(g.company.id, { status: 'CONNECTED' });
    const ask = () => reserveSendSlot({ companyId: g.company.id, whatsappId: connection.id, kind: 'api' });
    const answers = [await ask(), await ask(), await ask()];
    expect(answers.slice(0, 2).every((a) => 'at' in a)).toBe(true);
    expect(answers[2]).toMatchObject({ reason: 'daily-cap' });
    const until = (answers[2] as { deferredUntil: Date }).deferredUntil;
    expect(wallOf(until, ZONE)).toMatchObject({ hour: 0, minute: 0 });

    const down = await someConnection(g.company.id, { status: 'DISCONNECTED' });
    const paused = await reserveSendSlot({ companyId: g.company.id, whatsappId: down.id, kind: 'campaign' });
    expect(paused).toMatchObject({ reason: 'disconnected' });
  });
});

describe('schedules over HTTP', { timeout: 120_000 }, () => {
  it('creates, lists by local period and by contact name, edits and deletes; events reach the owner', async () => {
    const contact = await contactOf(t, `Marina ${randomUUID().slice(0, 4)}`);
    const socket = await connectSocket(`${inject('wsUrl')}?token=${t.attendantToken}`);
    const sendAt = localIn(90);
    const created = await api(t.attendantToken).post('/schedules', scheduleBody(contact, { sendAt }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const view = created.body as ScheduleView;
    expect(view).toMatchObject({ status: 'PENDENTE', sendAtLocal: sendAt, sentAt: null, contactId: contact.id });
    expect(view.contact?.name).toBe(contact.name);
    const events = await eventsUntil(
      socket,
      (e) => e.channel === `company${t.company.id}-schedule` && e.action === 'create',
    );
    expect((events.at(-1)!.schedule as ScheduleView).id).toBe(view.id);

    const month = await api(t.attendantToken).get('/schedules', { period: sendAt.slice(0, 7) });
    expect(month.body.schedules.map((s: ScheduleView) => s.id)).toContain(view.id);
    const search = await api(t.adminToken).get('/schedules', { searchParam: contact.name.slice(0, 8) });
    expect(search.body.schedules.map((s: ScheduleView) => s.id)).toEqual([view.id]);

    const edited = await api(t.attendantToken).put(`/schedules/${view.id}`, { body: 'Texto novo e maior' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await api(t.attendantToken).get(`/schedules/${view.id}`)).body).toMatchObject({
      body: 'Texto novo e maior',
    });

    const image = new FormData();
    image.append('file', new Blob([TINY_PNG], { type: 'image/png' }), 'cartao.png');
    const uploaded = await api(t.attendantToken).post(`/schedules/${view.id}/media-upload`, image);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body.mediaName).toBe('cartao.png');
    const pdf = new FormData();
    pdf.append('file', new Blob([Buffer.from('%PDF-1.4 x')], { type: 'application/pdf' }), 'x.pdf');
    expect((await api(t.attendantToken).post(`/schedules/${view.id}/media-upload`, pdf)).status).toBe(400);

    expect((await api(t.attendantToken).delete(`/schedules/${view.id}`)).status).toBe(200);
    expect((await api(t.attendantToken).get(`/schedules/${view.id}`)).status).toBe(404);
  });

  it('bad input is a 400 naming the field and writes nothing', async () => {
    const contact = await contactOf(t);
    const before = (await api(t.adminToken).get('/schedules')).body.schedules.length;
    const cases: [Record<string, unknown>, string][] = [
      [{ body: 'oi' }, 'body.body'],
      [{ sendAt: '' }, 'body.sendAt'],
      [{ sendAt: 'amanhã' }, 'body.sendAt'],
      [{ sendAt: '2020-01-01T10:00' }, 'body.sendAt'],
      [{ intervalo: 7 }, 'body.intervalo'],
      [{ tipoDias: 3 }, 'body.tipoDias'],
      [{ enviarQuantasVezes: 3, valorIntervalo: 0 }, 'body.valorIntervalo'],
      [{ enviarQuantasVezes: 0 }, 'body.enviarQuantasVezes'],
      [{ whatsappId: 999999 }, 'body.whatsappId'],
      [{ queueId: 999999 }, 'body.queueId'],
      [{ ticketUserId: 999999 }, 'body.ticketUserId'],
    ];
    for (const [fields, field] of cases) {
      const res = await api(t.adminToken).post('/schedules', scheduleBody(contact, fields));
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const missing = await api(t.adminToken).post('/schedules', { body: 'Mensagem longa o bastante' });
    expect(missing.status).toBe(400);
    expect((await api(t.adminToken).get('/schedules')).body.schedules.length).toBe(before);
  });

  it("another company's schedules and contacts are 404; a plain user never sees an admin's schedule", async () => {
    const mine = await api(t.adminToken).post('/schedules', scheduleBody(await contactOf(t)));
    expect(mine.status).toBe(201);
    const id = mine.body.id as number;
    for (const res of [
      await api(other.adminToken).get(`/schedules/${id}`),
      await api(other.adminToken).put(`/schedules/${id}`, { body: 'Invadindo a agenda' }),
      await api(other.adminToken).delete(`/schedules/${id}`),
      await api(t.attendantToken).get(`/schedules/${id}`),
      await api(t.attendantToken).delete(`/schedules/${id}`),
    ]) {
      expect(res.status).toBe(404);
    }
    await nextId(other.company.id, 'contact', 1000);
    const foreignContact = await contactOf(other);
    expect((await api(t.adminToken).post('/schedules', scheduleBody(foreignContact))).status).toBe(404);
    expect((await api(t.attendantToken).get('/schedules')).body.schedules.map((s: ScheduleView) => s.id)).not.toContain(
      id,
    );
    expect((await api(t.adminToken).get(`/schedules/${id}`)).status).toBe(200);

    const noPlan = await freshCompany(undefined, { planId: (await channelPlan()).id });
    expect((await api(noPlan.adminToken).get('/schedules')).status).toBe(403);
  });

  it('tipoDias 5 and 6 move a holiday on a weekend to the business day before / after; the company list replaces the defaults', async () => {
    const contact = await contactOf(t);
    // Saturday 1 May 2027 (Dia do Trabalho).
    const before = await api(t.adminToken).post(
      '/schedules',
      scheduleBody(contact, { sendAt: '2027-05-01T10:00', tipoDias: 5 }),
    );
    expect(before.status, JSON.stringify(before.body)).toBe(201);
    expect(before.body.sendAtLocal).toBe('2027-04-30T10:00');
    const after = await api(t.adminToken).post(
      '/schedules',
      scheduleBody(contact, { sendAt: '2027-05-01T10:00', tipoDias: 6 }),
    );
    expect(after.body.sendAtLocal).toBe('2027-05-03T10:00');
    const normal = await api(t.adminToken).post(
      '/schedules',
      scheduleBody(contact, { sendAt: '2027-05-01T10:00', tipoDias: 4 }),
    );
    expect(normal.body.sendAtLocal).toBe('2027-05-01T10:00');

    const defaults = await api(t.adminToken).get('/schedule-holidays', { year: '2027' });
    expect(defaults.body).toMatchObject({ year: 2027, source: 'default' });
    const saved = await api(t.adminToken).put('/schedule-holidays', {
      year: 2027,
      holidays: [...defaults.body.holidays, { date: '2027-05-03', name: 'Feriado municipal' }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await api(t.attendantToken).put('/schedule-holidays', { year: 2027, holidays: [] })).status).toBe(403);
    expect(
      (await api(t.adminToken).put('/schedule-holidays', { year: 2027, holidays: [{ date: '2028-01-01', name: 'x' }] }))
        .status,
    ).toBe(400);
    const moved = await api(t.adminToken).post(
      '/schedules',
      scheduleBody(contact, { sendAt: '2027-05-01T10:00', tipoDias: 6 }),
    );
    expect(moved.body.sendAtLocal).toBe('2027-05-04T10:00');
    // Editing the rule moves the pending one too.
    const edited = await api(t.adminToken).put(`/schedules/${after.body.id}`, { tipoDias: 5 });
    expect(edited.body.sendAtLocal).toBe('2027-04-30T10:00');
  });
});

describe('sending through the simulator', { timeout: 240_000 }, () => {
  it('two ticks at once and a redelivered consumer: the message arrives once, the schedule is ENVIADA and read-only', async () => {
    const contact = await contactOf(t);
    const created = await api(t.adminToken).post(
      '/schedules',
      scheduleBody(contact, { sendAt: localIn(2), assinar: true }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const view = created.body as ScheduleView;
    const due = new Date(Date.parse(view.sendAt) + 1_000);
    await setTickCheckpoint(SCHEDULE_TICK_NAME, new Date(Date.now() - 60_000).toISOString().slice(0, 16));
    const handled: DueScheduleMessage[] = [];
    const handle = async (m: DueScheduleMessage) => {
      handled.push(m);
      return handleDueSchedule(m, due);
    };
    await Promise.all([runScheduleTick(due, handle), runScheduleTick(due, handle)]);
    // The consumer redelivered after the send: nothing more.
    const mine = { companyId: t.company.id, scheduleId: view.id, sendAt: view.sendAt };
    expect(await handleDueSchedule(mine, due)).toBe('gone');
    expect(handled.filter((m) => m.scheduleId === view.id).length).toBeGreaterThanOrEqual(2);

    const done = (await api(t.adminToken).get(`/schedules/${view.id}`)).body as ScheduleView;
    expect(done).toMatchObject({ status: 'ENVIADA', sentCount: 1 });
    expect(done.sentAt).not.toBeNull();
    expect(await sentinel(done.ticketId!, contact.number)).toEqual([`*Admin:*\n${view.body}`]);
    const inTicket = (await listTicketMessages(t.company.id, done.ticketId!)).filter((m) => m.body.endsWith(view.body));
    expect(inTicket).toHaveLength(1);
    expect((await api(t.adminToken).put(`/schedules/${view.id}`, { body: 'Tarde demais para mudar' })).status).toBe(
      409,
    );
  });

  it('a recurring schedule moves to its next occurrence after each send and ends ENVIADA after the last', async () => {
    const contact = await contactOf(t);
    const created = await api(t.adminToken).post(
      '/schedules',
      scheduleBody(contact, { sendAt: localIn(3), intervalo: 1, valorIntervalo: 1, enviarQuantasVezes: 2 }),
    );
    const view = created.body as ScheduleView;
    expect(
      await handleDueSchedule(
        { companyId: t.company.id, scheduleId: view.id, sendAt: view.sendAt },
        new Date(Date.parse(view.sendAt) + 500),
      ),
    ).toBe('sent');
    const second = (await getSchedule(t.company.id, view.id))!;
    expect(second).toMatchObject({ status: 'PENDENTE', sentCount: 1, occurrenceIndex: 1, sentAt: null });
    expect(Date.parse(second.sendAt) - Date.parse(view.sendAt)).toBe(86_400_000);
    expect(second.sendAtLocal.slice(11)).toBe(view.sendAtLocal.slice(11));

    // A day later the tick finds the next occurrence on the due index.
    const nextDay = new Date(Date.parse(second.sendAt) + 2_000);
    await setTickCheckpoint(
      SCHEDULE_TICK_NAME,
      new Date(Date.parse(second.sendAt) - 60_000).toISOString().slice(0, 16),
    );
    await runScheduleTick(nextDay, (m) => handleDueSchedule(m, nextDay));
    const done = (await getSchedule(t.company.id, view.id))!;
    expect(done).toMatchObject({ status: 'ENVIADA', sentCount: 2 });
    expect(await sentinel(done.ticketId!, contact.number)).toEqual([view.body, view.body]);
  });

  it('a tick that missed an hour catches up: 1 hour late is sent once, 3 hours late is missed (ERRO, or the next occurrence)', async () => {
    const [lateContact, missedContact, recurringContact] = await Promise.all([
      contactOf(t),
      contactOf(t),
      contactOf(t),
    ]);
    const now = Math.floor(Date.now() / 60_000) * 60_000;
    const late = await storedSchedule(lateContact, new Date(now - 60 * 60_000));
    const missed = await storedSchedule(missedContact, new Date(now - 3 * 3600_000));
    const recurring = await storedSchedule(recurringContact, new Date(now - 3 * 3600_000), {
      intervalo: 1,
      valorIntervalo: 1,
      enviarQuantasVezes: 3,
    });
    // The tick last ran over three hours ago.
    await setTickCheckpoint(SCHEDULE_TICK_NAME, new Date(now - 3 * 3600_000 - 120_000).toISOString().slice(0, 16));
    await runScheduleTick(new Date(), (m) => handleDueSchedule(m));

    const lateDone = await waitFor(
      () => getSchedule(t.company.id, late.id),
      (s) => s?.status === 'ENVIADA',
      { what: 'the late schedule sent', timeoutMs: 60_000 },
    );
    expect(await sentinel(lateDone!.ticketId!, lateContact.number)).toEqual([late.body]);

    const missedDone = (await getSchedule(t.company.id, missed.id))!;
    expect(missedDone).toMatchObject({ status: 'ERRO', sentCount: 0, missedCount: 1 });
    expect(missedDone.lastError).toMatch(/atrasou/);
    expect(missedDone.sentAt).not.toBeNull();

    const moved = (await getSchedule(t.company.id, recurring.id))!;
    expect(moved).toMatchObject({ status: 'PENDENTE', missedCount: 1, sentCount: 0, occurrenceIndex: 1 });
    expect(Date.parse(moved.sendAt)).toBe(Date.parse(recurring.sendAt) + 86_400_000);
    expect(moved.lastError).toMatch(/atrasou/);
  });
});
