import { randomUUID } from 'node:crypto';
import type {
  FileListEvent,
  FileListOptionInput,
  FileListPage,
  FileListView,
  FileMediaType,
} from '../../contracts/files';
import { FILE_LIST_FILE_MAX_BYTES } from '../../contracts/files';
import type { AuthContext } from '../../shared/auth-context';
import { Conflict, ValidationError, type FieldError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';
import {
  createFileList,
  deleteFileList,
  fileListNotFound,
  getFileList,
  listFileLists,
  MAX_CHECKED_QUEUES,
  saveFileList,
  type FileList,
  type FileListOption,
} from '../../data/file-list-repository';
import { deleteMediaObject, mediaUrl, putMediaObject } from '../../data/media-store';
import { listQueues } from '../../data/queue-repository';
import { flatten } from '../queues/chatbot-tree';
import { detectAttachmentType, displayFileName, fileExtension, mediaKindOf } from '../media/attachments';
import { managers, publish } from '../notifier';
import { fetchPage, type PagingInput } from '../paging';

/**
 * File lists (administration spec §2 "Files", §3, §5, §7; decisions D88): a name, a message and options,
 * each a name and one uploaded file, that a queue (`fileListId`) or a chatbot option of kind file sends —
 * the message, then each file. Admins (and super users) manage them; the route table keeps plain users out
 * (403 ERR_NO_PERMISSION). Another company's list is a 404 like a missing one: every key starts with the
 * caller's company. Events: `company-{id}-file` create/update/delete, to the company's managers.
 */
export const FILE_LIST_PAGE_SIZE = 20;

export const toFileListView = (f: FileList): FileListView => ({
  id: f.id,
  name: f.name,
  message: f.message,
  options: f.options.map((o) => ({
    id: o.id,
    name: o.name,
    path: o.mediaKey ? mediaUrl(o.mediaKey) : null,
    fileName: o.fileName,
    mediaType: o.mediaType,
    mimetype: o.mimetype,
  })),
  userId: f.userId,
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
});

/** Best effort, like every list event: a failed fan-out is logged, never the caller's error. */
const announce = async (companyId: number, event: FileListEvent): Promise<void> => {
  try {
    await publish(companyId, { channel: 'file', ...event }, managers);
  } catch (err) {
    logger.warn('file list event not sent', { companyId, action: event.action, ...errorFields(err) });
  }
};

/** Best effort after the item no longer points at them: an object left behind is only storage. */
const removeObjects = async (companyId: number, fileListId: number, keys: readonly string[]): Promise<void> => {
  await Promise.all(
    keys.map((key) =>
      deleteMediaObject(key).catch((err: unknown) =>
        logger.warn('file list object not deleted', { companyId, fileListId, ...errorFields(err) }),
      ),
    ),
  );
};

const filesOf = (options: readonly FileListOption[]): string[] =>
  options.flatMap((o) => (o.mediaKey ? [o.mediaKey] : []));

const findFileList = async (companyId: number, id: number): Promise<FileList> => {
  const list = await getFileList(companyId, id);
  if (!list) throw fileListNotFound();
  return list;
};

export const listCompanyFileLists = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined },
): Promise<FileListPage> => {
  const page = await fetchPage(q, FILE_LIST_PAGE_SIZE, (cursor) =>
    listFileLists(auth.companyId, { search: q.searchParam, limit: FILE_LIST_PAGE_SIZE, cursor }),
  );
  return {
    files: page.items.map(toFileListView),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

export const showFileList = async (auth: AuthContext, id: number): Promise<FileListView> =>
  toFileListView(await findFileList(auth.companyId, id));

export interface FileListInput {
  name: string;
  message: string;
  options: readonly Pick<FileListOptionInput, 'id' | 'name'>[];
}

/** `POST /files`: the options are names only; their files come by upload (they need the list's id). */
export const createCompanyFileList = async (auth: AuthContext, input: FileListInput): Promise<FileListView> => {
  const withIds = input.options.findIndex((o) => typeof o.id === 'number');
  if (withIds >= 0) {
    throw new ValidationError([{ field: `body.options.${withIds}.id`, reason: 'a new file list has no options yet' }]);
  }
  const list = await createFileList(auth.companyId, {
    name: input.name,
    message: input.message,
    userId: auth.userId,
    optionNames: input.options.map((o) => o.name),
  });
  const view = toFileListView(list);
  await announce(auth.companyId, { action: 'create', files: view });
  return view;
};

/**
 * The options the form sent applied to the stored ones: an option with an id keeps its file (its name
 * may change), one without an id is new, a stored option not sent is removed. Answers the new options and
 * the files no option keeps. An id the list does not have (any more) is a 400 naming it.
 */
const applyOptions = (
  current: FileList,
  sent: readonly Pick<FileListOptionInput, 'id' | 'name'>[],
): { options: FileListOption[]; lastOptionId: number; dropped: string[] } => {
  const stored = new Map(current.options.map((o) => [o.id, o]));
  const problems: FieldError[] = [];
  const seen = new Set<number>();
  let lastOptionId = current.lastOptionId;
  const options = sent.map((o, i): FileListOption => {
    if (typeof o.id !== 'number') {
      lastOptionId += 1;
      return { id: lastOptionId, name: o.name, mediaKey: null, fileName: null, mediaType: null, mimetype: null };
    }
    const kept = stored.get(o.id);
    if (!kept) problems.push({ field: `body.options.${i}.id`, reason: 'is not an option of this file list' });
    else if (seen.has(o.id)) problems.push({ field: `body.options.${i}.id`, reason: 'is sent twice' });
    seen.add(o.id);
    return { ...(kept ?? { mediaKey: null, fileName: null, mediaType: null, mimetype: null }), id: o.id, name: o.name };
  });
  if (problems.length > 0) throw new ValidationError(problems);
  return { options, lastOptionId, dropped: filesOf(current.options.filter((o) => !seen.has(o.id))) };
};

/** `PUT /files/{id}`: the fields sent; `options`, when sent, replaces the list (files of removed ones go). */
export const updateCompanyFileList = async (
  auth: AuthContext,
  id: number,
  input: Partial<FileListInput>,
): Promise<FileListView> => {
  const { saved, dropped } = await withRetry(CHANGED_MEANWHILE, async () => {
    const current = await findFileList(auth.companyId, id);
    const edited = input.options ? applyOptions(current, input.options) : undefined;
    const saved = await saveFileList(current, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.message !== undefined ? { message: input.message } : {}),
      ...(edited ? { options: edited.options, lastOptionId: edited.lastOptionId } : {}),
      userId: auth.userId,
    });
    return { saved, dropped: edited?.dropped ?? [] };
  });
  await removeObjects(auth.companyId, id, dropped);
  const view = toFileListView(saved);
  await announce(auth.companyId, { action: 'update', files: view });
  return view;
};

export interface OptionUpload {
  /** The option the file is for (the form's `id` part at the same position). */
  optionId: number;
  filename: string;
  bytes: Buffer;
}

/**
 * `POST /files/uploadList/{id}`: one file per named option, typed by its bytes (never by the name or the
 * form's `mediaType`). The objects are written first under new random keys, then the list points at them
 * (re-read and re-applied if it changed meanwhile), then the files they replace are deleted; if the list
 * cannot take them (gone, or an option removed meanwhile) the new objects are deleted again.
 */
export const uploadFileListFiles = async (
  auth: AuthContext,
  id: number,
  uploads: readonly OptionUpload[],
): Promise<FileListView> => {
  const { companyId } = auth;
  const problems: FieldError[] = [];
  const ids = new Set<number>();
  uploads.forEach((u, i) => {
    if (u.bytes.byteLength === 0) problems.push({ field: `body.files.${i}`, reason: 'is empty' });
    if (u.bytes.byteLength > FILE_LIST_FILE_MAX_BYTES) {
      problems.push({ field: `body.files.${i}`, reason: 'is larger than 3.5 MB' });
    }
    if (ids.has(u.optionId)) problems.push({ field: `body.id.${i}`, reason: 'names the same option twice' });
    ids.add(u.optionId);
  });
  if (problems.length > 0) throw new ValidationError(problems);

  const optionsMissingIn = (list: FileList): FieldError[] => {
    const present = new Set(list.options.map((o) => o.id));
    return uploads.flatMap((u, i) =>
      present.has(u.optionId) ? [] : [{ field: `body.id.${i}`, reason: 'is not an option of this file list' }],
    );
  };
  // Checked before anything is stored, so a wrong request leaves no object behind.
  const before = await findFileList(companyId, id);
  const missing = optionsMissingIn(before);
  if (missing.length > 0) throw new ValidationError(missing);

  const stored = await Promise.all(
    uploads.map(async (u) => {
      const { contentType } = detectAttachmentType(u.bytes);
      const key = `c/${companyId}/files/${id}/${randomUUID()}.${fileExtension(u.filename)}`;
      await putMediaObject(key, u.bytes, contentType);
      return {
        optionId: u.optionId,
        mediaKey: key,
        fileName: displayFileName(u.filename),
        mimetype: contentType,
        mediaType: mediaKindOf(contentType) satisfies FileMediaType,
      };
    }),
  );
  const byOption = new Map(stored.map((s) => [s.optionId, s]));
  let result: { saved: FileList; replaced: string[] };
  try {
    result = await withRetry(CHANGED_MEANWHILE, async (attempt) => {
      const current = attempt === 1 ? before : await findFileList(companyId, id);
      const gone = optionsMissingIn(current);
      if (gone.length > 0) throw new ValidationError(gone);
      const replaced = filesOf(current.options.filter((o) => byOption.has(o.id)));
      const options = current.options.map((o) => {
        const file = byOption.get(o.id);
        return file
          ? {
              ...o,
              mediaKey: file.mediaKey,
              fileName: file.fileName,
              mediaType: file.mediaType,
              mimetype: file.mimetype,
            }
          : o;
      });
      return { saved: await saveFileList(current, { options, userId: auth.userId }), replaced };
    });
  } catch (err) {
    await removeObjects(
      companyId,
      id,
      stored.map((s) => s.mediaKey),
    );
    throw err;
  }
  await removeObjects(companyId, id, result.replaced);
  const view = toFileListView(result.saved);
  await announce(companyId, { action: 'update', files: view });
  return view;
};

/**
 * `DELETE /files/{id}` (decisions D88): refused with 409 ERR_FILE_LIST_IN_USE, naming the queues, while a
 * queue sends it — deleting it would silently change what those queues' customers receive. Otherwise the
 * item goes in one transaction that re-checks those queues, then its files (best effort).
 */
export const deleteCompanyFileList = async (auth: AuthContext, id: number): Promise<void> => {
  const { companyId } = auth;
  const deleted = await withRetry(CHANGED_MEANWHILE, async () => {
    const current = await findFileList(companyId, id);
    const queues = await listQueues(companyId);
    // A queue sends it, or one of its chatbot options of kind file does (D89).
    const using = queues.filter(
      (q) => q.fileListId === id || flatten(q.chatbots).some((o) => o.queueType === 'file' && o.optFileId === id),
    );
    if (using.length > 0) {
      throw new Conflict('ERR_FILE_LIST_IN_USE', 'Queues send this file list: remove it from them first', {
        queues: using.map((q) => ({ id: q.id, name: q.name })),
        queueNames: using.map((q) => q.name).join(', '),
      });
    }
    await deleteFileList(
      current,
      queues.slice(0, MAX_CHECKED_QUEUES).map((q) => ({ id: q.id, version: q.version })),
    );
    return current;
  });
  await removeObjects(companyId, id, filesOf(deleted.options));
  await announce(companyId, { action: 'delete', fileId: id });
};

/** What a file list sends (a queue's, or a chatbot option of kind file): the message, then each file. */
export interface FileListSending {
  message: string;
  /** `fileName`: the uploaded file's own name (what a document shows on the phone). */
  files: { name: string; mediaType: string; mediaKey: string; mimetype: string; fileName: string }[];
}

/**
 * For the routing engine: the company's file list as it is sent, its options without a file left out;
 * null when the list does not exist (deleted, or never of this company) — the caller sends nothing.
 */
export const fileListForSending = async (companyId: number, fileListId: number): Promise<FileListSending | null> => {
  const list = await getFileList(companyId, fileListId);
  if (!list) return null;
  return {
    message: list.message,
    files: list.options.flatMap((o) =>
      o.mediaKey && o.mediaType && o.mimetype
        ? [
            {
              name: o.name,
              mediaType: o.mediaType,
              mediaKey: o.mediaKey,
              mimetype: o.mimetype,
              fileName: o.fileName ?? o.name,
            },
          ]
        : [],
    ),
  };
};
