import { contactMergeJobSchema, mergeContactHistory } from '../../core/contacts/contact-merge';
import { sqsConsumer } from '../consumer';

/**
 * Consumer of the `contact-merge` FIFO queue (decisions D77; registered in functions/jobs/registry.ts):
 * one pass of a merged contact's history move per message. A pass that fails is retried by SQS (every
 * step is idempotent); a message that does not parse can never succeed and is logged and dropped.
 */
export const handler = sqsConsumer({
  name: 'contact merge',
  schema: contactMergeJobSchema,
  describe: (job) => ({ companyId: job.companyId, from: job.from, into: job.into }),
  handle: (job) => mergeContactHistory(job),
});
