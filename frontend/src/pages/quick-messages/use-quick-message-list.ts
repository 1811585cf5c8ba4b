import { useCallback, useEffect, useRef, useState } from 'react';
import { listQuickMessages, type QuickMessage } from '@/api/quick-messages';

export interface QuickMessageListState {
  records: QuickMessage[];
  /** 'loading' covers the first page and the next ones; `records` holds what is shown meanwhile. */
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  hasMore: boolean;
  pageNumber: number;
  nextCursor: string | undefined;
}

const FIRST: QuickMessageListState = {
  records: [],
  status: 'loading',
  error: undefined,
  hasMore: false,
  pageNumber: 0,
  nextCursor: undefined,
};

/** The server's order: by shortcode, accent- and case-insensitively. */
const byShortcode = (a: QuickMessage, b: QuickMessage) =>
  a.shortcode.localeCompare(b.shortcode, 'pt', { sensitivity: 'base' }) || a.id - b.id;

/**
 * The quick replies of one search, page by page (pageNumber plus the server's cursor): `loadMore` for the
 * infinite scroll, `reset` after a create, `upsert` and `remove` for edits and live events.
 */
export function useQuickMessageList(search: string) {
  const [state, setState] = useState<QuickMessageListState>(FIRST);
  const inFlight = useRef<AbortController | null>(null);
  const [generation, setGeneration] = useState(0);

  const fetchPage = useCallback(
    (pageNumber: number, cursor: string | undefined) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setState((s) => (pageNumber === 1 ? FIRST : { ...s, status: 'loading', error: undefined }));
      listQuickMessages(
        { searchParam: search, pageNumber, ...(cursor ? { cursor } : {}) },
        { signal: controller.signal },
      ).then(
        (page) => {
          if (controller.signal.aborted) return;
          setState((s) => {
            const shown = pageNumber === 1 ? [] : s.records;
            const ids = new Set(shown.map((r) => r.id));
            return {
              records: [...shown, ...page.records.filter((r) => !ids.has(r.id))],
              status: 'ready',
              error: undefined,
              hasMore: page.hasMore,
              pageNumber,
              nextCursor: page.nextCursor,
            };
          });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setState((s) => ({ ...s, status: 'error', error }));
        },
      );
    },
    [search],
  );

  useEffect(() => {
    fetchPage(1, undefined);
    return () => inFlight.current?.abort();
  }, [fetchPage, generation]);

  const loadMore = useCallback(() => {
    if (state.status === 'ready' && state.hasMore) fetchPage(state.pageNumber + 1, state.nextCursor);
  }, [fetchPage, state]);

  const retry = useCallback(() => {
    if (state.pageNumber === 0) fetchPage(1, undefined);
    else fetchPage(state.pageNumber + 1, state.nextCursor);
  }, [fetchPage, state]);

  const reset = useCallback(() => setGeneration((g) => g + 1), []);

  /**
   * A reply changed or created (here or elsewhere): replaced where shown; a new one placed in shortcode order
   * among the rows shown, or left to its page when it sorts after them while more pages exist.
   */
  const upsert = useCallback(
    (record: QuickMessage) =>
      setState((s) => {
        if (s.records.some((r) => r.id === record.id)) {
          return { ...s, records: s.records.map((r) => (r.id === record.id ? record : r)) };
        }
        const before = s.records.findIndex((r) => byShortcode(record, r) < 0);
        if (before === -1) return s.hasMore ? s : { ...s, records: [...s.records, record] };
        return { ...s, records: [...s.records.slice(0, before), record, ...s.records.slice(before)] };
      }),
    [],
  );

  const remove = useCallback(
    (id: number) => setState((s) => ({ ...s, records: s.records.filter((r) => r.id !== id) })),
    [],
  );

  return { ...state, loadMore, retry, reset, upsert, remove };
}
