import { useCallback, useEffect, useState } from 'react';
import { usePagedList, type PageFetcher } from '@/components/use-paged-list';
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

/** The list's order: by name, accent- and case-insensitively, like the server's (D5). */
const byName = (a: User, b: User) => a.name.localeCompare(b.name, 'pt', { sensitivity: 'base' });

/**
 * The users list of one search, page by page (components/use-paged-list.ts): `loadMore`, `retry`, `reset`
 * (after a create), and `replace`, `insert` (a create elsewhere, in name order) and `remove` in place.
 */
export function useUserList(search: string) {
  const fetchPage = useCallback<PageFetcher<User>>(
    async (q, options) => {
      const page = await listUsers({ searchParam: search, ...q }, options);
      return { items: page.users, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    [search],
  );
  const { items, upsert, ...list } = usePagedList(fetchPage, byName);
  return { ...list, users: items, insert: upsert };
}
