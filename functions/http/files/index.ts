import * as z from 'zod';
import {
  createFileListBody,
  FILE_LIST_UPLOAD_MAX_BYTES,
  FILE_LIST_UPLOAD_MAX_FILES,
  listFileListsQuery,
  updateFileListBody,
} from '../../contracts/files';
import {
  createCompanyFileList,
  deleteCompanyFileList,
  listCompanyFileLists,
  showFileList,
  updateCompanyFileList,
  uploadFileListFiles,
} from '../../core/files/file-list-service';
import { pagingQuery } from '../../core/paging';
import {
  createAreaHandler,
  defineRoute,
  isUploadedFile,
  respond,
  type AreaHandlers,
  type UploadedFile,
} from '../stack';

/** File lists (administration spec §2 "Files", §5, §7; decisions D88). Admin routes (functions/routes.ts). */
const idParam = z.object({ id: z.coerce.number().int().positive() });

const filePart = z.custom<UploadedFile>(isUploadedFile, { error: 'must be a file' });
const optionIdPart = z
  .string({ error: 'must be an option id' })
  .trim()
  .regex(/^[1-9]\d{0,9}$/, 'must be an option id')
  .transform(Number);

/**
 * The spec's upload form {fileId, typeArch: 'fileList', files, mediaType, name, id}: the n-th `files` part
 * is the file of the option whose id is the n-th `id` part. The list is the path's; `fileId`, `typeArch`,
 * `name` and `mediaType` are accepted and not used (the type is read from the bytes).
 */
const uploadForm = z
  .object(
    {
      files: z
        .array(filePart)
        .min(1, 'Required: at least one file')
        .max(FILE_LIST_UPLOAD_MAX_FILES, `at most ${FILE_LIST_UPLOAD_MAX_FILES} files`),
      id: z.array(optionIdPart),
      name: z.array(z.unknown()).optional(),
      mediaType: z.array(z.unknown()).optional(),
      fileId: z.unknown().optional(),
      typeArch: z.unknown().optional(),
    },
    { error: 'Required: a multipart form with files' },
  )
  .refine((form) => form.id.length === form.files.length, {
    path: ['id'],
    error: 'one option id per file, in the order of the files',
  });

export const handlers: AreaHandlers = {
  'list-file-lists': defineRoute({
    query: z.object({ ...pagingQuery, ...listFileListsQuery.shape }),
    handle: async ({ auth, query }) => listCompanyFileLists(auth!, query),
  }),
  'get-file-list': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => showFileList(auth!, params.id),
  }),
  'create-file-list': defineRoute({
    body: createFileListBody,
    handle: async ({ auth, body }) => respond(201, await createCompanyFileList(auth!, body)),
  }),
  'update-file-list': defineRoute({
    params: idParam,
    body: updateFileListBody,
    handle: async ({ auth, params, body }) => updateCompanyFileList(auth!, params.id, body),
  }),
  'upload-file-list-files': defineRoute({
    params: idParam,
    bodyType: 'multipart',
    repeatedParts: ['files', 'id', 'name', 'mediaType'],
    maxBodyBytes: FILE_LIST_UPLOAD_MAX_BYTES,
    body: uploadForm,
    handle: async ({ auth, params, body }) =>
      uploadFileListFiles(
        auth!,
        params.id,
        body.files.map((file, i) => ({ optionId: body.id[i]!, filename: file.filename, bytes: file.bytes })),
      ),
  }),
  'delete-file-list': defineRoute({
    params: idParam,
    handle: async ({ auth, params }) => {
      await deleteCompanyFileList(auth!, params.id);
      return respond(200, { message: 'File list deleted' });
    },
  }),
};

export const handler = createAreaHandler('files', handlers);
