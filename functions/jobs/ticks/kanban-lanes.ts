import { runLaneTimers } from '../../core/tags/lane-timers';
import { logger } from '../../shared/logger';
import { minuteTick } from '../consumer';

/** The kanban lane tick (every minute; decisions D102): lane greetings and lane times that came due. */
export const handler = minuteTick(async () => {
  const { greeted, moved } = await runLaneTimers();
  if (greeted > 0 || moved > 0) logger.info('kanban lanes', { greeted, moved });
});
