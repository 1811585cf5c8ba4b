import { errorFields, logger } from '../core/logger';
import { getConnectionOwner } from '../data/ws-connection-repository';
import { wsStatus, type WsEvent, type WsResult } from './events';
import { postToConnection } from './publisher';
import { WS_ACTIONS } from './routes';

/**
 * Named actions (route selection on `action`) and `$default`. Each action answers the sender through
 * the management API, like a real API Gateway WebSocket integration would.
 */
type Action = (typeof WS_ACTIONS)[number];

const actions: Record<Action, (event: WsEvent, owner: { companyId: number; userId: number }) => Promise<void>> = {
  ping: async (event) => {
    await postToConnection(event.requestContext.connectionId, { action: 'pong' });
  },
};

const isAction = (routeKey: string): routeKey is Action => (WS_ACTIONS as readonly string[]).includes(routeKey);

export const handler = async (event: WsEvent): Promise<WsResult> => {
  const { connectionId, routeKey, requestId } = event.requestContext;
  try {
    const owner = await getConnectionOwner(connectionId);
    if (!owner) {
      // Not registered (expired or never authenticated): tell the client to reconnect.
      await postToConnection(connectionId, { error: 'ERR_SESSION_EXPIRED' });
      return wsStatus(401);
    }
    if (isAction(routeKey)) {
      await actions[routeKey](event, owner);
      return wsStatus(200);
    }
    await postToConnection(connectionId, { error: 'ERR_UNKNOWN_ACTION', message: 'Unknown action' });
    return wsStatus(400);
  } catch (err) {
    logger.error('ws message failed', { requestId, routeKey, ...errorFields(err) });
    return wsStatus(500);
  }
};
