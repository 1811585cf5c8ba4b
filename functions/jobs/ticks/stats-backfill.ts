import { backfillCompanyStats, getBackfillState, listCompanyIds } from '../../data/stats-backfill-repository';
import { errorFields, logger } from '../../shared/logger';
import { minuteTick } from '../consumer';

/**
 * The dashboard counters' backfill (decisions D108): tickets made before the counters existed are counted
 * once, a bounded batch per company per run, until every company is marked done; afterwards a run reads
 * one state item per company. Safe to rerun at any time (each ticket is counted under a condition).
 */
export const runStatsBackfill = async (maxItemsPerCompany = 500): Promise<{ pending: number }> => {
  let pending = 0;
  for (const companyId of await listCompanyIds()) {
    try {
      if ((await getBackfillState(companyId)).done) continue;
      if (!(await backfillCompanyStats(companyId, maxItemsPerCompany))) pending += 1;
    } catch (err) {
      pending += 1;
      logger.error('stats backfill failed', { companyId, ...errorFields(err) });
    }
  }
  return { pending };
};

export const handler = minuteTick(async () => {
  const { pending } = await runStatsBackfill();
  if (pending > 0) logger.info('stats backfill', { pending });
});
