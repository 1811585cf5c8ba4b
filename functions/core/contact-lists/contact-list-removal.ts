import * as z from 'zod';
import { getContactList, purgeContactListItems } from '../../data/contact-list-repository';
import { sendQueueMessage } from '../../data/queue-sender';
import { logger } from '../../shared/logger';

/**
 * A deleted contact list's items go (data-model §2.24; decisions D122): the list item is deleted by the
 * request, then this FIFO job deletes the items' partition in passes of ITEMS_PER_PASS, each pass queueing
 * the next until the partition answers nothing. Every pass is idempotent (a deleted item is not found
 * again), so a redelivered or crashed pass is safe; a list re-created meanwhile cannot have the same id.
 */
export const contactListRemovalJobSchema = z.object({
  companyId: z.number().int().positive(),
  contactListId: z.number().int().positive(),
  pass: z.number().int().min(0).default(0),
});
export type ContactListRemovalJob = z.infer<typeof contactListRemovalJobSchema>;

export const ITEMS_PER_PASS = 500;
const QUERY_PAGE = 100;

export const enqueueContactListRemoval = (job: z.input<typeof contactListRemovalJobSchema>): Promise<void> => {
  const { companyId, contactListId, pass = 0 } = job;
  return sendQueueMessage(
    'contact-list-removal',
    { companyId, contactListId, pass },
    { groupId: `${companyId}:${contactListId}`, deduplicationId: `${companyId}:${contactListId}:${pass}` },
  );
};

/** One pass: up to ITEMS_PER_PASS items deleted; answers whether the partition may hold more. */
export const runContactListRemoval = async (job: ContactListRemovalJob): Promise<'done' | 'more' | 'kept'> => {
  // The list exists again only if the delete never happened (a stray message): leave its items alone.
  if (await getContactList(job.companyId, job.contactListId)) return 'kept';
  let removed = 0;
  while (removed < ITEMS_PER_PASS) {
    const n = await purgeContactListItems(job.companyId, job.contactListId, QUERY_PAGE);
    removed += n;
    if (n === 0) return 'done';
  }
  await enqueueContactListRemoval({ ...job, pass: job.pass + 1 });
  logger.info('contact list removal continues', { companyId: job.companyId, contactListId: job.contactListId });
  return 'more';
};
