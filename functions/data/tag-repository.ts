import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { nextId } from './counter-repository';
import { createItem } from './create-items';
import { mapDynamoErrors } from './errors';
import { company, pad, searchForm } from './keys';
import { queryPage, type Page } from './query-page';

/**
 * Tag: `pk = C#<c>#TAG, sk = TAG#<pad id>`; every tag on gsi1 (`C#<c>#TAG`, `<searchForm name>#<pad id>`)
 * for the name-ordered, prefix-searchable list; kanban tags also on sparse gsi2 (`C#<c>#TAGKANBAN`, same
 * sort key) so the kanban lanes are one Query.
 */
export interface Tag {
  id: number;
  companyId: number;
  name: string;
  color: string;
  kanban: 0 | 1;
  userId: number | null;
  timeLane: number | null;
  nextLaneId: number | null;
  rollbackLaneId: number | null;
  greetingMessageLane: string;
  createdAt: string;
  updatedAt: string;
}

export const tagKeys = (companyId: number, id: number) => ({ pk: `${company(companyId)}#TAG`, sk: `TAG#${pad(id)}` });

export const tagIndexKeys = (t: Pick<Tag, 'companyId' | 'id' | 'name' | 'kanban'>) => {
  const sort = `${searchForm(t.name)}#${pad(t.id)}`;
  return {
    gsi1pk: `${company(t.companyId)}#TAG`,
    gsi1sk: sort,
    ...(t.kanban === 1 ? { gsi2pk: `${company(t.companyId)}#TAGKANBAN`, gsi2sk: sort } : {}),
  };
};

const toTag = (item: Record<string, unknown>): Tag => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, ...rest } = item;
  return rest as unknown as Tag;
};

export type NewTag = Pick<Tag, 'name' | 'color' | 'kanban'> &
  Partial<Omit<Tag, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>>;

export const createTag = async (companyId: number, input: NewTag): Promise<Tag> => {
  const id = await nextId(companyId, 'tag');
  const now = new Date().toISOString();
  const tag: Tag = {
    userId: null,
    timeLane: null,
    nextLaneId: null,
    rollbackLaneId: null,
    greetingMessageLane: '',
    ...input,
    id,
    companyId,
    createdAt: now,
    updatedAt: now,
  };
  await createItem({ ...tagKeys(companyId, id), ...tagIndexKeys(tag), ...tag });
  return tag;
};

export const getTag = async (companyId: number, id: number): Promise<Tag | null> => {
  const out = await mapDynamoErrors(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: tagKeys(companyId, id) })),
  );
  return out.Item ? toTag(out.Item) : null;
};

export interface TagListQuery {
  search?: string | undefined;
  kanbanOnly?: boolean;
  limit: number;
  cursor?: string | undefined;
}

/** Name-ordered page of a company's tags, optionally only kanban lanes and/or by name prefix. O(page). */
export const listTags = async (companyId: number, q: TagListQuery): Promise<Page<Tag>> => {
  const index = q.kanbanOnly ? 'gsi2' : 'gsi1';
  const pk = `${company(companyId)}#${q.kanbanOnly ? 'TAGKANBAN' : 'TAG'}`;
  const prefix = q.search ? searchForm(q.search) : '';
  const page = await queryPage<Record<string, unknown>>({
    scope: `${pk}#${prefix}`,
    index,
    partition: pk,
    sortPrefix: prefix || undefined,
    limit: q.limit,
    cursor: q.cursor,
  });
  return { ...page, items: page.items.map(toTag) };
};
