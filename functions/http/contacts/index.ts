import * as z from 'zod';
import {
  blockContactBody,
  contactsImportRowBody,
  contactUploadBody,
  createContactBody,
  createNoteBody,
  phoneImportBody,
  startContactImportBody,
  updateContactBody,
} from '../../contracts/contacts';
import {
  createContactUpload,
  previewContactImport,
  showContactImport,
  startContactImport,
} from '../../core/contacts/contact-import-service';
import { startPhoneImport } from '../../core/contacts/phone-import';
import { pagingQuery } from '../../core/paging';
import {
  blockCompanyContact,
  contactProfile,
  createCompanyContact,
  deleteCompanyContact,
  importCompanyContactRow,
  listCompanyContactNames,
  listCompanyContacts,
  showContact,
  toggleContactAcceptAudio,
  toggleContactDisableBot,
  updateCompanyContact,
} from '../../core/contacts/contact-service';
import { addTicketNote, listNotesOfTicket, removeTicketNote } from '../../core/contacts/note-service';
import { createAreaHandler, defineRoute, respond, type AreaHandlers } from '../stack';
import { contactListHandlers } from './contact-lists';

const idParam = z.object({ id: z.coerce.number().int().positive() });

/** `contactTag`: a JSON list of tag ids (the spec's query), e.g. `[1,2]`. */
const tagList = z
  .string()
  .transform((s, ctx) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON list of tag ids' });
      return z.NEVER;
    }
  })
  .pipe(z.array(z.number().int().positive(), { error: 'must be a JSON list of tag ids' }).max(20));

const booleanText = z.enum(['true', 'false']).transform((v) => v === 'true');

const positiveId = z.coerce.number({ error: 'Required' }).int().positive();

const importParam = z.object({ importId: z.string().uuid('must be an import id') });

export const handlers: AreaHandlers = {
  'list-contacts': defineRoute({
    query: z.object({
      ...pagingQuery,
      searchParam: z.string().trim().max(100).optional(),
      contactTag: tagList.optional(),
      channel: z.enum(['whatsapp', 'instagram', 'facebook']).optional(),
      isGroup: booleanText.optional(),
    }),
    handle: async ({ auth, query }) => listCompanyContacts(auth!, query),
  }),
  // For pickers: a list of {id, name, number} by name, at most 1,000; `x-next-cursor` names the next call.
  'list-contact-names': defineRoute({
    query: z.object({ companyId: z.unknown().optional(), cursor: pagingQuery.cursor }),
    handle: async ({ auth, query }) => {
      const page = await listCompanyContactNames(auth!, query.cursor);
      return respond(200, page.contacts, page.nextCursor ? { headers: { 'x-next-cursor': page.nextCursor } } : {});
    },
  }),
  'get-contact': defineRoute({ params: idParam, handle: async ({ auth, params }) => showContact(auth!, params.id) }),
  'get-contact-profile': defineRoute({
    params: z.object({ number: z.string().trim().min(1).max(50) }),
    handle: async ({ auth, params }) => contactProfile(auth!, params.number),
  }),
  'create-contact': defineRoute({
    body: createContactBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyContact(auth!, body)),
  }),
  'update-contact': defineRoute({
    params: idParam,
    body: updateContactBody,
    handle: async ({ auth, params, body }) => updateCompanyContact(auth!, params.id, body),
  }),
  'delete-contact': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyContact(auth!, params.id);
      return respond(200, { message: 'Contact deleted' });
    },
  }),
  'block-contact': defineRoute({
    params: idParam,
    body: blockContactBody,
    handle: async ({ auth, params, body }) => blockCompanyContact(auth!, params.id, body.active),
  }),
  'toggle-contact-accept-audio': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => toggleContactAcceptAudio(auth!, params.id),
  }),
  'toggle-contact-disable-bot': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => toggleContactDisableBot(auth!, params.id),
  }),

  // Spreadsheet import (core §4, §5; decisions D104).
  'create-contact-upload': defineRoute({
    body: contactUploadBody,
    handle: async ({ auth, body }) => respond(201, await createContactUpload(auth!, body)),
  }),
  'get-contact-import': defineRoute({
    params: importParam,
    handle: async ({ auth, params }) => showContactImport(auth!, params.importId),
  }),
  'preview-contact-import': defineRoute({
    params: importParam,
    handle: async ({ auth, params }) => previewContactImport(auth!, params.importId),
  }),
  'start-contact-import': defineRoute({
    params: importParam,
    body: startContactImportBody,
    handle: async ({ auth, params, body }) => respond(202, await startContactImport(auth!, params.importId, body)),
  }),
  'import-phone-contacts': defineRoute({
    body: phoneImportBody,
    handle: async ({ auth, body }) => respond(202, await startPhoneImport(auth!, 'contacts', body)),
  }),
  'import-chat-contacts': defineRoute({
    body: phoneImportBody,
    handle: async ({ auth, body }) => respond(202, await startPhoneImport(auth!, 'chats', body)),
  }),
  'import-contact-row': defineRoute({
    body: contactsImportRowBody,
    handle: async ({ auth, body }) => {
      const { created, contact } = await importCompanyContactRow(auth!, body);
      return respond(created ? 201 : 200, contact);
    },
  }),

  // Ticket notes (core §3, §5, §7; decisions D56): kept with the contact, reached through the ticket.
  'create-ticket-note': defineRoute({
    body: createNoteBody,
    handle: async ({ auth, body }) => respond(201, await addTicketNote(auth!, body)),
  }),
  'delete-ticket-note': defineRoute({
    params: z.object({
      id: z.string().regex(/^\d{1,10}-[0-9A-HJKMNP-TV-Z]{26}$/, 'must be a note id (<contactId>-<ulid>)'),
    }),
    handle: async ({ auth, params }) => {
      await removeTicketNote(auth!, params.id);
      return respond(200, { message: 'Note deleted' });
    },
  }),
  'list-ticket-notes': defineRoute({
    query: z.object({ ticketId: positiveId, contactId: positiveId.optional() }),
    handle: async ({ auth, query }) => listNotesOfTicket(auth!, query),
  }),
  ...contactListHandlers,
};

export const handler = createAreaHandler('contacts', handlers);
