import type {
  ContactImportPreview,
  ContactImportView,
  ContactPage,
  ContactUpload,
  ContactView,
  IMPORT_FILE_EXTENSIONS as CONTRACT_IMPORT_FILE_EXTENSIONS,
  IMPORT_PREVIEW_ROWS as CONTRACT_IMPORT_PREVIEW_ROWS,
  ImportTarget,
  MAX_IMPORT_BYTES as CONTRACT_MAX_IMPORT_BYTES,
  StartContactImportBody,
  UpdateContactBody,
} from '@contracts/contacts';
import { putUpload } from './messages';
import { api } from './transport';

/**
 * The contacts screen and the spreadsheet import (core spec §2 "Contacts list", §4, §5, §7; decisions D42,
 * D104, D105; server: functions/core/contacts). The wire shapes are the server's contract
 * (functions/contracts/contacts.ts).
 */
export type Contact = ContactView;
export type { ContactImportPreview, ContactImportView, ContactPage, ImportTarget };

// The contract's constants, repeated (contracts are imported as types only, to keep zod out of the bundle);
// the annotations fail the build if they ever differ from the server's.
export const IMPORT_FILE_EXTENSIONS: typeof CONTRACT_IMPORT_FILE_EXTENSIONS = ['.xls', '.xlsx', '.csv', '.txt'];
export const MAX_IMPORT_BYTES: typeof CONTRACT_MAX_IMPORT_BYTES = 20 * 1024 * 1024;
export const IMPORT_PREVIEW_ROWS: typeof CONTRACT_IMPORT_PREVIEW_ROWS = 100;

interface CallOptions {
  signal?: AbortSignal;
}

export interface ListContactsQuery {
  searchParam?: string;
  pageNumber?: number;
  cursor?: string;
  /** Tag ids: contacts with any of them. */
  contactTag?: number[];
}

/** GET /contacts {searchParam, pageNumber, contactTag (JSON list), cursor}: one page by name. */
export const listContacts = (query: ListContactsQuery = {}, options: CallOptions = {}): Promise<ContactPage> =>
  api().get<ContactPage>('/contacts', {
    ...options,
    query: {
      searchParam: query.searchParam || undefined,
      pageNumber: query.pageNumber,
      cursor: query.cursor,
      contactTag: query.contactTag && query.contactTag.length > 0 ? JSON.stringify(query.contactTag) : undefined,
    },
  });

export type ContactInput = Omit<UpdateContactBody, 'companyId'>;

const contactPath = (id: number) => `/contacts/${encodeURIComponent(String(id))}`;

/** POST /contacts. */
export const createContact = (input: ContactInput & { name: string; number: string }): Promise<Contact> =>
  api().post<Contact>('/contacts', input);

/** PUT /contacts/{id}: only the fields sent change. */
export const updateContact = (id: number, input: ContactInput): Promise<Contact> =>
  api().put<Contact>(contactPath(id), input);

/** DELETE /contacts/{id} (admins: contacts-page:deleteContact). */
export const deleteContact = async (id: number): Promise<void> => {
  await api().delete<unknown>(contactPath(id));
};

/** PUT /contacts/block/{id} {active}: false blocks, true unblocks. */
export const setContactActive = (id: number, active: boolean): Promise<Contact> =>
  api().put<Contact>(`/contacts/block/${encodeURIComponent(String(id))}`, { active });

/**
 * Uploads a spreadsheet for import (D104): POST /contacts/upload {fileName, size}, then the file straight to
 * S3 with the presigned PUT. Answers the import's id.
 */
export const uploadContactSheet = async (file: File): Promise<string> => {
  const upload = await api().post<ContactUpload>('/contacts/upload', { fileName: file.name, size: file.size });
  await putUpload(upload, file);
  return upload.importId;
};

const importPath = (id: string) => `/contacts/import/${encodeURIComponent(id)}`;

/** GET /contacts/import/{id}/preview: the header row and the first data rows. */
export const previewContactImport = (id: string, options: CallOptions = {}): Promise<ContactImportPreview> =>
  api().get<ContactImportPreview>(`${importPath(id)}/preview`, options);

/** POST /contacts/import/{id}/start {columns, excludedRows}: queues the import. */
export const startContactImport = (id: string, body: StartContactImportBody): Promise<ContactImportView> =>
  api().post<ContactImportView>(`${importPath(id)}/start`, body);

/** GET /contacts/import/{id}: the import's progress (also sent live on company-{id}-contactImport). */
export const getContactImport = (id: string, options: CallOptions = {}): Promise<ContactImportView> =>
  api().get<ContactImportView>(importPath(id), options);

/**
 * POST /contacts/import {whatsappId} (the phone's address book) or POST /contacts/import/chats (the people of
 * its chats; decisions D148): the import follows like a spreadsheet's, once the phone has been read.
 */
export const importFromPhone = (source: 'contacts' | 'chats', whatsappId: number): Promise<ContactImportView> =>
  api().post<ContactImportView>(source === 'contacts' ? '/contacts/import' : '/contacts/import/chats', { whatsappId });
