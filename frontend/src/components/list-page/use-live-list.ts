import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useDebouncedSearch } from '@/hooks/use-debounced-search';
import { usePagedList, type FetchedPage } from '@/hooks/use-paged-list';
import type { SocketEvent } from '@/realtime/socket';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';

/** What a list API takes: the search ('' = none; the API clients leave it out), the page and its cursor. */
export interface ListQuery {
  searchParam: string;
  pageNumber: number;
  cursor?: string;
}

export type ListFetcher<T> = (query: ListQuery, options: { signal: AbortSignal }) => Promise<FetchedPage<T>>;

/** What an event of the area's channel does to the list. */
export type LiveChange<T> = { kind: 'create' | 'update'; item: T } | { kind: 'delete'; id: number };

const hasId = (value: unknown): value is { id: number } =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'number';

/**
 * The usual event shapes of a `company-{id}-<area>` channel: `{action: 'create' | 'update', [item]: row}`
 * and `{action: 'delete', [deletedId]: id}` — e.g. `channelChange<User>({ item: 'user', deletedId: 'userId' })`.
 * Anything else (another action, a malformed payload) is ignored.
 */
export const channelChange =
  <T extends { id: number }>(keys: { item: string; deletedId: string }) =>
  (event: SocketEvent): LiveChange<T> | null => {
    const item = event[keys.item];
    const id = event[keys.deletedId];
    if (event.action === 'delete') return typeof id === 'number' ? { kind: 'delete', id } : null;
    if ((event.action === 'create' || event.action === 'update') && hasId(item)) {
      return { kind: event.action, item: item as T };
    }
    return null;
  };

export interface LiveListOptions<T> {
  /** One page of the list (the area's API call mapped to items / hasMore / nextCursor). */
  fetchPage: ListFetcher<T>;
  /** The server's order of the rows: where a created or changed row goes. */
  compare: (a: T, b: T) => number;
  /** The area's realtime channel, e.g. `company-${companyId}-user`. */
  channel: string;
  /** What an event of the channel means for the list (`channelChange(...)` for the usual shapes). */
  change: (event: SocketEvent) => LiveChange<T> | null;
}

/**
 * A paged, searchable, live list (core spec §7, §9; docs/decisions.md D30): the search text typed
 * (`filterText`) becomes the list's `search` from 3 characters after 500 ms; pages load on `loadMore`;
 * the channel's events apply as they come — create and update put the row in `compare` order, delete
 * removes it — and a socket reconnect reads page 1 again (events sent while it was down are gone).
 * While a search is on, a create is left out (it may not match) and an update only changes a row shown.
 * Everything of hooks/use-paged-list (`retry`, `reset` after a create, `upsert` after an edit, ...) is
 * returned too.
 */
export function useLiveList<T extends { id: number }>({ fetchPage, compare, channel, change }: LiveListOptions<T>) {
  const [filterText, setFilterText] = useState('');
  const search = useDebouncedSearch(filterText);

  // The latest fetcher, so an area may pass an inline function: only a new search reads the list again.
  const latestFetch = useRef(fetchPage);
  useLayoutEffect(() => {
    latestFetch.current = fetchPage;
  });
  const fetchSearched = useCallback(
    (q: { pageNumber: number; cursor?: string }, options: { signal: AbortSignal }) =>
      latestFetch.current({ searchParam: search, ...q }, options),
    [search],
  );
  const list = usePagedList(fetchSearched, compare);

  useChannel(channel, (event) => {
    const applied = change(event);
    if (!applied) return;
    if (applied.kind === 'delete') list.remove(applied.id);
    else if (!search) list.upsert(applied.item);
    else if (applied.kind === 'update') list.replace(applied.item);
  });
  useOnReconnect(list.refresh);

  return { ...list, search, filterText, setFilterText };
}

export type LiveList<T extends { id: number }> = ReturnType<typeof useLiveList<T>>;
