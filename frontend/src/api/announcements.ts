import type { AnnouncementPage, AnnouncementView } from '@contracts/announcements';
import { api } from './transport';

/**
 * Announcements (administration spec "Announcements"; server: functions/http/announcements; decisions D144).
 * The platform owner writes them; everyone reads the active ones (the top bar's popover).
 */
export type Announcement = AnnouncementView;
export type { AnnouncementPage };
export interface AnnouncementInput {
  title: string;
  text: string;
  priority: 1 | 2 | 3;
  status: boolean;
}

/** The image the server accepts: PNG or JPEG up to 2 MB (administration §5). */
export const ANNOUNCEMENT_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const ANNOUNCEMENT_IMAGE_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';

interface CallOptions {
  signal?: AbortSignal;
}

const path = (id: number) => `/announcements/${encodeURIComponent(String(id))}`;

/** GET /announcements {searchParam, pageNumber, cursor}: the owner's pages; for others the active ones. */
export const listAnnouncements = (
  query: { searchParam?: string; pageNumber?: number; cursor?: string } = {},
  options: CallOptions = {},
): Promise<AnnouncementPage> =>
  api().get<AnnouncementPage>('/announcements', {
    ...options,
    query: { searchParam: query.searchParam || undefined, pageNumber: query.pageNumber, cursor: query.cursor },
  });

export const createAnnouncement = (input: AnnouncementInput): Promise<Announcement> =>
  api().post<Announcement>('/announcements', input);

export const updateAnnouncement = (id: number, input: Partial<AnnouncementInput>): Promise<Announcement> =>
  api().put<Announcement>(path(id), input);

export const deleteAnnouncement = (id: number): Promise<{ message: string }> =>
  api().delete<{ message: string }>(path(id));

/** POST /announcements/{id}/media-upload, multipart {typeArch, file}: the one image; answers the announcement. */
export const uploadAnnouncementImage = (id: number, file: File): Promise<Announcement> => {
  const form = new FormData();
  form.append('typeArch', 'announcements');
  form.append('file', file, file.name);
  return api().post<Announcement>(`${path(id)}/media-upload`, form);
};

export const deleteAnnouncementImage = (id: number): Promise<Announcement> =>
  api().delete<Announcement>(`${path(id)}/media-upload`);
