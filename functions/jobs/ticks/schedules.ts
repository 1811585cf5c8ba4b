import { runScheduleTick } from '../../core/schedules/schedule-sender';
import { logger } from '../../shared/logger';
import { minuteTick } from '../consumer';

/** The scheduled messages' tick (every minute; decisions D118–D119): due schedules onto the `schedule` queue. */
export const handler = minuteTick(async () => {
  const queued = await runScheduleTick();
  if (queued > 0) logger.info('scheduled messages due', { queued });
});
