import type {
  CONTACT_LIST_EXAMPLE_PATH as CONTRACT_EXAMPLE_PATH,
  CONTACT_LIST_FILE_EXTENSIONS as CONTRACT_FILE_EXTENSIONS,
  ContactListBody,
  ContactListItemPage,
  ContactListItemView,
  ContactListPage,
  ContactListView,
  CreateContactListItemBody,
  MAX_CONTACT_LIST_UPLOAD_BYTES as CONTRACT_MAX_UPLOAD_BYTES,
  UpdateContactListItemBody,
} from '@contracts/contact-lists';
import type { ContactImportView } from '@contracts/contacts';
import { api } from './transport';

/**
 * Contact lists and their items (administration spec "Contact lists"; server: functions/http/contacts
 * contact-lists.ts; decisions D122). The wire shapes are the server's contract
 * (functions/contracts/contact-lists.ts).
 */
export type ContactList = ContactListView;
export type ContactListItem = ContactListItemView;
export type { ContactListItemPage, ContactListPage };

// The contract's constants, repeated (contracts are imported as types only, to keep zod out of the bundle);
// the annotations fail the build if they ever differ from the server's.
export const CONTACT_LIST_EXAMPLE_PATH: typeof CONTRACT_EXAMPLE_PATH = '/planilha-exemplo-lista-de-contatos.xlsx';
export const CONTACT_LIST_FILE_EXTENSIONS: typeof CONTRACT_FILE_EXTENSIONS = ['.xls', '.xlsx', '.csv'];
export const MAX_CONTACT_LIST_UPLOAD_BYTES: typeof CONTRACT_MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

interface CallOptions {
  signal?: AbortSignal;
}

const listPath = (id: number) => `/contact-lists/${encodeURIComponent(String(id))}`;
const itemPath = (id: number) => `/contact-list-items/${encodeURIComponent(String(id))}`;

/** GET /contact-lists {searchParam, pageNumber, cursor}: one page by name. */
export const listContactLists = (
  query: { searchParam?: string; pageNumber?: number; cursor?: string } = {},
  options: CallOptions = {},
): Promise<ContactListPage> =>
  api().get<ContactListPage>('/contact-lists', {
    ...options,
    query: { searchParam: query.searchParam || undefined, pageNumber: query.pageNumber, cursor: query.cursor },
  });

export const getContactList = (id: number, options: CallOptions = {}): Promise<ContactList> =>
  api().get<ContactList>(listPath(id), options);

export const createContactList = (body: Omit<ContactListBody, 'companyId'>): Promise<ContactList> =>
  api().post<ContactList>('/contact-lists', body);

export const updateContactList = (id: number, body: Omit<ContactListBody, 'companyId'>): Promise<ContactList> =>
  api().put<ContactList>(listPath(id), body);

export const deleteContactList = (id: number): Promise<{ message: string }> =>
  api().delete<{ message: string }>(listPath(id));

/** POST /contact-lists/{id}/upload (multipart `file`): answers the import, followed on /contacts/import/{id}. */
export const uploadContactList = (id: number, file: File): Promise<ContactImportView> => {
  const form = new FormData();
  form.append('file', file, file.name);
  return api().post<ContactImportView>(`${listPath(id)}/upload`, form);
};

/** GET /contact-list-items {contactListId, searchParam, pageNumber, cursor}: one page of a list by name. */
export const listContactListItems = (
  contactListId: number,
  query: { searchParam?: string; pageNumber?: number; cursor?: string } = {},
  options: CallOptions = {},
): Promise<ContactListItemPage> =>
  api().get<ContactListItemPage>('/contact-list-items', {
    ...options,
    query: {
      contactListId,
      searchParam: query.searchParam || undefined,
      pageNumber: query.pageNumber,
      cursor: query.cursor,
    },
  });

export const createContactListItem = (body: Omit<CreateContactListItemBody, 'companyId'>): Promise<ContactListItem> =>
  api().post<ContactListItem>('/contact-list-items', body);

export const updateContactListItem = (
  id: number,
  body: Omit<UpdateContactListItemBody, 'companyId' | 'contactListId'>,
): Promise<ContactListItem> => api().put<ContactListItem>(itemPath(id), body);

export const deleteContactListItem = (id: number): Promise<{ message: string }> =>
  api().delete<{ message: string }>(itemPath(id));
