import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { Conflict } from '../../functions/shared/errors';
import { db, tableName } from '../../functions/data/client';
import { nextId } from '../../functions/data/counter-repository';
import { queryPage } from '../../functions/data/query-page';
import { consistentGet, consistentGetAhead, ReadAhead } from '../../functions/data/consistent-reads';
import { createQueue, listQueues, queueKeys } from '../../functions/data/queue-repository';
import { createTag, listTags } from '../../functions/data/tag-repository';
import { createUser, findUserIdByEmail } from '../../functions/data/user-repository';
import { waitFor } from '../helpers/connections';
import { freshCompany, type TestCompany } from '../helpers/fixtures';

let t: TestCompany;
beforeAll(async () => {
  t = await freshCompany();
});

describe('per-company counters', () => {
  it('50 parallel increments give 50 distinct, consecutive ids', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, () => nextId(t.company.id, 'ticket')));
    expect(new Set(ids).size).toBe(50);
    const sorted = [...ids].sort((a, b) => a - b);
    expect(sorted[49]! - sorted[0]!).toBe(49);
  });

  it('counts each company separately', async () => {
    const other = await freshCompany();
    expect(await nextId(other.company.id, 'contact')).toBe(1);
    expect(await nextId(other.company.id, 'contact')).toBe(2);
  });
});

describe('conditional writes and transactions', () => {
  it('a second user with the same e-mail (any case) is a Conflict and writes nothing', async () => {
    const email = `dup-${t.company.id}@test.local`;
    const first = await createUser(t.company.id, { name: 'Primeira', email, passwordHash: 'x', profile: 'user' });
    const err = await createUser(t.company.id, {
      name: 'Segunda',
      email: email.toUpperCase(),
      passwordHash: 'x',
      profile: 'user',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Conflict);
    expect((err as Conflict).code).toBe('ERR_EMAIL_ALREADY_EXISTS');
    // The guard still points at the first user and no second user item exists.
    expect(await findUserIdByEmail(email)).toEqual({ companyId: t.company.id, userId: first.id });
    const users = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :n)',
        ExpressionAttributeValues: { ':pk': `C#${t.company.id}#USER`, ':n': 'segunda' },
      }),
    );
    expect(users.Items).toEqual([]);
  });

  it('the same e-mail in another company is also refused (unique per platform)', async () => {
    const other = await freshCompany();
    await expect(
      createUser(other.company.id, { name: 'Outra', email: t.admin.email, passwordHash: 'x', profile: 'user' }),
    ).rejects.toMatchObject({ code: 'ERR_EMAIL_ALREADY_EXISTS' });
  });

  it('a queue colour is unique per company: the losing transaction writes no queue', async () => {
    await createQueue(t.company.id, { name: 'Vendas', color: '#AA0000' });
    await expect(createQueue(t.company.id, { name: 'Outra', color: '#aa0000' })).rejects.toMatchObject({
      status: 409,
      code: 'ERR_QUEUE_COLOR_ALREADY_EXISTS',
    });
    expect((await listQueues(t.company.id)).map((q) => q.name)).toEqual(['Vendas']);
    // Another company may use the same colour.
    const other = await freshCompany();
    await expect(createQueue(other.company.id, { name: 'Vendas', color: '#AA0000' })).resolves.toMatchObject({
      color: '#AA0000',
    });
  });

  it('#ABC and #aabbcc are the same colour for the guard', async () => {
    await createQueue(t.company.id, { name: 'Curta', color: '#ABC' });
    await expect(createQueue(t.company.id, { name: 'Longa', color: '#aabbcc' })).rejects.toMatchObject({
      code: 'ERR_QUEUE_COLOR_ALREADY_EXISTS',
    });
  });

  it('of parallel queues with one colour exactly one wins', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => createQueue(t.company.id, { name: `Fila ${i}`, color: '#00FF00' })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await listQueues(t.company.id)).filter((q) => q.color === '#00FF00')).toHaveLength(1);
  });
});

describe('cursor paging', () => {
  it('walks 45 tags in name order, 20 per page, without gaps or repeats', async () => {
    const p = await freshCompany();
    await Promise.all(
      Array.from({ length: 45 }, (_, i) =>
        createTag(p.company.id, { name: `tag ${String(i).padStart(2, '0')}`, color: '#123456', kanban: 0 }),
      ),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listTags(p.company.id, { limit: 20, cursor });
      seen.push(...page.items.map((x) => x.name));
      cursor = page.nextCursor;
      pages += 1;
      expect(page.hasMore).toBe(cursor !== undefined);
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => `tag ${String(i).padStart(2, '0')}`));
  });

  it('an exact multiple of the page size ends with hasMore false and no cursor', async () => {
    const p = await freshCompany();
    await Promise.all(
      Array.from({ length: 4 }, (_, i) => createTag(p.company.id, { name: `x${i}yz`, color: '#123456', kanban: 0 })),
    );
    const page = await listTags(p.company.id, { limit: 4 });
    expect(page.items).toHaveLength(4);
    expect(page.hasMore).toBe(false);
    expect(page.nextCursor).toBeUndefined();
  });

  it('filters by name prefix and by kanban through the index, never another company', async () => {
    const p = await freshCompany();
    const q = await freshCompany();
    await createTag(p.company.id, { name: 'Cliente VIP', color: '#111111', kanban: 1 });
    await createTag(p.company.id, { name: 'Cliente novo', color: '#222222', kanban: 0 });
    await createTag(p.company.id, { name: 'Fornecedor', color: '#333333', kanban: 1 });
    await createTag(q.company.id, { name: 'Cliente da outra', color: '#444444', kanban: 1 });
    const byPrefix = await listTags(p.company.id, { limit: 10, search: 'clíente' });
    expect(byPrefix.items.map((x) => x.name)).toEqual(['Cliente novo', 'Cliente VIP']);
    const kanban = await listTags(p.company.id, { limit: 10, kanbanOnly: true });
    expect(kanban.items.map((x) => x.name)).toEqual(['Cliente VIP', 'Fornecedor']);
  });

  it('pages a name-prefix search with cursors, forwards and newest-first, never leaving the prefix', async () => {
    const p = await freshCompany();
    await Promise.all([
      ...Array.from({ length: 12 }, (_, i) =>
        createTag(p.company.id, { name: `Loja ${String(i).padStart(2, '0')}`, color: '#123456', kanban: 0 }),
      ),
      createTag(p.company.id, { name: 'Logística', color: '#123456', kanban: 0 }),
      createTag(p.company.id, { name: 'Lojb fora', color: '#123456', kanban: 0 }),
    ]);
    const walk = async (descending: boolean) => {
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await queryPage<{ name: string }>({
          scope: `walk-${p.company.id}-${descending}`,
          index: 'gsi1',
          partition: `C#${p.company.id}#TAG`,
          sortPrefix: 'loja',
          limit: 5,
          descending,
          cursor,
        });
        names.push(...page.items.map((x) => x.name));
        cursor = page.nextCursor;
      } while (cursor);
      return names;
    };
    const expected = Array.from({ length: 12 }, (_, i) => `Loja ${String(i).padStart(2, '0')}`);
    expect(await walk(false)).toEqual(expected);
    expect(await walk(true)).toEqual([...expected].reverse());
  });

  it('a cursor from one company does not page another company', async () => {
    const p = await freshCompany();
    const q = await freshCompany();
    await Promise.all(
      Array.from({ length: 3 }, (_, i) => createTag(p.company.id, { name: `p${i}ppp`, color: '#123456', kanban: 0 })),
    );
    const page = await listTags(p.company.id, { limit: 1 });
    await expect(listTags(q.company.id, { limit: 1, cursor: page.nextCursor })).rejects.toMatchObject({
      status: 400,
      code: 'ERR_INVALID_CURSOR',
    });
  });

  it('a selective filter answers short pages within the read budget and the cursor resumes the walk', async () => {
    const p = await freshCompany();
    for (let i = 0; i < 30; i += 1) {
      await createTag(p.company.id, {
        name: `f${String(i).padStart(2, '0')}x`,
        color: '#123456',
        kanban: i % 15 === 14 ? 1 : 0,
      });
    }
    const scope = `test-filter-${p.company.id}`;
    const page = (cursor?: string) =>
      queryPage<{ name: string }>({
        scope,
        index: 'gsi1',
        partition: `C#${p.company.id}#TAG`,
        filter: { expression: '#k = :one', names: { '#k': 'kanban' }, values: { ':one': 1 } },
        limit: 5,
        readBudget: 10,
        cursor,
      });
    const found: string[] = [];
    let requests = 0;
    let cursor: string | undefined;
    do {
      const res = await page(cursor);
      requests += 1;
      found.push(...res.items.map((x) => x.name));
      cursor = res.nextCursor;
      expect(res.hasMore).toBe(cursor !== undefined);
    } while (cursor);
    expect(found).toEqual(['f14x', 'f29x']);
    // 30 items at 10 examined per request: the walk took several bounded requests, not one full read.
    expect(requests).toBeGreaterThanOrEqual(3);
  });
});

const colour = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')}`;

/** Runs `work` with the names of the DynamoDB commands this process sends meanwhile, in order. */
const withCommandNames = async (work: (names: string[]) => Promise<void>): Promise<void> => {
  const names: string[] = [];
  const stack = db().middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      names.push(context.commandName ?? '?');
      return next(args);
    },
    { step: 'initialize', name: 'recordCommandNames' },
  );
  try {
    await work(names);
  } finally {
    stack.remove('recordCommandNames');
  }
};

describe('coalesced consistent reads (decisions D82)', () => {
  it('reads asked for in the same turn go out as one request and each gets its own item', async () => {
    const ids = await Promise.all(
      ['Ana', 'Bruno', 'Carla'].map(
        async (name) => (await createQueue(t.company.id, { name: `Fila ${name}`, color: colour() })).id,
      ),
    );
    const keys = ids.map((id) => queueKeys(t.company.id, id));
    await withCommandNames(async (names) => {
      const [found, again, missing] = await Promise.all([
        Promise.all(keys.map((k) => consistentGet(k))),
        consistentGet(keys[0]!),
        consistentGet(queueKeys(t.company.id, 999_999)),
      ]);
      expect(names).toEqual(['BatchGetItemCommand']);
      expect(found.map((item) => item?.sk)).toEqual(keys.map((k) => k.sk));
      expect(again?.sk).toBe(keys[0]!.sk);
      expect(missing).toBeUndefined();
      // A turn with one read is a plain GetItem.
      names.length = 0;
      expect((await consistentGet(keys[1]!))?.sk).toBe(keys[1]!.sk);
      expect(names).toEqual(['GetItemCommand']);
    });
  });
});

describe('reads ahead (decisions D84)', () => {
  it('a read started ahead goes out with the reads of its turn, and is handed over once', async () => {
    const [a, b] = await Promise.all([
      createQueue(t.company.id, { name: 'Fila adiantada', color: colour() }),
      createQueue(t.company.id, { name: 'Fila do mesmo turno', color: colour() }),
    ]);
    await withCommandNames(async (names) => {
      const ahead = new ReadAhead();
      ahead.prefetch(queueKeys(t.company.id, a.id));
      const sameTurn = consistentGet(queueKeys(t.company.id, b.id));
      const [first, other] = await Promise.all([consistentGetAhead(queueKeys(t.company.id, a.id), ahead), sameTurn]);
      expect(names).toEqual(['BatchGetItemCommand']);
      expect(first?.name).toBe('Fila adiantada');
      expect(other?.name).toBe('Fila do mesmo turno');

      // Handed over: the next read of the key goes to the table and sees a change made since.
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: queueKeys(t.company.id, a.id),
          UpdateExpression: 'SET #name = :name',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: { ':name': 'Fila renomeada' },
        }),
      );
      names.length = 0;
      expect((await consistentGetAhead(queueKeys(t.company.id, a.id), ahead))?.name).toBe('Fila renomeada');
      expect(names).toEqual(['GetItemCommand']);
    });
  });

  it('a read ahead that fails and that nobody takes is no unhandled rejection; a reader gets its error', async () => {
    const stack = db().middlewareStack;
    stack.add(
      () => async () => {
        throw Object.assign(new Error('injected: table unavailable'), { name: 'InternalServerError' });
      },
      { step: 'initialize', name: 'failReadsAhead' },
    );
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    // Only this listener while the test runs: the sentinel below is meant to go unhandled (vitest's own
    // listeners would report it as an error of the run); they are back in the finally block.
    const others = process.listeners('unhandledRejection');
    for (const listener of others) process.off('unhandledRejection', listener);
    process.on('unhandledRejection', onUnhandled);
    try {
      const ahead = new ReadAhead();
      ahead.prefetch(queueKeys(t.company.id, 424_242));
      ahead.prefetch(queueKeys(t.company.id, 434_343));
      await expect(consistentGetAhead(queueKeys(t.company.id, 424_242), ahead)).rejects.toThrow();
      // Both reads of the turn failed in one request, before the reader got its error. A rejection nobody
      // handles, made now, is reported after any of theirs (Node reports them in the order they happened):
      // once it is, an unhandled read ahead would have been reported too.
      const sentinel = new Error('sentinel: rejected after the reads ahead');
      void Promise.reject(sentinel);
      await waitFor(
        async () => [...unhandled],
        (seen) => seen.includes(sentinel),
        { what: 'the sentinel rejection reported' },
      );
      expect(unhandled).toEqual([sentinel]);
    } finally {
      stack.remove('failReadsAhead');
      process.off('unhandledRejection', onUnhandled);
      for (const listener of others) process.on('unhandledRejection', listener);
    }
  });
});
