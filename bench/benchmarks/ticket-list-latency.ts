import { createHash, randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { signAccessToken } from '../../functions/core/access-token';
import type { AuthContext } from '../../functions/shared/auth-context';
import { hashPassword } from '../../functions/core/passwords';
import {
  listCompanyTickets,
  TICKET_PAGE_SIZE,
  type TicketListInput,
} from '../../functions/core/tickets/ticket-list-service';
import { db, tableName } from '../../functions/data/client';
import { createCompany } from '../../functions/data/company-repository';
import { createConnection } from '../../functions/data/connection-repository';
import {
  contactIndexKeys,
  contactKeys,
  contactPartition,
  contactStatsKeys,
  type Contact,
} from '../../functions/data/contact-repository';
import { nextId } from '../../functions/data/counter-repository';
import { company as companyKey, pad } from '../../functions/data/keys';
import { createQueue, type Queue } from '../../functions/data/queue-repository';
import {
  liveCountsPartition,
  openTicketGuardKeys,
  queueCountKey,
  ticketKeys,
  ticketListKeys,
  ticketUuidKeys,
  trackingKeys,
  userCountKey,
  type Ticket,
  type TicketStatus,
} from '../../functions/data/ticket-repository';
import { createUser, type User } from '../../functions/data/user-repository';
import type { Benchmark, BenchContext } from '../benchmark';
import { markdownTable, ms, percentile } from '../stats';

/**
 * p50/p99 of `GET /api/tickets` (functions/core/tickets/ticket-list-service.ts `listCompanyTickets`)
 * through the local gateway, for a company with 1 000 tickets and one with 100 000, in the tabs attendants
 * use. Lists must cost O(page), not O(tenant) (DESIGN §4). Every scenario is also measured one layer down
 * (`listCompanyTickets` in this process) and every HTTP request counts the DynamoDB calls it made and the
 * items they read, by kind (Query ScannedCount, BatchGet and GetItem items), to say where the work is.
 *
 * The seeding helpers are exported: message-page-latency and tickets-first-load seed with them too.
 */
const SIZES = [1_000, 100_000] as const;
const MAX_RATIO = 1.2;
const REQUESTS_PER_SCENARIO = 1000;
const WARMUP_REQUESTS = 12;
const CURSOR_PAGES = 9;
const BATCH_SIZE = 25;
const PARALLEL_BATCHES = 8;
const MAX_BATCH_ATTEMPTS = 10;
const REQUEST_TIMEOUT_MS = 20_000;

/** Not-closed tickets are today's work, the same at every size: pending per queue, without a queue, open per attendant. */
const PENDING_PER_QUEUE = 80;
const PENDING_WITHOUT_QUEUE = 20;
/** Open tickets per attendant; the first is the one measured, with more than a page. */
const OPEN_PER_ATTENDANT: readonly number[] = [60, 40, 40, 40, 40];
/** One contact per this many tickets (each contact has that many tickets over time). */
const TICKETS_PER_CONTACT = 2;

/** Contact names: first name × surname × number. Few first names, so a first-name search fills a page at 1k. */
const FIRST_NAMES = ['Maria', 'João', 'Ana', 'Pedro', 'Lucas', 'Fernanda', 'Rafael', 'Juliana'];
const SURNAMES = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Lima', 'Pereira', 'Costa', 'Almeida', 'Ribeiro', 'Gomes'];
/** What an attendant types in the search box (accents and case as typed). */
const SEARCHES = ['maria', 'João', 'ana s', 'ped', 'fernanda c', 'luc', 'Rafael Lima', 'jul'];

/** A ticket's uuid, the same every time it is asked for (a v4-shaped uuid from a hash of the ticket). */
const ticketUuid = (companyId: number, id: number): string => {
  const h = createHash('sha256').update(`bench-ticket:${companyId}:${id}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export const contactName = (index: number): string =>
  `${FIRST_NAMES[index % FIRST_NAMES.length]} ${SURNAMES[Math.floor(index / FIRST_NAMES.length) % SURNAMES.length]} ${index}`;

// ------------------------------------------------------------------------------------------ seeding

/** Writes items with BatchWrite, 25 a call, several calls in flight; retries unprocessed items. */
export const writeItems = async (
  ctx: BenchContext,
  what: string,
  count: number,
  itemsOf: (index: number) => Record<string, unknown>[],
): Promise<void> => {
  let next = 0;
  let written = 0;
  const writeBatch = async (items: Record<string, unknown>[]) => {
    let pending = items.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      if (attempt > MAX_BATCH_ATTEMPTS) throw new Error(`BatchWrite left ${pending.length} items unprocessed`);
      if (attempt > 1) await new Promise((r) => setTimeout(r, 25 * attempt));
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (out.UnprocessedItems?.[tableName()] ?? []).flatMap((r) =>
        r.PutRequest?.Item ? [{ PutRequest: { Item: r.PutRequest.Item } }] : [],
      );
    }
  };
  let buffer: Record<string, unknown>[] = [];
  const worker = async () => {
    for (;;) {
      while (buffer.length < BATCH_SIZE && next < count) buffer.push(...itemsOf(next++));
      if (buffer.length === 0) return;
      const batch = buffer.slice(0, BATCH_SIZE);
      buffer = buffer.slice(BATCH_SIZE);
      await writeBatch(batch);
      const before = written;
      written += batch.length;
      if (Math.floor(before / 50_000) !== Math.floor(written / 50_000)) ctx.log(`  ${written} ${what} items`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_BATCHES }, worker));
};

export interface SeedUser {
  user: User;
  token: string;
  auth: AuthContext;
}

export interface TicketCompany {
  size: number;
  companyId: number;
  whatsappId: number;
  queues: Queue[];
  admin: SeedUser;
  /** attendants[0] is in queues 0 and 1, the others in one queue each. */
  attendants: SeedUser[];
  /** The password every seeded user has (the browser benchmark logs in with it). */
  password: string;
  firstTicketId: number;
  firstContactId: number;
  contacts: number;
  /** The ticket of each index, as seeded. */
  ticketAt: (index: number) => Ticket;
}

const authOf = (user: User): AuthContext => ({
  companyId: user.companyId,
  userId: user.id,
  profile: user.profile === 'admin' ? 'admin' : 'user',
  super: false,
  userFlags: {},
  planFlags: {},
});

const seedUser = async (user: User): Promise<SeedUser> => ({
  user,
  // An hour, so a slow machine never measures 401s.
  token: await signAccessToken(
    { companyId: user.companyId, userId: user.id, profile: user.profile === 'admin' ? 'admin' : 'user', super: false },
    3600,
  ),
  auth: authOf(user),
});

/**
 * A company with `size` tickets as `createTicket` and the transitions leave them (TICKET on gsi1/gsi2,
 * TRACKING on gsi3/gsi5, TUUID, the OPEN guard of not-closed tickets), one contact per
 * TICKETS_PER_CONTACT tickets (CONTACT on gsi1/gsi2), and the live counts set to the seeded totals.
 * Ids grow with time: the newest tickets are today's pending and open ones, everything older is closed.
 */
export const seedTicketCompany = async (
  ctx: BenchContext,
  size: number,
  options: { password?: string; label?: string } = {},
): Promise<TicketCompany> => {
  const stamp = `${Date.now()}-${randomUUID().slice(0, 6)}`;
  const password = options.password ?? `Bench@${stamp}`;
  const passwordHash = await hashPassword(password);
  const company = await createCompany({
    name: `Bench ${options.label ?? 'tickets'} ${size} ${stamp}`,
    email: `bench-${size}-${stamp}@bench.local`,
    phone: '',
    document: '',
    planId: 1,
    status: true,
    recurrence: 'MENSAL',
    dueDate: '2999-12-31',
  });
  const companyId = company.id;
  const { connection } = await createConnection(companyId, {
    name: 'WhatsApp Bench',
    channel: 'whatsapp',
    status: 'CONNECTED',
  } as Parameters<typeof createConnection>[1]);
  const queues: Queue[] = [];
  for (const [name, color] of [
    ['Vendas', '#1f77b4'],
    ['Suporte', '#ff7f0e'],
    ['Financeiro', '#2ca02c'],
  ] as const) {
    queues.push(await createQueue(companyId, { name, color } as Parameters<typeof createQueue>[1]));
  }
  const newUser = async (name: string, profile: 'admin' | 'user', queueIds: number[]) =>
    seedUser(
      await createUser(companyId, {
        name,
        email: `${name.toLowerCase().replace(/\W/g, '')}-${stamp}@bench.local`,
        passwordHash,
        profile,
        queueIds,
      }),
    );
  const admin = await newUser(
    'Bench Admin',
    'admin',
    queues.map((q) => q.id),
  );
  const attendants = [
    await newUser('Ana Atendente', 'user', [queues[0]!.id, queues[1]!.id]),
    await newUser('Bruno Atendente', 'user', [queues[0]!.id]),
    await newUser('Carla Atendente', 'user', [queues[1]!.id]),
    await newUser('Davi Atendente', 'user', [queues[2]!.id]),
    await newUser('Eva Atendente', 'user', [queues[2]!.id]),
  ];

  const notClosed =
    PENDING_PER_QUEUE * queues.length + PENDING_WITHOUT_QUEUE + OPEN_PER_ATTENDANT.reduce((a, b) => a + b);
  const contacts = Math.ceil(size / TICKETS_PER_CONTACT);
  if (notClosed > contacts || notClosed > size)
    throw new Error(`${size} tickets is too few for ${notClosed} not closed`);
  const lastContactId = await nextId(companyId, 'contact', contacts);
  const firstContactId = lastContactId - contacts + 1;
  const lastTicketId = await nextId(companyId, 'ticket', size);
  const firstTicketId = lastTicketId - size + 1;
  // A ticket a minute up to now: 100 000 tickets are ~70 days of history.
  const t0 = Date.now() - (size + 10) * 60_000;
  const timeOf = (index: number) => new Date(t0 + index * 60_000).toISOString();

  // Not-closed tickets are the newest `notClosed` indexes: pending by queue, then without a queue, then open.
  const openOwner: number[] = OPEN_PER_ATTENDANT.flatMap((n, a) => Array.from({ length: n }, () => a));
  const ticketAt = (index: number): Ticket => {
    const id = firstTicketId + index;
    const contactIndex = index % contacts;
    const fromEnd = size - 1 - index;
    let status: TicketStatus = 'closed';
    let queueId: number | null;
    let userId: number | null;
    const pendingQueued = PENDING_PER_QUEUE * queues.length;
    if (fromEnd < pendingQueued) {
      status = 'pending';
      queueId = queues[fromEnd % queues.length]!.id;
      userId = null;
    } else if (fromEnd < pendingQueued + PENDING_WITHOUT_QUEUE) {
      status = 'pending';
      queueId = null;
      userId = null;
    } else {
      const who = fromEnd < notClosed ? openOwner[fromEnd - pendingQueued - PENDING_WITHOUT_QUEUE]! : index % 5;
      if (fromEnd < notClosed) status = 'open';
      const attendant = attendants[who]!;
      userId = attendant.user.id;
      const own = attendant.user.queueIds ?? [];
      queueId = own[index % own.length] ?? null;
    }
    const at = timeOf(index);
    return {
      id,
      uuid: ticketUuid(companyId, id),
      companyId,
      status,
      queueId,
      userId,
      contactId: firstContactId + contactIndex,
      whatsappId: connection.id,
      channel: 'whatsapp',
      isGroup: false,
      isBot: false,
      lastMessage: status === 'closed' ? 'Obrigado pelo contato!' : 'Olá, preciso de ajuda com meu pedido',
      unreadMessages: status === 'pending' ? 1 + (index % 3) : 0,
      tagIds: [],
      useIntegration: false,
      integrationId: null,
      promptId: null,
      amountUsedBotQueues: 0,
      chatId: `5511${String(900_000_000 + contactIndex)}@s.whatsapp.net`,
      createdAt: at,
      updatedAt: at,
      version: status === 'closed' ? 3 : status === 'open' ? 2 : 1,
    };
  };

  ctx.log(`  company ${companyId}: ${contacts} contacts`);
  const contactAt = (index: number): Record<string, unknown> => {
    const id = firstContactId + index;
    const number = `5511${String(900_000_000 + index)}`;
    const at = timeOf(index);
    const contact: Contact = {
      id,
      companyId,
      name: contactName(index),
      number,
      email: '',
      extraInfo: [],
      disableBot: false,
      lgpdAcceptedAt: null,
      active: true,
      acceptAudioMessage: true,
      isGroup: false,
      channel: 'whatsapp',
      urlPicture: '',
      whatsappId: connection.id,
      tagIds: [],
      identities: [`wa#${number}`],
      createdAt: at,
      updatedAt: at,
    };
    return {
      ...contactKeys(companyId, id),
      ...contactIndexKeys(contact),
      type: 'CONTACT',
      ...contact,
      identities: new Set(contact.identities),
    };
  };
  await writeItems(ctx, 'contact', contacts, (i) => [contactAt(i)]);

  ctx.log(`  company ${companyId}: ${size} tickets`);
  const counts = new Map<string, number>();
  const bump = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);
  await writeItems(ctx, 'ticket', size, (index) => {
    const ticket = ticketAt(index);
    bump(queueCountKey(ticket.queueId, ticket.status));
    if (ticket.userId !== null) bump(userCountKey(ticket.userId, ticket.status));
    const at = ticket.createdAt;
    return [
      { ...ticketKeys(companyId, ticket.id), ...ticketListKeys(ticket), type: 'TICKET', ...ticket },
      {
        ...trackingKeys(companyId, ticket.id),
        gsi3pk: `${contactPartition(companyId, ticket.contactId)}#T`,
        gsi3sk: `${at}#${pad(ticket.id)}`,
        gsi5pk: `${companyKey(companyId)}#TCREATED`,
        gsi5sk: `${at}#${pad(ticket.id)}`,
        type: 'TRACKING',
        companyId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        whatsappId: ticket.whatsappId,
        queueId: ticket.queueId,
        userId: ticket.userId,
        status: ticket.status,
        channel: ticket.channel,
        isGroup: false,
        origin: 'passive',
        createdAt: at,
        ...(ticket.queueId === null ? {} : { queuedAt: at }),
        ...(ticket.status === 'closed' ? { finishedAt: at } : {}),
      },
      { ...ticketUuidKeys(companyId, ticket.uuid), type: 'TUUID', companyId, ticketId: ticket.id },
      ...(ticket.status === 'closed'
        ? []
        : [
            {
              ...openTicketGuardKeys(companyId, ticket.contactId, ticket.whatsappId),
              type: 'TICKET_OPEN',
              companyId,
              ticketId: ticket.id,
            },
          ]),
    ];
  });
  // The live counts and the contact count, set to what was written (createTicket moves them by one).
  await writeItems(ctx, 'count', 1, () => [
    ...[...counts].map(([sk, n]) => ({ pk: liveCountsPartition(companyId), sk, type: 'LIVE_COUNT', n })),
    { ...contactStatsKeys(companyId), n: contacts },
  ]);
  return {
    size,
    companyId,
    whatsappId: connection.id,
    queues,
    admin,
    attendants,
    password,
    firstTicketId,
    firstContactId,
    contacts,
    ticketAt,
  };
};

// ----------------------------------------------------------------------------------- DynamoDB reads

/**
 * What DynamoDB did for the calls since the last reset: calls, Query items examined (ScannedCount), items a
 * BatchGet or GetItem returned. The gateway runs the handlers in this process with the same document
 * client, so a middleware on it sees every call a request makes.
 */
export const reads = { calls: 0, queryItems: 0, batchGetItems: 0, getItems: 0 };
const READS_MIDDLEWARE = 'benchReadCounts';
export const resetReads = () => Object.assign(reads, { calls: 0, queryItems: 0, batchGetItems: 0, getItems: 0 });
export const countReads = () =>
  db().middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const out = result.output as {
        ScannedCount?: number;
        Responses?: Record<string, unknown[]>;
        Item?: unknown;
        $metadata?: unknown;
      };
      reads.calls += 1;
      if (typeof out.ScannedCount === 'number') reads.queryItems += out.ScannedCount;
      else if (out.Responses)
        reads.batchGetItems += Object.values(out.Responses).reduce((n, items) => n + (items?.length ?? 0), 0);
      else if (out.Item) reads.getItems += 1;
      return result;
    },
    { step: 'initialize', name: READS_MIDDLEWARE, override: true },
  );
export const stopCountingReads = () => db().middlewareStack.remove(READS_MIDDLEWARE);

export const summarise = (samples: number[]) => ({
  p50: percentile(samples, 50),
  p95: percentile(samples, 95),
  p99: percentile(samples, 99),
});
export const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

// ------------------------------------------------------------------------------------------ the run

type ListQuery = Partial<Record<'status' | 'showAll' | 'queueIds' | 'searchParam' | 'cursor', string>>;

interface TicketAnswer {
  tickets: { id: number }[];
  hasMore: boolean;
  count: number;
  nextCursor?: string;
}

interface Caller {
  who: 'admin' | 'attendant';
}

interface Scenario {
  name: string;
  caller: Caller['who'];
  /** The queries to cycle through, per company. */
  queries: Map<TicketCompany, ListQuery[]>;
  /** Tickets every page must hold (a short page measures less work); null: whatever the search finds. */
  pageSize: number | null;
}

const callerOf = (c: TicketCompany, who: Caller['who']) => (who === 'admin' ? c.admin : c.attendants[0]!);

const getTickets = async (gatewayUrl: string, user: SeedUser, q: ListQuery) => {
  const url = new URL('/api/tickets', gatewayUrl);
  for (const [k, v] of Object.entries(q)) if (v !== undefined) url.searchParams.set(k, v);
  resetReads();
  const started = performance.now();
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${user.token}` },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  const elapsed = performance.now() - started;
  const counted = { ...reads };
  if (res.status !== 200)
    throw new Error(`GET /api/tickets${url.search} answered ${res.status}: ${text.slice(0, 200)}`);
  return { answer: JSON.parse(text) as TicketAnswer, ms: elapsed, reads: counted, bytes: text.length };
};

/** The same list one layer down: `listCompanyTickets`, as the handler calls it, in this process. */
const serviceList = async (user: SeedUser, q: ListQuery) => {
  const input: TicketListInput = {
    pageNumber: 1,
    ...(q.status ? { status: q.status as TicketStatus } : {}),
    ...(q.showAll ? { showAll: q.showAll === 'true' } : {}),
    ...(q.queueIds ? { queueIds: JSON.parse(q.queueIds) as number[] } : {}),
    ...(q.searchParam ? { searchParam: q.searchParam } : {}),
    ...(q.cursor ? { cursor: q.cursor } : {}),
  };
  const started = performance.now();
  const answer = await listCompanyTickets(user.auth, input);
  return { ms: performance.now() - started, count: answer.tickets.length };
};

const walkCursors = async (gatewayUrl: string, user: SeedUser, base: ListQuery, pages: number) => {
  const cursors: ListQuery[] = [];
  let query = base;
  for (let page = 1; page <= pages; page += 1) {
    const { answer } = await getTickets(gatewayUrl, user, query);
    if (!answer.nextCursor) throw new Error(`no page after ${page} for ${JSON.stringify(base)}`);
    query = { ...base, cursor: answer.nextCursor };
    cursors.push(query);
  }
  return cursors;
};

interface Samples {
  http: number[];
  service: number[];
  calls: number[];
  queryItems: number[];
  batchGetItems: number[];
  getItems: number[];
  tickets: number[];
}

export const ticketListLatency: Benchmark = {
  name: 'ticket-list-latency',
  description:
    'Latency of `GET /api/tickets` (list streams on gsi1/gsi2 merged, contacts by id, live counts) through the ' +
    'local gateway and one layer down, for a company with 1 000 tickets and one with 100 000, in the tabs ' +
    'attendants use: pending (admin, attendant), open, closed with show-all and its cursor pages, contact search.',
  goal: `p50 and p99 over HTTP at 100 000 tickets ÷ at 1 000 tickets under ${MAX_RATIO} in every scenario`,
  needsCloud: true,
  run: async (ctx) => {
    if (!ctx.cloud) throw new Error('ticket-list-latency needs the local cloud');
    const { gatewayUrl } = ctx.cloud;

    const seedStarted = performance.now();
    const companies: TicketCompany[] = [];
    for (const size of SIZES) {
      ctx.log(`ticket-list-latency: seeding a company with ${size} tickets`);
      companies.push(await seedTicketCompany(ctx, size));
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    ctx.log(`ticket-list-latency: seeded in ${seedSeconds.toFixed(1)} s`);

    countReads();
    try {
      const per = async (f: (c: TicketCompany) => Promise<ListQuery[]> | ListQuery[]) =>
        new Map(await Promise.all(companies.map(async (c) => [c, await f(c)] as const)));
      const closedAll: ListQuery = { status: 'closed', showAll: 'true' };
      const scenarios: Scenario[] = [
        {
          name: 'admin, pending tab (all queues)',
          caller: 'admin',
          pageSize: TICKET_PAGE_SIZE,
          queries: await per(() => [{ status: 'pending' }]),
        },
        {
          name: 'attendant, pending tab (own 2 queues)',
          caller: 'attendant',
          pageSize: TICKET_PAGE_SIZE,
          queries: await per((c) => [{ status: 'pending', queueIds: JSON.stringify(c.attendants[0]!.user.queueIds) }]),
        },
        {
          name: 'attendant, open tab (own tickets)',
          caller: 'attendant',
          pageSize: TICKET_PAGE_SIZE,
          queries: await per(() => [{ status: 'open' }]),
        },
        {
          name: 'admin, closed tab, show all',
          caller: 'admin',
          pageSize: TICKET_PAGE_SIZE,
          queries: await per(() => [closedAll]),
        },
        {
          name: `admin, closed tab, show all, cursor pages 2–${CURSOR_PAGES + 1}`,
          caller: 'admin',
          pageSize: TICKET_PAGE_SIZE,
          queries: await per((c) => walkCursors(gatewayUrl, c.admin, closedAll, CURSOR_PAGES)),
        },
        {
          name: 'admin, search by contact name prefix',
          caller: 'admin',
          pageSize: null,
          queries: await per(() => SEARCHES.map((searchParam) => ({ searchParam }))),
        },
      ];
      const queryOf = (s: Scenario, c: TicketCompany, i: number) => {
        const list = s.queries.get(c)!;
        return list[i % list.length]!;
      };

      ctx.log(`ticket-list-latency: warming up (${WARMUP_REQUESTS} requests per company and layer)`);
      for (let i = 0; i < WARMUP_REQUESTS; i += 1) {
        for (const c of companies) {
          const s = scenarios[i % scenarios.length]!;
          const q = queryOf(s, c, i);
          await getTickets(gatewayUrl, callerOf(c, s.caller), q);
          await serviceList(callerOf(c, s.caller), q);
        }
      }

      const samples = new Map<string, Samples>();
      const key = (s: Scenario, c: TicketCompany) => `${s.name}|${c.size}`;
      for (const s of scenarios) {
        ctx.log(`ticket-list-latency: ${s.name} (${REQUESTS_PER_SCENARIO} requests per company and layer)`);
        for (const c of companies)
          samples.set(key(s, c), {
            http: [],
            service: [],
            calls: [],
            queryItems: [],
            batchGetItems: [],
            getItems: [],
            tickets: [],
          });
        for (let i = 0; i < REQUESTS_PER_SCENARIO; i += 1) {
          // Sizes alternate request by request (and swap order each time), so both see the same machine state.
          for (const c of i % 2 === 0 ? companies : [...companies].reverse()) {
            const into = samples.get(key(s, c))!;
            const user = callerOf(c, s.caller);
            const q = queryOf(s, c, i);
            const http = await getTickets(gatewayUrl, user, q);
            if (s.pageSize !== null && http.answer.tickets.length !== s.pageSize) {
              throw new Error(`${s.name}: ${http.answer.tickets.length} tickets at ${c.size} (${JSON.stringify(q)})`);
            }
            into.http.push(http.ms);
            into.calls.push(http.reads.calls);
            into.queryItems.push(http.reads.queryItems);
            into.batchGetItems.push(http.reads.batchGetItems);
            into.getItems.push(http.reads.getItems);
            into.tickets.push(http.answer.tickets.length);
            into.service.push((await serviceList(user, q)).ms);
          }
        }
      }

      const [small, big] = companies as [TicketCompany, TicketCompany];
      const rows: (string | number)[][] = [];
      const misses: string[] = [];
      const cell = (a: number[], b: number[], digits = 0) => `${mean(a).toFixed(digits)} → ${mean(b).toFixed(digits)}`;
      const ratioRow = (name: string, layer: string, a: number[], b: number[], extra: string[], isGoal: boolean) => {
        const sa = summarise(a);
        const sb = summarise(b);
        const r50 = sb.p50 / sa.p50;
        const r99 = sb.p99 / sa.p99;
        if (isGoal && r50 >= MAX_RATIO) misses.push(`${name} p50 ×${r50.toFixed(2)}`);
        if (isGoal && r99 >= MAX_RATIO) misses.push(`${name} p99 ×${r99.toFixed(2)}`);
        rows.push([
          name,
          layer,
          ms(sa.p50),
          ms(sa.p99),
          ms(sb.p50),
          ms(sb.p99),
          `**${r50.toFixed(2)}**`,
          `**${r99.toFixed(2)}**`,
          ...extra,
        ]);
        return { r50, r99 };
      };
      const readCells = (a: Samples, b: Samples) => [
        cell(a.tickets, b.tickets),
        cell(a.calls, b.calls),
        cell(a.queryItems, b.queryItems),
        cell(a.batchGetItems, b.batchGetItems),
        cell(a.getItems, b.getItems),
      ];
      for (const s of scenarios) {
        const a = samples.get(key(s, small))!;
        const b = samples.get(key(s, big))!;
        ratioRow(s.name, 'HTTP', a.http, b.http, readCells(a, b), true);
        ratioRow(s.name, 'service', a.service, b.service, ['', '', '', '', ''], false);
      }
      const all = (c: TicketCompany, f: keyof Samples) => scenarios.flatMap((s) => samples.get(key(s, c))![f]);
      const allOf = (c: TicketCompany): Samples => ({
        http: all(c, 'http'),
        service: all(c, 'service'),
        calls: all(c, 'calls'),
        queryItems: all(c, 'queryItems'),
        batchGetItems: all(c, 'batchGetItems'),
        getItems: all(c, 'getItems'),
        tickets: all(c, 'tickets'),
      });
      const overall = ratioRow(
        'all requests',
        'HTTP',
        all(small, 'http'),
        all(big, 'http'),
        readCells(allOf(small), allOf(big)),
        true,
      );

      const table = markdownTable(
        [
          'scenario',
          'layer',
          '1k p50 ms',
          '1k p99 ms',
          '100k p50 ms',
          '100k p99 ms',
          'p50 ×',
          'p99 ×',
          'tickets answered',
          'DynamoDB calls',
          'Query items read',
          'BatchGet items',
          'GetItem items',
        ],
        rows,
        ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      );
      const notClosed = PENDING_PER_QUEUE * 3 + PENDING_WITHOUT_QUEUE + OPEN_PER_ATTENDANT.reduce((x, y) => x + y);
      return {
        table,
        goalMet: misses.length === 0,
        summary:
          `over all HTTP requests, 100k ÷ 1k is ×${overall.r50.toFixed(2)} at p50 and ×${overall.r99.toFixed(2)} at p99` +
          (misses.length ? `; at or over ×${MAX_RATIO}: ${misses.join(', ')}` : '') +
          `. Seeding took ${seedSeconds.toFixed(1)} s.`,
        notes: [
          `**Data.** Two companies with ${SIZES.map((s) => s.toLocaleString('en')).join(' and ')} tickets, written ` +
            `with BatchWrite (${BATCH_SIZE} per call, ${PARALLEL_BATCHES} in flight) as the items \`createTicket\` and ` +
            `the transitions leave (\`ticketKeys\` + \`ticketListKeys\` TICKET, \`trackingKeys\` TRACKING on gsi3/gsi5, ` +
            `\`ticketUuidKeys\` TUUID, the OPEN guard of not-closed tickets; ids from \`nextId\`), and the live counts ` +
            `set to the totals. Today's work is the same at both sizes: ${notClosed} not closed — ` +
            `${PENDING_PER_QUEUE} pending in each of 3 queues, ${PENDING_WITHOUT_QUEUE} pending without a queue, ` +
            `${OPEN_PER_ATTENDANT.join('/')} open for 5 attendants; everything older is closed, assigned round-robin. ` +
            `One contact per ${TICKETS_PER_CONTACT} tickets (CONTACT items by \`contactKeys\` + \`contactIndexKeys\`), ` +
            `names from ${FIRST_NAMES.length} first names × ${SURNAMES.length} surnames.`,
          `**Callers.** Admin: sees every queue and tickets without a queue. Attendant: in 2 of the 3 queues, ` +
            `${OPEN_PER_ATTENDANT[0]} open tickets of their own. Searches (admin): ${SEARCHES.map((s) => `\`${s}\``).join(', ')}. ` +
            `**HTTP**: sequential \`fetch\` with a bearer token, timed to the last body byte. **service**: ` +
            `\`listCompanyTickets\` in process (without gateway, auth and JSON). Companies alternate request by ` +
            `request after ${WARMUP_REQUESTS} warm-up requests each. Per-request columns are means, 1k → 100k: ` +
            `tickets in the answer, DynamoDB calls, items Queries examined (ScannedCount), items BatchGets and ` +
            `GetItems returned — equal at both sizes means the request does O(page) work. Nearest-rank ` +
            `percentiles of ${REQUESTS_PER_SCENARIO} requests; the machine was shared, so absolute figures are noisy.`,
        ].join('\n\n'),
      };
    } finally {
      stopCountingReads();
    }
  },
};
