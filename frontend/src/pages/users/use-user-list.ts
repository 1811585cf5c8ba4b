import { useCallback, useEffect, useRef, useState } from 'react';
import { listUsers, type User } from '@/api/users';

/** Lists search from 3 characters (core spec §9); shorter terms mean no filter. */
export const MIN_SEARCH_LENGTH = 3;
/** Search debounce (core spec §9). */
export const SEARCH_DEBOUNCE_MS = 500;

/**
 * The search the list runs for what is typed: the trimmed text once it has MIN_SEARCH_LENGTH characters,
 * else none, applied SEARCH_DEBOUNCE_MS after the last keystroke. Typing 'a', 'an' changes nothing.
 */
export function useDebouncedSearch(text: string): string {
  const [search, setSearch] = useState('');
  useEffect(() => {
    const term = text.trim();
    const next = [...term].length >= MIN_SEARCH_LENGTH ? term : '';
    const timer = setTimeout(() => setSearch(next), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return search;
}

export interface UserListState {
  users: User[];
  /** 'loading' covers the first page and the next ones; `users` holds what is shown meanwhile. */
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  hasMore: boolean;
  /** The last page loaded (0 before the first). */
  pageNumber: number;
  nextCursor: string | undefined;
}

const FIRST: UserListState = {
  users: [],
  status: 'loading',
  error: undefined,
  hasMore: false,
  pageNumber: 0,
  nextCursor: undefined,
};

/** The list's order: by name, accent- and case-insensitively, like the server's (D5). */
const byName = (a: string, b: string) => a.localeCompare(b, 'pt', { sensitivity: 'base' });

/** Appends a page, dropping users already shown (a user created meanwhile can shift the pages). */
const append = (shown: User[], page: User[]): User[] => {
  const ids = new Set(shown.map((u) => u.id));
  return [...shown, ...page.filter((u) => !ids.has(u.id))];
};

/**
 * The users list of one search, page by page (pageNumber from 1 plus the server's cursor, docs D4):
 * `loadMore` asks for the next page, `reset` starts again from page 1 (after a create), `replace`, `insert`
 * and `remove` apply an edit, a create elsewhere or a delete in place. A new search aborts the call in flight and starts over.
 */
export function useUserList(search: string) {
  const [state, setState] = useState<UserListState>(FIRST);
  const inFlight = useRef<AbortController | null>(null);
  const [generation, setGeneration] = useState(0);

  const fetchPage = useCallback(
    (pageNumber: number, cursor: string | undefined) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setState((s) => (pageNumber === 1 ? FIRST : { ...s, status: 'loading', error: undefined }));
      listUsers({ searchParam: search, pageNumber, ...(cursor ? { cursor } : {}) }, { signal: controller.signal }).then(
        (page) => {
          if (controller.signal.aborted) return;
          setState((s) => ({
            users: pageNumber === 1 ? page.users : append(s.users, page.users),
            status: 'ready',
            error: undefined,
            hasMore: page.hasMore,
            pageNumber,
            nextCursor: page.nextCursor,
          }));
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

  /** The next page, when there is one and nothing is loading. */
  const loadMore = useCallback(() => {
    if (state.status === 'ready' && state.hasMore) fetchPage(state.pageNumber + 1, state.nextCursor);
  }, [fetchPage, state]);

  /** Tries the failed page again (the first one, or the next one after those shown). */
  const retry = useCallback(() => {
    if (state.pageNumber === 0) fetchPage(1, undefined);
    else fetchPage(state.pageNumber + 1, state.nextCursor);
  }, [fetchPage, state]);

  const reset = useCallback(() => setGeneration((g) => g + 1), []);

  const replace = useCallback(
    (user: User) => setState((s) => ({ ...s, users: s.users.map((u) => (u.id === user.id ? user : u)) })),
    [],
  );

  /**
   * A user created elsewhere, placed in name order among the rows shown; one that sorts after them while
   * more pages exist arrives with its page instead (a user already shown is replaced).
   */
  const insert = useCallback(
    (user: User) =>
      setState((s) => {
        if (s.users.some((u) => u.id === user.id))
          return { ...s, users: s.users.map((u) => (u.id === user.id ? user : u)) };
        const before = s.users.findIndex((u) => byName(user.name, u.name) < 0);
        if (before === -1) return s.hasMore ? s : { ...s, users: [...s.users, user] };
        return { ...s, users: [...s.users.slice(0, before), user, ...s.users.slice(before)] };
      }),
    [],
  );

  const remove = useCallback(
    (id: number) => setState((s) => ({ ...s, users: s.users.filter((u) => u.id !== id) })),
    [],
  );

  return { ...state, loadMore, retry, reset, replace, insert, remove };
}
