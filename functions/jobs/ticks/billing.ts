import { runInvoiceTick, runReconcile } from '../../core/billing/billing-service';
import { logger } from '../../shared/logger';
import { minuteTick } from '../consumer';

/**
 * The billing tick (decisions D152, D153): renewal timers that came due become their period's invoice
 * (once per company and period), and every open charge is asked of its provider, so a dropped webhook
 * still marks its invoice paid.
 */
export const handler = minuteTick(async () => {
  const invoices = await runInvoiceTick();
  const settled = await runReconcile();
  if (invoices > 0 || settled > 0) logger.info('billing', { invoices, settled });
});
