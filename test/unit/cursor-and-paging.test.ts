import { describe, expect, it } from 'vitest';
import { DomainError } from '../../functions/shared/errors';
import { fetchPage, MAX_SKIPPED_ITEMS } from '../../functions/core/paging';
import { decodeCursor, encodeCursor } from '../../functions/data/cursor';
import type { Page } from '../../functions/data/query-page';

const expectInvalidCursor = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).status).toBe(400);
  expect((err as DomainError).code).toBe('ERR_INVALID_CURSOR');
};

describe('page cursors', () => {
  const key = { pk: 'C#7#TAG', sk: 'TAG#0000000042', gsi1pk: 'C#7#TAG', gsi1sk: 'vip#0000000042' };

  it('round-trip the last key within the same list', async () => {
    const cursor = await encodeCursor('C#7#TAG#', key);
    expect(await decodeCursor('C#7#TAG#', cursor)).toEqual(key);
  });

  it('are opaque: the key is not readable as plain text in the URL', async () => {
    const cursor = await encodeCursor('C#7#TAG#', key);
    expect(cursor).not.toContain('C#7');
  });

  it('refuse a cursor whose payload was edited to point at another company', async () => {
    const cursor = await encodeCursor('C#7#TAG#', key);
    const [, tag] = cursor.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ s: 'C#7#TAG#', k: { ...key, pk: 'C#8#TAG' } })).toString(
      'base64url',
    );
    await expectInvalidCursor(decodeCursor('C#7#TAG#', `${forgedPayload}.${tag}`));
  });

  it('refuse a valid cursor presented to another list', async () => {
    const cursor = await encodeCursor('C#7#TAG#', key);
    await expectInvalidCursor(decodeCursor('C#8#TAG#', cursor));
  });

  it('refuse garbage', async () => {
    await expectInvalidCursor(decodeCursor('s', 'not-a-cursor'));
    await expectInvalidCursor(decodeCursor('s', 'a.b.c'));
  });
});

describe('pageNumber paging over cursors', () => {
  // A fake list of 45 numbers served 20 per page through cursors, as a repository would.
  const serve = async (cursor: string | undefined): Promise<Page<number>> => {
    const start = cursor ? Number(cursor) : 0;
    const items = Array.from({ length: 45 }, (_, i) => i).slice(start, start + 20);
    const next = start + 20;
    return next < 45 ? { items, hasMore: true, nextCursor: String(next) } : { items, hasMore: false };
  };

  it('page 1 and a cursor cost one fetch each', async () => {
    expect((await fetchPage({ pageNumber: 1 }, 20, serve)).items[0]).toBe(0);
    expect((await fetchPage({ pageNumber: 1, cursor: '20' }, 20, serve)).items[0]).toBe(20);
  });

  it('pageNumber without a cursor walks to the right page', async () => {
    const page3 = await fetchPage({ pageNumber: 3 }, 20, serve);
    expect(page3.items).toEqual([40, 41, 42, 43, 44]);
    expect(page3.hasMore).toBe(false);
  });

  it('a page past the end is empty', async () => {
    expect(await fetchPage({ pageNumber: 5 }, 20, serve)).toEqual({ items: [], hasMore: false });
  });

  it('caps the items skipped without a cursor with a 400 naming the field', async () => {
    const deepest = MAX_SKIPPED_ITEMS / 20 + 1;
    await expect(fetchPage({ pageNumber: deepest }, 20, serve)).resolves.toEqual({ items: [], hasMore: false });
    const err = await fetchPage({ pageNumber: deepest + 1 }, 20, serve).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, fields: [{ field: 'query.pageNumber' }] });
  });
});
