import { z } from 'zod';
import { BadRequest } from './errors';
import type { Page } from '../data/query-page';

/**
 * List paging. The spec's lists send `pageNumber` (from 1); ours also take the opaque `cursor` from the
 * previous answer (`nextCursor`), which costs one Query of one page. `pageNumber` > 1 without a cursor
 * walks the pages before it — O(pageNumber × page) — so it is capped (docs/decisions.md).
 */
export const MAX_PAGE_NUMBER_WITHOUT_CURSOR = 50;

export const pagingQuery = {
  pageNumber: z.coerce.number().int().min(1).default(1),
  cursor: z.string().min(1).max(2048).optional(),
};

export type PagingInput = { pageNumber: number; cursor?: string | undefined };

export const fetchPage = async <T>(
  paging: PagingInput,
  fetch: (cursor: string | undefined) => Promise<Page<T>>,
): Promise<Page<T>> => {
  if (paging.cursor || paging.pageNumber === 1) return fetch(paging.cursor);
  if (paging.pageNumber > MAX_PAGE_NUMBER_WITHOUT_CURSOR) {
    throw new BadRequest('ERR_VALIDATION', 'pageNumber too large without a cursor', [
      {
        field: 'query.pageNumber',
        reason: `use the cursor from the previous page beyond page ${MAX_PAGE_NUMBER_WITHOUT_CURSOR}`,
      },
    ]);
  }
  let page = await fetch(undefined);
  for (let n = 2; n <= paging.pageNumber; n += 1) {
    if (!page.nextCursor) return { items: [], hasMore: false };
    page = await fetch(page.nextCursor);
  }
  return page;
};
