import { getContact } from '../../data/contact-repository';
import { disarmLaneEntry, getLaneEntry, listDueLanes, type DueLane } from '../../data/kanban-repository';
import { ReadScope } from '../../data/read-scope';
import { getTag } from '../../data/tag-repository';
import { getTickCheckpoint, setTickCheckpoint } from '../../data/tick-repository';
import { getTicket } from '../../data/ticket-repository';
import { addTicketTag, type TaggedTicket } from '../../data/ticket-tag-repository';
import { Conflict, NotFound } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';
import { publishTicketChange } from '../tickets/ticket-events';
import { greetLaneEntry } from './lane-greeting';

/**
 * The kanban lane timers (administration §2 Tags and kanban, §3 Tag; decisions D102), run by the
 * `kanban-lanes` minute tick. Each lane entry with work left sits on the due index (gsi4 `DUE#LANE#…`):
 * - its greeting (`greetingMessageLane`), due when the card enters the lane, sent once per entry;
 * - its end, `timeLane` hours after it entered: the card moves to `nextLaneId`, or to `rollbackLaneId` when
 *   the customer wrote since it entered (and the lane has one) — once per entry: the move deletes the
 *   lane's link only if it is still that entry (`enteredAt`), so a second run, a redelivery or a person's
 *   move meanwhile makes it a no-op.
 * Lane times are durations in hours, the same in every time zone; the minute buckets are UTC.
 */
export const LANE_TICK_NAME = 'kanban-lanes';
const MAX_CATCH_UP_MINUTES = 24 * 60;
const MINUTES_AT_ONCE = 10;

const minuteOf = (ms: number): string => new Date(ms).toISOString().slice(0, 16);

export interface LaneTickResult {
  greeted: number;
  moved: number;
}

/** One due lane entry: the greeting if pending, then the move if the lane's time is up. */
const handleDueLane = async (scope: ReadScope, due: DueLane, now: Date, result: LaneTickResult): Promise<void> => {
  const { companyId, ticketId, tagId } = due;
  const entry = await getLaneEntry(companyId, ticketId, tagId);
  if (!entry || entry.enteredAt !== due.enteredAt) return; // the card moved on: its new entry has its own item
  const ticket = (await getTicket(companyId, ticketId)) as TaggedTicket | null;
  const lane = await getTag(companyId, tagId);
  if (!ticket || !lane || ticket.status === 'closed' || (ticket.kanbanTagId ?? null) !== tagId) {
    await disarmLaneEntry(companyId, ticketId, tagId, entry.enteredAt);
    return;
  }
  if (entry.greetPending && (await greetLaneEntry(scope, companyId, ticketId, tagId))) result.greeted += 1;
  if (entry.expiresAt === null || entry.expiresAt > now.toISOString()) return;
  const answered = ticket.lastInboundAt !== undefined && ticket.lastInboundAt > entry.enteredAt;
  const targetId = answered && lane.rollbackLaneId ? lane.rollbackLaneId : lane.nextLaneId;
  const target = targetId ? await getTag(companyId, targetId) : null;
  if (!target || target.kanban !== 1 || target.id === tagId) {
    await disarmLaneEntry(companyId, ticketId, tagId, entry.enteredAt);
    return;
  }
  try {
    const moved = await withRetry(CHANGED_MEANWHILE, async () => {
      const fresh = (await getTicket(companyId, ticketId)) as TaggedTicket | null;
      if (!fresh || (fresh.kanbanTagId ?? null) !== tagId) return null;
      const after = await addTicketTag(fresh, target, { tagId, enteredAt: entry.enteredAt });
      return { before: fresh, after };
    });
    if (!moved) return;
    result.moved += 1;
    const contact = await getContact(companyId, ticket.contactId);
    if (contact) await publishTicketChange(scope, moved.before, moved.after, contact);
    // The new lane's greeting goes out now; its due entry is the tick's backup.
    if (await greetLaneEntry(scope, companyId, ticketId, target.id)) result.greeted += 1;
  } catch (err) {
    if (err instanceof Conflict || err instanceof NotFound) return; // another move won, or the lane is gone
    throw err;
  }
};

/**
 * Reads the due lane entries minute by minute from the checkpoint to `now` (a missed run catches up, at
 * most a day) and handles each; a failure of one entry is logged and retried by the next run.
 */
export const runLaneTimers = async (now = new Date()): Promise<LaneTickResult> => {
  const current = Math.floor(now.getTime() / 60_000) * 60_000;
  const checkpoint = await getTickCheckpoint(LANE_TICK_NAME);
  const from = Math.max(
    checkpoint ? Date.parse(`${checkpoint}:00.000Z`) - 60_000 : current - 60 * 60_000,
    current - MAX_CATCH_UP_MINUTES * 60_000,
  );
  const scope = new ReadScope();
  const result: LaneTickResult = { greeted: 0, moved: 0 };
  // Minutes are read MINUTES_AT_ONCE at a time (each reads its shards in parallel), then handled in order.
  for (let start = from; start <= current; start += MINUTES_AT_ONCE * 60_000) {
    const minutes: number[] = [];
    for (let m = start; m <= current && m < start + MINUTES_AT_ONCE * 60_000; m += 60_000) minutes.push(m);
    const dueByMinute = await Promise.all(minutes.map((m) => listDueLanes(minuteOf(m))));
    for (const due of dueByMinute.flat()) {
      if (due.dueAt > now.toISOString()) continue;
      try {
        await handleDueLane(scope, due, now, result);
      } catch (err) {
        logger.error('lane timer failed', { ...due, ...errorFields(err) });
      }
    }
  }
  // The current minute is read again next time (entries later in it are not due yet), and the one before
  // it too: index entries may appear a little late (data-model §2.29).
  await setTickCheckpoint(LANE_TICK_NAME, minuteOf(current - 60_000));
  return result;
};
