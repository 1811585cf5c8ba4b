import * as z from 'zod';
import { closeAllTicketsBody, createTicketBody, TICKET_STATUSES, updateTicketBody } from '../../contracts/tickets';
import { pagingQuery } from '../../core/paging';
import { listCompanyTickets } from '../../core/tickets/ticket-list-service';
import {
  closeAllTickets,
  createCompanyTicket,
  deleteCompanyTicket,
  showTicket,
  ticketTimeline,
  updateCompanyTicket,
} from '../../core/tickets/ticket-service';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';

const status = z.enum(TICKET_STATUSES);

/** A query value that is a JSON list (the spec's `queueIds`, `tags`, ...), e.g. `[1,2]`; `[]` or '' is none. */
const jsonList = <T extends z.ZodType>(item: T, max: number) =>
  z
    .string()
    .transform((s, ctx) => {
      if (s.trim() === '') return [];
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON list' });
        return z.NEVER;
      }
    })
    .pipe(z.array(item, { error: 'must be a JSON list' }).max(max));

const ids = jsonList(z.coerce.number().int().positive(), 100);
const flag = z.enum(['true', 'false']).transform((v) => v === 'true');
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be yyyy-mm-dd');
const idParam = z.object({ id: z.coerce.number().int().positive() });

export const handlers: AreaHandlers = {
  'list-tickets': defineRoute({
    query: z.object({
      ...pagingQuery,
      searchParam: z.string().max(100).optional(),
      status: status.optional(),
      statusFilter: jsonList(status, 6).optional(),
      showAll: flag.optional(),
      queueIds: ids.optional(),
      tags: ids.optional(),
      users: ids.optional(),
      whatsapps: ids.optional(),
      withUnreadMessages: flag.optional(),
      sortTickets: z.enum(['ASC', 'DESC']).optional(),
      updatedAt: day.optional(),
      date: day.optional(),
      searchOnMessages: flag.optional(),
      companyId: z.unknown().optional(),
    }),
    handle: async ({ auth, query }) => listCompanyTickets(auth!, query),
  }),
  'get-ticket-by-uuid': defineRoute({
    params: z.object({ uuid: z.uuid() }),
    handle: async ({ auth, params }) => showTicket(auth!, params.uuid),
  }),
  'create-ticket': defineRoute({
    body: createTicketBody,
    handle: async ({ auth, body }) => {
      const { created, ticket } = await createCompanyTicket(auth!, body);
      return respond(created ? 201 : 200, ticket);
    },
  }),
  'update-ticket': defineRoute({
    params: idParam,
    body: updateTicketBody,
    handle: async ({ auth, params, body }) => updateCompanyTicket(auth!, params.id, body),
  }),
  'delete-ticket': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyTicket(auth!, params.id);
      return respond(200, { message: 'ticket deleted' });
    },
  }),
  'close-all-tickets': defineRoute({
    body: closeAllTicketsBody,
    handle: async ({ auth, body }) => closeAllTickets(auth!, body),
  }),
  'list-ticket-log': defineRoute({
    params: z.object({ ticketId: z.coerce.number().int().positive() }),
    handle: async ({ auth, params }) => ticketTimeline(auth!, params.ticketId),
  }),
};

export const handler = createAreaHandler('tickets', handlers);
