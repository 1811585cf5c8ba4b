import * as z from 'zod';
import {
  finishContactMerge,
  listOpenTicketIds,
  moveHistoryPage,
  moveLastClosedTickets,
  moveNotes,
  moveTicketToContact,
  TargetHasOpenTicket,
} from '../../data/contact-merge-repository';
import { getContact, type Contact } from '../../data/contact-repository';
import { sendQueueMessage } from '../../data/queue-sender';
import { getTags, listContactTagIds, MAX_TAGS_PER_ITEM, syncContactTags } from '../../data/tag-repository';
import { closeTicket, getTicket, listContactTicketIds, TicketChanged } from '../../data/ticket-repository';
import { Conflict } from '../../shared/errors';
import { ReadScope } from '../../data/read-scope';
import { logger } from '../../shared/logger';
import { publishTicketChange } from '../tickets/ticket-events';
import { announceContact, announceContactRemoved } from './contact-service';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';

/**
 * The history of a merged contact follows it (data-model §2.12, decisions D77). When a WhatsApp LID
 * contact turns out to be a phone contact's person, the inbound upsert moves the LID identity and marks
 * the LID contact `mergedInto` (and the phone contact `pendingMerges`); then
 * - at once, in the upsert: the old contact's **open tickets** move to the new one (`moveOpenTickets`),
 *   so the message that revealed the mapping continues the conversation instead of opening another
 *   ticket;
 * - in the `contact-merge` job: its other tickets, every message of its history (gsi3), its last closed
 *   tickets, notes and tags; then the new contact's `pendingMerges` is cleared.
 * Every step is conditional and idempotent: a job cut off half-way runs again from where it was.
 */
export const contactMergeJobSchema = z.object({
  companyId: z.number().int().positive(),
  from: z.number().int().positive(),
  into: z.number().int().positive(),
  /** How many times this merge was continued (a large history takes several runs). */
  pass: z.number().int().min(0).default(0),
});
export type ContactMergeJob = z.infer<typeof contactMergeJobSchema>;

/**
 * FIFO group = the old contact (its merge runs one pass at a time), dedup = the merge and its pass, so the
 * same merge asked for twice within SQS's five minutes runs once.
 */
export const enqueueContactMerge = (job: z.input<typeof contactMergeJobSchema>): Promise<void> => {
  const { companyId, from, into, pass = 0 } = job;
  return sendQueueMessage(
    'contact-merge',
    { companyId, from, into, pass },
    { groupId: `${companyId}:${from}`, deduplicationId: `${companyId}:${from}:${into}:${pass}` },
  );
};

/** Messages moved per run before the job hands over to its next pass (the Lambda's time is bounded). */
export const MESSAGES_PER_PASS = 5_000;
const ATTEMPTS = 5;

/**
 * Moves one ticket of the old contact to the new one. A not-closed ticket whose connection already has a
 * not-closed ticket of the new contact is closed first (that one is where the person talks now; this one
 * stays in the history) — or, with `closeIfTargetOpen` false, left for the job. A ticket that changed
 * meanwhile is read again.
 */
const moveTicket = async (
  scope: ReadScope,
  ticketId: number,
  from: Contact,
  into: Contact,
  { closeIfTargetOpen = true }: { closeIfTargetOpen?: boolean } = {},
): Promise<'moved' | 'skipped'> => {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const ticket = await getTicket(from.companyId, ticketId);
    if (!ticket || ticket.contactId !== from.id) return 'skipped'; // deleted, or moved before
    try {
      const moved = await moveTicketToContact(ticket, into.id);
      await publishTicketChange(scope, ticket, moved, into);
      return 'moved';
    } catch (err) {
      if (err instanceof TargetHasOpenTicket) {
        if (!closeIfTargetOpen) return 'skipped';
        try {
          const closed = await closeTicket(ticket, { userId: null });
          await publishTicketChange(scope, ticket, closed, from);
        } catch (closeErr) {
          if (!(closeErr instanceof TicketChanged)) throw closeErr;
        }
        continue;
      }
      if (err instanceof Conflict) continue; // an attendant moved it meanwhile: read it again
      throw err;
    }
  }
  throw new Conflict('ERR_CONFLICT', `ticket ${ticketId} kept changing during the merge`);
};

/** The merge's two contacts as they are now, or null when there is nothing (left) to merge. */
const mergeParties = async (job: ContactMergeJob): Promise<{ from: Contact; into: Contact } | null> => {
  const from = await getContact(job.companyId, job.from);
  if (!from || from.mergedInto !== job.into) return null;
  // The new contact may itself have been folded into a third since: the history goes to the last one.
  let into = await getContact(job.companyId, job.into);
  for (let hop = 0; into?.mergedInto !== undefined && hop < 5; hop += 1) {
    into = await getContact(job.companyId, into.mergedInto);
  }
  return into && !into.deletedAt ? { from, into } : null;
};

/**
 * In the inbound upsert, right after the identity moved: the old contact's not-closed tickets become the
 * new contact's (where it has none on that connection), so the next message lands in them.
 */
export const moveOpenTickets = async (companyId: number, fromId: number, intoId: number): Promise<void> => {
  const parties = await mergeParties({ companyId, from: fromId, into: intoId, pass: 0 });
  if (!parties) return;
  const scope = new ReadScope();
  for (const ticketId of await listOpenTicketIds(companyId, fromId)) {
    try {
      await moveTicket(scope, ticketId, parties.from, parties.into, { closeIfTargetOpen: false });
    } catch (err) {
      if (!(err instanceof Conflict)) throw err; // still changing: the job settles it
    }
  }
};

export interface MergeOutcome {
  status: 'done' | 'continued' | 'nothing';
  tickets: number;
  messages: number;
  notes: number;
}

/**
 * One pass of the merge job: tickets first (their messages stay readable through the ticket all along),
 * then the message history page by page up to MESSAGES_PER_PASS (then it enqueues its next pass), then
 * the contact's own items; `pendingMerges` is cleared last.
 */
export const mergeContactHistory = async (
  job: ContactMergeJob,
  { messagesPerPass = MESSAGES_PER_PASS }: { messagesPerPass?: number } = {},
): Promise<MergeOutcome> => {
  const outcome: MergeOutcome = { status: 'nothing', tickets: 0, messages: 0, notes: 0 };
  const parties = await mergeParties(job);
  if (!parties) {
    await finishContactMerge(job.companyId, job.from, job.into);
    return outcome;
  }
  const { from, into } = parties;
  const scope = new ReadScope();

  const ticketIds = new Set([
    ...(await listOpenTicketIds(job.companyId, from.id)),
    ...(await listContactTicketIds(job.companyId, from.id)),
  ]);
  for (const ticketId of ticketIds) {
    if ((await moveTicket(scope, ticketId, from, into)) === 'moved') outcome.tickets += 1;
  }

  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await moveHistoryPage(job.companyId, from.id, into.id, startKey, Math.min(200, messagesPerPass));
    outcome.messages += page.moved;
    startKey = page.next;
    if (startKey && outcome.messages >= messagesPerPass) {
      await enqueueContactMerge({ ...job, pass: job.pass + 1 });
      logger.info('contact merge continues', { companyId: job.companyId, from: from.id, into: into.id, ...outcome });
      return { ...outcome, status: 'continued' };
    }
  } while (startKey);

  await moveLastClosedTickets(job.companyId, from.id, into.id);
  outcome.notes = await moveNotes(job.companyId, from.id, into.id);
  await mergeTags(from, into);
  await finishContactMerge(job.companyId, job.from, job.into);
  const merged = await getContact(job.companyId, into.id);
  if (merged) await announceContact(job.companyId, merged);
  await announceContactRemoved(job.companyId, from.id);
  logger.info('contact merge done', { companyId: job.companyId, from: from.id, into: into.id, ...outcome });
  return { ...outcome, status: 'done' };
};

/** The old contact's tags join the new contact's (one conditional transaction, read again on a race). */
const mergeTags = async (from: Contact, into: Contact): Promise<void> => {
  const fromTags = await listContactTagIds(from.companyId, from.id);
  if (fromTags.length === 0) return;
  // Tags deleted meanwhile are left out; the new contact keeps its own first, within the per-contact cap.
  const existing = (await getTags(from.companyId, fromTags)).map((t) => t.id);
  // Edited meanwhile: read again.
  const merged = await withRetry(CHANGED_MEANWHILE, async () => {
    const current = await getContact(into.companyId, into.id);
    if (!current) return false;
    const intoTags = await listContactTagIds(into.companyId, into.id);
    const wanted = [...new Set([...intoTags, ...existing])].slice(0, Math.max(MAX_TAGS_PER_ITEM, intoTags.length));
    if (wanted.length > intoTags.length) await syncContactTags(current, intoTags, wanted, [], 0);
    return true;
  });
  if (!merged) return;
  const old = await getContact(from.companyId, from.id);
  if (old) await syncContactTags(old, fromTags, [], [], 0);
};
