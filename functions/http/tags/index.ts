import * as z from 'zod';
import { createTagBody, kanbanTicketsQuery, syncTagsBody, updateTagBody } from '../../contracts/tags';
import { listKanbanLanes, listKanbanTickets } from '../../core/tags/kanban-service';
import {
  deleteCompanyTag,
  listTagContacts,
  removeTagFromContact,
  updateCompanyTag,
} from '../../core/tags/tag-admin-service';
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
} from '../../core/tags/tag-service';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';

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
  body: createTagBody,
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

const syncTags = defineRoute({
  body: syncTagsBody,
  handle: async ({ auth, body }) => syncTagsOfContact(auth!, body.contactId, body.tags, randomColor),
});

const getContactTags = defineRoute({
  params: z.object({ contactId: z.coerce.number().int().positive() }),
  handle: async ({ auth, params }) => contactTags(auth!, params.contactId),
});

const ticketParam = { ticketId: z.coerce.number().int().positive() };

const removeTicketTags = defineRoute({
  params: z.object(ticketParam),
  // kanban=1: only the card's lane (decisions D101).
  query: z.object({ kanban: kanbanFlag }),
  handle: async ({ auth, params, query }) => untagTicket(auth!, params.ticketId, { laneOnly: query.kanban === 1 }),
});

const tagId = { id: z.coerce.number().int().positive() };

const updateTag = defineRoute({
  params: z.object(tagId),
  body: updateTagBody,
  handle: async ({ auth, params, body }) => updateCompanyTag(auth!, params.id, body),
});

const deleteTag = defineRoute({
  params: z.object(tagId),
  handle: async ({ auth, params }) => deleteCompanyTag(auth!, params.id),
});

const getTagContacts = defineRoute({
  params: z.object(tagId),
  query: z.object({ ...pagingQuery }),
  handle: async ({ auth, params, query }) => listTagContacts(auth!, params.id, query),
});

const removeTagContact = defineRoute({
  params: z.object({ tagId: z.coerce.number().int().positive(), contactId: z.coerce.number().int().positive() }),
  handle: async ({ auth, params }) => removeTagFromContact(auth!, params.tagId, params.contactId),
});

const getKanbanLanes = defineRoute({
  query: z.object({ companyId: z.unknown().optional() }),
  handle: async ({ auth }) => listKanbanLanes(auth!),
});

const getKanbanTickets = defineRoute({
  query: kanbanTicketsQuery,
  handle: async ({ auth, query }) => listKanbanTickets(auth!, query),
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
  'update-tag': updateTag,
  'delete-tag': deleteTag,
  'list-tag-contacts': getTagContacts,
  'remove-tag-contact': removeTagContact,
  'list-kanban-lanes': getKanbanLanes,
  'list-kanban-tickets': getKanbanTickets,
};

export const handler = createAreaHandler('tags', handlers);
