import * as z from 'zod';
import {
  MAX_CONTACT_LIST_UPLOAD_BYTES,
  contactListBody,
  createContactListItemBody,
  updateContactListItemBody,
} from '../../contracts/contact-lists';
import {
  createCompanyContactList,
  createCompanyContactListItem,
  deleteCompanyContactList,
  deleteCompanyContactListItem,
  listAllContactLists,
  listCompanyContactListItems,
  listCompanyContactLists,
  renameCompanyContactList,
  showContactList,
  showContactListItem,
  updateCompanyContactListItem,
} from '../../core/contact-lists/contact-list-service';
import { startContactListImport } from '../../core/contacts/contact-import-service';
import { pagingQuery } from '../../core/paging';
import { defineRoute, isUploadedFile, respond, type AreaHandlers, type UploadedFile } from '../stack';

/**
 * Contact lists and their items (administration spec "Contact lists", §7; decisions D122), served by the
 * contacts area's Lambda, which already carries the spreadsheet readers the upload needs. The spec's forms
 * also send `companyId`: dropped, the tenant always comes from the token.
 */
const idParam = z.object({ id: z.coerce.number().int().positive() });
const search = z.string().trim().max(100).optional();

export const contactListHandlers: AreaHandlers = {
  'list-contact-lists': defineRoute({
    query: z.object({ ...pagingQuery, searchParam: search, companyId: z.unknown().optional() }),
    handle: async ({ auth, query }) => listCompanyContactLists(auth!, query),
  }),
  'list-all-contact-lists': defineRoute({
    query: z.object({ companyId: z.unknown().optional() }),
    handle: async ({ auth }) => listAllContactLists(auth!),
  }),
  'get-contact-list': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => showContactList(auth!, params.id),
  }),
  'create-contact-list': defineRoute({
    body: contactListBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyContactList(auth!, body.name)),
  }),
  'update-contact-list': defineRoute({
    params: idParam,
    body: contactListBody,
    handle: async ({ auth, params, body }) => renameCompanyContactList(auth!, params.id, body.name),
  }),
  'delete-contact-list': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyContactList(auth!, params.id);
      return respond(200, { message: 'Contact list deleted' });
    },
  }),
  'upload-contact-list': defineRoute({
    params: idParam,
    bodyType: 'multipart',
    // The multipart envelope around the file.
    maxBodyBytes: MAX_CONTACT_LIST_UPLOAD_BYTES + 64 * 1024,
    body: z.object({ file: z.custom<UploadedFile>(isUploadedFile, { error: 'Required: a file' }) }).loose(),
    handle: async ({ auth, params, body }) => respond(201, await startContactListImport(auth!, params.id, body.file)),
  }),
  'list-contact-list-items': defineRoute({
    query: z.object({
      ...pagingQuery,
      searchParam: search,
      contactListId: z.coerce.number({ error: 'Required' }).int().positive(),
      companyId: z.unknown().optional(),
    }),
    handle: async ({ auth, query }) => listCompanyContactListItems(auth!, query),
  }),
  'get-contact-list-item': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => showContactListItem(auth!, params.id),
  }),
  'create-contact-list-item': defineRoute({
    body: createContactListItemBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyContactListItem(auth!, body)),
  }),
  'update-contact-list-item': defineRoute({
    params: idParam,
    body: updateContactListItemBody,
    handle: async ({ auth, params, body }) => updateCompanyContactListItem(auth!, params.id, body),
  }),
  'delete-contact-list-item': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyContactListItem(auth!, params.id);
      return respond(200, { message: 'Contact deleted' });
    },
  }),
};
