import { contactListRemovalJobSchema, runContactListRemoval } from '../../core/contact-lists/contact-list-removal';
import { sqsConsumer } from '../consumer';

/**
 * Consumer of the `contact-list-removal` FIFO queue (decisions D122; registered in functions/jobs/registry.ts):
 * one bounded pass of a deleted list's items per message; a failed pass is retried by SQS (idempotent).
 */
export const handler = sqsConsumer({
  name: 'contact list removal',
  schema: contactListRemovalJobSchema,
  describe: (job) => ({ companyId: job.companyId, contactListId: job.contactListId, pass: job.pass }),
  handle: async (job) => {
    await runContactListRemoval(job);
  },
});
