import { runCampaignTick } from '../../core/campaigns/campaign-dispatch';
import { logger } from '../../shared/logger';
import { minuteTick } from '../consumer';

/** The campaigns' tick (every minute; decisions D133): campaigns whose next wave is due onto the `campaign` queue. */
export const handler = minuteTick(async () => {
  const queued = await runCampaignTick();
  if (queued > 0) logger.info('campaign waves due', { queued });
});
