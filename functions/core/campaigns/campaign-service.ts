import { randomUUID } from 'node:crypto';
import {
  CONFIRMATION_FIELDS,
  MESSAGE_FIELDS,
  type CampaignPage,
  type CampaignReportView,
  type CampaignStatus,
  type CampaignView,
} from '../../contracts/campaigns';
import {
  campaignNotFound,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  newCampaignId,
  saveCampaignAsRead,
  updateCampaign,
  VARIANT_NUMBERS,
  type Campaign,
} from '../../data/campaign-repository';
import { getConnection } from '../../data/connection-repository';
import { getContactList } from '../../data/contact-list-repository';
import { deleteMediaObject, putMediaObject } from '../../data/media-store';
import { listQueues } from '../../data/queue-repository';
import { ReadScope } from '../../data/read-scope';
import { getTag } from '../../data/tag-repository';
import { getUser } from '../../data/user-repository';
import type { AuthContext } from '../../shared/auth-context';
import { Conflict, ValidationError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { detectAttachmentType, displayFileName, fileExtension } from '../media/attachments';
import { fetchPage, type PagingInput } from '../paging';
import { instantOf, parseWall } from '../outbound/zoned-time';
import { companyTimeZone } from '../settings/company-settings';
import { armFirstWave, queuePurge } from './campaign-dispatch';
import { announceCampaign, campaignViewOf } from './campaign-events';

/**
 * Campaigns (administration §2 Campaigns, §3 Campaign, §4 statuses and editability, §5, §7; decisions
 * D133–D136): CRUD, media, cancel and restart, the report. Admin routes of the plan flag `useCampaigns`
 * (the route table checks both); another company's campaign is a 404. The sending is
 * functions/core/campaigns/campaign-dispatch.ts. Events `company-{id}-campaign` go to the company's admins.
 */
export const CAMPAIGN_PAGE_SIZE = 20;
/** Administration §4: a PROGRAMADA campaign is editable while its date is more than an hour away. */
export const EDIT_LEAD_MS = 3600_000;
/** A date this little in the past still counts as "now" (the form's clock and ours differ a little). */
export const PAST_GRACE_MS = 60_000;
export const CAMPAIGN_MEDIA_MAX_BYTES = 4 * 1024 * 1024;

const findCampaign = async (auth: AuthContext, id: number): Promise<Campaign> => {
  const c = await getCampaign(auth.companyId, id);
  if (!c) throw campaignNotFound();
  return c;
};

// ------------------------------------------------------------------------------------------------ reads

export const listCompanyCampaigns = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined },
): Promise<CampaignPage> => {
  const page = await fetchPage(q, CAMPAIGN_PAGE_SIZE, (cursor) =>
    listCampaigns(auth.companyId, { search: q.searchParam || undefined, limit: CAMPAIGN_PAGE_SIZE, cursor }),
  );
  return {
    records: await Promise.all(page.items.map(campaignViewOf)),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

export const showCampaign = async (auth: AuthContext, id: number): Promise<CampaignView> =>
  campaignViewOf(await findCampaign(auth, id));

/** GET /campaigns/{id}/report: the counters kept as the work happened (one read; decisions D134). */
export const campaignReport = async (auth: AuthContext, id: number): Promise<CampaignReportView> => {
  const c = await findCampaign(auth, id);
  const n = (key: string) => c.variantCounts[key] ?? 0;
  return {
    campaign: await campaignViewOf(c),
    variants: VARIANT_NUMBERS.filter((v) => c[MESSAGE_FIELDS[v - 1]!].trim() !== '' || n(`contacts${v}`) > 0).map(
      (v) => ({
        variant: v,
        contacts: n(`contacts${v}`),
        delivered: n(`delivered${v}`),
        read: n(`read${v}`),
        replied: n(`replied${v}`),
      }),
    ),
  };
};

// ------------------------------------------------------------------------------------------------ writes

export interface CampaignInput {
  name?: string | undefined;
  message1?: string | undefined;
  message2?: string | undefined;
  message3?: string | undefined;
  message4?: string | undefined;
  message5?: string | undefined;
  confirmationMessage1?: string | undefined;
  confirmationMessage2?: string | undefined;
  confirmationMessage3?: string | undefined;
  confirmationMessage4?: string | undefined;
  confirmationMessage5?: string | undefined;
  confirmation?: boolean | undefined;
  scheduledAt?: string | null | undefined;
  contactListId?: number | null | undefined;
  tagListId?: number | null | undefined;
  whatsappId?: number | undefined;
  userId?: number | null | undefined;
  queueId?: number | null | undefined;
  statusTicket?: 'closed' | 'pending' | 'open' | undefined;
  openTicket?: 'enabled' | 'disabled' | undefined;
}

/** `scheduledAt` as an instant: a wall time (`YYYY-MM-DD HH:mm:ss`, `…THH:mm`) on the company's clock, or ISO. */
export const scheduledInstant = (text: string, zone: string): Date | null => {
  const wall = parseWall(text);
  if (wall && !/[zZ]|[+-]\d{2}:?\d{2}$/.test(text)) return instantOf(wall, zone);
  const t = Date.parse(text);
  return Number.isNaN(t) ? null : new Date(t);
};

/** Checks references and rules and answers the campaign as it will be stored (no write yet). */
const shape = async (auth: AuthContext, base: Campaign | null, input: CampaignInput, now: Date): Promise<Campaign> => {
  const { companyId } = auth;
  const fields: { field: string; reason: string }[] = [];
  const pick = <K extends keyof CampaignInput & keyof Campaign>(k: K, fallback: Campaign[K]): Campaign[K] =>
    (input[k] === undefined ? (base?.[k] ?? fallback) : input[k]) as Campaign[K];
  const texts = Object.fromEntries(
    [...MESSAGE_FIELDS, ...CONFIRMATION_FIELDS].map((f) => [f, (pick(f, '') ?? '').trim()]),
  ) as Record<(typeof MESSAGE_FIELDS)[number] | (typeof CONFIRMATION_FIELDS)[number], string>;
  const confirmation = pick('confirmation', false);
  if (MESSAGE_FIELDS.every((f) => texts[f] === '')) {
    fields.push({ field: 'body.message1', reason: 'at least one message' });
  }
  if (confirmation && CONFIRMATION_FIELDS.every((f) => texts[f] === '')) {
    fields.push({
      field: 'body.confirmationMessage1',
      reason: 'at least one confirmation message when confirmation is on',
    });
  }
  const whatsappId = input.whatsappId ?? base?.whatsappId;
  if (!whatsappId || !(await getConnection(companyId, whatsappId))) {
    fields.push({ field: 'body.whatsappId', reason: 'no such connection' });
  }
  const contactListId = pick('contactListId', null);
  const tagListId = pick('tagListId', null);
  if (contactListId === null && tagListId === null) {
    fields.push({ field: 'body.contactListId', reason: 'a contact list or a tag' });
  } else if (contactListId !== null && tagListId !== null) {
    fields.push({ field: 'body.tagListId', reason: 'a contact list or a tag, not both' });
  } else if (contactListId !== null && !(await getContactList(companyId, contactListId))) {
    fields.push({ field: 'body.contactListId', reason: 'no such contact list' });
  } else if (tagListId !== null && !(await getTag(companyId, tagListId))) {
    fields.push({ field: 'body.tagListId', reason: 'no such tag' });
  }
  // Once shipments exist the audience is fixed (restart continues it; a new audience is a new campaign).
  const started =
    base !== null && (base.validContacts > 0 || base.audienceCursor !== null || base.phase !== 'materialize');
  if (started && (contactListId !== base.contactListId || tagListId !== base.tagListId)) {
    fields.push({ field: 'body.contactListId', reason: 'the audience cannot change once the campaign has started' });
  }
  const openTicket = pick('openTicket', 'disabled');
  // Administration §5: user and queue are disabled when openTicket is; a queue is required with a user.
  const userId = openTicket === 'enabled' ? pick('userId', null) : null;
  const queueId = openTicket === 'enabled' ? pick('queueId', null) : null;
  if (userId !== null && !(await getUser(companyId, userId))) {
    fields.push({ field: 'body.userId', reason: 'no such user' });
  }
  if (userId !== null && queueId === null)
    fields.push({ field: 'body.queueId', reason: 'required when a user is chosen' });
  if (queueId !== null && !(await listQueues(companyId)).some((q) => q.id === queueId)) {
    fields.push({ field: 'body.queueId', reason: 'no such queue' });
  }
  let scheduledAt = base?.scheduledAt ?? null;
  if (input.scheduledAt !== undefined) {
    const text = (input.scheduledAt ?? '').trim();
    if (text === '') scheduledAt = null;
    else {
      const zone = await companyTimeZone(new ReadScope(), companyId);
      const at = scheduledInstant(text, zone);
      if (!at) fields.push({ field: 'body.scheduledAt', reason: 'a date and time, YYYY-MM-DD HH:mm:ss' });
      else if (at.getTime() < now.getTime() - PAST_GRACE_MS) {
        fields.push({ field: 'body.scheduledAt', reason: 'must not be in the past' });
      } else scheduledAt = at.toISOString();
    }
  }
  if (fields.length > 0) throw new ValidationError(fields);
  // INATIVA and PROGRAMADA follow the date; a cancelled campaign stays cancelled until restarted.
  const status: CampaignStatus =
    base?.status === 'CANCELADA' ? 'CANCELADA' : scheduledAt !== null ? 'PROGRAMADA' : 'INATIVA';
  const stamp = now.toISOString();
  return {
    id: base?.id ?? 0,
    companyId,
    name: input.name ?? base?.name ?? '',
    ...texts,
    status,
    confirmation,
    scheduledAt,
    completedAt: base?.completedAt ?? null,
    contactListId,
    tagListId,
    whatsappId: whatsappId!,
    userId,
    queueId,
    statusTicket: pick('statusTicket', 'pending'),
    openTicket,
    mediaKey: base?.mediaKey ?? null,
    mediaName: base?.mediaName ?? null,
    mediaType: base?.mediaType ?? null,
    mediaSize: base?.mediaSize ?? null,
    lastError: base?.lastError ?? null,
    phase: base?.phase ?? 'materialize',
    audienceCursor: base?.audienceCursor ?? null,
    sendCursor: base?.sendCursor ?? null,
    waveSeq: base?.waveSeq ?? 0,
    // The first wave is due at the date (the tick, or a delayed message when it is near).
    dueAt: status === 'PROGRAMADA' ? scheduledAt : null,
    validContacts: base?.validContacts ?? 0,
    done: base?.done ?? 0,
    delivered: base?.delivered ?? 0,
    failed: base?.failed ?? 0,
    confirmationRequested: base?.confirmationRequested ?? 0,
    confirmed: base?.confirmed ?? 0,
    read: base?.read ?? 0,
    replied: base?.replied ?? 0,
    variantCounts: base?.variantCounts ?? {},
    createdAt: base?.createdAt ?? stamp,
    updatedAt: stamp,
  };
};

/** Administration §4: editable when INATIVA, CANCELADA, or PROGRAMADA more than an hour before its date. */
export const isEditable = (c: Campaign, now: Date): boolean =>
  c.status === 'INATIVA' ||
  c.status === 'CANCELADA' ||
  (c.status === 'PROGRAMADA' && c.scheduledAt !== null && Date.parse(c.scheduledAt) - now.getTime() > EDIT_LEAD_MS);

const notEditable = () =>
  new Conflict('ERR_CAMPAIGN_NOT_EDITABLE', 'A campanha não pode mais ser alterada neste status');

export const createCompanyCampaign = async (
  auth: AuthContext,
  input: CampaignInput,
  now = new Date(),
): Promise<CampaignView> => {
  const shaped = await shape(auth, null, input, now);
  const c = { ...shaped, id: await newCampaignId(auth.companyId) };
  await createCampaign(c);
  await armFirstWave(c, now);
  await announceCampaign(auth.companyId, 'create', c);
  return campaignViewOf(c);
};

export const updateCompanyCampaign = async (
  auth: AuthContext,
  id: number,
  input: CampaignInput,
  now = new Date(),
): Promise<CampaignView> => {
  const current = await findCampaign(auth, id);
  if (!isEditable(current, now)) throw notEditable();
  const next = await shape(auth, current, input, now);
  if (next.status === 'CANCELADA') next.dueAt = null;
  try {
    await saveCampaignAsRead(current, next);
  } catch (err) {
    const fresh = err instanceof Conflict ? await getCampaign(auth.companyId, id) : null;
    if (fresh && !isEditable(fresh, now)) throw notEditable();
    throw err;
  }
  await armFirstWave(next, now);
  await announceCampaign(auth.companyId, 'update', next);
  return campaignViewOf(next);
};

export const deleteCompanyCampaign = async (auth: AuthContext, id: number): Promise<void> => {
  const current = await findCampaign(auth, id);
  await deleteCampaign(current);
  if (current.validContacts > 0 || current.phase !== 'materialize') await queuePurge(auth.companyId, id);
  if (current.mediaKey) await removeMedia(auth.companyId, id, current.mediaKey);
  await announceCampaign(auth.companyId, 'delete', current);
};

/** POST /campaigns/{id}/cancel: EM_ANDAMENTO → CANCELADA; sends not yet made stop within one wave. */
export const cancelCampaign = async (auth: AuthContext, id: number): Promise<CampaignView> => {
  const current = await findCampaign(auth, id);
  const ok = await updateCampaign(auth.companyId, id, {
    set: { status: 'CANCELADA', dueAt: null, updatedAt: new Date().toISOString() },
    condition: '#status = :running',
    names: { '#status': 'status' },
    values: { ':running': 'EM_ANDAMENTO' },
  });
  if (!ok) {
    throw new Conflict('ERR_CAMPAIGN_NOT_RUNNING', 'Só é possível cancelar uma campanha em andamento', {
      status: current.status,
    });
  }
  const next = (await getCampaign(auth.companyId, id)) ?? current;
  await announceCampaign(auth.companyId, 'update', next);
  return campaignViewOf(next);
};

/**
 * POST /campaigns/{id}/restart: CANCELADA → EM_ANDAMENTO. The shipments still waiting are walked again from
 * the first (those sent or failed are skipped: a contact is never sent twice; failed ones stay failed,
 * decisions D135); an audience not fully read continues where it stopped.
 */
export const restartCampaign = async (auth: AuthContext, id: number, now = new Date()): Promise<CampaignView> => {
  const current = await findCampaign(auth, id);
  const stamp = now.toISOString();
  const ok = await updateCampaign(auth.companyId, id, {
    set: {
      status: 'EM_ANDAMENTO',
      sendCursor: null,
      ...(current.phase === 'sent' ? { phase: 'dispatch' } : {}),
      lastError: null,
      dueAt: stamp,
      updatedAt: stamp,
    },
    condition: '#status = :cancelled',
    names: { '#status': 'status' },
    values: { ':cancelled': 'CANCELADA' },
  });
  if (!ok) {
    throw new Conflict('ERR_CAMPAIGN_NOT_CANCELLED', 'Só é possível reiniciar uma campanha cancelada', {
      status: current.status,
    });
  }
  const next = (await getCampaign(auth.companyId, id)) ?? current;
  await armFirstWave(next, now);
  await announceCampaign(auth.companyId, 'update', next);
  return campaignViewOf(next);
};

// ------------------------------------------------------------------------------------------------ media

const removeMedia = async (companyId: number, id: number, key: string): Promise<void> => {
  await deleteMediaObject(key).catch((err: unknown) =>
    logger.warn('campaign attachment not deleted', { companyId, campaignId: id, ...errorFields(err) }),
  );
};

/** POST /campaigns/{id}/media-upload: one file (image, video, audio or document), sent with the message. */
export const uploadCampaignMedia = async (
  auth: AuthContext,
  id: number,
  file: { bytes: Buffer; filename: string },
  now = new Date(),
): Promise<CampaignView> => {
  const current = await findCampaign(auth, id);
  if (!isEditable(current, now)) throw notEditable();
  if (file.bytes.byteLength === 0 || file.bytes.byteLength > CAMPAIGN_MEDIA_MAX_BYTES) {
    throw new ValidationError([{ field: 'body.file', reason: 'a file of at most 4 MB' }]);
  }
  const { contentType } = detectAttachmentType(file.bytes);
  const key = `c/${auth.companyId}/campaigns/${id}/${randomUUID()}.${fileExtension(file.filename)}`;
  await putMediaObject(key, file.bytes, contentType);
  const next: Campaign = {
    ...current,
    mediaKey: key,
    mediaName: displayFileName(file.filename),
    mediaType: contentType,
    mediaSize: file.bytes.byteLength,
    updatedAt: now.toISOString(),
  };
  try {
    await saveCampaignAsRead(current, next);
  } catch (err) {
    await deleteMediaObject(key).catch(() => undefined);
    throw err;
  }
  if (current.mediaKey) await removeMedia(auth.companyId, id, current.mediaKey);
  await announceCampaign(auth.companyId, 'update', next);
  return campaignViewOf(next);
};

/** DELETE /campaigns/{id}/media-upload. */
export const deleteCampaignMedia = async (auth: AuthContext, id: number, now = new Date()): Promise<CampaignView> => {
  const current = await findCampaign(auth, id);
  if (!current.mediaKey) return campaignViewOf(current);
  if (!isEditable(current, now)) throw notEditable();
  const next: Campaign = {
    ...current,
    mediaKey: null,
    mediaName: null,
    mediaType: null,
    mediaSize: null,
    updatedAt: now.toISOString(),
  };
  await saveCampaignAsRead(current, next);
  await removeMedia(auth.companyId, id, current.mediaKey);
  await announceCampaign(auth.companyId, 'update', next);
  return campaignViewOf(next);
};
