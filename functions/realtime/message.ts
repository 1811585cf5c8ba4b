import { errorFields, logger } from '../shared/logger';
import { touchPresence } from '../data/user-presence-repository';
import { changeRooms, getConnectionOwner } from '../data/ws-connection-repository';
import { wsStatus, type WsEvent, type WsResult } from './events';
import { postToConnection } from './publisher';
import { ROOM_ACTIONS, type RoomAction } from './rooms';
import { WS_ACTIONS } from './routes';
import { startEntryPoint } from './entry-point';

startEntryPoint();

/**
 * Named actions (route selection on `action`) and `$default`. Each action answers the sender through
 * the management API, like a real API Gateway WebSocket integration would:
 * - room actions answer `{action, rooms}` with the connection's rooms afterwards (so a client knows its
 *   subscription is live before it refetches), or `{action, error: 'ERR_VALIDATION', fields}`;
 * - `userStatus` records presence and answers `{action: 'userStatus', ok: true}`;
 * - `ping` answers `{action: 'pong'}`.
 */
type Action = (typeof WS_ACTIONS)[number];
type Owner = { companyId: number; userId: number };

const parseBody = (event: WsEvent): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(event.body ?? '');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const roomAction =
  (name: RoomAction) =>
  async (event: WsEvent, owner: Owner): Promise<void> => {
    const { connectionId } = event.requestContext;
    const def = ROOM_ACTIONS[name];
    const parsed = def.schema.safeParse(parseBody(event));
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => ({ field: i.path.join('.'), reason: i.message }));
      await postToConnection(connectionId, { action: name, error: 'ERR_VALIDATION', fields });
      return;
    }
    const rooms = await changeRooms(owner.companyId, connectionId, (def.change as (p: unknown) => object)(parsed.data));
    await postToConnection(
      connectionId,
      rooms === null ? { action: name, error: 'ERR_SESSION_EXPIRED' } : { action: name, rooms },
    );
  };

const actions: Record<Action, (event: WsEvent, owner: Owner) => Promise<void>> = {
  ping: async (event) => {
    await postToConnection(event.requestContext.connectionId, { action: 'pong' });
  },
  joinNotification: roomAction('joinNotification'),
  leaveNotification: roomAction('leaveNotification'),
  joinTickets: roomAction('joinTickets'),
  leaveTickets: roomAction('leaveTickets'),
  joinChatBox: roomAction('joinChatBox'),
  leaveChatBox: roomAction('leaveChatBox'),
  userStatus: async (event, owner) => {
    const ok = await touchPresence(owner.companyId, owner.userId);
    await postToConnection(
      event.requestContext.connectionId,
      ok ? { action: 'userStatus', ok } : { action: 'userStatus', error: 'ERR_NO_USER_FOUND' },
    );
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
