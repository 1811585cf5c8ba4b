import { useCallback } from 'react';
import { usePagedList, type PageFetcher } from '@/hooks/use-paged-list';
import { listQuickMessages, type QuickMessage } from '@/api/quick-messages';

/** The server's order: by shortcode, accent- and case-insensitively. */
const byShortcode = (a: QuickMessage, b: QuickMessage) =>
  a.shortcode.localeCompare(b.shortcode, 'pt', { sensitivity: 'base' }) || a.id - b.id;

/**
 * The quick replies of one search, page by page (components/use-paged-list.ts): `loadMore` for the infinite
 * scroll, `reset` after a create, `upsert` and `remove` for edits and live events.
 */
export function useQuickMessageList(search: string) {
  const fetchPage = useCallback<PageFetcher<QuickMessage>>(
    async (q, options) => {
      const page = await listQuickMessages({ searchParam: search, ...q }, options);
      return { items: page.records, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    [search],
  );
  const { items, replace: _replace, ...list } = usePagedList(fetchPage, byShortcode);
  return { ...list, records: items };
}
