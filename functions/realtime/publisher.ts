import { PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { errorFields, logger } from '../core/logger';
import { deleteConnection, listCompanyConnections, type WsConnection } from '../data/ws-connection-repository';
import { managementClient } from './management-client';

/**
 * Sends events to browsers. Every event names its audience: a predicate over the stored connection
 * (company, user, profile, rooms) decides who may see it, on the server — never a company-wide broadcast
 * that the client filters. Later features pass richer predicates (queue membership, allTicket, ...).
 */
export interface RealtimeEvent {
  /** Spec channel name, e.g. `company-42-ticket`. */
  channel: string;
  /** Spec action: create, update, delete, new-message, ... */
  action: string;
  [payload: string]: unknown;
}

export type Audience = (connection: WsConnection) => boolean;

export const everyone: Audience = () => true;
export const onlyUser =
  (userId: number): Audience =>
  (c) =>
    c.userId === userId;
export const inRoom =
  (room: string): Audience =>
  (c) =>
    c.rooms.includes(room);
/**
 * The company's admins (and super users), plus the plain users named — those a per-user permission treats
 * as admins for one page, e.g. `allowConnections` for connections (core spec §6).
 */
export const adminsAnd = (userIds: Iterable<number>): Audience => {
  const allowed = new Set(userIds);
  return (c) => c.profile === 'admin' || c.super || allowed.has(c.userId);
};

/** Sends to one connection; a connection that is gone is forgotten. Returns whether it was delivered. */
export const postToConnection = async (
  connectionId: string,
  event: RealtimeEvent | Record<string, unknown>,
): Promise<boolean> => {
  try {
    await managementClient().send(
      new PostToConnectionCommand({
        ConnectionId: connectionId,
        Data: new TextEncoder().encode(JSON.stringify(event)),
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof Error && err.name === 'GoneException') {
      await deleteConnection(connectionId);
      return false;
    }
    throw err;
  }
};

export interface PublishResult {
  delivered: number;
  gone: number;
  failed: number;
}

/** Fans an event out to the company's connections that the audience admits, in parallel. */
export const publish = async (companyId: number, event: RealtimeEvent, audience: Audience): Promise<PublishResult> =>
  publishToConnections(await listCompanyConnections(companyId), event, audience);

/**
 * Fans an event out to connections the caller already listed (a job that sends several events reads the
 * company's connections once), filtered by the audience.
 */
export const publishToConnections = async (
  connections: readonly WsConnection[],
  event: RealtimeEvent,
  audience: Audience,
): Promise<PublishResult> => {
  const targets = connections.filter(audience);
  const outcomes = await Promise.allSettled(targets.map((c) => postToConnection(c.connectionId, event)));
  const result: PublishResult = { delivered: 0, gone: 0, failed: 0 };
  for (const o of outcomes) {
    if (o.status === 'rejected') {
      result.failed += 1;
      logger.warn('realtime post failed', { channel: event.channel, ...errorFields(o.reason) });
    } else if (o.value) result.delivered += 1;
    else result.gone += 1;
  }
  return result;
};
