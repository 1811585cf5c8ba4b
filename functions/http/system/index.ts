import { createAreaHandler, type AreaHandlers } from '../stack';
import { getVersion } from './get-version';

/**
 * The `system` area: platform-level routes. Its Lambda is also the HTTP API's `$default` route, so
 * requests that match no route get the table-wide 404 / 405 in our error format.
 */
export const handlers: AreaHandlers = {
  'get-version': getVersion,
};

export const handler = createAreaHandler('system', handlers);
