import * as z from 'zod';
import { sendQueueMessage } from '../../data/queue-sender';
import { contactIdsOfTag, removeContactTag, ticketIdsOfTag } from '../../data/tag-admin-repository';
import { getTicket } from '../../data/ticket-repository';
import { removeTicketTag, ticketTagKeys, type TaggedTicket } from '../../data/ticket-tag-repository';
import { logger } from '../../shared/logger';
import { CHANGED_OR_BUSY, withRetry } from '../../shared/retry';
import { announceContact } from '../contacts/contact-service';

/**
 * A deleted tag's links go (decisions D100; data-model §2.13 "Tag delete"): every contact link (gsi1
 * `TAGCT#<tagId>`) with the id in `CONTACT.tagIds`, every ticket link (gsi5 `TAGT#<tagId>`) with the id in
 * `TICKET.tagIds` and the lane in `kanbanTagId`. A tag may have many links, so a FIFO job does it in passes
 * of LINKS_PER_PASS, each pass enqueueing the next until both indexes answer nothing; every step is
 * idempotent (a link already gone changes nothing), so a redelivered or crashed pass is safe.
 */
export const tagRemovalJobSchema = z.object({
  companyId: z.number().int().positive(),
  tagId: z.number().int().positive(),
  pass: z.number().int().min(0).default(0),
});
export type TagRemovalJob = z.infer<typeof tagRemovalJobSchema>;

export const LINKS_PER_PASS = 500;

export const enqueueTagRemoval = (job: z.input<typeof tagRemovalJobSchema>): Promise<void> => {
  const { companyId, tagId, pass = 0 } = job;
  return sendQueueMessage(
    'tag-removal',
    { companyId, tagId, pass },
    { groupId: `${companyId}:${tagId}`, deduplicationId: `${companyId}:${tagId}:${pass}` },
  );
};

/** One pass: up to LINKS_PER_PASS links removed; answers how many and whether any may remain. */
export const removeTagLinks = async (job: TagRemovalJob): Promise<{ removed: number; done: boolean }> => {
  const { companyId, tagId } = job;
  let removed = 0;
  for (;;) {
    const room = LINKS_PER_PASS - removed;
    if (room <= 0) return { removed, done: false };
    const contactIds = await contactIdsOfTag(companyId, tagId, Math.min(room, 100));
    if (contactIds.length === 0) break;
    for (const contactId of contactIds) {
      const contact = await withRetry(CHANGED_OR_BUSY, () => removeContactTag(companyId, contactId, tagId));
      if (contact && !contact.deletedAt) await announceContact(companyId, contact);
      removed += 1;
    }
  }
  for (;;) {
    const room = LINKS_PER_PASS - removed;
    if (room <= 0) return { removed, done: false };
    const ticketIds = await ticketIdsOfTag(companyId, tagId, Math.min(room, 100));
    if (ticketIds.length === 0) break;
    for (const ticketId of ticketIds) {
      await withRetry(CHANGED_OR_BUSY, async () => {
        const ticket = (await getTicket(companyId, ticketId)) as TaggedTicket | null;
        if (ticket) await removeTicketTag(ticket, tagId);
        else logger.warn('tag link of a missing ticket', { ...ticketTagKeys(companyId, ticketId, tagId) });
      });
      removed += 1;
    }
  }
  return { removed, done: true };
};

export const runTagRemoval = async (job: TagRemovalJob): Promise<void> => {
  const { removed, done } = await removeTagLinks(job);
  if (!done) {
    await enqueueTagRemoval({ ...job, pass: job.pass + 1 });
    logger.info('tag removal continues', { companyId: job.companyId, tagId: job.tagId, removed });
  }
};
