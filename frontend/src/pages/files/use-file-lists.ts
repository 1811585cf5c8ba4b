import { useCallback } from 'react';
import { listFileLists, type FileListView } from '@/api/files';
import { usePagedList, type PageFetcher } from '@/hooks/use-paged-list';

/** The server's order: by name, accent- and case-insensitively (decisions D5). */
const byName = (a: FileListView, b: FileListView) =>
  a.name.localeCompare(b.name, 'pt', { sensitivity: 'base' }) || a.id - b.id;

/**
 * The file lists of one search, page by page (components/use-paged-list.ts): `loadMore` for the infinite
 * scroll, `reset` after a create, `upsert` and `remove` for edits and live events.
 */
export function useFileLists(search: string) {
  const fetchPage = useCallback<PageFetcher<FileListView>>(
    async (q, options) => {
      const page = await listFileLists({ searchParam: search, ...q }, options);
      return { items: page.files, hasMore: page.hasMore, nextCursor: page.nextCursor };
    },
    [search],
  );
  const { items, replace: _replace, ...list } = usePagedList(fetchPage, byName);
  return { ...list, records: items };
}
