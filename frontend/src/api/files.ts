import type { CreateFileListInput, FileListPage, FileListView, UpdateFileListInput } from '@contracts/files';
import { api } from './transport';

/**
 * File lists (administration spec §2 "Files", §7; server: functions/http/files; decisions D88). The shapes
 * are the server's (functions/contracts/files.ts), imported as types only.
 */
export type { FileListOptionView, FileListPage, FileListView } from '@contracts/files';
export type FileListInput = CreateFileListInput;
export type FileListChanges = UpdateFileListInput;

/** The server's limits (functions/contracts/files.ts), repeated as values: the app imports no zod. */
export const FILE_LIST_UPLOAD_MAX_FILES = 10;
export const FILE_LIST_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
export const FILE_LIST_FILE_MAX_BYTES = 3.5 * 1024 * 1024;
export const FILE_LIST_MAX_OPTIONS = 20;

interface CallOptions {
  signal?: AbortSignal;
}

const path = (id: number) => `/files/${encodeURIComponent(String(id))}`;

/** GET /files/ {searchParam, pageNumber, cursor}: one page by name. */
export const listFileLists = (
  query: { searchParam?: string; pageNumber?: number; cursor?: string } = {},
  options: CallOptions = {},
): Promise<FileListPage> =>
  api().get<FileListPage>('/files', {
    ...options,
    query: { searchParam: query.searchParam || undefined, pageNumber: query.pageNumber, cursor: query.cursor },
  });

export const getFileList = (id: number, options: CallOptions = {}): Promise<FileListView> =>
  api().get<FileListView>(path(id), options);

export const createFileList = (input: FileListInput): Promise<FileListView> =>
  api().post<FileListView>('/files', input);

export const updateFileList = (id: number, input: FileListChanges): Promise<FileListView> =>
  api().put<FileListView>(path(id), input);

export const deleteFileList = (id: number): Promise<{ message: string }> => api().delete<{ message: string }>(path(id));

/** One file for one option of the list. */
export interface OptionFile {
  optionId: number;
  file: File;
}

/**
 * Groups the files into requests the server takes: at most 10 files and 4 MB per request (the form's other
 * parts take a little room, so a request is filled to 3.9 MB). A file too large on its own goes alone and
 * the server answers why.
 */
export const uploadBatches = (files: readonly OptionFile[]): OptionFile[][] => {
  const budget = FILE_LIST_UPLOAD_MAX_BYTES - 100 * 1024;
  const batches: OptionFile[][] = [];
  let current: OptionFile[] = [];
  let size = 0;
  for (const f of files) {
    if (current.length > 0 && (current.length === FILE_LIST_UPLOAD_MAX_FILES || size + f.file.size > budget)) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(f);
    size += f.file.size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
};

/**
 * POST /files/uploadList/{id}, the spec's multipart form {fileId, typeArch: 'fileList', files, mediaType,
 * name, id} with `files` and `id` once per file, in as many requests as the files need; answers the list
 * after the last one.
 */
export const uploadFileListFiles = async (id: number, files: readonly OptionFile[]): Promise<FileListView> => {
  let saved: FileListView | undefined;
  for (const batch of uploadBatches(files)) {
    const form = new FormData();
    form.append('fileId', String(id));
    form.append('typeArch', 'fileList');
    for (const { optionId, file } of batch) {
      form.append('files', file, file.name);
      form.append('mediaType', file.type);
      form.append('name', file.name);
      form.append('id', String(optionId));
    }
    saved = await api().post<FileListView>(`/files/uploadList/${encodeURIComponent(String(id))}`, form);
  }
  if (!saved) return getFileList(id);
  return saved;
};
