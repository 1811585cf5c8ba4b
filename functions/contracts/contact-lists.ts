import * as z from 'zod';

/**
 * Contact lists on the wire (administration spec "Contact lists", §3 ContactList and ContactListItem, §5,
 * §7; decisions D122): the views the server answers and sends in `company-{id}-ContactList` /
 * `company-{id}-ContactListItem` events, and the bodies functions/http/contacts accepts. Shared by the
 * handlers, functions/core/contact-lists and frontend/src/api/contact-lists.ts.
 */
export interface ContactListView {
  id: number;
  name: string;
  contactsCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface ContactListItemView {
  id: number;
  name: string;
  number: string;
  email: string;
  /** null: not checked yet (no connected WhatsApp connection answered; decisions D122). */
  isWhatsappValid: boolean | null;
  companyId: number;
  contactListId: number;
  createdAt: string;
  updatedAt: string;
}

/** GET /contact-lists: one page by name. */
export interface ContactListPage {
  records: ContactListView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** GET /contact-list-items: one page of a list's items by name. */
export interface ContactListItemPage {
  contacts: ContactListItemView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** Administration §5: name 2 to 50 characters ('Too Short!' / 'Too Long!'), required ('Required'). */
const name = z.string({ error: 'Required' }).trim().min(1, 'Required').min(2, 'Too Short!').max(50, 'Too Long!');

/** POST /contact-lists and PUT /contact-lists/{id}. */
export const contactListBody = z.object({ name, companyId: z.unknown().optional() });
export type ContactListBody = z.input<typeof contactListBody>;

/** Administration §5: number 8 to 50 characters; e-mail valid ('Invalid email'). */
const number = z.string({ error: 'Required' }).trim().min(8, 'Too Short!').max(50, 'Too Long!');
const email = z.union([z.literal(''), z.string().trim().toLowerCase().email('Invalid email').max(254)]);

/** POST /contact-list-items. */
export const createContactListItemBody = z.object({
  name,
  number,
  email: email.optional(),
  contactListId: z.coerce.number({ error: 'Required' }).int().positive(),
  companyId: z.unknown().optional(),
});
export type CreateContactListItemBody = z.input<typeof createContactListItemBody>;

/** PUT /contact-list-items/{id}: only the fields sent change. */
export const updateContactListItemBody = z.object({
  name: name.optional(),
  number: number.optional(),
  email: email.optional(),
  contactListId: z.unknown().optional(),
  companyId: z.unknown().optional(),
});
export type UpdateContactListItemBody = z.input<typeof updateContactListItemBody>;

/** Spreadsheets a list takes (administration §5 names xls and xlsx; csv is taken too, D122). */
export const CONTACT_LIST_FILE_EXTENSIONS = ['.xls', '.xlsx', '.csv'] as const;
/** Largest file sent through `POST /contact-lists/{id}/upload` (multipart through the API, D122). */
export const MAX_CONTACT_LIST_UPLOAD_BYTES = 5 * 1024 * 1024;
/** The example spreadsheet the lists screen offers (served with the frontend). */
export const CONTACT_LIST_EXAMPLE_PATH = '/planilha-exemplo-lista-de-contatos.xlsx';
