import type { ContactTagsView, SyncTag, TagPage, TagView, TicketTagsView } from '../../contracts/tags';
import type { AuthContext } from '../../shared/auth-context';
import type { SameKeys } from '../../shared/same-keys';
import { BadRequest, NotFound } from '../../shared/errors';
import { fetchPage, type PagingInput } from '../paging';
import { announceContact } from '../contacts/contact-service';
import { ReadScope } from '../../data/read-scope';
import { findVisibleTicket } from '../tickets/ticket-access';
import { publishForTicket, ticketViewOf } from '../tickets/ticket-events';
import { getContact, getLiveContact } from '../../data/contact-repository';
import {
  createTag,
  getTag,
  getTags,
  listAllTags,
  listContactTagIds,
  listTags,
  MAX_TAGS_PER_ITEM,
  syncContactTags,
  type InlineTag,
  type Tag,
} from '../../data/tag-repository';
import { addTicketTag, removeTicketTag, removeTicketTags, type TaggedTicket } from '../../data/ticket-tag-repository';
import { greetLaneEntrySoon } from './lane-greeting';
import { announceTag } from './tag-admin-service';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';

/**
 * Tags (spec: core §3 Tag, §7 ticket tags; administration §2 Tags and kanban; decisions D55). Any
 * signed-in user of the company may list and create tags (attendants create them inline from the contact
 * drawer), set a contact's tags (contacts are company-wide, D42) and tag the tickets they may see (the one
 * door to a ticket: ticket-access.ts). Tag edit, delete and the kanban admin rules are the admin issue's.
 */
export const TAG_PAGE_SIZE = 20;

/** A tag as callers see it: everything but the tenant key. */
const _sameKeys: SameKeys<Omit<Tag, 'companyId'>, TagView> = true;

const view = ({ companyId: _companyId, ...tag }: Tag): TagView => tag;

export const listCompanyTags = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined; kanban?: 0 | 1 | undefined },
): Promise<TagPage> => {
  const page = await fetchPage(q, TAG_PAGE_SIZE, (cursor) =>
    listTags(auth.companyId, { search: q.searchParam, kanbanOnly: q.kanban === 1, limit: TAG_PAGE_SIZE, cursor }),
  );
  return {
    tags: page.items.map(view),
    hasMore: page.hasMore,
    ...(page.nextCursor ? ({ nextCursor: page.nextCursor } satisfies Partial<TagPage>) : {}),
  };
};

export const createCompanyTag = async (
  auth: AuthContext,
  input: { name: string; color: string; kanban: 0 | 1 },
): Promise<TagView> => {
  const tag = view(await createTag(auth.companyId, { ...input, userId: auth.userId }));
  await announceTag(auth.companyId, { action: 'create', tag }); // company{id}-tag (decisions D100)
  return tag;
};

/** Another company's tag id answers exactly like a missing one: 404, nothing revealed. */
export const getCompanyTag = async (auth: AuthContext, id: number): Promise<TagView> => {
  const tag = await getTag(auth.companyId, id);
  if (!tag) throw new NotFound('ERR_NO_TAG_FOUND', 'Tag not found');
  return view(tag);
};

const tagNotFound = () => new NotFound('ERR_NO_TAG_FOUND', 'Tag not found');

const byName = (a: TagView, b: TagView) => a.name.localeCompare(b.name, 'pt-BR') || a.id - b.id;

/** `GET /tags/list`: every tag of the company (kanban=1: only the kanban lanes), for pickers and the board. */
export const listTagsForPicker = async (auth: AuthContext, kanban: 0 | 1 | undefined): Promise<TagView[]> =>
  (await listAllTags(auth.companyId, kanban === 1)).map(view).sort(kanban === 1 ? (a, b) => a.id - b.id : byName);

/** The contact's tags as views, by name. */
const tagsOf = async (companyId: number, ids: readonly number[]): Promise<TagView[]> =>
  (await getTags(companyId, ids)).map(view).sort(byName);

/** `GET /contactTags/{contactId}`: the contact's tags (404 ERR_NO_CONTACT_FOUND for another company's). */
export const contactTags = async (auth: AuthContext, contactId: number): Promise<ContactTagsView> => {
  await getLiveContact(auth.companyId, contactId);
  return { tags: await tagsOf(auth.companyId, await listContactTagIds(auth.companyId, contactId)) };
};

/**
 * `POST /tags/sync {contactId, tags}`: the contact's tags become exactly `tags`, in one transaction (new
 * tags are created in it, random colour and kanban 0 unless given). Unknown tag ids are 400 naming the
 * element; more than MAX_TAGS_PER_ITEM is 400. Announces the contact (`company-{id}-contact` update).
 */
export const syncTagsOfContact = async (
  auth: AuthContext,
  contactId: number,
  tags: readonly SyncTag[],
  randomColor: () => string,
): Promise<ContactTagsView> => {
  const ids = [...new Set(tags.flatMap((t) => ('id' in t ? [t.id] : [])))];
  const inline: InlineTag[] = tags.flatMap((t) =>
    'id' in t ? [] : [{ name: t.name, color: t.color ?? randomColor(), kanban: t.kanban ?? 0 }],
  );
  if (ids.length + inline.length > MAX_TAGS_PER_ITEM) {
    throw new BadRequest('ERR_VALIDATION', 'Too many tags', [
      { field: 'body.tags', reason: `at most ${MAX_TAGS_PER_ITEM} tags per contact` },
    ]);
  }
  const known = new Set((await getTags(auth.companyId, ids)).map((t) => t.id));
  const unknown = tags.flatMap((t, i) => ('id' in t && !known.has(t.id) ? [i] : []));
  if (unknown.length > 0) {
    throw new BadRequest(
      'ERR_VALIDATION',
      'Unknown tag',
      unknown.map((i) => ({ field: `body.tags.${i}.id`, reason: 'no such tag' })),
    );
  }
  // A failed transaction wrote nothing (inline tags included): a retry creates them afresh.
  const result = await withRetry(CHANGED_MEANWHILE, async () => {
    const contact = await getLiveContact(auth.companyId, contactId);
    const current = await listContactTagIds(auth.companyId, contactId);
    return syncContactTags(contact, current, ids, inline, auth.userId);
  });
  await announceContact(auth.companyId, result.contact);
  return { tags: await tagsOf(auth.companyId, result.contact.tagIds) };
};

/** `company-{id}-ticket` update with the ticket view, to the users who may see the ticket. */
const announceTicket = async (ticket: TaggedTicket): Promise<void> => {
  const contact = await getContact(ticket.companyId, ticket.contactId);
  if (!contact) return;
  const scope = new ReadScope();
  await publishForTicket(scope, ticket, [
    { channel: 'ticket', action: 'update', ticket: await ticketViewOf(scope, ticket, contact) },
  ]);
};

/** Reads the visible ticket again and applies `change`, retrying when another tag change won the race. */
const changeTicketTags = async (
  auth: AuthContext,
  ticketId: number,
  change: (ticket: TaggedTicket) => Promise<TaggedTicket>,
): Promise<TicketTagsView> => {
  const { ticket, updated } = await withRetry(CHANGED_MEANWHILE, async () => {
    const { ticket } = await findVisibleTicket(auth, ticketId);
    return { ticket, updated: await change(ticket) };
  });
  if (updated !== ticket) await announceTicket(updated);
  return { ticketId, tags: await tagsOf(auth.companyId, updated.tagIds ?? []) };
};

/**
 * `PUT /ticket-tags/{ticketId}/{tagId}`: the ticket must be one the caller may see (404/403 as
 * ticket-access says), the tag one of the company (404 ERR_NO_TAG_FOUND). A kanban tag moves the card.
 */
export const tagTicket = async (auth: AuthContext, ticketId: number, tagId: number): Promise<TicketTagsView> => {
  await findVisibleTicket(auth, ticketId);
  const tag = await getTag(auth.companyId, tagId);
  if (!tag) throw tagNotFound();
  const answer = await changeTicketTags(auth, ticketId, (ticket) => addTicketTag(ticket, tag));
  // A card entering a lane greets the customer now (the lane tick is the backup; decisions D102).
  if (tag.kanban === 1) await greetLaneEntrySoon(new ReadScope(), auth.companyId, ticketId, tag.id);
  return answer;
};

/**
 * `DELETE /ticket-tags/{ticketId}`: removes every tag of a ticket the caller may see; with `kanban=1` only
 * its lane (the kanban's move to the default lane, decisions D101), its other tags kept.
 */
export const untagTicket = async (
  auth: AuthContext,
  ticketId: number,
  options: { laneOnly?: boolean } = {},
): Promise<TicketTagsView> =>
  changeTicketTags(auth, ticketId, (ticket) =>
    options.laneOnly
      ? (ticket.kanbanTagId ?? null) === null
        ? Promise.resolve(ticket)
        : removeTicketTag(ticket, ticket.kanbanTagId!)
      : removeTicketTags(ticket),
  );
