import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { signAccessToken } from '../../functions/core/access-token';
import { hashPassword } from '../../functions/core/passwords';
import { addDays } from '../../functions/core/dashboard/metrics';
import { db, tableName } from '../../functions/data/client';
import { createCompany } from '../../functions/data/company-repository';
import { company, pad } from '../../functions/data/keys';
import {
  statsDayPartition,
  statsQueueDayPartition,
  statsUserDayPartition,
  ticketCounters,
  type TicketFacts,
} from '../../functions/data/ticket-stats';
import { createUser } from '../../functions/data/user-repository';
import type { Benchmark } from '../benchmark';
import { markdownTable, ms, percentile } from '../stats';

/**
 * `GET /api/dashboard` for a 30-day range, and the tickets report's first page, through the local gateway,
 * for a small and a big company (decisions D108–D110). The dashboard reads only the day aggregates, so the
 * companies are seeded with aggregate items directly (30 days × company, 5 queues and 20 attendants) whose
 * counters add up to 1 000 and to 1 000 000 tickets — the items a real company of that size would have.
 * The report walks TRACKING items by creation time, so its companies get that many TRACKING items (1 000
 * and 1 000 000, written straight through BatchWrite) and the TICKET items of the newest 1 000.
 */
const DASHBOARD_SIZES = [1_000, 1_000_000] as const;
const REPORT_SIZES = [1_000, 1_000_000] as const;
/** The report's first page reads the newest tickets: TICKET items are written for this many only (every TRACKING item is). */
const REPORT_TICKET_ITEMS = 1_000;
const DAYS = 30;
const QUEUES = 5;
const USERS = 20;
const REQUESTS = 200;
const WARMUP = 20;
const MAX_RATIO = 1.2;
const P95_GOAL_MS = 300;
export const LAST_DAY = '2026-03-31';
export const FIRST_DAY = addDays(LAST_DAY, 1 - DAYS);

export interface Tenant {
  companyId: number;
  token: string;
}

export const batchWrite = async (items: Record<string, unknown>[]) => {
  for (let i = 0; i < items.length; i += 25) {
    let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0 && attempt < 10; attempt += 1) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      if (pending.length) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
};

export const tenant = async (label: string): Promise<Tenant> => {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const c = await createCompany({
    name: `Bench dashboard ${label} ${stamp}`,
    email: `bench-dash-${stamp}@bench.local`,
    phone: '',
    document: '',
    planId: 1,
    status: true,
    recurrence: 'MENSAL',
    dueDate: '2999-12-31',
  });
  const admin = await createUser(c.id, {
    name: 'Bench Admin',
    email: `admin-${c.id}-${stamp}@bench.local`,
    passwordHash: await hashPassword(stamp),
    profile: 'admin',
  });
  for (let u = 1; u < USERS; u += 1) {
    await createUser(c.id, {
      name: `Atendente ${u}`,
      email: `u${u}-${c.id}-${stamp}@bench.local`,
      passwordHash: 'x',
      profile: 'user',
    });
  }
  const token = await signAccessToken({ companyId: c.id, userId: admin.id, profile: 'admin', super: false }, 3600);
  return { companyId: c.id, token };
};

/** Day aggregates whose counters add up to `tickets` tickets: closed, attended, rated, spread evenly. */
const seedAggregates = async (companyId: number, tickets: number) => {
  const perCell = tickets / (DAYS * QUEUES);
  const facts: TicketFacts = {
    day: FIRST_DAY,
    hour: 10,
    createdAt: '2026-03-01T13:00:00.000Z',
    origin: 'passive',
    isGroup: false,
    status: 'closed',
    userId: 1,
    queueId: 1,
    startedAt: '2026-03-01T13:10:00.000Z',
    finishedAt: '2026-03-01T13:40:00.000Z',
    rating: 9,
  };
  const scaled = (n: number) =>
    Object.fromEntries(Object.entries(ticketCounters(facts)).map(([k, v]) => [k, Math.round(v * n)]));
  const items: Record<string, unknown>[] = [];
  for (let d = 0; d < DAYS; d += 1) {
    const day = addDays(FIRST_DAY, d);
    items.push({
      pk: statsDayPartition(companyId),
      sk: day,
      type: 'STATS_DAY',
      companyId,
      day,
      ...scaled(perCell * QUEUES),
    });
    for (let q = 1; q <= QUEUES; q += 1) {
      items.push({
        pk: statsQueueDayPartition(companyId),
        sk: `${day}#${pad(q)}`,
        type: 'STATS_QUEUEDAY',
        companyId,
        day,
        queueId: q,
        ...scaled(perCell),
      });
    }
    for (let u = 1; u <= USERS; u += 1) {
      items.push({
        pk: statsUserDayPartition(companyId),
        sk: `${day}#${pad(u)}`,
        type: 'STATS_USERDAY',
        companyId,
        day,
        userId: u,
        ...scaled((perCell * QUEUES) / USERS),
      });
    }
  }
  await batchWrite(items);
};

/**
 * `size` tickets created across the range: TICKET and TRACKING items as createTicket writes them — the TICKET
 * items only for the newest `ticketItems` when given (what the report's first page reads of them).
 */
export const seedTickets = async (companyId: number, size: number, ticketItems = size) => {
  const start = Date.parse(`${FIRST_DAY}T03:00:00.000Z`);
  const span = DAYS * 86_400_000;
  const items: Record<string, unknown>[] = [];
  for (let id = 1; id <= size; id += 1) {
    const createdAt = new Date(start + Math.floor((id / size) * (span - 60_000))).toISOString();
    const pk = `${company(companyId)}#T#${pad(id)}`;
    if (id > size - ticketItems) {
      items.push({
        pk,
        sk: 'TICKET',
        type: 'TICKET',
        id,
        uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
        companyId,
        status: 'closed',
        queueId: (id % QUEUES) + 1,
        userId: (id % USERS) + 1,
        contactId: id,
        whatsappId: 1,
        channel: 'whatsapp',
        isGroup: false,
        isBot: false,
        lastMessage: 'Obrigado!',
        unreadMessages: 0,
        tagIds: [],
        createdAt,
        updatedAt: createdAt,
        version: 3,
      });
    }
    items.push({
      pk,
      sk: 'TRACKING',
      type: 'TRACKING',
      gsi5pk: `${company(companyId)}#TCREATED`,
      gsi5sk: `${createdAt}#${pad(id)}`,
      companyId,
      ticketId: id,
      contactId: id,
      whatsappId: 1,
      queueId: (id % QUEUES) + 1,
      userId: (id % USERS) + 1,
      status: 'closed',
      origin: 'passive',
      isGroup: false,
      createdAt,
      startedAt: createdAt,
      finishedAt: createdAt,
      statsDay: createdAt.slice(0, 10),
      statsHour: 0,
    });
    if (items.length >= 2_000) await batchWrite(items.splice(0));
  }
  await batchWrite(items);
};

export const timeRequests = async (url: string, token: string) => {
  const call = async () => {
    const started = performance.now();
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 200)}`);
    return { ms: performance.now() - started, body: JSON.parse(text) as Record<string, unknown> };
  };
  for (let i = 0; i < WARMUP; i += 1) await call();
  const samples: number[] = [];
  let body: Record<string, unknown> = {};
  for (let i = 0; i < REQUESTS; i += 1) {
    const r = await call();
    samples.push(r.ms);
    body = r.body;
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), body };
};

export const dashboard: Benchmark = {
  name: 'dashboard',
  description:
    '`GET /api/dashboard` for a 30-day range at 1 000 vs 1 000 000 tickets (aggregates seeded directly) and the ' +
    'tickets report’s first page (`GET /api/ticketreport/reports`, 10 rows) at 1 000 vs 1 000 000 seeded tickets.',
  goal: `p95 at the big size ÷ at the small size ≤ ${MAX_RATIO}, and p95 < ${P95_GOAL_MS} ms`,
  needsCloud: true,
  run: async (ctx) => {
    if (!ctx.cloud) throw new Error('dashboard needs the local cloud');
    const { gatewayUrl } = ctx.cloud;
    const rows: (string | number)[][] = [];
    const results: { scenario: string; size: number; p50: number; p95: number }[] = [];
    for (const size of DASHBOARD_SIZES) {
      ctx.log(`dashboard: seeding aggregates for ${size} tickets`);
      const t = await tenant(`agg ${size}`);
      await seedAggregates(t.companyId, size);
      const url = new URL('/api/dashboard', gatewayUrl);
      url.searchParams.set('date_from', FIRST_DAY);
      url.searchParams.set('date_to', LAST_DAY);
      const r = await timeRequests(url.toString(), t.token);
      const counters = r.body.counters as { tickets: number };
      results.push({ scenario: 'GET /dashboard (30 days)', size, p50: r.p50, p95: r.p95 });
      rows.push([
        'GET /dashboard (30 days)',
        size.toLocaleString('en'),
        counters.tickets.toLocaleString('en'),
        ms(r.p50),
        ms(r.p95),
      ]);
    }
    for (const size of REPORT_SIZES) {
      ctx.log(`dashboard: seeding ${size} tickets for the report`);
      const t = await tenant(`report ${size}`);
      await seedTickets(t.companyId, size, Math.min(size, REPORT_TICKET_ITEMS));
      const url = new URL('/api/ticketreport/reports', gatewayUrl);
      url.searchParams.set('dateFrom', FIRST_DAY);
      url.searchParams.set('dateTo', LAST_DAY);
      url.searchParams.set('page', '1');
      url.searchParams.set('pageSize', '10');
      const r = await timeRequests(url.toString(), t.token);
      results.push({ scenario: 'report page 1', size, p50: r.p50, p95: r.p95 });
      rows.push([
        'report page 1 (10 rows)',
        size.toLocaleString('en'),
        String((r.body.tickets as unknown[]).length),
        ms(r.p50),
        ms(r.p95),
      ]);
    }
    const ratio = (scenario: string) => {
      const [small, big] = results.filter((r) => r.scenario === scenario);
      return big!.p95 / small!.p95;
    };
    const dashRatio = ratio('GET /dashboard (30 days)');
    const reportRatio = ratio('report page 1');
    const worstP95 = Math.max(...results.map((r) => r.p95));
    return {
      table: markdownTable(['scenario', 'tickets', 'answer', 'p50 ms', 'p95 ms'], rows, ['l', 'r', 'r', 'r', 'r']),
      goalMet: dashRatio <= MAX_RATIO && reportRatio <= MAX_RATIO && worstP95 < P95_GOAL_MS,
      summary:
        `p95 ratio big/small: dashboard ${dashRatio.toFixed(2)}, report first page ${reportRatio.toFixed(2)}; ` +
        `worst p95 ${ms(worstP95)} ms.`,
      notes:
        'The dashboard reads 30 company-day items and the user-day items of the range (O(days × attendants)), ' +
        'never tickets, so the seed writes those aggregates directly with counters that add up to the size. ' +
        'The report’s first page reads about 11 TRACKING items of the creation index plus one BatchGet of ' +
        'tickets and contacts; its total comes from the day aggregates. The report companies get a TRACKING item ' +
        'for every ticket (the index the page walks) but TICKET items only for the newest 1 000 (the page ' +
        'BatchGets 10 of those), which keeps the 1 000 000 seed to minutes. The 100 000-row export is measured by ' +
        '`report-export` (decisions D128).',
    };
  },
};
