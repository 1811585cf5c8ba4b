import * as z from 'zod';
import { runContactImport } from '../../core/contacts/contact-import-service';
import { sqsConsumer } from '../consumer';

/**
 * Consumer of the `contact-import` queue (decisions D104; registered in functions/jobs/registry.ts): one
 * delivery imports chunks of a contact spreadsheet until it is done or its time is up (it then queues the
 * rest). A failed delivery is retried by SQS and resumes at the last chunk recorded.
 */
const contactImportJob = z.object({ companyId: z.number().int().positive(), importId: z.string().uuid() });

export const handler = sqsConsumer({
  name: 'contact import',
  schema: contactImportJob,
  describe: (job) => ({ companyId: job.companyId, importId: job.importId }),
  handle: (job) => runContactImport(job.companyId, job.importId),
});
