import { BatchWriteCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { signAccessToken } from '../../functions/core/access-token';
import { hashPassword } from '../../functions/core/passwords';
import { TAG_PAGE_SIZE } from '../../functions/core/tags/tag-service';
import { db, tableName } from '../../functions/data/client';
import { createCompany } from '../../functions/data/company-repository';
import { nextId } from '../../functions/data/counter-repository';
import { listTags, tagIndexKeys, tagKeys, type Tag } from '../../functions/data/tag-repository';
import { createUser } from '../../functions/data/user-repository';
import type { Benchmark, BenchContext } from '../benchmark';
import { markdownTable, ms, percentile } from '../stats';

/**
 * p50/p99 of `GET /api/tags` (a gsi1 Query, page size 20) through the local gateway, for a company with
 * 1 000 tags and one with 100 000. Lists must cost O(page), not O(tenant) (DESIGN §4), so the big
 * company's latencies should match the small one's.
 *
 * To say where time goes when they do not, every scenario is also measured one layer down (the
 * repository's `listTags`, the Query the handler runs, in this process), every HTTP request counts the
 * items DynamoDB read for it (ScannedCount), and a probe times equivalent gsi1 Queries straight
 * against DynamoDB Local.
 */
const SIZES = [1_000, 100_000] as const;
const MAX_RATIO = 1.2;
const REQUESTS_PER_SCENARIO = 500;
const WARMUP_REQUESTS = 50;
const PROBE_QUERIES = 100;
const BATCH_SIZE = 25;
const PARALLEL_BATCHES = 8;
const MAX_BATCH_ATTEMPTS = 10;
/** Cursor pages: 2..(1+PAGES_FROM_START) of the unfiltered list, 2..(1+PAGES_PER_SEARCH) of each search. */
const PAGES_FROM_START = 10;
const PAGES_PER_SEARCH = 4;
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * First words of tag names; ids cycle through them, so every word has 100 tags at 1 000 (five full pages)
 * and 10 000 at 100 000. Accents exercise the search form (`orç` finds `orçamento`).
 */
const WORDS = [
  'atendimento',
  'boleto',
  'cliente',
  'devolução',
  'financeiro',
  'orçamento',
  'pagamento',
  'reclamação',
  'suporte',
  'venda',
];
/** Prefixes a person types; most start mid-alphabet, so at 100k their first item is deep in the index. */
const SEARCHES = ['cli', 'sup', 'venda', 'pag', 'reclamacao', 'orç', 'fin', 'devolucao 0'];

const tagName = (id: number): string => `${WORDS[id % WORDS.length]} ${String(id).padStart(6, '0')}`;

interface Tenant {
  size: number;
  companyId: number;
  token: string;
}

/** The item createTag writes (functions/data/tag-repository.ts), with the repository's own key builders. */
const tagItem = (companyId: number, id: number, userId: number, now: string): Record<string, unknown> => {
  const tag: Tag = {
    userId,
    timeLane: null,
    nextLaneId: null,
    rollbackLaneId: null,
    greetingMessageLane: '',
    contactCount: 0,
    ticketCount: 0,
    name: tagName(id),
    color: `#${((id * 2_654_435_761) % 0xffffff).toString(16).padStart(6, '0')}`,
    // One in ten is a kanban lane, so the sparse gsi2 is populated as in a real company.
    kanban: id % 10 === 0 ? 1 : 0,
    id,
    companyId,
    createdAt: now,
    updatedAt: now,
  };
  return { ...tagKeys(companyId, id), ...tagIndexKeys(tag), ...tag };
};

const writeBatch = async (items: Record<string, unknown>[]): Promise<void> => {
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

/** Writes `count` tags with BatchWrite (25 per call, several calls in flight); ids reserved via the counter. */
const seedTags = async (ctx: BenchContext, companyId: number, userId: number, count: number): Promise<void> => {
  // ADD count to the company's tag counter: ids 1..count are ours and the next createTag continues after.
  const last = await nextId(companyId, 'tag', count);
  const now = new Date().toISOString();
  let next = last - count + 1;
  let written = 0;
  const worker = async () => {
    while (next <= last) {
      const from = next;
      const to = Math.min(last, from + BATCH_SIZE - 1);
      next = to + 1;
      const items: Record<string, unknown>[] = [];
      for (let id = from; id <= to; id += 1) items.push(tagItem(companyId, id, userId, now));
      await writeBatch(items);
      const before = written;
      written += items.length;
      if (Math.floor(before / 10_000) !== Math.floor(written / 10_000)) ctx.log(`  ${written} / ${count} tags`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_BATCHES }, worker));
};

const createTenant = async (ctx: BenchContext, size: number, passwordHash: string): Promise<Tenant> => {
  const stamp = Date.now();
  const company = await createCompany({
    name: `Bench ${size} tags ${stamp}`,
    email: `bench-${size}-${stamp}@bench.local`,
    phone: '',
    document: '',
    planId: 1,
    status: true,
    recurrence: 'MENSAL',
    dueDate: '2999-12-31',
  });
  const admin = await createUser(company.id, {
    name: 'Bench Admin',
    email: `admin-${company.id}-${stamp}@bench.local`,
    passwordHash,
    profile: 'admin',
  });
  await seedTags(ctx, company.id, admin.id, size);
  // An hour, so a slow machine never measures 401s.
  const token = await signAccessToken(
    { companyId: company.id, userId: admin.id, profile: 'admin', super: false },
    3600,
  );
  return { size, companyId: company.id, token };
};

/**
 * Items DynamoDB read (ScannedCount) since the last reset. The gateway runs the handlers in this process
 * with the same document client, so a middleware on it sees every Query a request makes.
 */
const scanned = { items: 0 };
const SCANNED_MIDDLEWARE = 'benchScannedCount';
const countScannedItems = () =>
  db().middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const count = (result.output as { ScannedCount?: number }).ScannedCount;
      if (typeof count === 'number') scanned.items += count;
      return result;
    },
    { step: 'initialize', name: SCANNED_MIDDLEWARE, override: true },
  );

interface ListQuery {
  searchParam?: string;
  cursor?: string;
}

interface ListAnswer {
  tags: { name: string }[];
  hasMore: boolean;
  nextCursor?: string;
}

const fullPage = (what: string, t: Tenant, count: number) => {
  // A short page would be measuring less work than the others.
  if (count !== TAG_PAGE_SIZE) throw new Error(`${what} returned ${count} tags for the company of ${t.size}`);
};

/** One `GET /api/tags` as the browser makes it: the answer, its milliseconds and the items DynamoDB read. */
const getTags = async (gatewayUrl: string, t: Tenant, q: ListQuery) => {
  const url = new URL('/api/tags', gatewayUrl);
  if (q.searchParam) url.searchParams.set('searchParam', q.searchParam);
  if (q.cursor) url.searchParams.set('cursor', q.cursor);
  scanned.items = 0;
  const started = performance.now();
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${t.token}` },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  const elapsed = performance.now() - started;
  if (res.status !== 200) throw new Error(`GET /api/tags${url.search} answered ${res.status}: ${text.slice(0, 200)}`);
  const answer = JSON.parse(text) as ListAnswer;
  fullPage(`GET /api/tags${url.search}`, t, answer.tags.length);
  return { answer, ms: elapsed, itemsRead: scanned.items };
};

/** The same page one layer down: the repository call the tags handler makes, in this process. */
const repositoryListTags = async (t: Tenant, q: ListQuery) => {
  const started = performance.now();
  const page = await listTags(t.companyId, { search: q.searchParam, limit: TAG_PAGE_SIZE, cursor: q.cursor });
  const elapsed = performance.now() - started;
  fullPage('listTags', t, page.items.length);
  return elapsed;
};

/** Cursors for pages 2..pages+1, walking from the first page as a person paging would. */
const walkCursors = async (gatewayUrl: string, t: Tenant, searchParam: string | undefined, pages: number) => {
  const cursors: ListQuery[] = [];
  let query: ListQuery = searchParam ? { searchParam } : {};
  for (let page = 1; page <= pages; page += 1) {
    const { answer } = await getTags(gatewayUrl, t, query);
    if (!answer.nextCursor) throw new Error(`company of ${t.size}: no page after ${page} for ${searchParam ?? 'all'}`);
    query = { ...(searchParam ? { searchParam } : {}), cursor: answer.nextCursor };
    cursors.push(query);
  }
  return cursors;
};

interface Scenario {
  name: string;
  /** The queries to cycle through, per tenant. */
  queries: Map<Tenant, ListQuery[]>;
}

interface Samples {
  http: number[];
  repository: number[];
  itemsRead: number[];
}

const summarise = (samples: number[]) => ({
  p50: percentile(samples, 50),
  p95: percentile(samples, 95),
  p99: percentile(samples, 99),
});

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * The Query behind a search page and behind a cursor page, each beside an equivalent range condition,
 * sent straight to DynamoDB Local on gsi1 with the handler's Limit (page + 1). Same items, same order.
 */
const probeQueries = (t: Tenant): { name: string; input: QueryCommandInput }[] => {
  // The first `suporte` tag: 80% of the way into the name order, at both sizes.
  const id = WORDS.indexOf('suporte');
  const start = {
    ...tagKeys(t.companyId, id),
    ...tagIndexKeys({ companyId: t.companyId, id, name: tagName(id), kanban: 0 }),
  };
  const pk = start.gsi1pk;
  const base = { TableName: tableName(), IndexName: 'gsi1', Limit: TAG_PAGE_SIZE + 1 };
  return [
    {
      name: "`begins_with(gsi1sk, 'sup')` (search page)",
      input: {
        ...base,
        KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :p)',
        ExpressionAttributeValues: { ':pk': pk, ':p': 'sup' },
      },
    },
    {
      name: "`gsi1sk BETWEEN 'sup' AND 'sup\\uffff'` (same items)",
      input: {
        ...base,
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :a AND :b',
        ExpressionAttributeValues: { ':pk': pk, ':a': 'sup', ':b': 'sup\uffff' },
      },
    },
    {
      name: '`ExclusiveStartKey` = a `suporte` tag (cursor page)',
      input: {
        ...base,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ExclusiveStartKey: start,
      },
    },
    {
      name: '`gsi1sk > :sk`, that tag’s sort key (same items)',
      input: {
        ...base,
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk > :s',
        ExpressionAttributeValues: { ':pk': pk, ':s': start.gsi1sk },
      },
    },
  ];
};

export const listLatency: Benchmark = {
  name: 'list-latency',
  description:
    'Latency of a Query-backed list (`GET /api/tags`: gsi1, name order, 20 per page) through the local gateway, ' +
    'for a company with 1 000 tags and one with 100 000: first pages, prefix searches and cursor pages.',
  goal: `p50 and p99 over HTTP at 100 000 items ÷ at 1 000 items under ${MAX_RATIO} in every scenario`,
  needsCloud: true,
  run: async (ctx) => {
    if (!ctx.cloud) throw new Error('list-latency needs the local cloud');
    const { gatewayUrl } = ctx.cloud;
    const passwordHash = await hashPassword(`bench-${Date.now()}`);

    const seedStarted = performance.now();
    const tenants: Tenant[] = [];
    for (const size of SIZES) {
      ctx.log(`list-latency: seeding a company with ${size} tags`);
      tenants.push(await createTenant(ctx, size, passwordHash));
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const seeded = SIZES.reduce((a, b) => a + b, 0);
    ctx.log(`list-latency: seeded ${seeded} tags in ${seedSeconds.toFixed(1)} s`);

    countScannedItems();
    try {
      const perTenant = async (f: (t: Tenant) => Promise<ListQuery[]>) =>
        new Map(await Promise.all(tenants.map(async (t) => [t, await f(t)] as const)));
      const scenarios: Scenario[] = [
        { name: 'first page', queries: await perTenant(async () => [{}]) },
        {
          name: 'search, first page',
          queries: await perTenant(async () => SEARCHES.map((searchParam) => ({ searchParam }))),
        },
        {
          name: `cursor, pages 2–${PAGES_FROM_START + 1} of the full list`,
          queries: await perTenant((t) => walkCursors(gatewayUrl, t, undefined, PAGES_FROM_START)),
        },
        {
          name: `cursor, pages 2–${PAGES_PER_SEARCH + 1} of each search`,
          queries: await perTenant(async (t) =>
            (await Promise.all(SEARCHES.map((s) => walkCursors(gatewayUrl, t, s, PAGES_PER_SEARCH)))).flat(),
          ),
        },
      ];
      const queryOf = (s: Scenario, t: Tenant, i: number): ListQuery => {
        const list = s.queries.get(t)!;
        return list[i % list.length]!;
      };

      ctx.log(`list-latency: warming up (${WARMUP_REQUESTS} requests per company and layer)`);
      for (let i = 0; i < WARMUP_REQUESTS; i += 1) {
        for (const t of tenants) {
          const q = queryOf(scenarios[i % scenarios.length]!, t, i);
          await getTags(gatewayUrl, t, q);
          await repositoryListTags(t, q);
        }
      }

      // Sizes alternate call by call (and swap order each time), so both see the same machine state.
      const samples = new Map<string, Samples>();
      const key = (s: Scenario, t: Tenant) => `${s.name}|${t.size}`;
      for (const s of scenarios) {
        ctx.log(`list-latency: ${s.name} (${REQUESTS_PER_SCENARIO} requests per company and layer)`);
        for (const t of tenants) samples.set(key(s, t), { http: [], repository: [], itemsRead: [] });
        for (let i = 0; i < REQUESTS_PER_SCENARIO; i += 1) {
          for (const t of i % 2 === 0 ? tenants : [...tenants].reverse()) {
            const into = samples.get(key(s, t))!;
            const q = queryOf(s, t, i);
            const http = await getTags(gatewayUrl, t, q);
            into.http.push(http.ms);
            into.itemsRead.push(http.itemsRead);
            into.repository.push(await repositoryListTags(t, q));
          }
        }
      }

      ctx.log(`list-latency: DynamoDB Local probe (${PROBE_QUERIES} Queries per shape and company)`);
      const probe = new Map<string, number[]>();
      const probeShapes = new Map(tenants.map((t) => [t, probeQueries(t)] as const));
      for (let i = 0; i < PROBE_QUERIES; i += 1) {
        for (const t of i % 2 === 0 ? tenants : [...tenants].reverse()) {
          for (const shape of probeShapes.get(t)!) {
            const started = performance.now();
            const out = await db().send(new QueryCommand(shape.input));
            const elapsed = performance.now() - started;
            if (out.Items?.length !== TAG_PAGE_SIZE + 1)
              throw new Error(`probe ${shape.name}: ${out.Items?.length} items`);
            const k = `${shape.name}|${t.size}`;
            probe.set(k, [...(probe.get(k) ?? []), elapsed]);
          }
        }
      }

      const [small, big] = tenants as [Tenant, Tenant];
      const rows: (string | number)[][] = [];
      const misses: string[] = [];
      const ratioRow = (name: string, layer: string, a: number[], b: number[], itemsRead: string, isGoal: boolean) => {
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
          ms(sa.p95),
          ms(sa.p99),
          ms(sb.p50),
          ms(sb.p95),
          ms(sb.p99),
          `**${r50.toFixed(2)}**`,
          `**${r99.toFixed(2)}**`,
          itemsRead,
        ]);
        return { r50, r99 };
      };
      const itemsReadCell = (a: number[], b: number[]) => `${mean(a).toFixed(0)} → ${mean(b).toFixed(0)}`;
      for (const s of scenarios) {
        const a = samples.get(key(s, small))!;
        const b = samples.get(key(s, big))!;
        ratioRow(s.name, 'HTTP', a.http, b.http, itemsReadCell(a.itemsRead, b.itemsRead), true);
        ratioRow(s.name, 'repository', a.repository, b.repository, '–', false);
      }
      const all = (t: Tenant, layer: keyof Samples) => scenarios.flatMap((s) => samples.get(key(s, t))![layer]);
      const overall = ratioRow(
        'all requests',
        'HTTP',
        all(small, 'http'),
        all(big, 'http'),
        itemsReadCell(all(small, 'itemsRead'), all(big, 'itemsRead')),
        true,
      );

      const probeRows = probeShapes.get(small)!.map((shape) => {
        const a = probe.get(`${shape.name}|${small.size}`)!;
        const b = probe.get(`${shape.name}|${big.size}`)!;
        return [
          shape.name,
          ms(percentile(a, 50), 2),
          ms(percentile(b, 50), 2),
          `**${(percentile(b, 50) / percentile(a, 50)).toFixed(2)}**`,
        ];
      });

      const table = [
        markdownTable(
          [
            'scenario',
            'layer',
            '1k p50 ms',
            '1k p95 ms',
            '1k p99 ms',
            '100k p50 ms',
            '100k p95 ms',
            '100k p99 ms',
            'p50 ×',
            'p99 ×',
            'items read per request, 1k → 100k',
          ],
          rows,
          ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
        ),
        `DynamoDB Local probe: one gsi1 Query (Limit ${TAG_PAGE_SIZE + 1}) straight to the emulator, median of ${PROBE_QUERIES}:`,
        markdownTable(['Query', '1k p50 ms', '100k p50 ms', 'p50 ×'], probeRows, ['l', 'r', 'r', 'r']),
      ].join('\n\n');

      const rate = Math.round(seeded / seedSeconds);
      return {
        table,
        goalMet: misses.length === 0,
        summary:
          `over all HTTP requests, 100k ÷ 1k is ×${overall.r50.toFixed(2)} at p50 and ×${overall.r99.toFixed(2)} at p99` +
          (misses.length ? `; at or over ×${MAX_RATIO}: ${misses.join(', ')}` : '') +
          `. Seeding ${seeded.toLocaleString('en')} tags took ${seedSeconds.toFixed(1)} s (${rate} items/s).`,
        notes: [
          `**Method.** The local cloud in memory: DynamoDB Local (Java) as a child process; the gateway and the ` +
            `\`tags\` area handler in the benchmark's process. Two companies with ` +
            `${SIZES.map((s) => s.toLocaleString('en')).join(' and ')} tags, written with BatchWrite (${BATCH_SIZE} ` +
            `per call, ${PARALLEL_BATCHES} calls in flight) as exactly the items \`createTag\` writes (its key ` +
            `builders; ids reserved with \`nextId\`, so the counter is right); names are ${WORDS.length} words × a ` +
            `number. **HTTP**: sequential \`fetch\` with a bearer token, timed to the last body byte. ` +
            `**repository**: the same page by \`listTags\` in process (the Query, cursor check and mapping, without ` +
            `gateway, auth and JSON). Companies alternate call by call after ${WARMUP_REQUESTS} warm-up calls each. ` +
            `Searches: ${SEARCHES.map((s) => `\`${s}\``).join(', ')}; most start mid-index, so at 100k their pages ` +
            `and cursors sit tens of thousands of items into the partition. **Items read** is DynamoDB's ScannedCount ` +
            `summed over the request's Queries: equal at both sizes means the product reads one page, O(page). ` +
            `Percentiles are nearest-rank; with ${REQUESTS_PER_SCENARIO} requests p99 is the ` +
            `${Math.ceil(0.99 * REQUESTS_PER_SCENARIO)}th fastest, so one GC pause (Node or Java) moves it.`,
          `**Reading the probe.** Each pair returns the same ${TAG_PAGE_SIZE + 1} items. If the product's shape ` +
            `(\`begins_with\`, \`ExclusiveStartKey\`) grows with the company while its range equivalent does not, the ` +
            `growth is in DynamoDB Local's handling of that shape on a GSI, not in how much the product reads. ` +
            `Real DynamoDB serves all four in O(page); this benchmark shows local-emulator latencies, not AWS's.`,
          `**Seeding:** ${seeded.toLocaleString('en')} tags in ${seedSeconds.toFixed(1)} s (${rate} items/s; ` +
            `each item also lands in gsi1, one in ten in gsi2).`,
        ].join('\n\n'),
      };
    } finally {
      db().middlewareStack.remove(SCANNED_MIDDLEWARE);
    }
  },
};
