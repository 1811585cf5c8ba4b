import * as z from 'zod';

/**
 * Tags, contact tags and ticket tags on the wire (core spec §3 Tag, §7 "Ticket tags and notes";
 * administration §2; decisions D55): the views functions/core/tags answers and the bodies
 * functions/http/tags accepts. Shared by the handlers, the service and frontend/src/api/tags.ts.
 */
export interface TagView {
  id: number;
  name: string;
  color: string;
  kanban: 0 | 1;
  userId: number | null;
  timeLane: number | null;
  nextLaneId: number | null;
  rollbackLaneId: number | null;
  greetingMessageLane: string;
  /** Contacts linked to the tag (moved with each link; decisions D100). */
  contactCount: number;
  /** Tickets linked to the tag: a kanban lane's card count (decisions D100). */
  ticketCount: number;
  createdAt: string;
  updatedAt: string;
}

/** GET /tags: one page of the company's tags by name. */
export interface TagPage {
  tags: TagView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** GET /contactTags/{contactId}, POST /tags/sync: the contact's tags by name. */
export interface ContactTagsView {
  tags: TagView[];
}

/** A ticket's tags after a change (`PUT /ticket-tags/…`, `DELETE /ticket-tags/…`). */
export interface TicketTagsView {
  ticketId: number;
  tags: TagView[];
}

const HEX_COLOR = /^#[0-9a-fA-F]{3,8}$/;
const kanban = z.union([z.literal(0), z.literal(1)]);

/** POST /tags. */
export const createTagBody = z.object({
  name: z.string({ error: 'Obrigatório' }).trim().min(3, 'Mensagem muito curta').max(50, 'Too Long!'),
  color: z.string().regex(HEX_COLOR, 'must be a hex colour like #1a2b3c').optional(),
  kanban: kanban.default(0),
});

/** A tag of `POST /tags/sync`: one of the company's by id, or a new one by name (created with the sync). */
export type SyncTag = { id: number } | { name: string; color?: string | undefined; kanban?: 0 | 1 | undefined };

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
      kanban: kanban.optional(),
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

/** POST /tags/sync: the contact's tags become exactly `tags`. */
export const syncTagsBody = z.object({
  contactId: z.coerce.number({ error: 'Required' }).int().positive(),
  tags: z.array(syncTag, { error: 'Required: a list of tags' }).max(50),
});
/** What the browser sends: the contact's id and each tag as SyncTag (the server also takes bare ids). */
export type SyncTagsBody = z.output<typeof syncTagsBody>;

/** Hours a card may stay in a lane before the lane timer moves it (one year at most; decisions D102). */
export const MAX_TIME_LANE_HOURS = 8760;
const laneId = z.union([z.coerce.number().int().positive(), z.null()]);

/**
 * PUT /tags/{id} (administration §7: the create fields plus userId, kanban, nextLaneId, rollbackLaneId, and
 * the kanban dialog's timeLane and greetingMessageLane). Every field is optional: what is sent changes.
 * `0` or null for a lane or the time means "none".
 */
export const updateTagBody = z.object({
  name: z.string({ error: 'Obrigatório' }).trim().min(3, 'Mensagem muito curta').max(50, 'Too Long!').optional(),
  color: z.string().regex(HEX_COLOR, 'must be a hex colour like #1a2b3c').optional(),
  kanban: kanban.optional(),
  userId: z.union([z.coerce.number().int().min(0), z.null()]).optional(),
  timeLane: z
    .union([z.coerce.number().int().min(0).max(MAX_TIME_LANE_HOURS, `at most ${MAX_TIME_LANE_HOURS} hours`), z.null()])
    .optional(),
  nextLaneId: z.union([laneId, z.literal(0)]).optional(),
  rollbackLaneId: z.union([laneId, z.literal(0)]).optional(),
  greetingMessageLane: z.string().max(4096, 'at most 4096 characters').optional(),
});
export type UpdateTagBody = z.input<typeof updateTagBody>;

/** A contact of a tag, as the contacts-of-tag dialog lists it (administration §2, §3 Tag.contacts). */
export interface TagContactView {
  id: number;
  name: string;
  number: string;
}

/** The contacts of a tag, one page by name. */
export interface TagContactsPage {
  contacts: TagContactView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** GET /tag/kanban: the company's kanban lanes by id (the spec's answer field `lista`). */
export interface KanbanLanesView {
  lista: TagView[];
}

/** A tag as a kanban card shows it. */
export interface KanbanTagView {
  id: number;
  name: string;
  color: string;
  kanban: 0 | 1;
}

/** A ticket on the kanban board (administration §3 "Kanban ticket"). */
export interface KanbanTicketView {
  id: number;
  uuid: string;
  status: string;
  queueId: number | null;
  contact: { id: number; name: string; number: string };
  lastMessage: string;
  unreadMessages: number;
  createdAt: string;
  updatedAt: string;
  channel: string;
  whatsapp: { id: number; name: string } | null;
  user: { id: number; name: string } | null;
  tags: KanbanTagView[];
  /** The lane the card is in (null: the default lane). */
  kanbanTagId: number | null;
}

/** GET /ticket/kanban. */
export interface KanbanTicketsView {
  tickets: KanbanTicketView[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** GET /ticket/kanban query: queueIds (a JSON list), startDate and endDate (yyyy-mm-dd, the company's days). */
export const kanbanTicketsQuery = z
  .object({
    queueIds: z
      .preprocess(
        (v) => {
          if (typeof v !== 'string') return v;
          try {
            return JSON.parse(v) as unknown;
          } catch {
            return v;
          }
        },
        z.array(z.coerce.number().int().min(0), { error: 'a JSON list of queue ids' }).max(64),
      )
      .optional(),
    startDate: z.string().regex(DAY, 'a day as yyyy-mm-dd').optional(),
    endDate: z.string().regex(DAY, 'a day as yyyy-mm-dd').optional(),
  })
  .superRefine((q, ctx) => {
    if (q.startDate && q.endDate && q.startDate > q.endDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be before startDate' });
    }
    if (q.startDate && q.endDate && Date.parse(q.endDate) - Date.parse(q.startDate) > 366 * 86_400_000) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'at most 366 days after startDate' });
    }
  });
