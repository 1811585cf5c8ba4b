import { runTagRemoval, tagRemovalJobSchema } from '../../core/tags/tag-removal';
import { sqsConsumer } from '../consumer';

/**
 * Consumer of the `tag-removal` FIFO queue (decisions D100; registered in functions/jobs/registry.ts): one
 * pass of a deleted tag's links removed per message; a failed pass is retried by SQS (idempotent).
 */
export const handler = sqsConsumer({
  name: 'tag removal',
  schema: tagRemovalJobSchema,
  describe: (job) => ({ companyId: job.companyId, tagId: job.tagId, pass: job.pass }),
  handle: (job) => runTagRemoval(job),
});
