import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { getConnection, getDefaultConnectionId } from '../../data/connection-repository';
import { getContact } from '../../data/contact-repository';
import { ReadScope } from '../../data/read-scope';
import { sendQueueMessage } from '../../data/queue-sender';
import {
  getSchedule,
  listDueSchedules,
  putSchedule,
  saveClaimedSchedule,
  type Schedule,
} from '../../data/schedule-repository';
import { getTickCheckpoint, setTickCheckpoint } from '../../data/tick-repository';
import {
  closeTicket,
  createTicket,
  getOpenTicketId,
  getTicket,
  OtherOpenTicket,
  type Ticket,
} from '../../data/ticket-repository';
import { getUser } from '../../data/user-repository';
import { Conflict } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { reserveSendSlot, waitForSlot } from '../outbound/send-governor';
import { wallKey, wallOf } from '../outbound/zoned-time';
import { companyTimeZone } from '../settings/company-settings';
import { publishTicketChange } from '../tickets/ticket-events';
import { postBotMessage } from '../tickets/ticket-texts';
import { nextOccurrence } from './schedule-recurrence';
import { announceSchedule, holidayLookup } from './schedule-service';

/**
 * Sending scheduled messages (DESIGN §10; data-model §2.21, §2.29; decisions D118–D119).
 *
 * The `schedules` minute tick reads the due index (gsi4 `DUE#SCHEDULE#<hour>#<s>`, `sk <= now`: a Query
 * per hour bucket and shard, never a Scan) from the hour before its checkpoint to now — at most
 * MAX_CATCH_UP_HOURS back after an outage — and puts each due schedule on the `schedule` queue. The
 * consumer (`handleDueSchedule`) then, for the occurrence named by `sendAt`:
 * 1. claims it: the whole item rewritten conditional on `updatedAt` as read, with a `claimToken` and its due
 *    time moved LEASE_MS ahead — if this run dies, the tick finds it again after the lease and another run
 *    takes over; a second tick or a redelivery loses the condition and does nothing;
 * 2. applies the catch-up policy: an occurrence later than LATE_LIMIT_MS (counted from its time, or from
 *    when the governor last held it) is not sent — it is recorded as missed with the reason and the
 *    recurrence moves on (a single message becomes ERRO);
 * 3. asks the send governor for a slot; deferred, it lets go of the claim with its due time at the
 *    governor's answer;
 * 4. finds the contact's open ticket on the connection or opens one (openTicket, statusTicket,
 *    ticketUserId, queueId), remembers it on the claim, and posts the message as a keyed automatic message
 *    (`schedule:<id>:<sendAt>`: its provider id is claimed with a conditional write before the send, so a
 *    run that takes over a dead one finds it stored and never sends it twice);
 * 5. moves to the next occurrence, or finishes (ENVIADA, or ERRO when the last occurrence failed).
 */
export const SCHEDULE_TICK_NAME = 'schedules';
export const LEASE_MS = 5 * 60_000;
export const LATE_LIMIT_MS = 2 * 3600_000;
export const MAX_CATCH_UP_HOURS = 7 * 24;
/** The longest a consumer sleeps for its governor slot (it then sends); later slots are deferred. */
export const SLOT_WAIT_MS = 60_000;

export const dueScheduleMessage = z.object({
  companyId: z.number().int().positive(),
  scheduleId: z.number().int().positive(),
  sendAt: z.string(),
});
export type DueScheduleMessage = z.infer<typeof dueScheduleMessage>;

export type ScheduleOutcome = 'gone' | 'not-due' | 'busy' | 'sent' | 'missed' | 'failed' | 'deferred';

const hourOf = (ms: number): string => new Date(ms).toISOString().slice(0, 13);

/** The tick: puts every due schedule on the queue (or hands it to `handle`, for tests and benchmarks). */
export const runScheduleTick = async (
  now = new Date(),
  handle: (m: DueScheduleMessage) => Promise<unknown> = (m) => sendQueueMessage('schedule', m),
): Promise<number> => {
  const current = Math.floor(now.getTime() / 3600_000) * 3600_000;
  const checkpoint = await getTickCheckpoint(SCHEDULE_TICK_NAME);
  const from = Math.max(
    checkpoint ? Date.parse(`${checkpoint.slice(0, 13)}:00:00.000Z`) - 3600_000 : current - 3600_000,
    current - MAX_CATCH_UP_HOURS * 3600_000,
  );
  const until = now.toISOString();
  let queued = 0;
  for (let hour = from; hour <= current; hour += 3600_000) {
    for (const due of await listDueSchedules(hourOf(hour), until)) {
      try {
        await handle({ companyId: due.companyId, scheduleId: due.id, sendAt: due.sendAt });
        queued += 1;
      } catch (err) {
        logger.error('due schedule not queued', { ...due, ...errorFields(err) });
      }
    }
  }
  await setTickCheckpoint(SCHEDULE_TICK_NAME, until.slice(0, 16));
  return queued;
};

const failOrMissText = {
  missed: (late: number) =>
    `Não enviada: o envio atrasou ${Math.round(late / 60_000)} minutos, mais que o limite de ${LATE_LIMIT_MS / 3600_000} horas`,
};

/**
 * The schedule after occurrence `index` ended (`sent`, or `missed`/`failed` with `reason`): the next
 * occurrence still pending — occurrences already too late are counted as missed on the way — or done.
 */
export const afterOccurrence = async (
  s: Schedule,
  outcome: 'sent' | 'missed' | 'failed',
  reason: string | null,
  now: Date,
  extra: Partial<Schedule> = {},
): Promise<Schedule> => {
  const sentCount = s.sentCount + (outcome === 'sent' ? 1 : 0);
  let missedCount = s.missedCount + (outcome === 'sent' ? 0 : 1);
  let lastError = outcome === 'sent' ? s.lastError : reason;
  let lastOutcome = outcome;
  const zone = await companyTimeZone(new ReadScope(), s.companyId);
  const year = Number(s.sendAt.slice(0, 4));
  const isHoliday = await holidayLookup(s.companyId, year, year + 1);
  let index = s.occurrenceIndex;
  let previous = new Date(s.sendAt);
  const base = { ...s, ...extra, claimToken: null, claimedAt: null, heldUntil: null, updatedAt: now.toISOString() };
  while (sentCount + missedCount < s.enviarQuantasVezes) {
    const next = nextOccurrence(s.startLocal, index, previous, s, zone, isHoliday);
    if (!next) break;
    if (now.getTime() - next.at.getTime() <= LATE_LIMIT_MS) {
      return {
        ...base,
        sentCount,
        missedCount,
        lastError,
        occurrenceIndex: next.index,
        sendAt: next.at.toISOString(),
        sendAtLocal: wallKey(wallOf(next.at, zone)),
        dueAt: next.at.toISOString(),
        status: 'PENDENTE',
      };
    }
    // Also too late (a long outage): recorded as missed, on to the next.
    missedCount += 1;
    lastOutcome = 'missed';
    lastError = failOrMissText.missed(now.getTime() - next.at.getTime());
    index = next.index;
    previous = next.at;
  }
  return {
    ...base,
    sentCount,
    missedCount,
    lastError,
    occurrenceIndex: index,
    sendAt: previous.toISOString(),
    sendAtLocal: wallKey(wallOf(previous, zone)),
    status: lastOutcome === 'sent' ? 'ENVIADA' : 'ERRO',
    sentAt: now.toISOString(),
    dueAt: null,
  };
};

/** The contact's open ticket on the connection, or a new one as the schedule asks (D118). */
const ticketFor = async (
  s: Schedule,
  whatsappId: number,
  now: Date,
): Promise<{ ticket: Ticket; created: boolean } | null> => {
  const contact = await getContact(s.companyId, s.contactId);
  const connection = await getConnection(s.companyId, whatsappId);
  if (!contact || !connection) return null;
  const openId = await getOpenTicketId(s.companyId, s.contactId, whatsappId);
  const open = openId === null ? null : await getTicket(s.companyId, openId);
  if (open && open.status !== 'closed') return { ticket: open, created: false };
  const asOpen = s.openTicket === 'enabled' && s.statusTicket === 'open';
  const digits = contact.number.replace(/\D/g, '');
  try {
    const ticket = await createTicket(
      s.companyId,
      {
        status: asOpen ? 'open' : 'pending',
        queueId: s.openTicket === 'enabled' ? s.queueId : null,
        userId: asOpen ? (s.ticketUserId ?? s.userId) : null,
        contactId: contact.id,
        whatsappId,
        channel: connection.channel,
        isGroup: contact.isGroup,
        ...(digits && connection.channel === 'whatsapp' ? { chatId: `${digits}@s.whatsapp.net` } : {}),
        origin: 'active',
        createdBy: s.userId,
      },
      now,
    );
    await publishTicketChange(new ReadScope(), null, ticket, contact);
    return { ticket, created: true };
  } catch (err) {
    if (!(err instanceof OtherOpenTicket) || err.ticketId === null) throw err;
    const other = await getTicket(s.companyId, err.ticketId);
    return other ? { ticket: other, created: false } : null;
  }
};

/** Writes the sender's next state while holding the claim; losing it (lease taken over) is not an error. */
const finish = async (next: Schedule, token: string): Promise<boolean> => {
  try {
    await saveClaimedSchedule(next, token);
    await announceSchedule(next.companyId, 'update', next);
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};

export const handleDueSchedule = async (m: DueScheduleMessage, now = new Date()): Promise<ScheduleOutcome> => {
  const s = await getSchedule(m.companyId, m.scheduleId);
  if (!s || s.status !== 'PENDENTE' || s.sendAt !== m.sendAt) return 'gone';
  if (s.dueAt && s.dueAt > now.toISOString()) return s.claimToken ? 'busy' : 'not-due';

  // 1. Claim the occurrence (a stale claim's lease has run out: its due time passed).
  const token = randomUUID();
  const claimed: Schedule = {
    ...s,
    claimToken: token,
    claimedAt: now.toISOString(),
    dueAt: new Date(now.getTime() + LEASE_MS).toISOString(),
    updatedAt: now.toISOString(),
  };
  try {
    await putSchedule(claimed, {
      expression: 'updatedAt = :seen AND sendAt = :occ AND #status = :pending',
      values: { ':seen': s.updatedAt, ':occ': m.sendAt, ':pending': 'PENDENTE' },
      names: { '#status': 'status' },
    });
  } catch (err) {
    if (err instanceof Conflict) return 'busy';
    throw err;
  }

  // 2. Catch-up policy.
  const late = now.getTime() - Math.max(Date.parse(s.sendAt), s.heldUntil ? Date.parse(s.heldUntil) : 0);
  if (late > LATE_LIMIT_MS) {
    await finish(await afterOccurrence(claimed, 'missed', failOrMissText.missed(late), now), token);
    return 'missed';
  }

  const whatsappId = s.whatsappId ?? (await getDefaultConnectionId(s.companyId));
  const fail = async (reason: string): Promise<ScheduleOutcome> => {
    await finish(await afterOccurrence(claimed, 'failed', reason, now), token);
    return 'failed';
  };
  if (whatsappId === null) return fail('Nenhuma conexão disponível para o envio');
  const contact = await getContact(s.companyId, s.contactId);
  if (!contact || contact.deletedAt) return fail('Contato não encontrado');
  if (!contact.active) return fail('Contato bloqueado');

  // 3. The governor.
  const slot = await reserveSendSlot({ companyId: s.companyId, whatsappId, kind: 'schedule', maxWaitMs: SLOT_WAIT_MS });
  if ('deferredUntil' in slot) {
    const held = slot.deferredUntil.toISOString();
    await finish({ ...claimed, claimToken: null, claimedAt: null, dueAt: held, heldUntil: held }, token);
    return 'deferred';
  }
  await waitForSlot(slot.at);

  // 4. The ticket (kept on the claim, so a run taking over this occurrence uses the same one) and the send.
  let ticket = s.ticketId !== null && s.ticketFor === s.sendAt ? await getTicket(s.companyId, s.ticketId) : null;
  let created = false;
  if (!ticket) {
    const found = await ticketFor(s, whatsappId, now);
    if (!found) return fail('Conexão não encontrada');
    ({ ticket, created } = found);
    const remembered = { ...claimed, ticketId: ticket.id, ticketFor: s.sendAt };
    if (!(await saveOrLose(remembered, token))) return 'busy';
    Object.assign(claimed, remembered);
  }
  const author = s.assinar ? await getUser(s.companyId, s.userId) : null;
  const text = author ? `*${author.name}:*\n${s.body}` : s.body;
  const media =
    s.mediaPath && s.mediaType
      ? { key: s.mediaPath, mimetype: s.mediaType, filename: s.mediaName ?? 'imagem', size: s.mediaSize ?? 0 }
      : undefined;
  const scope = new ReadScope();
  const stored = await postBotMessage(scope, ticket, contact, text, `schedule:${s.id}:${s.sendAt}`, media);
  if (!stored) return fail('Não foi possível enviar a mensagem por esta conexão');
  // A ticket opened only to carry the message, when the schedule does not ask for an open one: closed.
  if (created && !(s.openTicket === 'enabled' && s.statusTicket !== 'closed')) {
    try {
      const fresh = (await getTicket(s.companyId, ticket.id)) ?? ticket;
      const closed = await closeTicket(fresh, { userId: null, now });
      await publishTicketChange(scope, fresh, closed, contact);
    } catch (err) {
      logger.warn('schedule ticket left open', { companyId: s.companyId, ticketId: ticket.id, ...errorFields(err) });
    }
  }

  // 5. Next occurrence or done.
  await finish(await afterOccurrence(claimed, 'sent', null, new Date(Math.max(now.getTime(), Date.now()))), token);
  return 'sent';
};

const saveOrLose = async (next: Schedule, token: string): Promise<boolean> => {
  try {
    await saveClaimedSchedule(next, token);
    return true;
  } catch (err) {
    if (err instanceof Conflict) return false;
    throw err;
  }
};
