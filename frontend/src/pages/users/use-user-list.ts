import { useCallback } from 'react';
import { usePagedList, type PageFetcher } from '@/hooks/use-paged-list';
import { listUsers, type User } from '@/api/users';

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
