import type { FileListOptionView, FileListView } from '@/api/files';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { shellRoutes } from '@/testing/shell-api';

/** Test helpers of the files area (component tests only). */
export const ADMIN = authUser({ id: 5, name: 'Ana Souza', profile: 'admin' });

export const option = (id: number, name: string, overrides: Partial<FileListOptionView> = {}): FileListOptionView => ({
  id,
  name,
  path: null,
  fileName: null,
  mediaType: null,
  mimetype: null,
  ...overrides,
});

export const fileList = (id: number, name: string, overrides: Partial<FileListView> = {}): FileListView => ({
  id,
  name,
  message: `Mensagem de ${name}`,
  options: [],
  userId: ADMIN.id,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/** GET /files as the server answers it: by name prefix, 20 per page, a cursor while more remain. */
export const listRoute =
  (records: () => FileListView[]): Route =>
  (req) => {
    const search = req.query?.searchParam?.toLowerCase();
    const matching = records().filter((r) => !search || r.name.toLowerCase().startsWith(search));
    const page = Number(req.query?.pageNumber ?? '1');
    const hasMore = page * 20 < matching.length;
    return json(200, {
      files: matching.slice((page - 1) * 20, page * 20),
      hasMore,
      ...(hasMore ? { nextCursor: `cursor-${page + 1}` } : {}),
    });
  };

export const filesApi = (records: () => FileListView[], extra: Record<string, Route> = {}, me = ADMIN) => {
  const server = fakeApi({ ...shellRoutes(me), 'GET /files': listRoute(records), ...extra });
  return {
    ...server,
    sent: (method: string) => server.requests.filter((r) => r.method === method && r.path.startsWith('/files')),
  };
};
