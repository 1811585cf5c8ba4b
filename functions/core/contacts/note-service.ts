import type { NoteView } from '../../contracts/contacts';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, NotFound } from '../../shared/errors';
import { ReadScope } from '../../data/read-scope';
import { findVisibleTicket } from '../tickets/ticket-access';
import { publishForTicket, ticketViewOf } from '../tickets/ticket-events';
import { getContact } from '../../data/contact-repository';
import {
  createNote,
  deleteNote,
  getNote,
  listTicketNotes,
  noteWireId,
  parseNoteWireId,
  type TicketNote,
} from '../../data/note-repository';
import type { Ticket } from '../../data/ticket-repository';

/**
 * Ticket notes (core spec §3 Ticket note, §5 "Note: required, min 2 characters", §7; data-model §2.16;
 * decisions D56). A note is written on a ticket the caller may see (ticket-access) and kept with the
 * ticket's contact. Listing needs the ticket too, so a note is only ever shown to users who may see its
 * ticket. Deleting: the author, or an admin (or super). Each change publishes `company-{id}-ticket`
 * update with the ticket's view to the users who may see the ticket, so their drawers refetch the notes.
 */
const toView = (n: TicketNote, userName: string | null): NoteView => ({
  id: noteWireId(n),
  note: n.note,
  user: { id: n.userId, name: userName ?? '' },
  createdAt: n.createdAt,
  ticketId: n.ticketId,
  contactId: n.contactId,
});

const noteNotFound = () => new NotFound('ERR_NO_NOTE_FOUND', 'Note not found');

const announce = async (scope: ReadScope, ticket: Ticket): Promise<void> => {
  const contact = await getContact(ticket.companyId, ticket.contactId);
  if (!contact) return;
  await publishForTicket(scope, ticket, [
    { channel: 'ticket', action: 'update', ticket: await ticketViewOf(scope, ticket, contact) },
  ]);
};

/** The spec's form sends the contact too: when it does, it must be the ticket's. */
const checkContact = (ticket: Ticket, contactId: number | undefined, where: 'body' | 'query') => {
  if (contactId !== undefined && contactId !== ticket.contactId) {
    throw new BadRequest('ERR_VALIDATION', 'The contact is not the ticket’s', [
      { field: `${where}.contactId`, reason: 'is not the contact of the ticket' },
    ]);
  }
};

export const addTicketNote = async (
  auth: AuthContext,
  input: { note: string; ticketId: number; contactId?: number | undefined },
): Promise<NoteView> => {
  const { ticket } = await findVisibleTicket(auth, input.ticketId);
  checkContact(ticket, input.contactId, 'body');
  const note = await createNote(auth.companyId, {
    contactId: ticket.contactId,
    ticketId: ticket.id,
    userId: auth.userId,
    note: input.note,
  });
  const scope = new ReadScope();
  await announce(scope, ticket);
  return toView(note, await scope.userName(auth.companyId, auth.userId));
};

export const listNotesOfTicket = async (
  auth: AuthContext,
  input: { ticketId: number; contactId?: number | undefined },
): Promise<NoteView[]> => {
  const { ticket } = await findVisibleTicket(auth, input.ticketId);
  checkContact(ticket, input.contactId, 'query');
  const notes = await listTicketNotes(auth.companyId, ticket.contactId, ticket.id);
  const scope = new ReadScope();
  return Promise.all(notes.map(async (n) => toView(n, await scope.userName(auth.companyId, n.userId))));
};

/**
 * Deletes a note: 404 ERR_NO_NOTE_FOUND for an id that is not a note of the caller's company (another
 * company's looks the same as a missing one), the ticket's visibility as ticket-access says, then
 * 403 ERR_NO_PERMISSION unless the caller wrote it or is an admin.
 */
export const removeTicketNote = async (auth: AuthContext, id: string): Promise<void> => {
  const parts = parseNoteWireId(id);
  const note = parts ? await getNote(auth.companyId, parts.contactId, parts.ulid) : null;
  if (!note) throw noteNotFound();
  const { ticket } = await findVisibleTicket(auth, note.ticketId).catch((err: unknown) => {
    // A note whose ticket was deleted stays removable by its author or an admin.
    if (err instanceof NotFound) return { ticket: null };
    throw err;
  });
  await deleteNote(note, auth.userId, auth.profile === 'admin' || auth.super);
  if (ticket) await announce(new ReadScope(), ticket);
};
