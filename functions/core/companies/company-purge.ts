import * as z from 'zod';
import { getCompany } from '../../data/company-repository';
import {
  deleteCompanyMediaPage,
  deleteItems,
  PURGE_SEGMENTS,
  scanCompanyItems,
} from '../../data/company-purge-repository';
import { listConnections } from '../../data/connection-repository';
import { sendQueueMessage } from '../../data/queue-sender';
import { logger, errorFields } from '../../shared/logger';

/**
 * A deleted company's purge (decisions D156), in passes like a queue's removal (D89): the company was
 * already marked `deletedAt` + `status: false` (so nobody uses it any more) and its sockets closed; each pass
 * does a bounded amount of work and enqueues the next with where it stopped, so a crashed pass is redone
 * from the last stored position (every step is idempotent: deleting what is gone changes nothing).
 * Phases: `sessions` (the WhatsApp workers drop its sessions), `items` (the table, segment by segment),
 * `media` (the S3 prefix `c/<c>/`).
 */
export const companyPurgeJobSchema = z.object({
  companyId: z.number().int().positive(),
  pass: z.number().int().min(0).default(0),
  phase: z.enum(['sessions', 'items', 'media']).default('sessions'),
  segment: z.number().int().min(0).default(0),
  startKey: z.record(z.string(), z.unknown()).optional(),
});
export type CompanyPurgeJob = z.infer<typeof companyPurgeJobSchema>;

/** Scan pages (of up to 1000 examined items) one pass may read before handing over to the next pass. */
export const PAGES_PER_PASS = 10;

export const enqueueCompanyPurge = (job: z.input<typeof companyPurgeJobSchema>): Promise<void> => {
  const parsed = companyPurgeJobSchema.parse(job);
  return sendQueueMessage('company-purge', parsed, {
    groupId: String(parsed.companyId),
    deduplicationId: `${parsed.companyId}:${parsed.pass}`,
  });
};

const next = (job: CompanyPurgeJob, changes: Partial<CompanyPurgeJob>): Promise<void> => {
  const { startKey: _s, ...rest } = job;
  return enqueueCompanyPurge({ ...rest, ...changes, pass: job.pass + 1 });
};

export const runCompanyPurge = async (job: CompanyPurgeJob): Promise<void> => {
  const { companyId } = job;
  if (job.phase === 'sessions') {
    // Never purge a live company: only one the platform owner deleted (its item is there until `items`).
    const company = await getCompany(companyId);
    if (!company?.deletedAt) {
      logger.warn('company purge refused: the company is not deleted', { companyId });
      return;
    }
    // The workers drop the sessions (a logout on the phone) — they also drop any whose connection item
    // disappears, so a lost command only delays it.
    for (const connection of await listConnections(companyId, { channel: 'whatsapp' })) {
      await sendQueueMessage('worker-control', {
        companyId,
        whatsappId: connection.id,
        command: 'disconnect',
        requestedAt: new Date().toISOString(),
      }).catch((err: unknown) =>
        logger.warn('company purge: disconnect not sent', {
          companyId,
          whatsappId: connection.id,
          ...errorFields(err),
        }),
      );
    }
    return next(job, { phase: 'items', segment: 0 });
  }
  if (job.phase === 'items') {
    let startKey = job.startKey;
    for (let page = 0; page < PAGES_PER_PASS; page += 1) {
      const found = await scanCompanyItems(companyId, { segment: job.segment, ...(startKey ? { startKey } : {}) });
      await deleteItems(found.keys);
      startKey = found.next;
      if (!startKey) break;
    }
    if (startKey) return next(job, { startKey });
    if (job.segment + 1 < PURGE_SEGMENTS) return next(job, { segment: job.segment + 1 });
    return next(job, { phase: 'media' });
  }
  const { deleted, more } = await deleteCompanyMediaPage(companyId);
  if (more || deleted > 0) return next(job, {});
  logger.info('company purged', { companyId, passes: job.pass + 1 });
};
