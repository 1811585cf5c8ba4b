import * as z from 'zod';
import { pagingQuery } from '../../core/paging';
import {
  contactTags,
  createCompanyTag,
  getCompanyTag,
  listCompanyTags,
  listTagsForPicker,
  syncTagsOfContact,
  tagTicket,
  untagTicket,
  type SyncTag,
} from '../../core/tags/tag-service';
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

const kanbanFlag = z.coerce
  .number()
  .int()
  .pipe(z.union([z.literal(0), z.literal(1)]))
  .optional();

const listTagNames = defineRoute({
  // `companyId` is what the spec's client sends; the tenant always comes from the token.
  query: z.object({ kanban: kanbanFlag, companyId: z.unknown().optional() }),
  handle: async ({ auth, query }) => listTagsForPicker(auth!, query.kanban),
});

/**
 * A tag in `POST /tags/sync`: an id (number or `{id}`, the spec's tag objects), or a new tag by name —
 * the contact drawer's inline creation, whose rule is core §5: under 3 characters 'Tag muito curta!'.
 */
const syncTag = z.preprocess(
  (v) => (typeof v === 'number' || typeof v === 'string' ? { id: v } : v),
  z
    .object({
      id: z.coerce.number().int().positive().optional(),
      name: z.string().trim().max(50, 'Too Long!').optional(),
      color: z.string().regex(HEX_COLOR, 'must be a hex colour like #1a2b3c').optional(),
      kanban: z.union([z.literal(0), z.literal(1)]).optional(),
    })
    .superRefine((t, ctx) => {
      if (t.id === undefined && (t.name === undefined || t.name.length < 3)) {
        ctx.addIssue({ code: 'custom', path: ['name'], message: 'Tag muito curta!' });
      }
    })
    .transform((t): SyncTag =>
      t.id !== undefined ? { id: t.id } : { name: t.name!, color: t.color, kanban: t.kanban },
    ),
);

const syncTags = defineRoute({
  body: z.object({
    contactId: z.coerce.number({ error: 'Required' }).int().positive(),
    tags: z.array(syncTag, { error: 'Required: a list of tags' }).max(50),
  }),
  handle: async ({ auth, body }) => syncTagsOfContact(auth!, body.contactId, body.tags, randomColor),
});

const getContactTags = defineRoute({
  params: z.object({ contactId: z.coerce.number().int().positive() }),
  handle: async ({ auth, params }) => contactTags(auth!, params.contactId),
});

const ticketParam = { ticketId: z.coerce.number().int().positive() };

const removeTicketTags = defineRoute({
  params: z.object(ticketParam),
  handle: async ({ auth, params }) => untagTicket(auth!, params.ticketId),
});

const addTicketTag = defineRoute({
  params: z.object({ ...ticketParam, tagId: z.coerce.number().int().positive() }),
  handle: async ({ auth, params }) => tagTicket(auth!, params.ticketId, params.tagId),
});

export const handlers: AreaHandlers = {
  'list-tags': listTags,
  'create-tag': createTag,
  'get-tag': getTag,
  'list-tag-names': listTagNames,
  'sync-contact-tags': syncTags,
  'get-contact-tags': getContactTags,
  'remove-ticket-tags': removeTicketTags,
  'add-ticket-tag': addTicketTag,
};

export const handler = createAreaHandler('tags', handlers);
