import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { usePagedList, type FetchedPage, type PageFetcher } from './use-paged-list';

type Row = { id: number; name: string };
const row = (id: number, name: string): Row => ({ id, name });
const byName = (a: Row, b: Row) => a.name.localeCompare(b.name);

/** A fetcher whose answers the test gives, one per call, in order. */
const answered = () => {
  const calls: {
    q: Parameters<PageFetcher<Row>>[0];
    answer: (page: FetchedPage<Row>) => void;
    fail: (e: unknown) => void;
  }[] = [];
  const fetchPage = vi.fn<PageFetcher<Row>>(
    (q) =>
      new Promise((resolve, reject) => {
        calls.push({ q, answer: resolve, fail: reject });
      }),
  );
  return { fetchPage, calls };
};

const names = (rows: Row[]) => rows.map((r) => r.name);

const opened = async (page: FetchedPage<Row>) => {
  const api = answered();
  const hook = renderHook(() => usePagedList(api.fetchPage, byName));
  await act(async () => api.calls[0]!.answer(page));
  return { ...api, hook };
};

describe('usePagedList', () => {
  it('asks for the next page once, however often loadMore is called while it is on its way', async () => {
    const { hook, calls } = await opened({ items: [row(1, 'a'), row(2, 'b')], hasMore: true, nextCursor: 'c2' });
    act(() => {
      hook.result.current.loadMore();
      hook.result.current.loadMore();
    });
    act(() => hook.result.current.loadMore());
    expect(calls.map((c) => c.q)).toEqual([{ pageNumber: 1 }, { pageNumber: 2, cursor: 'c2' }]);
    await act(async () => calls[1]!.answer({ items: [row(2, 'b'), row(3, 'c')], hasMore: false }));
    expect(names(hook.result.current.items)).toEqual(['a', 'b', 'c']);
    act(() => hook.result.current.loadMore()); // no more pages
    expect(calls).toHaveLength(2);
  });

  it('upserts in order: a new row among those loaded, not after the last one while more pages exist', async () => {
    const { hook } = await opened({ items: [row(1, 'b'), row(2, 'd'), row(3, 'f')], hasMore: true });
    act(() => hook.result.current.upsert(row(4, 'c')));
    expect(names(hook.result.current.items)).toEqual(['b', 'c', 'd', 'f']);
    act(() => hook.result.current.upsert(row(5, 'g')));
    expect(names(hook.result.current.items)).toEqual(['b', 'c', 'd', 'f']);
  });

  it('moves a changed row to its place, keeps the last row that did not move, drops one that moved past it', async () => {
    const { hook } = await opened({ items: [row(1, 'b'), row(2, 'd'), row(3, 'f')], hasMore: true });
    act(() => hook.result.current.upsert(row(1, 'e')));
    expect(names(hook.result.current.items)).toEqual(['d', 'e', 'f']);
    act(() => hook.result.current.upsert(row(3, 'f')));
    expect(names(hook.result.current.items)).toEqual(['d', 'e', 'f']);
    act(() => hook.result.current.upsert(row(2, 'z')));
    expect(names(hook.result.current.items)).toEqual(['e', 'f']);
  });

  it('appends anywhere once every page is loaded', async () => {
    const { hook } = await opened({ items: [row(1, 'b')], hasMore: false });
    act(() => hook.result.current.upsert(row(2, 'z')));
    expect(names(hook.result.current.items)).toEqual(['b', 'z']);
  });

  it('refresh reads page 1 again and keeps the rows shown until it arrives; a failed refresh keeps them', async () => {
    const { hook, calls } = await opened({ items: [row(1, 'a'), row(2, 'b')], hasMore: true, nextCursor: 'c2' });
    act(() => hook.result.current.loadMore());
    await act(async () => calls[1]!.answer({ items: [row(3, 'c')], hasMore: false }));

    act(() => hook.result.current.refresh());
    expect(calls[2]!.q).toEqual({ pageNumber: 1 });
    expect(names(hook.result.current.items)).toEqual(['a', 'b', 'c']);
    expect(hook.result.current.status).toBe('ready');
    await act(async () => calls[2]!.answer({ items: [row(2, 'b'), row(4, 'd')], hasMore: true, nextCursor: 'n' }));
    expect(names(hook.result.current.items)).toEqual(['b', 'd']);
    expect(hook.result.current).toMatchObject({ pageNumber: 1, hasMore: true, nextCursor: 'n' });

    act(() => hook.result.current.refresh());
    await act(async () => calls[3]!.fail(new Error('offline')));
    expect(names(hook.result.current.items)).toEqual(['b', 'd']);
    expect(hook.result.current.status).toBe('ready');
  });

  it('shows a failed page as the error, and retry asks for it again', async () => {
    const api = answered();
    const hook = renderHook(() => usePagedList(api.fetchPage, byName));
    await act(async () => api.calls[0]!.fail(new Error('boom')));
    expect(hook.result.current.status).toBe('error');
    act(() => hook.result.current.retry());
    await act(async () => api.calls[1]!.answer({ items: [row(1, 'a')], hasMore: false }));
    await waitFor(() => expect(names(hook.result.current.items)).toEqual(['a']));
  });
});
