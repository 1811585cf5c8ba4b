import { toWireEvent, type CompanyEvent, type RealtimeEvent } from '../contracts/realtime';
import { listCompanyConnections, listPlatformConnections, type WsConnection } from '../data/ws-connection-repository';

/**
 * The port through which core announces changes to the people looking at them (DESIGN §3, §5). Core names
 * the event (a channel and action of the catalogue in functions/contracts/realtime.ts) and its audience — a
 * predicate over the company's stored sockets that decides, on the server, who may see it; the realtime
 * layer implements the sending (functions/realtime/publisher.ts). Every entry point that runs core code
 * plugs the implementation in once at cold start (`setNotifier`); publishing without one throws, so a
 * missing wiring fails loudly instead of silently dropping events.
 */
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
/** Admins and super users. */
export const managers: Audience = (c) => c.profile === 'admin' || c.super;
/**
 * The company's admins (and super users), plus the plain users named — those a per-user permission treats
 * as admins for one page, e.g. `allowConnections` for connections (core spec §6).
 */
export const adminsAnd = (userIds: Iterable<number>): Audience => {
  const allowed = new Set(userIds);
  return (c) => managers(c) || allowed.has(c.userId);
};

export interface PublishResult {
  delivered: number;
  gone: number;
  failed: number;
}

export interface Notifier {
  /**
   * Sends the events, in order, to each listed socket the audience admits (one frame per socket where
   * they fit, decisions D83). A socket that is gone is forgotten; a failed post is counted, not thrown.
   */
  send(
    connections: readonly WsConnection[],
    events: readonly RealtimeEvent[],
    audience: Audience,
  ): Promise<PublishResult>;
  /**
   * Closes the sockets (API Gateway's DeleteConnection) and forgets them: a company switched off, expired
   * or deleted keeps no open socket (decisions D157).
   */
  disconnect(connections: readonly WsConnection[]): Promise<void>;
}

let current: Notifier | undefined;

/** Plugs in the implementation (the entry point's cold start; tests' setup). */
export const setNotifier = (notifier: Notifier): void => {
  current = notifier;
};

const notifier = (): Notifier => {
  if (!current) throw new Error('No notifier: the entry point must call setNotifier() at cold start');
  return current;
};

/** Sends a company's events to its sockets that the audience admits (one Query for the sockets). */
export const publish = async (
  companyId: number,
  event: CompanyEvent | readonly CompanyEvent[],
  audience: Audience,
): Promise<PublishResult> => publishToConnections(await listCompanyConnections(companyId), companyId, event, audience);

/**
 * The same to sockets the caller already listed (a job that sends several events reads the company's
 * sockets once).
 */
export const publishToConnections = (
  connections: readonly WsConnection[],
  companyId: number,
  event: CompanyEvent | readonly CompanyEvent[],
  audience: Audience,
): Promise<PublishResult> =>
  notifier().send(
    connections,
    (Array.isArray(event) ? event : [event as CompanyEvent]).map((e) => toWireEvent(companyId, e)),
    audience,
  );

/**
 * A platform event (the spec's `company-announcement`, decisions D144) to every live socket of every
 * company that the audience admits: the sockets come from the platform socket index, not from a Query per
 * company.
 */
export const publishToPlatform = async (event: RealtimeEvent, audience: Audience = everyone): Promise<PublishResult> =>
  notifier().send(await listPlatformConnections(), [event], audience);

/**
 * Closes every open socket of a company (the platform owner switched it off or deleted it, decisions D157);
 * `$connect` refuses it from then on, so the browser's reconnect does not bring it back.
 */
export const disconnectCompany = async (companyId: number): Promise<number> => {
  const connections = await listCompanyConnections(companyId);
  await notifier().disconnect(connections);
  return connections.length;
};
