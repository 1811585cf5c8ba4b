import { verifyAccessToken } from '../core/access-token';
import { resolveAuthContext } from '../core/auth/request-context';
import { DomainError } from '../shared/errors';
import { errorFields, logger } from '../shared/logger';
import { putConnection } from '../data/ws-connection-repository';
import { wsStatus, type WsEvent, type WsResult } from './events';
import { startEntryPoint } from './entry-point';

startEntryPoint();

/**
 * $connect: the browser opens `wss://…/ws?token=<access token>` (browsers cannot set headers on a
 * WebSocket). No token rejects the upgrade with 401; a forged or expired token, or one of a session that
 * ended (a login elsewhere, a logout, a deleted user), with 403 — the same rules as HTTP (D9, D18). A
 * company switched off or deleted (403 ERR_COMPANY_INACTIVE) or expired (403 ERR_SUBSCRIPTION_EXPIRED) may
 * not connect (decisions D157); the company's due date is stored with the socket, so the publisher stops
 * and closes it once the date passes. The stored profile and super flag come from the user record, not
 * from the token.
 */
export const handler = async (event: WsEvent): Promise<WsResult> => {
  const token = event.queryStringParameters?.token;
  if (!token) return wsStatus(401, { error: 'ERR_SESSION_EXPIRED' });
  try {
    const auth = await resolveAuthContext(await verifyAccessToken(token), {});
    await putConnection({
      connectionId: event.requestContext.connectionId,
      companyId: auth.companyId,
      userId: auth.userId,
      profile: auth.profile,
      super: auth.super,
      rooms: [],
      connectedAt: new Date(event.requestContext.connectedAt ?? Date.now()).toISOString(),
      ...(auth.dueDate ? { dueDate: auth.dueDate } : {}),
    });
    return wsStatus(200);
  } catch (err) {
    if (err instanceof DomainError) return wsStatus(err.status, { error: err.code });
    logger.error('ws connect failed', { requestId: event.requestContext.requestId, ...errorFields(err) });
    return wsStatus(500, { error: 'ERR_INTERNAL' });
  }
};
