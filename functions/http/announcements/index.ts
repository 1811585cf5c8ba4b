import * as z from 'zod';
import { createAnnouncementBody, updateAnnouncementBody } from '../../contracts/announcements';
import {
  createPlatformAnnouncement,
  deleteAnnouncementImage,
  deletePlatformAnnouncement,
  listVisibleAnnouncements,
  showAnnouncement,
  updatePlatformAnnouncement,
  uploadAnnouncementImage,
} from '../../core/announcements/announcement-service';
import { pagingQuery } from '../../core/paging';
import {
  createAreaHandler,
  defineRoute,
  isUploadedFile,
  respond,
  type AreaHandlers,
  type UploadedFile,
} from '../stack';

/**
 * Announcements (administration spec "Announcements", §7; decisions D144): the owner writes (super routes),
 * every signed-in user reads the active ones. Bodies: functions/contracts/announcements.ts.
 */
const idParam = z.object({ id: z.coerce.number().int().positive() });
const filePart = z.custom<UploadedFile>(isUploadedFile, { error: 'Required: a file' });
const fields = <
  T extends {
    title?: string | undefined;
    text?: string | undefined;
    priority?: number | undefined;
    status?: boolean | undefined;
  },
>(
  b: T,
) => ({ title: b.title, text: b.text, priority: b.priority, status: b.status });

export const handlers: AreaHandlers = {
  'list-announcements': defineRoute({
    query: z.object({ ...pagingQuery, searchParam: z.string().trim().max(100).optional() }),
    handle: async ({ auth, query }) => listVisibleAnnouncements(auth!, query),
  }),
  'get-announcement': defineRoute({
    params: idParam,
    handle: async ({ params }) => showAnnouncement(params.id),
  }),
  'create-announcement': defineRoute({
    body: createAnnouncementBody,
    handle: async ({ body }) =>
      respond(201, await createPlatformAnnouncement({ ...fields(body), title: body.title, text: body.text })),
  }),
  'update-announcement': defineRoute({
    params: idParam,
    body: updateAnnouncementBody,
    handle: async ({ params, body }) => updatePlatformAnnouncement(params.id, fields(body)),
  }),
  'delete-announcement': defineRoute({
    params: idParam,
    handle: async ({ params }) => {
      await deletePlatformAnnouncement(params.id);
      return respond(200, { message: 'Announcement deleted' });
    },
  }),
  // The spec's multipart form {typeArch, file}; answers the announcement.
  'upload-announcement-media': defineRoute({
    params: idParam,
    bodyType: 'multipart',
    maxBodyBytes: 3 * 1024 * 1024,
    body: z.object(
      { typeArch: z.string().max(50).optional(), file: filePart },
      { error: 'Required: a multipart form with file' },
    ),
    handle: async ({ params, body }) => uploadAnnouncementImage(params.id, body.file),
  }),
  'delete-announcement-media': defineRoute({
    params: idParam,
    handle: async ({ params }) => deleteAnnouncementImage(params.id),
  }),
};

export const handler = createAreaHandler('announcements', handlers);
