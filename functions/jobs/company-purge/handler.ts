import { companyPurgeJobSchema, runCompanyPurge } from '../../core/companies/company-purge';
import { sqsConsumer } from '../consumer';

/**
 * Consumer of the `company-purge` FIFO queue (decisions D156; registered in functions/jobs/registry.ts): one
 * pass of a deleted company's purge per message; a failed pass is retried by SQS from the same position.
 */
export const handler = sqsConsumer({
  name: 'company purge',
  schema: companyPurgeJobSchema,
  describe: (job) => ({ companyId: job.companyId, pass: job.pass, phase: job.phase, segment: job.segment }),
  handle: (job) => runCompanyPurge(job),
});
