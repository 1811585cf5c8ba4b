import { signAccessToken } from '../../functions/core/access-token';
import { listMessages } from '../../functions/core/messages/message-service';
import {
  messageHistoryKeys,
  messageKeys,
  messageSortKey,
  type StoredMessage,
} from '../../functions/data/message-repository';
import { ticketKeys, ticketListKeys, type Ticket } from '../../functions/data/ticket-repository';
import { createUser } from '../../functions/data/user-repository';
import { newUlid } from '../../functions/data/ulids';
import type { Benchmark } from '../benchmark';
import { markdownTable, ms } from '../stats';
import {
  countReads,
  mean,
  reads,
  resetReads,
  seedTicketCompany,
  stopCountingReads,
  summarise,
  writeItems,
  type SeedUser,
  type TicketCompany,
} from './ticket-list-latency';

/**
 * p50/p99 of `GET /api/messages/{ticketUuid}` (functions/core/messages/message-service.ts `listMessages`)
 * for a ticket with 10 000 messages against one with 100: page 1, cursor pages near the top, and cursor
 * pages deep in the big ticket's history (against the small ticket's last pages) — by the ticket's attendant
 * (the ticket partition, `MSG#` newest first) and by an admin with allHistoric (the contact's history on
 * gsi3). Measured through the local gateway and one layer down, with DynamoDB calls and items read.
 */
const SIZES = [100, 10_000] as const;
const MAX_RATIO = 1.2;
const PAGE_SIZE = 20;
const REQUESTS_PER_SCENARIO = 200;
const WARMUP_REQUESTS = 20;
/**
 * The measuring time all scenarios share: on a busy machine a scenario stops at its share (never under
 * MIN_REQUESTS) so the run ends inside the runner's 30-minute deadline. The table says how many were made.
 */
const MEASURE_BUDGET_MS = 14 * 60_000;
const MIN_REQUESTS = 30;
const NEAR_PAGES = 4;
const DEEP_SAMPLES = 20;
const REQUEST_TIMEOUT_MS = 20_000;

interface Thread {
  size: number;
  ticket: Ticket;
}

type PageQuery = { cursor?: string };

interface MessagesAnswer {
  messages: { id: string }[];
  hasMore: boolean;
  nextCursor?: string;
}

const BODIES = [
  'Olá, boa tarde! Gostaria de saber o status do meu pedido.',
  'Claro! Pode me informar o número do pedido, por favor?',
  'É o 48213, comprei na semana passada.',
  'Obrigado. Seu pedido saiu para entrega hoje de manhã e chega até amanhã.',
  'Perfeito, muito obrigado pela ajuda!',
];

/** A conversation: `count` messages from `t0`, alternating contact and attendant, the newest last. */
const seedThread = async (
  ctx: Parameters<Benchmark['run']>[0],
  c: TicketCompany,
  ticket: Ticket,
  count: number,
): Promise<Ticket> => {
  const t0 = Date.now() - count * 30_000;
  const ulids = Array.from({ length: count }, (_, i) => newUlid(t0 + i * 30_000));
  await writeItems(ctx, `message (${count})`, count, (i) => {
    const fromMe = i % 2 === 1;
    const message: StoredMessage = {
      ulid: ulids[i]!,
      companyId: c.companyId,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      whatsappId: ticket.whatsappId,
      body: BODIES[i % BODIES.length]!,
      fromMe,
      isPrivate: false,
      isDeleted: false,
      isEdited: false,
      isForwarded: false,
      mediaType: 'chat',
      queueId: ticket.queueId,
      ack: fromMe ? 3 : 0,
      createdAt: new Date(t0 + i * 30_000).toISOString(),
      providerId: `3EB0${String(i).padStart(16, '0')}`,
      ...(fromMe ? { userId: ticket.userId } : {}),
    };
    return [
      {
        ...messageKeys(c.companyId, ticket.id, message.ulid),
        ...messageHistoryKeys(c.companyId, ticket.contactId, message.ulid),
        type: 'MSG',
        ...message,
      },
    ];
  });
  // The ticket as storeMessage leaves it: the last message, read up to it (opening it writes nothing).
  const last = ulids[count - 1]!;
  const updated: Ticket = {
    ...ticket,
    lastMessage: BODIES[(count - 1) % BODIES.length]!,
    lastMsgSk: messageSortKey(last),
    readUpTo: messageSortKey(last),
    unreadMessages: 0,
    updatedAt: new Date(t0 + (count - 1) * 30_000).toISOString(),
  };
  await writeItems(ctx, 'ticket', 1, () => [
    { ...ticketKeys(c.companyId, ticket.id), ...ticketListKeys(updated), type: 'TICKET', ...updated },
  ]);
  return updated;
};

const getPage = async (gatewayUrl: string, user: SeedUser, thread: Thread, q: PageQuery) => {
  const url = new URL(`/api/messages/${thread.ticket.uuid}`, gatewayUrl);
  if (q.cursor) url.searchParams.set('cursor', q.cursor);
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
    throw new Error(`GET ${url.pathname}${url.search} answered ${res.status}: ${text.slice(0, 200)}`);
  const answer = JSON.parse(text) as MessagesAnswer;
  if (answer.messages.length !== PAGE_SIZE) {
    throw new Error(`GET ${url.pathname}${url.search}: ${answer.messages.length} messages (ticket of ${thread.size})`);
  }
  return { answer, ms: elapsed, reads: counted };
};

const servicePage = async (user: SeedUser, thread: Thread, q: PageQuery) => {
  const started = performance.now();
  await listMessages(user.auth, thread.ticket.uuid, { pageNumber: 1, ...(q.cursor ? { cursor: q.cursor } : {}) });
  return performance.now() - started;
};

/** The cursors of pages 2..pages+1, walking from page 1 as a person scrolling up would. */
const walk = async (gatewayUrl: string, user: SeedUser, thread: Thread, pages: number): Promise<PageQuery[]> => {
  const cursors: PageQuery[] = [];
  let q: PageQuery = {};
  for (let page = 1; page <= pages; page += 1) {
    const { answer } = await getPage(gatewayUrl, user, thread, q);
    if (!answer.nextCursor) throw new Error(`ticket of ${thread.size}: no page after ${page}`);
    q = { cursor: answer.nextCursor };
    cursors.push(q);
  }
  return cursors;
};

interface Scenario {
  name: string;
  who: 'attendant' | 'history';
  queries: Map<Thread, PageQuery[]>;
}

interface Samples {
  http: number[];
  service: number[];
  calls: number[];
  queryItems: number[];
  getItems: number[];
}

export const messagePageLatency: Benchmark = {
  name: 'message-page-latency',
  description:
    'Latency of `GET /api/messages/{ticketUuid}` (20 a page, newest first) for a ticket with 10 000 messages ' +
    'against one with 100, through the local gateway and one layer down: page 1, cursor pages near the top ' +
    'and deep in the history, from the ticket partition and from the contact history (allHistoric, gsi3).',
  goal: `p50 and p99 over HTTP for the 10 000-message ticket ÷ the 100-message ticket under ${MAX_RATIO} in every scenario`,
  needsCloud: true,
  run: async (ctx) => {
    if (!ctx.cloud) throw new Error('message-page-latency needs the local cloud');
    const { gatewayUrl } = ctx.cloud;
    ctx.log('message-page-latency: seeding a company (1 000 tickets) and two conversations');
    const c = await seedTicketCompany(ctx, 1_000, { label: 'messages' });
    const attendant = c.attendants[0]!;
    // Two of the attendant's open tickets (different contacts).
    const own: Ticket[] = [];
    for (let i = c.size - 1; i >= 0 && own.length < SIZES.length; i -= 1) {
      const t = c.ticketAt(i);
      if (t.status === 'open' && t.userId === attendant.user.id) own.push(t);
    }
    const threads: Thread[] = [];
    for (const [i, size] of SIZES.entries()) threads.push({ size, ticket: await seedThread(ctx, c, own[i]!, size) });
    const historian: SeedUser = await (async () => {
      const user = await createUser(c.companyId, {
        name: 'Admin Histórico',
        email: `historico-${c.companyId}-${Date.now()}@bench.local`,
        passwordHash: 'x',
        profile: 'admin',
        allHistoric: 'enabled',
        queueIds: c.queues.map((q) => q.id),
      });
      return {
        user,
        token: await signAccessToken({ companyId: c.companyId, userId: user.id, profile: 'admin', super: false }, 3600),
        auth: { ...c.admin.auth, userId: user.id },
      };
    })();
    const userOf = (s: Scenario) => (s.who === 'attendant' ? attendant : historian);

    countReads();
    try {
      const per = async (f: (t: Thread) => Promise<PageQuery[]> | PageQuery[]) =>
        new Map(await Promise.all(threads.map(async (t) => [t, await f(t)] as const)));
      const [small, big] = threads as [Thread, Thread];
      /** Big ticket: DEEP_SAMPLES pages spread over its whole history down to the last; small: its last pages. */
      const deep = async (user: SeedUser, t: Thread) => {
        const pages = Math.ceil(t.size / PAGE_SIZE) - 1;
        const cursors = await walk(gatewayUrl, user, t, pages);
        if (t === small) return cursors;
        return Array.from(
          { length: DEEP_SAMPLES },
          (_, i) => cursors[Math.round(((i + 1) * (pages - 1)) / DEEP_SAMPLES)]!,
        );
      };
      const scenarios: Scenario[] = [
        { name: 'attendant, page 1', who: 'attendant', queries: await per(() => [{}]) },
        {
          name: `attendant, cursor pages 2–${NEAR_PAGES + 1}`,
          who: 'attendant',
          queries: await per((t) => walk(gatewayUrl, attendant, t, NEAR_PAGES)),
        },
        {
          name: 'attendant, cursor pages deep in the history (10k: 20 pages spread down to page 500; 100: pages 2–5)',
          who: 'attendant',
          queries: await per((t) => deep(attendant, t)),
        },
        { name: 'allHistoric admin, page 1 (gsi3)', who: 'history', queries: await per(() => [{}]) },
        {
          name: 'allHistoric admin, cursor pages deep in the history (gsi3)',
          who: 'history',
          queries: await per((t) => deep(historian, t)),
        },
      ];
      const queryOf = (s: Scenario, t: Thread, i: number) => {
        const list = s.queries.get(t)!;
        return list[i % list.length]!;
      };

      ctx.log(`message-page-latency: warming up (${WARMUP_REQUESTS} requests per ticket and layer)`);
      for (let i = 0; i < WARMUP_REQUESTS; i += 1) {
        for (const t of threads) {
          const s = scenarios[i % scenarios.length]!;
          await getPage(gatewayUrl, userOf(s), t, queryOf(s, t, i));
          await servicePage(userOf(s), t, queryOf(s, t, i));
        }
      }

      const samples = new Map<string, Samples>();
      const key = (s: Scenario, t: Thread) => `${s.name}|${t.size}`;
      for (const s of scenarios) {
        ctx.log(`message-page-latency: ${s.name} (${REQUESTS_PER_SCENARIO} requests per ticket and layer)`);
        for (const t of threads)
          samples.set(key(s, t), { http: [], service: [], calls: [], queryItems: [], getItems: [] });
        const started = performance.now();
        const share = MEASURE_BUDGET_MS / scenarios.length;
        for (let i = 0; i < REQUESTS_PER_SCENARIO; i += 1) {
          if (i >= MIN_REQUESTS && i % 2 === 0 && performance.now() - started > share) break;
          for (const t of i % 2 === 0 ? threads : [...threads].reverse()) {
            const into = samples.get(key(s, t))!;
            const q = queryOf(s, t, i);
            const http = await getPage(gatewayUrl, userOf(s), t, q);
            into.http.push(http.ms);
            into.calls.push(http.reads.calls);
            into.queryItems.push(http.reads.queryItems);
            into.getItems.push(http.reads.getItems + http.reads.batchGetItems);
            into.service.push(await servicePage(userOf(s), t, q));
          }
        }
      }

      const rows: (string | number)[][] = [];
      const misses: string[] = [];
      const cell = (a: number[], b: number[]) => `${mean(a).toFixed(0)} → ${mean(b).toFixed(0)}`;
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
      for (const s of scenarios) {
        const a = samples.get(key(s, small))!;
        const b = samples.get(key(s, big))!;
        ratioRow(
          s.name,
          'HTTP',
          a.http,
          b.http,
          [
            String(a.http.length),
            cell(a.calls, b.calls),
            cell(a.queryItems, b.queryItems),
            cell(a.getItems, b.getItems),
          ],
          true,
        );
        ratioRow(s.name, 'service', a.service, b.service, [String(a.service.length), '', '', ''], false);
      }
      const all = (t: Thread, f: keyof Samples) => scenarios.flatMap((s) => samples.get(key(s, t))![f]);
      const overall = ratioRow(
        'all requests',
        'HTTP',
        all(small, 'http'),
        all(big, 'http'),
        [
          String(all(small, 'http').length),
          cell(all(small, 'calls'), all(big, 'calls')),
          cell(all(small, 'queryItems'), all(big, 'queryItems')),
          cell(all(small, 'getItems'), all(big, 'getItems')),
        ],
        true,
      );
      const table = markdownTable(
        [
          'scenario',
          'layer',
          '100 p50 ms',
          '100 p99 ms',
          '10k p50 ms',
          '10k p99 ms',
          'p50 ×',
          'p99 ×',
          'requests per ticket',
          'DynamoDB calls',
          'Query items read',
          'GetItem/BatchGet items',
        ],
        rows,
        ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      );
      return {
        table,
        goalMet: misses.length === 0,
        summary:
          `over all HTTP requests, 10k ÷ 100 messages is ×${overall.r50.toFixed(2)} at p50 and ×${overall.r99.toFixed(2)} at p99` +
          (misses.length ? `; at or over ×${MAX_RATIO}: ${misses.join(', ')}` : '') +
          '.',
        notes: [
          `**Data.** One company seeded as in ticket-list-latency (1 000 tickets); two of one attendant's open ` +
            `tickets get ${SIZES.map((s) => s.toLocaleString('en')).join(' and ')} messages, written with BatchWrite as ` +
            `\`storeMessage\` writes them (\`messageKeys\` MSG items with \`messageHistoryKeys\` on gsi3, alternating ` +
            `contact and attendant, 30 s apart), and each TICKET item as \`storeMessage\` leaves it (lastMsgSk, read up ` +
            `to it, so page 1 writes nothing). Each contact's gsi3 history holds only that ticket's messages.`,
          `**Callers.** The ticket's attendant (allHistoric off: a Query on the ticket partition) and an admin with ` +
            `allHistoric (a Query on the contact's gsi3 history). Deep pages: ${DEEP_SAMPLES} cursors spread over ` +
            `pages 27–500 of the big ticket, walked from page 1; the small ticket has only pages 2–5, its deepest. ` +
            `**HTTP**: sequential \`fetch\` timed to the last byte; **service**: \`listMessages\` in process. Tickets ` +
            `alternate request by request after ${WARMUP_REQUESTS} warm-up requests each; nearest-rank percentiles of ` +
            `up to ${REQUESTS_PER_SCENARIO} requests per ticket (fewer when the scenario's share of a ` +
            `${MEASURE_BUDGET_MS / 60_000}-minute budget ran out: see the table); the machine was shared.`,
        ].join('\n\n'),
      };
    } finally {
      stopCountingReads();
    }
  },
};
