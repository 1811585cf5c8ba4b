import * as z from 'zod';

/**
 * Contacts and ticket notes on the wire (core spec §3 Contact, §5 contact rules, §7 Contacts; decisions
 * D42, D56): the views the server answers and sends in events, and the bodies it accepts. Shared by
 * functions/http/contacts, the services that build the views and frontend/src/api.
 */
export type ContactChannel = 'whatsapp' | 'instagram' | 'facebook';

export interface ContactView {
  id: number;
  name: string;
  number: string;
  email: string;
  extraInfo: { id?: number; name: string; value: string }[];
  disableBot: boolean;
  lgpdAcceptedAt: string | null;
  /** false = blocked (spec). */
  active: boolean;
  acceptAudioMessage: boolean;
  isGroup: boolean;
  channel: ContactChannel;
  urlPicture: string;
  /** The connection the contact first arrived on. */
  whatsappId: number | null;
  tags: { id: number }[];
  createdAt: string;
  updatedAt: string;
}

/** GET /contacts: one page of contacts by name. */
export interface ContactPage {
  contacts: ContactView[];
  hasMore: boolean;
  count: number;
  /** false when `count` is what this page found rather than the exact total (data-model §1.7). */
  countIsExact: boolean;
  nextCursor?: string;
}

/** The spec's contact form rules (core §5): name 2–250 (the wider reading), number 8–50, a valid e-mail. */
const name = z.string({ error: 'Required' }).trim().min(2, 'Too Short!').max(250, 'Too Long!');
const number = z.string({ error: 'Required' }).trim().min(8, 'Too Short!').max(50, 'Too Long!');
const email = z.union([z.literal(''), z.string().trim().toLowerCase().email('Invalid email').max(254)]);
const extraInfo = z
  .array(z.object({ name: z.string().trim().min(1, 'Required').max(100), value: z.string().max(1000) }))
  .max(50);
const contactFields = {
  email: email.optional(),
  disableBot: z.boolean().optional(),
  extraInfo: extraInfo.optional(),
  // The spec's form sends it; the tenant always comes from the token.
  companyId: z.unknown().optional(),
};

/** POST /contacts. */
export const createContactBody = z.object({ name, number, ...contactFields });
/** PUT /contacts/{id}: only the fields sent change. */
export const updateContactBody = z.object({ name: name.optional(), number: number.optional(), ...contactFields });
export type UpdateContactBody = z.input<typeof updateContactBody>;
/** PUT /contacts/block/{id}: false blocks, true unblocks. */
export const blockContactBody = z.object({ active: z.boolean({ error: 'Required' }) });

/** A ticket note (core §3): its id is `<contactId>-<ulid>`. */
export interface NoteView {
  id: string;
  note: string;
  user: { id: number; name: string };
  createdAt: string;
  ticketId: number;
  contactId: number;
}

const positiveId = z.coerce.number({ error: 'Required' }).int().positive();

/** POST /ticket-notes. */
export const createNoteBody = z.object({
  // Core §5: required, at least 2 characters.
  note: z.string({ error: 'Required' }).trim().min(2, 'Too Short!').max(5000, 'Too Long!'),
  ticketId: positiveId,
  contactId: positiveId.optional(),
});
/** What the browser sends: the ids as numbers (the server also takes them as text). */
export type CreateNoteBody = z.output<typeof createNoteBody>;

/**
 * Spreadsheet import of contacts (core spec §4, §5, §7 `/contacts/upload`; decisions D104, D105): the
 * browser asks for an upload, PUTs the file straight to S3, reads the preview, sends the mapping, and
 * follows the job's progress on `company-{id}-contactImport`.
 */
export const IMPORT_FILE_EXTENSIONS = ['.xls', '.xlsx', '.csv', '.txt'] as const;
/** The largest spreadsheet taken (a 50 000-row sheet is about 2 MB). */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** Data rows the preview shows (and the user can leave out one by one); the rest are imported. */
export const IMPORT_PREVIEW_ROWS = 100;

export type ImportTarget = 'name' | 'number' | 'email';
export type ContactImportStatus = 'uploaded' | 'queued' | 'running' | 'done' | 'failed';
export type ContactImportSource = 'sheet' | 'contacts' | 'chats';

/**
 * POST /contacts/import {whatsappId} (the phone's address book) and POST /contacts/import/chats (the
 * people of its chats; decisions D148): without `whatsappId`, the company's default connection.
 */
export const phoneImportBody = z.object({ whatsappId: z.coerce.number().int().positive().optional() }).default({});

/**
 * POST /contactsImport (core §7): one row of the spec's browser-side import, `validateContact` as the text
 * 'true' or 'false' (a boolean is taken too). Answers the contact: 201 when it was made, 200 when the
 * number was already a contact (kept unchanged, D105).
 */
export const contactsImportRowBody = z.object({
  name: z.string({ error: 'Required' }).trim().min(1, 'Required').max(250),
  number: z.string({ error: 'Required' }).trim().min(1, 'Required').max(40),
  email: z
    .union([z.literal(''), z.email('must be an e-mail address').max(254)])
    .optional()
    .default(''),
  validateContact: z
    .union([z.enum(['true', 'false']), z.boolean()])
    .optional()
    .transform((v) => v === true || v === 'true'),
});

/** POST /contacts/upload. */
export const contactUploadBody = z.object({
  fileName: z.string({ error: 'Required' }).trim().min(1, 'Required').max(255),
  size: z.number({ error: 'Required' }).int().positive().max(MAX_IMPORT_BYTES, `at most ${MAX_IMPORT_BYTES} bytes`),
});

/** What POST /contacts/upload answers: the import's id, and where and how to PUT the file. */
export interface ContactUpload {
  importId: string;
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresIn: number;
}

/** POST /contacts/import/{importId}/start: what each column is, and the preview rows left out. */
export const startContactImportBody = z.object({
  columns: z
    .array(z.enum(['name', 'number', 'email']).nullable())
    .min(1, 'Required')
    .max(200),
  excludedRows: z.array(z.number().int().min(0)).max(IMPORT_PREVIEW_ROWS).default([]),
  /**
   * Only numbers WhatsApp knows become contacts (decisions D149): each new number is asked through the
   * connection (`whatsappId`, else the default one); the others count as `invalid`.
   */
  validateContact: z.boolean().default(false),
  whatsappId: z.number().int().positive().optional(),
});
export type StartContactImportBody = z.input<typeof startContactImportBody>;

/** An import as the browser sees it (GET /contacts/import/{importId}, the start answer, the events). */
export interface ContactImportView {
  id: string;
  fileName: string;
  status: ContactImportStatus;
  /** Data rows in the file (null until the job has read it). */
  total: number | null;
  /** Data rows handled so far. */
  processed: number;
  created: number;
  merged: number;
  ignored: number;
  /** Rows whose number WhatsApp does not know, left out when the import validates numbers (D149). */
  invalid: number;
  /** Where the rows come from: a spreadsheet, or the phone's address book or chats (decisions D148). */
  source: ContactImportSource;
  /** Why it failed (an error code, ERR_INVALID_FILE for an unreadable file). */
  error?: string;
  createdAt: string;
  finishedAt?: string;
}

/** GET /contacts/import/{importId}/preview: the header row and the first data rows, as texts. */
export interface ContactImportPreview {
  header: string[];
  rows: string[][];
  /** More data rows follow the ones shown. */
  more: boolean;
}
