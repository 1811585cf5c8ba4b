import type { CreateNoteBody, NoteView } from '@contracts/contacts';
import type { ContactTagsView, SyncTag, SyncTagsBody, TagView, TicketTagsView } from '@contracts/tags';
import { api } from './transport';

/**
 * Tags, contact tags, ticket tags and ticket notes (core spec §7 "Ticket tags and notes"; server:
 * functions/http/tags, functions/http/contacts; decisions D55–D56 in docs/decisions/). The wire shapes are
 * the server's contracts (functions/contracts/tags.ts, contacts.ts).
 */
export type { SyncTag };
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
