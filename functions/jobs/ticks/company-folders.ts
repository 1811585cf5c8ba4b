import { recountCompanyFolders } from '../../core/companies/company-folders';
import { logger } from '../../shared/logger';
import { minuteTick } from '../consumer';

/** Hourly: the folder size and file total of companies last counted a day ago (decisions D156). */
export const handler = minuteTick(async () => {
  const { counted } = await recountCompanyFolders();
  if (counted > 0) logger.info('company folders counted', { counted });
});
