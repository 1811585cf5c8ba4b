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
