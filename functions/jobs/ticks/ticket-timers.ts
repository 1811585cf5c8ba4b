import { ReadScope } from '../../data/read-scope';
import { minuteTick } from '../consumer';
import { errorFields, logger } from '../../shared/logger';
import { handleTicketTimer } from '../../core/tickets/ticket-timers';
import { runQueueRotation } from '../../core/tickets/queue-rotation';
import { listDueRotations } from '../../data/rotation-repository';
import { getTickCheckpoint, setTickCheckpoint } from '../../data/tick-repository';
import { listDueTimers } from '../../data/ticket-repository';

/**
 * The ticket-timers tick (every minute; decisions D46, D95–D97): the ticket timers (NPS wait, bot expiry,
 * queue redirect, inactivity notice, auto-close) and the queues' rotations, read from the due index (gsi4
 * `DUE#TIMER#<minute>#<s>` and `DUE#ROTATION#<minute>#<s>`, a Query per minute bucket and shard: O(due
 * work)). Catch-up policy: each run reads every minute from its checkpoint to now, re-reading the two
 * minutes before the checkpoint (index lag), at most a day back; a timer older than that is not read. Handling
 * is idempotent, so re-reading is harmless: a ticket that moved on since its timer was set is left alone.
 */
export const TICK_NAME = 'ticket-timers';
const MAX_CATCH_UP_MINUTES = 24 * 60;
const REREAD_MINUTES = 2;

const minuteOf = (ms: number): string => new Date(ms).toISOString().slice(0, 16);

export interface TicketTimersRun {
  /** Ticket timers whose step ran (NPS expiry, bot expiry, redirect, notice, auto-close). */
  acted: number;
  /** Tickets handed out by rotations. */
  assigned: number;
}

export const runTicketTimers = async (now = new Date()): Promise<TicketTimersRun> => {
  const current = Math.floor(now.getTime() / 60_000) * 60_000;
  const checkpoint = await getTickCheckpoint(TICK_NAME);
  const from = Math.max(
    checkpoint ? Date.parse(`${checkpoint}:00.000Z`) + 60_000 - REREAD_MINUTES * 60_000 : current - 60 * 60_000,
    current - MAX_CATCH_UP_MINUTES * 60_000,
  );
  const scope = new ReadScope();
  const run: TicketTimersRun = { acted: 0, assigned: 0 };
  for (let minute = from; minute <= current; minute += 60_000) {
    const [timers, rotations] = await Promise.all([
      listDueTimers(minuteOf(minute)),
      listDueRotations(minuteOf(minute)),
    ]);
    for (const due of timers) {
      if (due.at > now.toISOString()) continue;
      try {
        const outcome = await handleTicketTimer(scope, due, now);
        if (outcome !== 'rearmed' && outcome !== 'done' && outcome !== 'moved') run.acted += 1;
      } catch (err) {
        logger.error('ticket timer failed', { ...due, ...errorFields(err) });
      }
    }
    for (const due of rotations) {
      if (due.at > now.toISOString()) continue;
      try {
        run.assigned += (await runQueueRotation(scope, due, now))?.assigned ?? 0;
      } catch (err) {
        logger.error('queue rotation failed', { ...due, ...errorFields(err) });
      }
    }
  }
  // The current minute is read again next time: timers later in it are not due yet.
  await setTickCheckpoint(TICK_NAME, minuteOf(current - 60_000));
  return run;
};

export const handler = minuteTick(async () => {
  const run = await runTicketTimers();
  if (run.acted > 0 || run.assigned > 0) logger.info('ticket timers', { ...run });
});
