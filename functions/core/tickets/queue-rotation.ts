import { getContact } from '../../data/contact-repository';
import { isOnline } from '../../data/user-presence-repository';
import type { ReadScope } from '../../data/read-scope';
import { claimRotation, finishRotation } from '../../data/rotation-repository';
import { getTickets } from '../../data/ticket-list-repository';
import { listQueueTicketIds, TicketChanged, transitionTicket } from '../../data/ticket-repository';
import { listUserRouting } from '../../data/user-repository';
import { companyTimeZone } from '../settings/company-settings';
import { publishTicketChange } from './ticket-events';
import { inBot, rotate, rotationCandidates } from './ticket-timer-plan';

/**
 * A queue's rotation run (admin §2/§3 `ativarRoteador`, `tempoRoteador`; decisions D97). Every
 * `tempoRoteador` minutes while the queue has pending tickets nobody holds, the oldest of them (up to
 * `ROTATION_BATCH` a run) are handed round-robin to the queue's attendants who are online and inside their
 * `startWork`–`endWork` in the company's zone: each becomes `open` with that attendant (an `open` log entry
 * naming them), in a transition conditional on the version read — a ticket someone accepted meanwhile is
 * left alone. The run is claimed first (queue × due time, conditional), the pointer kept on the queue's
 * rotation item. Cost: O(tickets handed out + the company's users), never O(company tickets).
 */
export const ROTATION_BATCH = 100;

const plus = (iso: string, minutes: number): string => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

export const runQueueRotation = async (
  scope: ReadScope,
  due: { companyId: number; queueId: number; at: string },
  now: Date,
): Promise<{ assigned: number } | null> => {
  const { companyId, queueId } = due;
  const queue = (await scope.queues(companyId)).get(queueId);
  const tempo = queue?.ativarRoteador ? Number(queue.tempoRoteador) : 0;
  const following = plus(now.toISOString(), tempo > 0 ? tempo : 1);
  const claim = await claimRotation(companyId, queueId, due.at, following);
  if (!claim) return null;
  if (!(tempo > 0)) {
    await finishRotation(companyId, queueId, following, claim.lastUserId, true);
    return { assigned: 0 };
  }
  const ids = await listQueueTicketIds(companyId, queueId, 'pending', ROTATION_BATCH);
  const waiting = (await getTickets(companyId, ids)).filter(
    (t) => t.status === 'pending' && t.userId === null && t.queueId === queueId && !t.isGroup && !inBot(t),
  );
  const [users, timeZone] = await Promise.all([listUserRouting(companyId), companyTimeZone(scope, companyId)]);
  const candidates = rotationCandidates(
    users.map((u) => ({ ...u, online: isOnline(u.lastSeenAt, now.getTime()) })),
    queueId,
    now,
    timeZone,
  );
  const { assignments } = rotate(
    waiting.map((t) => t.id),
    candidates,
    claim.lastUserId,
  );
  let assigned = 0;
  let pointer = claim.lastUserId;
  for (const { ticketId, userId } of assignments) {
    const ticket = waiting.find((t) => t.id === ticketId)!;
    try {
      const after = await transitionTicket(
        ticket,
        { status: 'open', userId, queueId, logs: [{ type: 'open', userId, queueId }] },
        now,
      );
      assigned += 1;
      pointer = userId;
      const contact = await getContact(companyId, ticket.contactId);
      if (contact) await publishTicketChange(scope, ticket, after, contact);
    } catch (err) {
      if (!(err instanceof TicketChanged)) throw err;
    }
  }
  // Tickets left (nobody available, or more than a batch) keep the next run armed; none left disarms it.
  const left = waiting.length - assigned + (ids.length === ROTATION_BATCH ? 1 : 0);
  await finishRotation(companyId, queueId, following, pointer, left <= 0);
  return { assigned };
};
