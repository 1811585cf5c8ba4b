import { errorFields, logger } from '../shared/logger';
import { deleteConnection } from '../data/ws-connection-repository';
import { wsStatus, type WsEvent, type WsResult } from './events';
import { startEntryPoint } from './entry-point';

startEntryPoint();

/** $disconnect: forget the connection (best effort: ttl removes it anyway). */
export const handler = async (event: WsEvent): Promise<WsResult> => {
  try {
    await deleteConnection(event.requestContext.connectionId);
  } catch (err) {
    logger.warn('ws disconnect cleanup failed', { requestId: event.requestContext.requestId, ...errorFields(err) });
  }
  return wsStatus(200);
};
