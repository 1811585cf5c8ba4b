import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { contactMergeJobSchema, mergeContactHistory } from '../../core/contacts/contact-merge';
import { errorFields, logger } from '../../core/logger';

/**
 * Consumer of the `contact-merge` FIFO queue (decisions D77; registered in functions/jobs/registry.ts):
 * one pass of a merged contact's history move per message. A pass that fails is retried by SQS (every
 * step is idempotent); a message that does not parse can never succeed and is logged and dropped.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    let body: unknown;
    try {
      body = JSON.parse(record.body);
    } catch {
      body = undefined;
    }
    const job = contactMergeJobSchema.safeParse(body);
    if (!job.success) {
      logger.error('contact merge dropped: invalid', {
        messageId: record.messageId,
        problems: job.error.issues.slice(0, 10).map((i) => `${i.path.join('.') || 'body'}: ${i.message}`),
      });
      continue;
    }
    try {
      await mergeContactHistory(job.data);
    } catch (err) {
      logger.error('contact merge failed; it will be retried', {
        messageId: record.messageId,
        companyId: job.data.companyId,
        from: job.data.from,
        into: job.data.into,
        receiveCount: record.attributes.ApproximateReceiveCount,
        ...errorFields(err),
      });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
