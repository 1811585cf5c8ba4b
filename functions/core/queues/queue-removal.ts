import * as z from 'zod';
import { TICKET_STATUSES } from '../../contracts/tickets';
import { sendQueueMessage } from '../../data/queue-sender';
import { getTicket, listQueueTicketIds, transitionTicket } from '../../data/ticket-repository';
import { logger } from '../../shared/logger';
import { CHANGED_OR_BUSY, withRetry } from '../../shared/retry';

/**
 * A deleted queue's tickets leave it (decisions D89): each keeps its status and attendant and becomes a ticket
 * without a queue (seen by admins, its attendant, and users with `allTicket`), with a `queue` log entry. A
 * queue may hold many tickets, so a job does it in passes of TICKETS_PER_PASS, each pass enqueueing the
 * next; every step is idempotent (a ticket already moved is no longer in the queue's lists).
 */
export const queueRemovalJobSchema = z.object({
  companyId: z.number().int().positive(),
  queueId: z.number().int().positive(),
  pass: z.number().int().min(0).default(0),
});
export type QueueRemovalJob = z.infer<typeof queueRemovalJobSchema>;

export const TICKETS_PER_PASS = 500;

export const enqueueQueueRemoval = (job: z.input<typeof queueRemovalJobSchema>): Promise<void> => {
  const { companyId, queueId, pass = 0 } = job;
  return sendQueueMessage(
    'queue-removal',
    { companyId, queueId, pass },
    { groupId: `${companyId}:${queueId}`, deduplicationId: `${companyId}:${queueId}:${pass}` },
  );
};

/** One pass: up to TICKETS_PER_PASS tickets leave the queue; answers how many moved and whether any remain. */
export const moveQueueTickets = async (job: QueueRemovalJob): Promise<{ moved: number; done: boolean }> => {
  const { companyId, queueId } = job;
  let moved = 0;
  for (const status of TICKET_STATUSES) {
    for (;;) {
      const room = TICKETS_PER_PASS - moved;
      if (room <= 0) return { moved, done: false };
      const ids = await listQueueTicketIds(companyId, queueId, status, Math.min(room, 100));
      if (ids.length === 0) break;
      for (const id of ids) {
        await withRetry(CHANGED_OR_BUSY, async () => {
          const ticket = await getTicket(companyId, id);
          if (!ticket || ticket.queueId !== queueId) return;
          await transitionTicket(ticket, {
            status: ticket.status,
            userId: ticket.userId,
            queueId: null,
            logs: [{ type: 'queue', userId: null, queueId: null }],
          }); // changed meanwhile (TicketChanged, an ERR_CONFLICT): read again
        });
        moved += 1;
      }
    }
  }
  return { moved, done: true };
};

export const runQueueRemoval = async (job: QueueRemovalJob): Promise<void> => {
  const { moved, done } = await moveQueueTickets(job);
  if (!done) {
    await enqueueQueueRemoval({ ...job, pass: job.pass + 1 });
    logger.info('queue removal continues', { companyId: job.companyId, queueId: job.queueId, moved });
  }
};
