import { randomUUID } from 'node:crypto';
import type { QuickMessagePage, QuickMessageView } from '../../contracts/quick-messages';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, Forbidden } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { fetchPage, type PagingInput } from '../paging';
import { detectAttachmentType, safeFileName } from '../media/attachments';
import { deleteMediaObject, mediaUrl, putMediaObject } from '../../data/media-store';
import {
  createQuickMessage,
  deleteQuickMessage,
  getQuickMessage,
  listAllQuickMessages,
  listQuickMessages,
  quickMessageNotFound,
  updateQuickMessage,
  type QuickMessage,
  type QuickMessageChanges,
} from '../../data/quick-message-repository';
import { listCompanyConnections } from '../../data/ws-connection-repository';
import { publishToConnections, type Audience } from '../notifier';

/**
 * Quick replies (administration spec "Quick replies", §3 QuickMessage, §4, §5; core §7
 * `GET /quick-messages/list`; decisions D58–D59). Every user of the company keeps their own replies:
 * - seeing: a shared reply (`geral`) is seen and used by everyone in the company; any other reply only by
 *   its owner — to everybody else, admins included, it does not exist (404), like another company's;
 * - changing (edit, delete, attachment): the owner always; another user only a shared reply whose owner
 *   has not locked it with `visao` (the spec's "editable only by its owner").
 * Events: `company-{id}-quickemessage` (the spec's channel name) create/update/delete, sent only to the
 * sockets of users who may see the reply.
 */
export const QUICK_MESSAGE_PAGE_SIZE = 20;
/** Largest attachment: the route takes bodies up to 3 MB (API Gateway/Lambda payloads, decisions D25). */
export const QUICK_MESSAGE_MEDIA_MAX_BYTES = 2.5 * 1024 * 1024;

export const toQuickMessageView = (q: QuickMessage): QuickMessageView => ({
  id: q.id,
  shortcode: q.shortcode,
  message: q.message,
  geral: q.geral,
  visao: q.visao,
  status: q.status,
  userId: q.userId,
  mediaPath: q.mediaPath ? mediaUrl(q.mediaPath) : null,
  mediaName: q.mediaName ?? null,
  isMedia: Boolean(q.mediaPath),
  createdAt: q.createdAt,
  updatedAt: q.updatedAt,
});

const seenBy = (q: Pick<QuickMessage, 'geral' | 'userId'>, userId: number): boolean => q.geral || q.userId === userId;

const mayChange = (q: QuickMessage, auth: AuthContext): boolean => q.userId === auth.userId || (q.geral && !q.visao);

/** A reply the caller may see, else 404 ERR_NO_QUICKMESSAGE_FOUND. */
const findVisible = async (auth: AuthContext, id: number): Promise<QuickMessage> => {
  const q = await getQuickMessage(auth.companyId, id);
  if (!q || !seenBy(q, auth.userId)) throw quickMessageNotFound();
  return q;
};

/** A reply the caller may change: 404 when they cannot see it, 403 ERR_NO_PERMISSION when it is locked. */
const findChangeable = async (auth: AuthContext, id: number): Promise<QuickMessage> => {
  const q = await findVisible(auth, id);
  if (!mayChange(q, auth)) throw new Forbidden('ERR_NO_PERMISSION', 'Only the owner may change this quick reply');
  return q;
};

/**
 * Sends the change to those who may see the reply now; those who saw it before and no longer may (it
 * stopped being shared, or was deleted) get `delete`. Best effort, like the other list events.
 */
const announce = async (
  companyId: number,
  action: 'create' | 'update' | 'delete',
  now: QuickMessage,
  before?: QuickMessage,
): Promise<void> => {
  try {
    const connections = await listCompanyConnections(companyId);
    if (connections.length === 0) return;
    const seesNow: Audience = (c) => action !== 'delete' && seenBy(now, c.userId);
    const sawBefore: Audience = (c) => seenBy(before ?? now, c.userId);
    if (action !== 'delete') {
      await publishToConnections(
        connections,
        companyId,
        { channel: 'quickemessage', action, record: toQuickMessageView(now) },
        seesNow,
      );
    }
    await publishToConnections(
      connections,
      companyId,
      { channel: 'quickemessage', action: 'delete', id: now.id },
      (c) => sawBefore(c) && !seesNow(c) && (action === 'delete' || before !== undefined),
    );
  } catch (err) {
    logger.warn('quick reply event not sent', { companyId, quickMessageId: now.id, ...errorFields(err) });
  }
};

export const listVisibleQuickMessages = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined },
): Promise<QuickMessagePage> => {
  const page = await fetchPage(q, QUICK_MESSAGE_PAGE_SIZE, (cursor) =>
    listQuickMessages(auth.companyId, {
      userId: auth.userId,
      search: q.searchParam,
      limit: QUICK_MESSAGE_PAGE_SIZE,
      cursor,
    }),
  );
  return {
    records: page.items.map(toQuickMessageView),
    hasMore: page.hasMore,
    ...(page.nextCursor ? ({ nextCursor: page.nextCursor } satisfies Partial<QuickMessagePage>) : {}),
  };
};

/** The composer's list (`/` in the message box): every active reply the caller may use, by shortcode. */
export const listComposerQuickMessages = async (auth: AuthContext): Promise<QuickMessageView[]> =>
  (await listAllQuickMessages(auth.companyId, auth.userId)).filter((q) => q.status).map(toQuickMessageView);

export const showQuickMessage = async (auth: AuthContext, id: number): Promise<QuickMessageView> =>
  toQuickMessageView(await findVisible(auth, id));

export interface QuickMessageInput {
  shortcode: string;
  message?: string | undefined;
  geral?: boolean | undefined;
  visao?: boolean | undefined;
  status?: boolean | undefined;
}

/** Creates a reply owned by the caller (defaults: visao and geral off, status on — admin spec §4). */
export const createCompanyQuickMessage = async (
  auth: AuthContext,
  input: QuickMessageInput,
): Promise<QuickMessageView> => {
  const q = await createQuickMessage(auth.companyId, {
    shortcode: input.shortcode,
    message: input.message ?? '',
    geral: input.geral ?? false,
    visao: input.visao ?? false,
    status: input.status ?? true,
    userId: auth.userId,
  });
  await announce(auth.companyId, 'create', q);
  return toQuickMessageView(q);
};

export const updateCompanyQuickMessage = async (
  auth: AuthContext,
  id: number,
  input: Partial<QuickMessageInput>,
): Promise<QuickMessageView> => {
  const current = await findChangeable(auth, id);
  const changes: QuickMessageChanges = Object.fromEntries(
    Object.entries(input).filter(([, v]) => v !== undefined),
  ) as QuickMessageChanges;
  const updated = await updateQuickMessage(current, changes);
  await announce(auth.companyId, 'update', updated, current);
  return toQuickMessageView(updated);
};

const removeMedia = async (companyId: number, id: number, key: string): Promise<void> => {
  await deleteMediaObject(key).catch((err: unknown) =>
    logger.warn('quick reply attachment not deleted', { companyId, quickMessageId: id, ...errorFields(err) }),
  );
};

export const deleteCompanyQuickMessage = async (auth: AuthContext, id: number): Promise<void> => {
  const current = await findChangeable(auth, id);
  await deleteQuickMessage(current);
  if (current.mediaPath) await removeMedia(auth.companyId, id, current.mediaPath);
  await announce(auth.companyId, 'delete', current);
};

/** The key's extension: the file name's (letters and digits, ≤ 10), else `bin`. */
const extensionOf = (filename: string): string => {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(safeFileName(filename));
  return match ? match[1]!.toLowerCase() : 'bin';
};

/**
 * `POST /quick-messages/{id}/media-upload`: the reply's one attachment (admin spec §5), any file typed by
 * its bytes (functions/core/media/attachments.ts). A new random key each time, then the reply points at
 * it, then the old object goes; if the reply's update fails the new object is deleted (no orphan).
 */
export const uploadQuickMessageMedia = async (
  auth: AuthContext,
  id: number,
  file: { bytes: Buffer; filename: string },
): Promise<QuickMessageView> => {
  const current = await findChangeable(auth, id);
  if (file.bytes.byteLength === 0) {
    throw new BadRequest('ERR_VALIDATION', 'The file is empty', [{ field: 'body.file', reason: 'is empty' }]);
  }
  if (file.bytes.byteLength > QUICK_MESSAGE_MEDIA_MAX_BYTES) {
    throw new BadRequest('ERR_VALIDATION', 'The file is too large', [
      { field: 'body.file', reason: 'is larger than 2.5 MB' },
    ]);
  }
  const key = `c/${auth.companyId}/quick-messages/${id}/${randomUUID()}.${extensionOf(file.filename)}`;
  await putMediaObject(key, file.bytes, detectAttachmentType(file.bytes).contentType);
  let updated: QuickMessage;
  try {
    const mediaName = (file.filename.split(/[\\/]/).pop() ?? '').trim().slice(-200) || 'file';
    updated = await updateQuickMessage(current, { mediaPath: key, mediaName });
  } catch (err) {
    await deleteMediaObject(key).catch(() => undefined);
    throw err;
  }
  if (current.mediaPath) await removeMedia(auth.companyId, id, current.mediaPath);
  await announce(auth.companyId, 'update', updated, current);
  return toQuickMessageView(updated);
};

/** `DELETE /quick-messages/{id}/media-upload`: removes the attachment (nothing to remove is fine). */
export const deleteQuickMessageMedia = async (auth: AuthContext, id: number): Promise<QuickMessageView> => {
  const current = await findChangeable(auth, id);
  if (!current.mediaPath) return toQuickMessageView(current);
  const updated = await updateQuickMessage(current, { mediaPath: null, mediaName: null });
  await removeMedia(auth.companyId, id, current.mediaPath);
  await announce(auth.companyId, 'update', updated, current);
  return toQuickMessageView(updated);
};
