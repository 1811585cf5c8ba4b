import { useCallback, useEffect, useRef, useState } from 'react';

/** One page as the list APIs answer it (pageNumber from 1 plus the server's cursor, docs D4). */
export interface FetchedPage<T> {
  items: T[];
  hasMore: boolean;
  nextCursor?: string | undefined;
}

export type PageFetcher<T> = (
  q: { pageNumber: number; cursor?: string },
  options: { signal: AbortSignal },
) => Promise<FetchedPage<T>>;

export interface PagedListState<T> {
  items: T[];
  /** 'loading' covers the first page and the next ones; `items` holds what is shown meanwhile. */
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  hasMore: boolean;
  /** The last page loaded (0 before the first). */
  pageNumber: number;
  nextCursor: string | undefined;
}

const first = <T>(): PagedListState<T> => ({
  items: [],
  status: 'loading',
  error: undefined,
  hasMore: false,
  pageNumber: 0,
  nextCursor: undefined,
});

/**
 * A server-ordered list read page by page for an infinite scroll (components/list-page builds on it):
 * `loadMore` asks for the next page (once: a call while a page is on its way does nothing), `retry`
 * repeats a failed one, `reset` starts again from page 1 (after a create), `refresh` reads page 1 again
 * while the rows shown stay until it arrives (after a socket reconnect). A new `fetchPage` (a new search)
 * aborts the call in flight and starts over. Edits apply in place: `replace` swaps a shown row, `upsert`
 * puts a new or changed row where `order` places it among the rows shown (or leaves it to its page when
 * it sorts after the last row loaded while more pages exist), `remove` drops one. A page never repeats a
 * row already shown (a row created meanwhile can shift the pages).
 */
export function usePagedList<T extends { id: number }>(fetchPage: PageFetcher<T>, order: (a: T, b: T) => number) {
  const [state, setState] = useState<PagedListState<T>>(first);
  /** The call on its way, if any (a settled call clears it). */
  const inFlight = useRef<AbortController | null>(null);
  const [generation, setGeneration] = useState(0);

  const load = useCallback(
    (pageNumber: number, cursor: string | undefined, { keepShown = false } = {}) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      const settle = () => {
        if (inFlight.current === controller) inFlight.current = null;
      };
      if (!keepShown) {
        setState((s) => (pageNumber === 1 ? first<T>() : { ...s, status: 'loading', error: undefined }));
      }
      fetchPage({ pageNumber, ...(cursor ? { cursor } : {}) }, { signal: controller.signal }).then(
        (page) => {
          if (controller.signal.aborted) return;
          settle();
          setState((s) => {
            const shown = pageNumber === 1 ? [] : s.items;
            const ids = new Set(shown.map((r) => r.id));
            return {
              items: [...shown, ...page.items.filter((r) => !ids.has(r.id))],
              status: 'ready',
              error: undefined,
              hasMore: page.hasMore,
              pageNumber,
              nextCursor: page.nextCursor,
            };
          });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          settle();
          // A failed background refresh leaves the rows as they were; the next page still loads on scroll.
          if (keepShown) setState((s) => (s.status === 'loading' ? { ...s, status: 'ready' } : s));
          else setState((s) => ({ ...s, status: 'error', error }));
        },
      );
    },
    [fetchPage],
  );

  useEffect(() => {
    load(1, undefined);
    return () => inFlight.current?.abort();
  }, [load, generation]);

  /** The next page, when there is one and nothing is loading. */
  const loadMore = useCallback(() => {
    if (state.status === 'ready' && state.hasMore && !inFlight.current) load(state.pageNumber + 1, state.nextCursor);
  }, [load, state]);

  /** Tries the failed page again (the first one, or the next one after those shown). */
  const retry = useCallback(() => {
    if (state.pageNumber === 0) load(1, undefined);
    else load(state.pageNumber + 1, state.nextCursor);
  }, [load, state]);

  const reset = useCallback(() => setGeneration((g) => g + 1), []);

  const refresh = useCallback(() => load(1, undefined, { keepShown: true }), [load]);

  const replace = useCallback(
    (item: T) => setState((s) => ({ ...s, items: s.items.map((r) => (r.id === item.id ? item : r)) })),
    [],
  );

  const upsert = useCallback(
    (item: T) =>
      setState((s) => {
        // Rows up to the last one loaded are all here; one that sorts after it belongs to a later page.
        const last = s.items.at(-1);
        const loaded = !s.hasMore || (last !== undefined && order(item, last) <= 0);
        const others = s.items.filter((r) => r.id !== item.id);
        if (!loaded) return others.length === s.items.length ? s : { ...s, items: others };
        const before = others.findIndex((r) => order(item, r) < 0);
        const items = before === -1 ? [...others, item] : [...others.slice(0, before), item, ...others.slice(before)];
        return { ...s, items };
      }),
    [order],
  );

  const remove = useCallback(
    (id: number) => setState((s) => ({ ...s, items: s.items.filter((r) => r.id !== id) })),
    [],
  );

  return { ...state, loadMore, retry, reset, refresh, replace, upsert, remove };
}
