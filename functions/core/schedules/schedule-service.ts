import { randomUUID } from 'node:crypto';
import type { HolidayYearView, SchedulePage, ScheduleView } from '../../contracts/schedules';
import { getConnection } from '../../data/connection-repository';
import { getContact } from '../../data/contact-repository';
import { getCompanyHolidays, putCompanyHolidays } from '../../data/holiday-repository';
import { deleteMediaObject, mediaUrl, putMediaObject } from '../../data/media-store';
import { listQueues } from '../../data/queue-repository';
import { ReadScope } from '../../data/read-scope';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  newScheduleId,
  scheduleNotFound,
  updateScheduleAsRead,
  type Schedule,
} from '../../data/schedule-repository';
import { getUser } from '../../data/user-repository';
import type { AuthContext } from '../../shared/auth-context';
import { Conflict, NotFound, ValidationError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { detectAttachmentType, displayFileName, fileExtension } from '../media/attachments';
import { adminsAnd, publish } from '../notifier';
import { fetchPage, type PagingInput } from '../paging';
import { companyTimeZone } from '../settings/company-settings';
import { instantOf, parseWall, wallKey, wallOf } from '../outbound/zoned-time';
import { defaultHolidays } from './holidays';
import { nominalOccurrence, type HolidayLookup, type Recurrence } from './schedule-recurrence';

/**
 * Scheduled messages (administration §2 Schedules, §3 Schedule, §4 "may be edited until sent", §7; core
 * §5; decisions D118–D120). Who sees what: an admin every schedule of the company, a plain user their own;
 * anyone else's is a 404 like another company's. Events `company{id}-schedule` (the spec's channel name)
 * go to the company's admins and the schedule's owner. The sending is functions/core/schedules/schedule-sender.ts.
 */
export const SCHEDULE_PAGE_SIZE = 50;
export const SCHEDULE_MEDIA_MAX_BYTES = 2.5 * 1024 * 1024;

export const toScheduleView = (s: Schedule): ScheduleView => ({
  id: s.id,
  body: s.body,
  contactId: s.contactId,
  contact: { id: s.contactId, name: s.contactName, number: s.contactNumber },
  sendAt: s.sendAt,
  sendAtLocal: s.sendAtLocal,
  sentAt: s.sentAt,
  status: s.status,
  openTicket: s.openTicket,
  ticketUserId: s.ticketUserId,
  queueId: s.queueId,
  statusTicket: s.statusTicket,
  intervalo: s.intervalo,
  valorIntervalo: s.valorIntervalo,
  enviarQuantasVezes: s.enviarQuantasVezes,
  tipoDias: s.tipoDias,
  assinar: s.assinar,
  mediaPath: s.mediaPath ? mediaUrl(s.mediaPath) : null,
  mediaName: s.mediaName,
  whatsappId: s.whatsappId,
  userId: s.userId,
  sentCount: s.sentCount,
  missedCount: s.missedCount,
  lastError: s.lastError,
  ticketId: s.ticketId,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

const isAdmin = (auth: AuthContext): boolean => auth.profile === 'admin' || auth.super;

/** Announces a change to the company's admins and the owner (best effort, like every list event). */
export const announceSchedule = async (
  companyId: number,
  action: 'create' | 'update' | 'delete',
  s: Schedule,
): Promise<void> => {
  try {
    await publish(
      companyId,
      action === 'delete'
        ? { channel: 'schedule', action, scheduleId: s.id }
        : { channel: 'schedule', action, schedule: toScheduleView(s) },
      adminsAnd([s.userId]),
    );
  } catch (err) {
    logger.warn('schedule event not sent', { companyId, scheduleId: s.id, ...errorFields(err) });
  }
};

// --------------------------------------------------------------------------------------------- holidays

/** The company's holidays of `year`: its own list when saved, else the national defaults (D120). */
export const holidaysOfYear = async (companyId: number, year: number): Promise<HolidayYearView> => {
  const own = await getCompanyHolidays(companyId, year);
  return own
    ? { year, source: 'company', holidays: own }
    : { year, source: 'default', holidays: defaultHolidays(year) };
};

/** A synchronous holiday test for dates in `fromYear`–`toYear` (other years: the defaults). */
export const holidayLookup = async (companyId: number, fromYear: number, toYear: number): Promise<HolidayLookup> => {
  const dates = new Set<string>();
  const loaded = new Set<number>();
  for (let y = fromYear; y <= toYear; y += 1) {
    for (const h of (await holidaysOfYear(companyId, y)).holidays) dates.add(h.date);
    loaded.add(y);
  }
  const defaults = new Map<number, Set<string>>();
  return (date) => {
    const year = Number(date.slice(0, 4));
    if (loaded.has(year)) return dates.has(date);
    let set = defaults.get(year);
    if (!set) {
      set = new Set(defaultHolidays(year).map((h) => h.date));
      defaults.set(year, set);
    }
    return set.has(date);
  };
};

export const showHolidays = (auth: AuthContext, year: number): Promise<HolidayYearView> =>
  holidaysOfYear(auth.companyId, year);

export const saveHolidays = async (
  auth: AuthContext,
  input: { year: number; holidays: { date: string; name: string }[] },
): Promise<HolidayYearView> => {
  const fields = input.holidays.flatMap((h, i) =>
    h.date.slice(0, 4) !== String(input.year) || !parseWall(`${h.date}T00:00`)
      ? [{ field: `body.holidays.${i}.date`, reason: `a real date of ${input.year}` }]
      : [],
  );
  if (fields.length > 0) throw new ValidationError(fields);
  const holidays = [...new Map(input.holidays.map((h) => [h.date, h])).values()].sort((a, b) =>
    a.date.localeCompare(b.date),
  );
  await putCompanyHolidays(auth.companyId, input.year, holidays);
  return { year: input.year, source: 'company', holidays };
};

// ------------------------------------------------------------------------------------------------ reads

/** A schedule the caller may see: admins any of the company's, users their own; else 404. */
const findVisible = async (auth: AuthContext, id: number): Promise<Schedule> => {
  const s = await getSchedule(auth.companyId, id);
  if (!s || (!isAdmin(auth) && s.userId !== auth.userId)) throw scheduleNotFound();
  return s;
};

export const listVisibleSchedules = async (
  auth: AuthContext,
  q: PagingInput & { searchParam?: string | undefined; period?: string | undefined },
): Promise<SchedulePage> => {
  const page = await fetchPage(q, SCHEDULE_PAGE_SIZE, (cursor) =>
    listSchedules(auth.companyId, {
      search: q.searchParam || undefined,
      period: q.period || undefined,
      ...(isAdmin(auth) ? {} : { userId: auth.userId }),
      limit: SCHEDULE_PAGE_SIZE,
      cursor,
    }),
  );
  return {
    schedules: page.items.map(toScheduleView),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

export const showSchedule = async (auth: AuthContext, id: number): Promise<ScheduleView> =>
  toScheduleView(await findVisible(auth, id));

// ------------------------------------------------------------------------------------------------ writes

export interface ScheduleInput {
  body?: string | undefined;
  contactId?: number | undefined;
  sendAt?: string | undefined;
  openTicket?: 'enabled' | 'disabled' | undefined;
  ticketUserId?: number | null | undefined;
  queueId?: number | null | undefined;
  statusTicket?: 'open' | 'pending' | 'closed' | undefined;
  intervalo?: number | undefined;
  valorIntervalo?: number | undefined;
  enviarQuantasVezes?: number | undefined;
  tipoDias?: number | undefined;
  assinar?: boolean | undefined;
  whatsappId?: number | null | undefined;
}

/** `sendAt` as the company's local wall time: `YYYY-MM-DDTHH:mm` as given, an instant with offset converted. */
const localStartOf = (sendAt: string, zone: string): string | null => {
  const wall = parseWall(sendAt);
  if (wall && !/[zZ]|[+-]\d{2}:?\d{2}$/.test(sendAt)) return wallKey(wall);
  const t = Date.parse(sendAt);
  return Number.isNaN(t) ? null : wallKey(wallOf(t, zone));
};

/** Checks the references and the time, and answers the schedule as it will be stored (no write yet). */
const shape = async (auth: AuthContext, base: Schedule | null, input: ScheduleInput, now: Date): Promise<Schedule> => {
  const { companyId } = auth;
  const zone = await companyTimeZone(new ReadScope(), companyId);
  const contactId = input.contactId ?? base?.contactId;
  const contact = contactId ? await getContact(companyId, contactId) : null;
  if (!contact || contact.deletedAt || contact.mergedInto)
    throw new NotFound('ERR_NO_CONTACT_FOUND', 'Contact not found');
  const fields: { field: string; reason: string }[] = [];
  const whatsappId = input.whatsappId === undefined ? (base?.whatsappId ?? null) : input.whatsappId;
  if (whatsappId !== null && !(await getConnection(companyId, whatsappId))) {
    fields.push({ field: 'body.whatsappId', reason: 'no such connection' });
  }
  const queueId = input.queueId === undefined ? (base?.queueId ?? null) : input.queueId;
  if (queueId !== null && !(await listQueues(companyId)).some((q) => q.id === queueId)) {
    fields.push({ field: 'body.queueId', reason: 'no such queue' });
  }
  const ticketUserId = input.ticketUserId === undefined ? (base?.ticketUserId ?? null) : input.ticketUserId;
  if (ticketUserId !== null && !(await getUser(companyId, ticketUserId))) {
    fields.push({ field: 'body.ticketUserId', reason: 'no such user' });
  }
  const recurrence: Recurrence = {
    intervalo: input.intervalo ?? base?.intervalo ?? 1,
    valorIntervalo: input.valorIntervalo ?? base?.valorIntervalo ?? 0,
    enviarQuantasVezes: input.enviarQuantasVezes ?? base?.enviarQuantasVezes ?? 1,
    tipoDias: input.tipoDias ?? base?.tipoDias ?? 4,
  };
  if (recurrence.enviarQuantasVezes > 1 && recurrence.valorIntervalo < 1) {
    fields.push({ field: 'body.valorIntervalo', reason: 'at least 1 when the message repeats' });
  }
  const sendAtText = input.sendAt ?? base?.startLocal;
  const startLocal = sendAtText ? localStartOf(sendAtText, zone) : null;
  let first: Date | null = null;
  if (!startLocal) {
    fields.push({ field: 'body.sendAt', reason: 'a date and time, YYYY-MM-DDTHH:mm' });
  } else if (input.sendAt !== undefined || input.tipoDias !== undefined || !base) {
    const year = Number(startLocal.slice(0, 4));
    first = nominalOccurrence(startLocal, 0, recurrence, zone, await holidayLookup(companyId, year - 1, year + 1));
    if (first.getTime() <= now.getTime()) {
      fields.push({
        field: 'body.sendAt',
        reason:
          recurrence.tipoDias === 4 || instantOf(parseWall(startLocal)!, zone).getTime() <= now.getTime()
            ? 'must be in the future'
            : 'the business day it moves to has passed',
      });
    }
  }
  if (fields.length > 0) throw new ValidationError(fields);
  const at = first ?? new Date(base!.sendAt);
  const fresh = first !== null;
  const stamp = now.toISOString();
  return {
    id: base?.id ?? 0,
    companyId,
    body: input.body ?? base?.body ?? '',
    contactId: contact.id,
    contactName: contact.name,
    contactNumber: contact.number,
    sendAt: at.toISOString(),
    sendAtLocal: wallKey(wallOf(at, zone)),
    startLocal: startLocal!,
    occurrenceIndex: fresh ? 0 : (base?.occurrenceIndex ?? 0),
    status: 'PENDENTE',
    sentAt: null,
    openTicket: input.openTicket ?? base?.openTicket ?? 'disabled',
    ticketUserId,
    queueId,
    statusTicket: input.statusTicket ?? base?.statusTicket ?? 'closed',
    ...recurrence,
    assinar: input.assinar ?? base?.assinar ?? false,
    mediaPath: base?.mediaPath ?? null,
    mediaName: base?.mediaName ?? null,
    mediaType: base?.mediaType ?? null,
    mediaSize: base?.mediaSize ?? null,
    whatsappId,
    userId: base?.userId ?? auth.userId,
    sentCount: base?.sentCount ?? 0,
    missedCount: base?.missedCount ?? 0,
    lastError: base?.lastError ?? null,
    ticketId: base?.ticketId ?? null,
    ticketFor: base?.ticketFor ?? null,
    dueAt: at.toISOString(),
    heldUntil: null,
    claimedAt: null,
    claimToken: null,
    createdAt: base?.createdAt ?? stamp,
    updatedAt: stamp,
  };
};

export const createCompanySchedule = async (
  auth: AuthContext,
  input: ScheduleInput,
  now = new Date(),
): Promise<ScheduleView> => {
  const shaped = await shape(auth, null, input, now);
  const s = { ...shaped, id: await newScheduleId(auth.companyId) };
  await createSchedule(s);
  await announceSchedule(auth.companyId, 'create', s);
  return toScheduleView(s);
};

/** A change refused because the schedule is done or being sent right now. */
const notEditable = (s: Schedule): Conflict =>
  s.sentAt
    ? new Conflict('ERR_SCHEDULE_SENT', 'The schedule was already sent and can no longer be edited')
    : new Conflict('ERR_SCHEDULE_SENDING', 'The schedule is being sent right now; try again in a moment');

export const updateCompanySchedule = async (
  auth: AuthContext,
  id: number,
  input: ScheduleInput,
  now = new Date(),
): Promise<ScheduleView> => {
  const current = await findVisible(auth, id);
  if (current.sentAt || current.claimToken) throw notEditable(current);
  const next = await shape(auth, current, input, now);
  try {
    await updateScheduleAsRead(current, next);
  } catch (err) {
    const fresh = err instanceof Conflict ? await getSchedule(auth.companyId, id) : null;
    if (fresh && (fresh.sentAt || fresh.claimToken)) throw notEditable(fresh);
    throw err;
  }
  await announceSchedule(auth.companyId, 'update', next);
  return toScheduleView(next);
};

const removeMedia = async (companyId: number, id: number, key: string): Promise<void> => {
  await deleteMediaObject(key).catch((err: unknown) =>
    logger.warn('schedule attachment not deleted', { companyId, scheduleId: id, ...errorFields(err) }),
  );
};

export const deleteCompanySchedule = async (auth: AuthContext, id: number): Promise<void> => {
  const current = await findVisible(auth, id);
  await deleteSchedule(current);
  if (current.mediaPath) await removeMedia(auth.companyId, id, current.mediaPath);
  await announceSchedule(auth.companyId, 'delete', current);
};

/** `POST /schedules/{id}/media-upload`: one image (png, jpg, jpeg — core §5), replacing the previous one. */
export const uploadScheduleMedia = async (
  auth: AuthContext,
  id: number,
  file: { bytes: Buffer; filename: string },
): Promise<ScheduleView> => {
  const current = await findVisible(auth, id);
  if (current.sentAt || current.claimToken) throw notEditable(current);
  if (file.bytes.byteLength === 0 || file.bytes.byteLength > SCHEDULE_MEDIA_MAX_BYTES) {
    throw new ValidationError([{ field: 'body.file', reason: 'an image of at most 2.5 MB' }]);
  }
  const { contentType } = detectAttachmentType(file.bytes);
  if (contentType !== 'image/png' && contentType !== 'image/jpeg') {
    throw new ValidationError([{ field: 'body.file', reason: 'png, jpg or jpeg' }]);
  }
  const key = `c/${auth.companyId}/schedules/${id}/${randomUUID()}.${fileExtension(file.filename)}`;
  await putMediaObject(key, file.bytes, contentType);
  const next: Schedule = {
    ...current,
    mediaPath: key,
    mediaName: displayFileName(file.filename),
    mediaType: contentType,
    mediaSize: file.bytes.byteLength,
    updatedAt: new Date().toISOString(),
  };
  try {
    await updateScheduleAsRead(current, next);
  } catch (err) {
    await deleteMediaObject(key).catch(() => undefined);
    throw err;
  }
  if (current.mediaPath) await removeMedia(auth.companyId, id, current.mediaPath);
  await announceSchedule(auth.companyId, 'update', next);
  return toScheduleView(next);
};

export const deleteScheduleMedia = async (auth: AuthContext, id: number): Promise<ScheduleView> => {
  const current = await findVisible(auth, id);
  if (!current.mediaPath) return toScheduleView(current);
  if (current.sentAt || current.claimToken) throw notEditable(current);
  const next: Schedule = {
    ...current,
    mediaPath: null,
    mediaName: null,
    mediaType: null,
    mediaSize: null,
    updatedAt: new Date().toISOString(),
  };
  await updateScheduleAsRead(current, next);
  await removeMedia(auth.companyId, id, current.mediaPath);
  await announceSchedule(auth.companyId, 'update', next);
  return toScheduleView(next);
};
