import type { MetaGraphAccess } from '../../core/connections/meta-connections';
import { config } from '../../shared/config';
import { graphApi } from './graph-client';
import { MetaNotConfigured, requireMetaSecret } from './webhook-service';

/**
 * The Graph API as the connection services reach it (their port, functions/core/connections/
 * meta-connections.ts): with the Meta app's secret, and for the Facebook login also its id — without them
 * the server answers 503 ERR_META_NOT_CONFIGURED.
 */
export const metaGraphAccess: MetaGraphAccess = {
  open: async () => graphApi(await requireMetaSecret()),
  forLogin: async () => {
    const secret = await requireMetaSecret();
    if (!config().META_APP_ID) throw new MetaNotConfigured();
    return graphApi(secret);
  },
};
