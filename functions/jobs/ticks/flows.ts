import { runFlowTick } from '../../core/flows/flow-engine';
import { logger } from '../../shared/logger';
import { minuteTick } from '../consumer';

/** The flow runs' tick (every minute; decisions D139): timers and expiries due in the due index. */
export const handler = minuteTick(async () => {
  const driven = await runFlowTick();
  if (driven > 0) logger.info('flow runs due', { driven });
});
