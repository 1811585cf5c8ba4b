import type { AuthContext } from '../auth-context';
import { NotFound } from '../errors';
import { fetchPage, type PagingInput } from '../paging';
import { createTag, getTag, listTags, type Tag } from '../../data/tag-repository';

/**
 * Tags (spec: core §3 Tag; administration §2 Tags and kanban). The foundation's reference feature:
 * a service, a repository and route-table entries. Any signed-in user of the company may list and
 * create tags (attendants create them inline from the contact drawer); the workspace issue adds
 * edit, delete, sync and the kanban rules.
 */
export const TAG_PAGE_SIZE = 20;

/** A tag as callers see it: everything but the tenant key. */
export type TagView = Omit<Tag, 'companyId'>;

const view = ({ companyId: _companyId, ...tag }: Tag): TagView => tag;

export const listCompanyTags = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined; kanban?: 0 | 1 | undefined },
): Promise<{ tags: TagView[]; hasMore: boolean; nextCursor?: string }> => {
  const page = await fetchPage(q, TAG_PAGE_SIZE, (cursor) =>
    listTags(auth.companyId, { search: q.searchParam, kanbanOnly: q.kanban === 1, limit: TAG_PAGE_SIZE, cursor }),
  );
  return {
    tags: page.items.map(view),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

export const createCompanyTag = async (
  auth: AuthContext,
  input: { name: string; color: string; kanban: 0 | 1 },
): Promise<TagView> => view(await createTag(auth.companyId, { ...input, userId: auth.userId }));

/** Another company's tag id answers exactly like a missing one: 404, nothing revealed. */
export const getCompanyTag = async (auth: AuthContext, id: number): Promise<TagView> => {
  const tag = await getTag(auth.companyId, id);
  if (!tag) throw new NotFound('ERR_NO_TAG_FOUND', 'Tag not found');
  return view(tag);
};
