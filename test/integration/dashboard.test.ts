import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReportRow } from '../../functions/contracts/dashboard';
import { signAccessToken } from '../../functions/core/access-token';
import { createContact } from '../../functions/data/contact-repository';
import { createQueue, type Queue } from '../../functions/data/queue-repository';
import { setCompanySetting } from '../../functions/data/settings-repository';
import {
  createTicket,
  deleteTicketItems,
  getTicket,
  transitionTicket,
  type Ticket,
  type TicketChange,
} from '../../functions/data/ticket-repository';
import { createUser, type User } from '../../functions/data/user-repository';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../functions/data/client';
import { backfillCompanyStats } from '../../functions/data/stats-backfill-repository';
import { statsDayPartition, statsQueueDayPartition } from '../../functions/data/ticket-stats';
import { someConnection } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';

/**
 * Dashboard, charts, panel and report numbers (issue 18; decisions D108–D110) on a scripted day of tickets
 * in a company whose zone is Asia/Tokyo (UTC+9, no DST), so the local day 2026-03-01 runs from
 * 2026-02-28T15:00Z to 2026-03-01T15:00Z. Tickets are moved through the repository with their scripted
 * times (the writes the services use); every figure below is computed by hand from the script.
 *
 * T1 Vendas: created 01:00Z (10h local), Ana accepts 01:10 (wait 10), resolves to nps 01:40 (support 30), rated 10 at 01:45.
 * T2 Vendas: created 02:00Z (11h), the bot answers and the system closes it 02:05 (no attendant: no wait, no support).
 * T3 Vendas: created 03:00Z (12h), Ana accepts 03:20 (wait 20), transfers to Bia/Suporte 03:30, Bia closes 04:30,
 *    reopens 05:00, resolves to nps 05:10 (support 03:20→05:10 = 110: the reopen keeps the first response), rated 4 at 05:15.
 * T4 Vendas: created open by Ana 06:00Z (15h), active (wait 0), still open.
 * T5 Suporte: created 14:30Z (23:30 local), Bia accepts 15:12 (00:12 the next local day; wait 42), still open.
 * T6 Suporte: created 15:30Z (00:30 on 03-02 local): the next day.
 * T7 group: created 07:00Z (16h), no queue, no attendant.
 * T8 Vendas: created 08:00Z (17h), Ana accepts 08:05 (wait 5), closes 08:35 unrated (support 30).
 * T9 Suporte: created 09:00Z (18h), Bia accepts 09:30 (wait 30), resolves to nps 10:00: waiting for the score.
 */
let t: TestCompany;
let vendas: Queue;
let suporte: Queue;
let whatsappId: number;
let ana: User;
let bia: User;
let biaToken: string;
const tickets: Record<string, Ticket> = {};

const at = (hhmm: string, day = '2026-03-01') => new Date(`${day}T${hhmm}:00.000Z`);

const newTicket = async (
  name: string,
  input: {
    status: Ticket['status'];
    queueId: number | null;
    userId?: number | null;
    isGroup?: boolean;
    origin?: 'active' | 'passive';
  },
  when: Date,
) => {
  const number = `5511${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const contact = await createContact(
    t.company.id,
    { name, number, isGroup: input.isGroup ?? false, channel: 'whatsapp', whatsappId },
    [`wa#${number}`],
  );
  return createTicket(
    t.company.id,
    {
      status: input.status,
      queueId: input.queueId,
      userId: input.userId ?? null,
      contactId: contact.id,
      whatsappId,
      channel: 'whatsapp',
      isGroup: input.isGroup ?? false,
      origin: input.origin ?? 'passive',
    },
    when,
  );
};

const move = async (key: string, change: Partial<TicketChange> & Pick<TicketChange, 'status'>, when: Date) => {
  const current = tickets[key]!;
  tickets[key] = await transitionTicket(
    current,
    {
      userId: current.userId,
      queueId: current.queueId,
      logs: [],
      ...change,
    },
    when,
  );
};

const admin = () => api(t.adminToken);

beforeAll(async () => {
  t = await freshCompany();
  await setCompanySetting(t.company.id, 'timezone', 'Asia/Tokyo');
  vendas = await createQueue(t.company.id, { name: 'Vendas', color: '#1f77b4' });
  suporte = await createQueue(t.company.id, { name: 'Suporte', color: '#ff7f0e' });
  whatsappId = (await someConnection(t.company.id, { status: 'CONNECTED' })).id;
  const person = (name: string, queueIds: number[], extra: Partial<User> = {}) =>
    createUser(t.company.id, {
      name,
      email: `${randomUUID()}@test.local`,
      passwordHash: 'x',
      profile: 'user',
      queueIds,
      ...extra,
    });
  ana = await person('Ana', [vendas.id]);
  bia = await person('Bia', [suporte.id], { showDashboard: 'enabled', allowRealTime: 'enabled' });
  biaToken = await signAccessToken({ companyId: t.company.id, userId: bia.id, profile: 'user', super: false });

  tickets.T1 = await newTicket('T1', { status: 'pending', queueId: vendas.id }, at('01:00'));
  await move('T1', { status: 'open', userId: ana.id }, at('01:10'));
  await move('T1', { status: 'nps' }, at('01:40'));
  await move('T1', { status: 'closed', rating: 10, fields: { userRating: 5 } }, at('01:45'));

  tickets.T2 = await newTicket('T2', { status: 'pending', queueId: vendas.id }, at('02:00'));
  await move('T2', { status: 'pending', fields: { isBot: true } }, at('02:01'));
  await move('T2', { status: 'closed' }, at('02:05'));

  tickets.T3 = await newTicket('T3', { status: 'pending', queueId: vendas.id }, at('03:00'));
  await move('T3', { status: 'open', userId: ana.id }, at('03:20'));
  await move('T3', { status: 'open', userId: bia.id, queueId: suporte.id }, at('03:30'));
  await move('T3', { status: 'closed' }, at('04:30'));
  await move('T3', { status: 'open' }, at('05:00'));
  await move('T3', { status: 'nps' }, at('05:10'));
  await move('T3', { status: 'closed', rating: 4, fields: { userRating: 2 } }, at('05:15'));

  tickets.T4 = await newTicket(
    'T4',
    { status: 'open', queueId: vendas.id, userId: ana.id, origin: 'active' },
    at('06:00'),
  );

  tickets.T5 = await newTicket('T5', { status: 'pending', queueId: suporte.id }, at('14:30'));
  await move('T5', { status: 'open', userId: bia.id }, at('15:12'));

  tickets.T6 = await newTicket('T6', { status: 'pending', queueId: suporte.id }, at('15:30'));

  tickets.T7 = await newTicket('T7', { status: 'group', queueId: null, isGroup: true }, at('07:00'));

  tickets.T8 = await newTicket('T8', { status: 'pending', queueId: vendas.id }, at('08:00'));
  await move('T8', { status: 'open', userId: ana.id }, at('08:05'));
  await move('T8', { status: 'closed' }, at('08:35'));

  tickets.T9 = await newTicket('T9', { status: 'pending', queueId: suporte.id }, at('09:00'));
  await move('T9', { status: 'open', userId: bia.id }, at('09:30'));
  await move('T9', { status: 'nps' }, at('10:00'));
});

const DAY = { date_from: '2026-03-01', date_to: '2026-03-01' };

/** The hand-computed cards of 2026-03-01 (see the script above). */
const EXPECTED_CARDS = {
  supportHappening: 2, // T4, T5
  supportPending: 0,
  supportFinished: 4, // T1, T2, T3, T8
  supportGroups: 1, // T7
  leads: 0, // contacts are created today (real time), not on 2026-03-01
  avgSupportTime: 57, // (30 + 110 + 30) / 3 = 56.7
  avgWaitTime: 18, // (10 + 20 + 0 + 42 + 5 + 30) / 6 = 17.8
  activeTickets: 1, // T4
  passiveTickets: 7,
  tickets: 8,
  waitRating: 1, // T9
  withoutRating: 1, // T8 (T2 had no attendant)
  withRating: 2, // T1, T3
  percRating: 66.7,
  npsScore: 0, // 1 promoter (10), 1 detractor (4), of 2
  npsPromotersPerc: 50,
  npsDetractorsPerc: 50,
  npsPassivePerc: 0,
};

describe('GET /dashboard', () => {
  it('gives every card of the scripted day as computed by hand', async () => {
    const res = await admin().get('/dashboard', DAY);
    expect(res.status).toBe(200);
    expect(res.body.counters).toEqual(EXPECTED_CARDS);
    expect(res.body.dateFrom).toBe('2026-03-01');
  });

  it('gives the attendants rows: tickets, rating 1–5, waits and support times in minutes', async () => {
    const res = await admin().get('/dashboard', DAY);
    const rows = Object.fromEntries(
      (res.body.attendants as { name: string }[]).map((r) => [r.name, { ...r, id: undefined, online: undefined }]),
    );
    // Ana: T1 (rated 10 → 5), T4, T8; waits 10, 0, 5; support 30, 30.
    expect(rows.Ana).toMatchObject({ tickets: 3, countRating: 1, rating: 5, avgWaitTime: 5, avgSupportTime: 30 });
    // Bia: T3 (rated 4 → 2), T5, T9; waits 20, 42, 30 → 30.7; support 110.
    expect(rows.Bia).toMatchObject({ tickets: 3, countRating: 1, rating: 2, avgWaitTime: 31, avgSupportTime: 110 });
  });

  it('sums only the chosen queues when queueIds is given', async () => {
    const res = await admin().get('/dashboard', { ...DAY, queueIds: JSON.stringify([suporte.id]) });
    // Suporte holds T3 (closed, rated 4), T5 (open), T9 (nps).
    expect(res.body.counters).toMatchObject({
      tickets: 3,
      supportHappening: 1,
      supportFinished: 1,
      waitRating: 1,
      withRating: 1,
      npsDetractorsPerc: 100,
      avgSupportTime: 110,
    });
  });

  it('counts the contacts made today as leads', async () => {
    const res = await admin().get('/dashboard', { days: '1' });
    expect(res.body.counters.leads).toBe(8); // nine contacts, one of them a group
  });

  it('answers "Parametrize o filtro" without a filter and 400 for a bad range', async () => {
    const none = await admin().get('/dashboard');
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Parametrize o filtro');
    const reversed = await admin().get('/dashboard', { date_from: '2026-03-02', date_to: '2026-03-01' });
    expect(reversed.status).toBe(400);
    expect(reversed.body.fields?.[0]?.field ?? reversed.body.details?.[0]?.field).toBe('query.date_to');
    const notADay = await admin().get('/dashboard', { date_from: '2026-02-30', date_to: '2026-03-01' });
    expect(notADay.status).toBe(400);
  });

  it('lets a plain user with showDashboard in; one without it gets 403', async () => {
    expect((await api(biaToken).get('/dashboard', DAY)).body.counters).toEqual(EXPECTED_CARDS);
    const denied = await api(t.attendantToken).get('/dashboard', DAY);
    expect(denied.status).toBe(403);
  });
});

describe('charts', () => {
  it('ticketsDay: per hour for one day, per day for a range, the same total as the card', async () => {
    const hours = await admin().get('/dashboard/ticketsDay', { initialDate: '2026-03-01', finalDate: '2026-03-01' });
    expect(hours.body.count).toBe(EXPECTED_CARDS.tickets);
    const busy = (hours.body.data as { horario: string; total: number }[]).filter((h) => h.total > 0);
    expect(busy).toEqual(['10', '11', '12', '15', '16', '17', '18', '23'].map((horario) => ({ horario, total: 1 })));
    const days = await admin().get('/dashboard/ticketsDay', { initialDate: '2026-02-28', finalDate: '2026-03-02' });
    expect(days.body.data).toEqual([
      { data: '2026-02-28', total: 0 },
      { data: '2026-03-01', total: 8 },
      { data: '2026-03-02', total: 1 },
    ]);
  });

  it('ticketsUsers: the attendants table tickets', async () => {
    const res = await admin().get('/dashboard/ticketsUsers', { initialDate: '2026-03-01', finalDate: '2026-03-01' });
    expect(res.body.count).toBe(6);
    expect((res.body.data as { nome: string; quantidade: number }[]).map((r) => [r.nome, r.quantidade]).sort()).toEqual(
      [
        ['Ana', 3],
        ['Bia', 3],
      ],
    );
  });
});

describe('GET /ticketreport/reports', () => {
  const report = (query: Record<string, string>) =>
    admin().get('/ticketreport/reports', { dateFrom: '2026-03-01', dateTo: '2026-03-01', ...query });

  it('pages the day newest first with supportTime and NPS per row, and the exact total', async () => {
    const first = await report({ page: '1', pageSize: '5' });
    expect(first.status).toBe(200);
    expect(first.body.totalTickets.total).toBe(8);
    expect(first.body.countIsExact).toBe(true);
    expect(first.body.tickets.map((r: { contactName: string }) => r.contactName)).toEqual([
      'T5',
      'T9',
      'T8',
      'T7',
      'T4',
    ]);
    const second = await report({ page: '2', pageSize: '5' });
    expect(second.body.tickets.map((r: { contactName: string }) => r.contactName)).toEqual(['T3', 'T2', 'T1']);
    const rows = Object.fromEntries(
      ([...first.body.tickets, ...second.body.tickets] as ReportRow[]).map((r) => [r.contactName, r]),
    );
    expect(rows.T3).toMatchObject({
      supportTime: 110,
      NPS: 4,
      userName: 'Bia',
      queueName: 'Suporte',
      status: 'closed',
      closedAt: '2026-03-01T05:15:00.000Z',
    });
    expect(rows.T1).toMatchObject({ supportTime: 30, NPS: 10, userName: 'Ana', queueName: 'Vendas' });
    expect(rows.T8).toMatchObject({ supportTime: 30, NPS: null });
    expect(rows.T2).toMatchObject({ supportTime: null, userName: '' });
    // The same numbers as the cards: the average of the rows' support times is the card's.
    const times = Object.values(rows).flatMap((r) => r.supportTime ?? []);
    expect(Math.round(times.reduce((a, b) => a + b, 0) / times.length)).toBe(EXPECTED_CARDS.avgSupportTime);
  });

  it('filters by status, attendant and rating, with totals that agree with the cards', async () => {
    const closed = await report({ status: JSON.stringify(['closed']) });
    expect(closed.body.totalTickets.total).toBe(EXPECTED_CARDS.supportFinished);
    expect(closed.body.tickets).toHaveLength(4);
    const ofAna = await report({ users: JSON.stringify([ana.id]) });
    expect(ofAna.body.totalTickets.total).toBe(3);
    const rated = await report({ onlyRated: 'true' });
    expect(rated.body.totalTickets.total).toBe(EXPECTED_CARDS.withRating);
    expect(rated.body.tickets.map((r: { NPS: number }) => r.NPS)).toEqual([4, 10]);
    const byNumber = await report({ searchParam: String(tickets.T3!.id) });
    expect(byNumber.body.tickets.map((r: { id: number }) => r.id)).toEqual([tickets.T3!.id]);
  });

  it('rejects bad filters with 400 and the field', async () => {
    const bad = await report({ status: 'not-json[' });
    expect(bad.status).toBe(400);
    const missing = await admin().get('/ticketreport/reports', { dateFrom: '2026-03-01' });
    expect(missing.status).toBe(400);
    const deep = await report({ page: '300', pageSize: '50' });
    expect(deep.status).toBe(400);
  });
});

describe('exactly once', () => {
  it('a retried transition (stale version) changes no number; a delete takes the ticket out', async () => {
    const stale = { ...tickets.T8!, version: tickets.T8!.version - 1, status: 'open' as const };
    await expect(
      transitionTicket(stale, { status: 'closed', userId: ana.id, queueId: vendas.id, logs: [] }, at('09:00')),
    ).rejects.toThrow();
    expect((await admin().get('/dashboard', DAY)).body.counters).toEqual(EXPECTED_CARDS);

    const t6 = (await getTicket(t.company.id, tickets.T6!.id))!;
    await deleteTicketItems(t6);
    const days = await admin().get('/dashboard/ticketsDay', { initialDate: '2026-03-02', finalDate: '2026-03-02' });
    expect(days.body.count).toBe(0);
  });
});

describe('attendance panel', () => {
  it('lists the open and pending tickets with who may open them; users with their loads', async () => {
    const res = await api(biaToken).get('/dashboard/moments');
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(
      (res.body.tickets as { contact: { name: string } }[]).map((x) => [x.contact.name, x]),
    );
    expect(Object.keys(byName).sort()).toEqual(['T4', 'T5']);
    expect(byName.T4).toMatchObject({ status: 'open', user: { id: ana.id, name: 'Ana' }, canOpen: false });
    expect(byName.T5).toMatchObject({ status: 'open', user: { id: bia.id, name: 'Bia' }, canOpen: true });
    const users = await api(biaToken).get('/usersMoments');
    const loads = Object.fromEntries((users.body as { name: string; open: number }[]).map((u) => [u.name, u.open]));
    expect(loads).toMatchObject({ Ana: 1, Bia: 1 });
    expect((await api(t.attendantToken).get('/dashboard/moments')).status).toBe(403);
  });
});

describe('backfill', () => {
  it('counts a ticket made before the counters once, however often it runs', async () => {
    const other = await freshCompany();
    const queue = await createQueue(other.company.id, { name: 'Geral', color: '#2ca02c' });
    const wa = (await someConnection(other.company.id, { status: 'CONNECTED' })).id;
    const number = `5511${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
    const c = await createContact(
      other.company.id,
      { name: 'Antigo', number, isGroup: false, channel: 'whatsapp', whatsappId: wa },
      [`wa#${number}`],
    );
    const old = await createTicket(
      other.company.id,
      {
        status: 'pending',
        queueId: queue.id,
        userId: null,
        contactId: c.id,
        whatsappId: wa,
        channel: 'whatsapp',
        isGroup: false,
        origin: 'passive',
      },
      new Date('2025-06-10T15:00:00.000Z'),
    );
    // As a ticket made before this feature: no marks, no counters.
    const send = (cmd: DeleteCommand | UpdateCommand) => db().send(cmd);
    await send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `C#${other.company.id}#T#${String(old.id).padStart(10, '0')}`, sk: 'TRACKING' },
        UpdateExpression: 'REMOVE statsDay, statsHour',
      }),
    );
    await send(
      new DeleteCommand({ TableName: tableName(), Key: { pk: statsDayPartition(other.company.id), sk: '2025-06-10' } }),
    );
    await send(
      new DeleteCommand({
        TableName: tableName(),
        Key: { pk: statsQueueDayPartition(other.company.id), sk: `2025-06-10#${String(queue.id).padStart(10, '0')}` },
      }),
    );
    const range = { date_from: '2025-06-01', date_to: '2025-06-30' };
    expect((await api(other.adminToken).get('/dashboard', range)).body.counters.tickets).toBe(0);

    expect(await backfillCompanyStats(other.company.id)).toBe(true);
    expect((await api(other.adminToken).get('/dashboard', range)).body.counters).toMatchObject({
      tickets: 1,
      supportPending: 1,
    });
    // Again, and again from scratch (the state lost): the ticket is already counted.
    expect(await backfillCompanyStats(other.company.id)).toBe(true);
    await send(
      new DeleteCommand({ TableName: tableName(), Key: { pk: `C#${other.company.id}#STATS#BACKFILL`, sk: 'STATE' } }),
    );
    expect(await backfillCompanyStats(other.company.id)).toBe(true);
    expect((await api(other.adminToken).get('/dashboard', range)).body.counters.tickets).toBe(1);
  });
});
