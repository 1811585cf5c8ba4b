import * as z from 'zod';

/**
 * File lists (administration spec §2 "Files", §3 "File list", §5, §7 "Files"; decisions D88): a name, a
 * message and up to FILE_LIST_MAX_OPTIONS options, each a name and one uploaded file. What a queue's or a
 * chatbot option's file list sends: the message, then each file. The HTTP handler validates with these
 * schemas; the browser imports the types only (`import type`), so zod stays out of its bundle.
 */

/** Most options (files) one list holds: each is one WhatsApp send after the message. */
export const FILE_LIST_MAX_OPTIONS = 20;
/** `POST /files/uploadList/{id}`: most files one request carries. */
export const FILE_LIST_UPLOAD_MAX_FILES = 10;
/**
 * Largest upload request (the whole multipart body): Lambda's 6 MB payload after base64, like the
 * composer's multipart sends (decisions D51). The browser sends bigger selections in several requests.
 */
export const FILE_LIST_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
/** Largest single file: what fits one request with the form's other parts. */
export const FILE_LIST_FILE_MAX_BYTES = 3.5 * 1024 * 1024;

/** §5: name at least 3 characters ('nome muito curto'), required. */
const name = z
  .string({ error: 'Obrigatório' })
  .trim()
  .min(1, { error: 'Obrigatório', abort: true })
  .min(3, 'nome muito curto')
  .max(100, 'Too Long!');
/** §5: message required ('Obrigatório'); kept as typed (line breaks and all). */
const message = z
  .string({ error: 'Obrigatório' })
  .max(10_000, 'Too Long!')
  .refine((s) => s.trim() !== '', 'Obrigatório');

/**
 * One option as the form sends it. `id` names an existing option (its file stays); none adds one. `path`
 * and `mediaType` are the spec's fields, but a file comes only by upload (its type read from its bytes),
 * so what the form sends for them is ignored.
 */
export const fileListOptionInput = z.object({
  id: z.number({ error: 'must be an option id' }).int().positive().nullish(),
  name: z.string({ error: 'Obrigatório' }).trim().min(1, 'Obrigatório').max(100, 'Too Long!'),
  path: z.unknown().optional(),
  mediaType: z.unknown().optional(),
});

const options = z
  .array(fileListOptionInput, { error: 'must be a list of options' })
  .max(FILE_LIST_MAX_OPTIONS, `at most ${FILE_LIST_MAX_OPTIONS} files`);

/** `POST /files` {name, message, options, userId}; the owner and the tenant come from the token. */
export const createFileListBody = z.object({
  name,
  message,
  options: options.default([]),
  userId: z.unknown().optional(),
  companyId: z.unknown().optional(),
});

/**
 * `PUT /files/{id}`: the fields sent change; `options`, when sent, is the whole new list — options not in
 * it are removed with their files.
 */
export const updateFileListBody = z.object({
  name: name.optional(),
  message: message.optional(),
  options: options.optional(),
  userId: z.unknown().optional(),
  companyId: z.unknown().optional(),
});

/** `GET /files/` {searchParam, pageNumber or companyId} (plus our `cursor`); the company is the caller's. */
export const listFileListsQuery = z.object({
  searchParam: z.string().trim().max(100).optional(),
  companyId: z.unknown().optional(),
});

export type FileListOptionInput = z.input<typeof fileListOptionInput>;
export type CreateFileListInput = z.input<typeof createFileListBody>;
export type UpdateFileListInput = z.input<typeof updateFileListBody>;

/** Kinds of file as messages name them (`application` is a document). */
export type FileMediaType = 'image' | 'video' | 'audio' | 'application';

export interface FileListOptionView {
  id: number;
  name: string;
  /** The file's URL under `/media`, or null before one is uploaded. */
  path: string | null;
  /** The uploaded file's name as it was chosen. */
  fileName: string | null;
  /** Read from the file's bytes. */
  mediaType: FileMediaType | null;
  mimetype: string | null;
}

export interface FileListView {
  id: number;
  name: string;
  message: string;
  options: FileListOptionView[];
  /** Who saved it last. */
  userId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** `GET /files/`: one page by name. */
export interface FileListPage {
  files: FileListView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** `company-{id}-file` events (managers only): the list on create and update, its id on delete. */
export type FileListEvent = { action: 'create' | 'update'; files: FileListView } | { action: 'delete'; fileId: number };
