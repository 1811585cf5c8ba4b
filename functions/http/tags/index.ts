import * as z from 'zod';
import { pagingQuery } from '../../core/paging';
import { createCompanyTag, getCompanyTag, listCompanyTags } from '../../core/tags/tag-service';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';

const HEX_COLOR = /^#[0-9a-fA-F]{3,8}$/;

const randomColor = (): string =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')}`;

const listTags = defineRoute({
  query: z.object({
    ...pagingQuery,
    searchParam: z.string().trim().max(100).optional(),
    kanban: z.coerce
      .number()
      .int()
      .pipe(z.union([z.literal(0), z.literal(1)]))
      .optional(),
  }),
  handle: async ({ auth, query }) => listCompanyTags(auth!, query),
});

const createTag = defineRoute({
  body: z.object({
    name: z.string({ error: 'Obrigatório' }).trim().min(3, 'Mensagem muito curta').max(50, 'Too Long!'),
    color: z.string().regex(HEX_COLOR, 'must be a hex colour like #1a2b3c').optional(),
    kanban: z.union([z.literal(0), z.literal(1)]).default(0),
  }),
  handle: async ({ auth, body }) =>
    respond(
      201,
      await createCompanyTag(auth!, { name: body.name, color: body.color ?? randomColor(), kanban: body.kanban }),
    ),
});

const getTag = defineRoute({
  params: z.object({ id: z.coerce.number().int().positive() }),
  handle: async ({ auth, params }) => getCompanyTag(auth!, params.id),
});

export const handlers: AreaHandlers = {
  'list-tags': listTags,
  'create-tag': createTag,
  'get-tag': getTag,
};

export const handler = createAreaHandler('tags', handlers);
