import { queueRemovalJobSchema, runQueueRemoval } from '../../core/queues/queue-removal';
import { sqsConsumer } from '../consumer';

/**
 * Consumer of the `queue-removal` FIFO queue (decisions D89; registered in functions/jobs/registry.ts): one
 * pass of a deleted queue's tickets leaving it per message; a failed pass is retried by SQS (idempotent).
 */
export const handler = sqsConsumer({
  name: 'queue removal',
  schema: queueRemovalJobSchema,
  describe: (job) => ({ companyId: job.companyId, queueId: job.queueId, pass: job.pass }),
  handle: (job) => runQueueRemoval(job),
});
