import * as z from 'zod';
import { runExport } from '../../core/exports/export-job';
import { QUEUES } from '../../shared/queues';
import { sqsConsumer } from '../consumer';

/**
 * Consumer of the `export` queue (decisions D127; registered in functions/jobs/registry.ts): one delivery
 * writes one export's whole file. A failed delivery is retried by SQS and starts the file over; the last
 * one allowed by the queue's redrive policy marks the export failed instead of leaving it running.
 */
const exportJob = z.object({ companyId: z.number().int().positive(), exportId: z.string().uuid() });
const MAX_RECEIVES = QUEUES.find((q) => q.name === 'export')!.maxReceiveCount;

export const handler = sqsConsumer({
  name: 'export',
  schema: exportJob,
  describe: (job) => ({ companyId: job.companyId, exportId: job.exportId }),
  handle: (job, record) =>
    runExport(job.companyId, job.exportId, {
      lastAttempt: Number(record.attributes.ApproximateReceiveCount) >= MAX_RECEIVES,
    }),
});
