import { randomUUID } from 'node:crypto';
import type { AnnouncementPage, AnnouncementView } from '../../contracts/announcements';
import { ANNOUNCEMENT_ACTIONS, ANNOUNCEMENT_CHANNEL } from '../../contracts/realtime';
import {
  announcementNotFound,
  createAnnouncement,
  deleteAnnouncement,
  getAnnouncement,
  listActiveAnnouncements,
  listAnnouncements,
  updateAnnouncement,
  type Announcement,
  type AnnouncementChanges,
} from '../../data/announcement-repository';
import { deleteMediaObject, mediaUrl, putMediaObject } from '../../data/media-store';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';
import { detectImageType } from '../media/images';
import { displayFileName } from '../media/attachments';
import { publishToPlatform } from '../notifier';
import { fetchPage, type PagingInput } from '../paging';

/**
 * Announcements (administration spec "Announcements", §3, §4, §5, §6, §7; core §2 top bar; decisions D144).
 * The platform owner writes them (super routes); every signed-in user of every company reads the active ones
 * in the top bar's popover and hears `company-announcement` create/update/delete live.
 */
export const ANNOUNCEMENT_PAGE_SIZE = 20;
/** The image (png, jpg, jpeg — administration §5), checked by its bytes. */
export const ANNOUNCEMENT_IMAGE_MAX_BYTES = 2 * 1024 * 1024;
/** The tenant read is served from memory for at most this long (docs/data-model.md §2.25). */
export const ANNOUNCEMENT_CACHE_MS = 60_000;

export const toAnnouncementView = (a: Announcement): AnnouncementView => ({
  id: a.id,
  title: a.title,
  text: a.text,
  priority: a.priority,
  status: a.status,
  mediaPath: a.mediaPath ? mediaUrl(a.mediaPath) : null,
  mediaName: a.mediaName,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});

let cache: { at: number; records: AnnouncementView[] } | undefined;

/** The active announcements by priority (1 first), then newest first; at most 60 s old. */
const activeAnnouncements = async (now = Date.now()): Promise<AnnouncementView[]> => {
  if (cache && now - cache.at < ANNOUNCEMENT_CACHE_MS) return cache.records;
  const records = (await listActiveAnnouncements())
    .sort((a, b) => a.priority - b.priority || b.createdAt.localeCompare(a.createdAt))
    .map(toAnnouncementView);
  cache = { at: now, records };
  return records;
};

type Action = (typeof ANNOUNCEMENT_ACTIONS)[number];

/** The change to every company's users (best effort, like every list event); this process's cache is dropped. */
const announce = async (action: Action, a: Announcement): Promise<void> => {
  cache = undefined;
  try {
    await publishToPlatform(
      action === 'delete'
        ? { channel: ANNOUNCEMENT_CHANNEL, action, id: a.id }
        : { channel: ANNOUNCEMENT_CHANNEL, action, record: toAnnouncementView(a) },
    );
  } catch (err) {
    logger.warn('announcement event not sent', { announcementId: a.id, ...errorFields(err) });
  }
};

/**
 * `GET /announcements`: the owner pages every announcement by title (search by title prefix); everyone
 * else gets the active ones for the top bar, in one answer.
 */
export const listVisibleAnnouncements = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined },
): Promise<AnnouncementPage> => {
  if (!auth.super) {
    const records = await activeAnnouncements();
    return { records, hasMore: false, count: records.length };
  }
  const page = await fetchPage(q, ANNOUNCEMENT_PAGE_SIZE, (cursor) =>
    listAnnouncements({ search: q.searchParam, limit: ANNOUNCEMENT_PAGE_SIZE, cursor }),
  );
  return {
    records: page.items.map(toAnnouncementView),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

const find = async (id: number): Promise<Announcement> => {
  const a = await getAnnouncement(id);
  if (!a) throw announcementNotFound();
  return a;
};

export const showAnnouncement = async (id: number): Promise<AnnouncementView> => toAnnouncementView(await find(id));

export interface AnnouncementInput {
  title: string;
  text: string;
  priority?: number | undefined;
  status?: boolean | undefined;
}

export const createPlatformAnnouncement = async (input: AnnouncementInput): Promise<AnnouncementView> => {
  const a = await createAnnouncement({
    title: input.title,
    text: input.text,
    priority: (input.priority ?? 3) as Announcement['priority'],
    status: input.status ?? true,
  });
  await announce('create', a);
  return toAnnouncementView(a);
};

const changesOf = (input: Partial<AnnouncementInput>): AnnouncementChanges => {
  const changes: AnnouncementChanges = {};
  if (input.title !== undefined) changes.title = input.title;
  if (input.text !== undefined) changes.text = input.text;
  if (input.priority !== undefined) changes.priority = input.priority as Announcement['priority'];
  if (input.status !== undefined) changes.status = input.status;
  return changes;
};

export const updatePlatformAnnouncement = async (
  id: number,
  input: Partial<AnnouncementInput>,
): Promise<AnnouncementView> => {
  const updated = await withRetry(CHANGED_MEANWHILE, async () => updateAnnouncement(await find(id), changesOf(input)));
  await announce('update', updated);
  return toAnnouncementView(updated);
};

const removeImage = async (id: number, key: string): Promise<void> => {
  await deleteMediaObject(key).catch((err: unknown) =>
    logger.warn('announcement image not deleted', { announcementId: id, ...errorFields(err) }),
  );
};

export const deletePlatformAnnouncement = async (id: number): Promise<void> => {
  const current = await find(id);
  await deleteAnnouncement(id);
  if (current.mediaPath) await removeImage(id, current.mediaPath);
  await announce('delete', current);
};

const invalidImage = (reason: string) =>
  new BadRequest('ERR_INVALID_IMAGE', 'The image must be a PNG or JPEG up to 2 MB', [{ field: 'body.file', reason }]);

/**
 * `POST /announcements/{id}/media-upload`: the announcement's one image, PNG or JPEG by its bytes (whatever
 * the name or the browser says), at most 2 MB. A new random key each time, then the item points at it,
 * then the old object goes; if the item's update fails the new object is deleted (no orphan).
 */
export const uploadAnnouncementImage = async (
  id: number,
  file: { bytes: Buffer; filename: string },
): Promise<AnnouncementView> => {
  const current = await find(id);
  if (file.bytes.byteLength === 0) throw invalidImage('is empty');
  if (file.bytes.byteLength > ANNOUNCEMENT_IMAGE_MAX_BYTES) throw invalidImage('is larger than 2 MB');
  const type = detectImageType(file.bytes);
  if (!type || (type.contentType !== 'image/png' && type.contentType !== 'image/jpeg')) {
    throw invalidImage('is not a PNG or JPEG image');
  }
  const key = `platform/announcements/${id}/${randomUUID()}.${type.extension}`;
  await putMediaObject(key, file.bytes, type.contentType);
  let updated: Announcement;
  try {
    updated = await updateAnnouncement(current, { mediaPath: key, mediaName: displayFileName(file.filename) });
  } catch (err) {
    await deleteMediaObject(key).catch(() => undefined);
    throw err;
  }
  if (current.mediaPath) await removeImage(id, current.mediaPath);
  await announce('update', updated);
  return toAnnouncementView(updated);
};

/** `DELETE /announcements/{id}/media-upload`: removes the image (none to remove is fine). */
export const deleteAnnouncementImage = async (id: number): Promise<AnnouncementView> => {
  const current = await find(id);
  if (!current.mediaPath) return toAnnouncementView(current);
  const updated = await updateAnnouncement(current, { mediaPath: null, mediaName: null });
  await removeImage(id, current.mediaPath);
  await announce('update', updated);
  return toAnnouncementView(updated);
};
