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

/**
 * Sends to one connection (an event, or a frame already serialised); a connection that is gone is
 * forgotten. Returns whether it was delivered.
 */
export const postToConnection = async (
  connectionId: string,
  event: RealtimeEvent | Record<string, unknown> | string,
): Promise<boolean> => {
  try {
    await managementClient().send(
      new PostToConnectionCommand({
        ConnectionId: connectionId,
        Data: new TextEncoder().encode(typeof event === 'string' ? event : JSON.stringify(event)),
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
  return tally(await Promise.allSettled(targets.map((c) => postToConnection(c.connectionId, event))), event.channel);
};

const tally = (outcomes: PromiseSettledResult<boolean>[], channel: string): PublishResult => {
  const result: PublishResult = { delivered: 0, gone: 0, failed: 0 };
  for (const o of outcomes) {
    if (o.status === 'rejected') {
      result.failed += 1;
      logger.warn('realtime post failed', { channel, ...errorFields(o.reason) });
    } else if (o.value) result.delivered += 1;
    else result.gone += 1;
  }
  return result;
};

/**
 * The largest frame sent as one: API Gateway takes messages up to 128 KB; a bigger batch (a run of long
 * texts) goes event by event.
 */
export const MAX_BATCH_FRAME_BYTES = 96 * 1024;

/**
 * Several events for the same audience, in order, as **one frame** `{batch: [event, …]}` per connection
 * (decisions D83): a stored run of messages (its appMessage creates and the ticket update) costs one
 * PostToConnection per socket instead of one per event. One event is sent as itself.
 */
export const publishBatchToConnections = async (
  connections: readonly WsConnection[],
  events: readonly RealtimeEvent[],
  audience: Audience,
): Promise<PublishResult> => {
  if (events.length === 0) return { delivered: 0, gone: 0, failed: 0 };
  if (events.length === 1) return publishToConnections(connections, events[0]!, audience);
  const frame = JSON.stringify({ batch: events });
  if (Buffer.byteLength(frame) > MAX_BATCH_FRAME_BYTES) {
    const result: PublishResult = { delivered: 0, gone: 0, failed: 0 };
    for (const event of events) {
      const one = await publishToConnections(connections, event, audience);
      result.delivered += one.delivered;
      result.gone += one.gone;
      result.failed += one.failed;
    }
    return result;
  }
  const targets = connections.filter(audience);
  return tally(
    await Promise.allSettled(targets.map((c) => postToConnection(c.connectionId, frame))),
    events.map((e) => e.channel).join(','),
  );
};
