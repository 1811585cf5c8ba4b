import type { VersionAnswer } from '../../contracts/system';
import { config } from '../../shared/config';
import { defineRoute } from '../stack';

/** GET /version — the product version the UI shows at the bottom of the menu (spec: 7.0.0). */
export const getVersion = defineRoute({
  handle: async (): Promise<VersionAnswer> => ({ version: config().APP_VERSION }),
});
