import { ReadScope } from '../../data/read-scope';
import { minuteTick } from '../consumer';
import { errorFields, logger } from '../../shared/logger';
import { expireRating } from '../../core/tickets/nps';
import { getContact } from '../../data/contact-repository';
import { getTickCheckpoint, setTickCheckpoint } from '../../data/tick-repository';
import { getTicket, listDueTimers, TicketChanged } from '../../data/ticket-repository';

/**
 * The ticket-timers tick (every minute): tickets whose timer is due — today the NPS wait
 * (expiresTicketNPS, decisions D46) — read from the due index (gsi4 `DUE#TIMER#<minute>#<s>`, O(due
 * tickets)), minute by minute from the checkpoint to now, so a missed run catches up (at most a day).
 * Handling is idempotent: a ticket that moved on since its timer was set is left alone.
 */
export const TICK_NAME = 'ticket-timers';
const MAX_CATCH_UP_MINUTES = 24 * 60;

const minuteOf = (ms: number): string => new Date(ms).toISOString().slice(0, 16);

export const runTicketTimers = async (now = new Date()): Promise<{ expired: number }> => {
  const current = Math.floor(now.getTime() / 60_000) * 60_000;
  const checkpoint = await getTickCheckpoint(TICK_NAME);
  const from = Math.max(
    checkpoint ? Date.parse(`${checkpoint}:00.000Z`) + 60_000 : current - 60 * 60_000,
    current - MAX_CATCH_UP_MINUTES * 60_000,
  );
  const scope = new ReadScope();
  let expired = 0;
  for (let minute = from; minute <= current; minute += 60_000) {
    for (const due of await listDueTimers(minuteOf(minute))) {
      if (due.at > now.toISOString()) continue;
      try {
        const ticket = await getTicket(due.companyId, due.ticketId);
        if (ticket?.status !== 'nps') continue;
        const contact = await getContact(due.companyId, ticket.contactId);
        if (!contact) continue;
        await expireRating(scope, ticket, contact);
        expired += 1;
      } catch (err) {
        if (err instanceof TicketChanged) continue;
        logger.error('ticket timer failed', { ...due, ...errorFields(err) });
      }
    }
  }
  // The current minute is read again next time: timers later in it are not due yet.
  await setTickCheckpoint(TICK_NAME, minuteOf(current - 60_000));
  return { expired };
};

export const handler = minuteTick(async () => {
  const { expired } = await runTicketTimers();
  if (expired > 0) logger.info('ticket timers', { expired });
});
