import { DeleteConnectionCommand, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import type { RealtimeEvent } from '../contracts/realtime';
import type { Audience, Notifier, PublishResult } from '../core/notifier';
import { isSubscriptionExpired } from '../core/auth/request-context';
import { errorFields, logger } from '../shared/logger';
import { deleteConnection, type WsConnection } from '../data/ws-connection-repository';
import { managementClient } from './management-client';

/**
 * Sends events to browsers: the realtime implementation of core's notifier port (functions/core/notifier.ts).
 * Core names each event's audience — a predicate over the stored connection (company, user, profile, rooms)
 * that decides on the server who may see it, never a company-wide broadcast that the client filters.
 */
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
 * texts) goes in several frames, an event too big to share a frame as itself.
 */
export const MAX_BATCH_FRAME_BYTES = 96 * 1024;

/**
 * Several events for the same audience, in order, as **one frame** `{batch: [event, …]}` per connection
 * (decisions D83): a stored run of messages (its appMessage creates and the ticket update) costs one
 * PostToConnection per socket instead of one per event. Events published for the same socket in the same
 * turn of the event loop — the inbound job announcing a batch's runs side by side — share that frame too
 * (D84). One event alone is sent as itself.
 */
const publishBatchToConnections = async (
  connections: readonly WsConnection[],
  events: readonly RealtimeEvent[],
  audience: Audience,
): Promise<PublishResult> => {
  if (events.length === 0) return { delivered: 0, gone: 0, failed: 0 };
  const parts = events.map((e) => JSON.stringify(e));
  // A socket whose company's due date passed since it connected gets nothing more, and is closed (D157).
  const expired = connections.filter(expiredSince);
  if (expired.length > 0) await closeConnections(expired);
  const targets = connections.filter((c) => !expiredSince(c) && audience(c));
  return tally(
    await Promise.allSettled(targets.map((c) => postCoalesced(c.connectionId, parts))),
    events.map((e) => e.channel).join(','),
  );
};

const expiredSince = (c: WsConnection): boolean =>
  c.dueDate !== undefined && isSubscriptionExpired({ id: c.companyId, dueDate: c.dueDate });

/**
 * Closes sockets through the management API (DeleteConnection) and forgets them; one already gone is only
 * forgotten. Failures are logged, not thrown: the stored item is removed either way, so no event follows.
 */
export const closeConnections = async (connections: readonly WsConnection[]): Promise<void> => {
  await Promise.all(
    connections.map(async (c) => {
      try {
        await managementClient().send(new DeleteConnectionCommand({ ConnectionId: c.connectionId }));
      } catch (err) {
        if (!(err instanceof Error && err.name === 'GoneException')) {
          logger.warn('realtime disconnect failed', { companyId: c.companyId, ...errorFields(err) });
        }
      }
      await deleteConnection(c.connectionId);
    }),
  );
};

/** The notifier core publishes through; entry points plug it in at cold start (`setNotifier`). */
export const realtimeNotifier: Notifier = { send: publishBatchToConnections, disconnect: closeConnections };

// ------------------------------------------------------------------------------ one frame per socket a turn

/** What is waiting to go to one socket at the end of this turn: serialised events, in order. */
interface Outgoing {
  parts: string[];
  waiters: { resolve: (delivered: boolean) => void; reject: (err: unknown) => void }[];
}

let outgoing = new Map<string, Outgoing>();
let flushScheduled = false;

const postCoalesced = (connectionId: string, parts: readonly string[]): Promise<boolean> =>
  new Promise((resolve, reject) => {
    let entry = outgoing.get(connectionId);
    if (!entry) {
      entry = { parts: [], waiters: [] };
      outgoing.set(connectionId, entry);
    }
    entry.parts.push(...parts);
    entry.waiters.push({ resolve, reject });
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flushOutgoing);
    }
  });

/**
 * A socket's events as frames of at most MAX_BATCH_FRAME_BYTES, in order: consecutive events share a
 * `{"batch":[…]}` frame while it fits; a frame holding one event is that event as it is.
 */
const framesOf = (parts: readonly string[]): string[] => {
  const frames: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  const wrapper = Buffer.byteLength('{"batch":[]}');
  for (const part of parts) {
    const size = Buffer.byteLength(part) + 1;
    if (current.length > 0 && wrapper + bytes + size > MAX_BATCH_FRAME_BYTES) {
      frames.push(current);
      current = [];
      bytes = 0;
    }
    current.push(part);
    bytes += size;
  }
  if (current.length > 0) frames.push(current);
  return frames.map((f) => (f.length === 1 ? f[0]! : `{"batch":[${f.join(',')}]}`));
};

const flushOutgoing = (): void => {
  flushScheduled = false;
  const due = outgoing;
  outgoing = new Map();
  for (const [connectionId, entry] of due) {
    void (async () => {
      try {
        let delivered = true;
        // A socket's frames one after another, so they arrive in the order they were published.
        for (const frame of framesOf(entry.parts)) {
          delivered = await postToConnection(connectionId, frame);
          if (!delivered) break;
        }
        for (const w of entry.waiters) w.resolve(delivered);
      } catch (err) {
        for (const w of entry.waiters) w.reject(err);
      }
    })();
  }
};
