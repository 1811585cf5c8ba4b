import * as z from 'zod';
import { BadRequest } from '../shared/errors';
import type { Page } from '../data/query-page';

/**
 * List paging. The spec's lists send `pageNumber` (from 1); ours also take the opaque `cursor` from the
 * previous answer (`nextCursor`), which costs one Query of one page. `pageNumber` > 1 without a cursor
 * walks the pages before it — O(pageNumber × page) — so at most MAX_SKIPPED_ITEMS items may be skipped
 * (docs/decisions/D04-cursor-paging.md, docs/data-model.md §1.7).
 */
export const MAX_SKIPPED_ITEMS = 1000;

export const pagingQuery = {
  pageNumber: z.coerce.number().int().min(1).default(1),
  cursor: z.string().min(1).max(2048).optional(),
};

export type PagingInput = { pageNumber: number; cursor?: string | undefined };

export const fetchPage = async <T>(
  paging: PagingInput,
  pageSize: number,
  fetch: (cursor: string | undefined) => Promise<Page<T>>,
): Promise<Page<T>> => {
  if (paging.cursor || paging.pageNumber === 1) return fetch(paging.cursor);
  if ((paging.pageNumber - 1) * pageSize > MAX_SKIPPED_ITEMS) {
    throw new BadRequest('ERR_VALIDATION', 'pageNumber too deep without a cursor', [
      { field: 'query.pageNumber', reason: 'too deep, use the cursor (nextCursor) from the previous page' },
    ]);
  }
  let page = await fetch(undefined);
  for (let n = 2; n <= paging.pageNumber; n += 1) {
    if (!page.nextCursor) return { items: [], hasMore: false };
    page = await fetch(page.nextCursor);
  }
  return page;
};
