import type { CreateNoteBody, NoteView } from '@contracts/contacts';
import type {
  ContactTagsView,
  KanbanLanesView,
  KanbanTicketsView,
  KanbanTicketView,
  SyncTag,
  SyncTagsBody,
  TagContactsPage,
  TagContactView,
  TagPage,
  TagView,
  TicketTagsView,
  UpdateTagBody,
} from '@contracts/tags';
import { api } from './transport';

/**
 * Tags, contact tags, ticket tags and ticket notes (core spec §7 "Ticket tags and notes"; server:
 * functions/http/tags, functions/http/contacts; decisions D55–D56 in docs/decisions/). The wire shapes are
 * the server's contracts (functions/contracts/tags.ts, contacts.ts).
 */
export type { KanbanTicketView, SyncTag, TagContactView, TagPage, UpdateTagBody };
export type Tag = TagView;
/** A ticket's tags after a change (`PUT /ticket-tags/…`, `DELETE /ticket-tags/…`). */
export type TicketTags = TicketTagsView;
/** A ticket note (core §3): its id is `<contactId>-<ulid>`. */
export type TicketNote = NoteView;

interface CallOptions {
  signal?: AbortSignal;
}

const id = (value: number | string) => encodeURIComponent(String(value));

/** GET /tags/list: every tag of the company by name; `kanban: 1` only the kanban lanes. */
export const listTags = (query: { kanban?: 0 | 1 } = {}, options: CallOptions = {}): Promise<Tag[]> =>
  api().get<Tag[]>('/tags/list', { ...options, query: { kanban: query.kanban } });

/**
 * POST /tags/sync: the contact's tags become exactly `tags` (new ones by name are created; a name under 3
 * characters is refused with 'Tag muito curta!'). Answers the contact's tags.
 */
export const syncContactTags = (contactId: number, tags: SyncTag[]): Promise<ContactTagsView> =>
  api().post<ContactTagsView>('/tags/sync', { contactId, tags } satisfies SyncTagsBody);

/** GET /contactTags/{contactId}: the contact's tags by name. */
export const contactTags = (contactId: number, options: CallOptions = {}): Promise<ContactTagsView> =>
  api().get<ContactTagsView>(`/contactTags/${id(contactId)}`, options);

/** PUT /ticket-tags/{ticketId}/{tagId}: adds a tag ('Ticket Tag Adicionado com Sucesso!'); a kanban tag moves the card. */
export const addTicketTag = (ticketId: number, tagId: number): Promise<TicketTags> =>
  api().put<TicketTags>(`/ticket-tags/${id(ticketId)}/${id(tagId)}`);

/** DELETE /ticket-tags/{ticketId}: removes every tag of the ticket ('Ticket Tag Removido!'). */
export const removeTicketTags = (ticketId: number): Promise<TicketTags> =>
  api().delete<TicketTags>(`/ticket-tags/${id(ticketId)}`);

/** POST /ticket-notes: a note on a ticket (at least 2 characters; 'Observação adicionada com sucesso!'). */
export const createNote = (input: CreateNoteBody): Promise<TicketNote> =>
  api().post<TicketNote>('/ticket-notes', input);

/** DELETE /ticket-notes/{id}: its author or an admin. */
export const deleteNote = (noteId: string): Promise<{ message: string }> =>
  api().delete<{ message: string }>(`/ticket-notes/${id(noteId)}`);

/** GET /ticket-notes/list: the ticket's notes, newest first. */
export const listNotes = (
  query: { ticketId: number; contactId?: number },
  options: CallOptions = {},
): Promise<TicketNote[]> =>
  api().get<TicketNote[]>('/ticket-notes/list', {
    ...options,
    query: { ticketId: query.ticketId, contactId: query.contactId },
  });

// ------------------------------------------------------------------ tag administration and kanban (D100–D102)

/** GET /tags: one page of the company's tags by name; `kanban: 1` only the lanes; searchParam a name prefix. */
export const listTagPage = (
  query: { searchParam?: string; pageNumber?: number; cursor?: string; kanban?: 0 | 1 },
  options: CallOptions = {},
): Promise<TagPage> =>
  api().get<TagPage>('/tags', {
    ...options,
    query: {
      searchParam: query.searchParam || undefined,
      pageNumber: query.pageNumber,
      cursor: query.cursor,
      kanban: query.kanban,
    },
  });

/** POST /tags: a new tag ('Mensagem muito curta' under 3 characters). */
export const createTag = (input: { name: string; color: string; kanban: 0 | 1 }): Promise<Tag> =>
  api().post<Tag>('/tags', input);

/** PUT /tags/{id}: what is sent changes (the kanban lane's fields included). */
export const updateTag = (tagId: number, input: UpdateTagBody): Promise<Tag> =>
  api().put<Tag>(`/tags/${id(tagId)}`, input);

/** DELETE /tags/{id}: the tag goes; its links are removed in the background. */
export const deleteTag = (tagId: number): Promise<{ message: string }> =>
  api().delete<{ message: string }>(`/tags/${id(tagId)}`);

/** GET /tags/{id}/contacts: one page of the tag's contacts by name. */
export const listTagContacts = (
  tagId: number,
  query: { cursor?: string } = {},
  options: CallOptions = {},
): Promise<TagContactsPage> =>
  api().get<TagContactsPage>(`/tags/${id(tagId)}/contacts`, { ...options, query: { cursor: query.cursor } });

/** DELETE /tags-contacts/{tagId}/{contactId}: the contact loses the tag; answers the tag. */
export const removeTagContact = (tagId: number, contactId: number): Promise<Tag> =>
  api().delete<Tag>(`/tags-contacts/${id(tagId)}/${id(contactId)}`);

/** GET /tag/kanban: the kanban lanes (answer `lista`). */
export const listKanbanLanes = async (options: CallOptions = {}): Promise<Tag[]> =>
  (await api().get<KanbanLanesView>('/tag/kanban', options)).lista;

/** GET /ticket/kanban: the board's cards of the date range (yyyy-mm-dd, the company's days). */
export const listKanbanTickets = async (
  query: { startDate: string; endDate: string; queueIds?: number[] },
  options: CallOptions = {},
): Promise<KanbanTicketView[]> =>
  (
    await api().get<KanbanTicketsView>('/ticket/kanban', {
      ...options,
      query: {
        startDate: query.startDate,
        endDate: query.endDate,
        queueIds: query.queueIds ? JSON.stringify(query.queueIds) : undefined,
      },
    })
  ).tickets;

/** DELETE /ticket-tags/{ticketId}?kanban=1: the card goes back to the default lane, its other tags kept. */
export const removeTicketLane = (ticketId: number): Promise<TicketTags> =>
  api().delete<TicketTags>(`/ticket-tags/${id(ticketId)}`, { query: { kanban: 1 } });

/**
 * Moves a ticket's card (the kanban board and the contact drawer's stage selector): into a lane with one
 * PUT (the server swaps the lane tags in one conditional write, D101), or back to the default lane (null).
 */
export const moveTicketToLane = (ticketId: number, laneId: number | null): Promise<TicketTags> =>
  laneId === null ? removeTicketLane(ticketId) : addTicketTag(ticketId, laneId);
