import { useCallback, useEffect, useState } from 'react';
import { companyChannel } from '@contracts/realtime';
import { listConnections, type Connection } from '@/api/connections';
import type { SocketEvent } from '@/realtime/socket';
import { useChannel, useOnReconnect } from '@/realtime/use-socket';

/**
 * The company's connections kept live (core spec §7 real time): GET /whatsapp, then
 * `company-{id}-whatsapp` (update with `whatsapp`, delete with `whatsappId`) and
 * `company-{id}-whatsappSession` (update with `session`) patch the list, and a socket reconnect reads it
 * again (events sent while the socket was down are gone). Used by the connections page and by the side
 * menu's attention badge.
 */
export type ConnectionChange = { kind: 'update'; connection: Connection } | { kind: 'delete'; id: number };

const isConnection = (value: unknown): value is Connection =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Connection).id === 'number' &&
  typeof (value as Connection).status === 'string';

/** The change an event of either channel carries, or null for anything else. */
export const connectionChangeOf = (event: SocketEvent): ConnectionChange | null => {
  if (event.action === 'delete' && typeof event.whatsappId === 'number')
    return { kind: 'delete', id: event.whatsappId };
  if (event.action !== 'update') return null;
  const connection = event.whatsapp ?? event.session;
  return isConnection(connection) ? { kind: 'update', connection } : null;
};

const newer = (a: Connection, b: Connection) => (a.updatedAt ?? '') >= (b.updatedAt ?? '');

/**
 * Applies a change: an update replaces the row with the same id unless the row shown is newer (an HTTP
 * answer that arrives after the worker's next event must not take the status back), or appends a
 * connection not shown yet (another manager created it); a delete removes the row.
 */
export const applyConnectionChange = (list: Connection[], change: ConnectionChange): Connection[] => {
  if (change.kind === 'delete') return list.filter((c) => c.id !== change.id);
  const incoming = change.connection;
  const index = list.findIndex((c) => c.id === incoming.id);
  if (index === -1) return [...list, incoming];
  if (!newer(incoming, list[index]!)) return list;
  return list.map((c, i) => (i === index ? { ...c, ...incoming } : c));
};

/** A fresh list, keeping rows that events made newer while it was being read. */
const mergeLoaded = (loaded: Connection[], shown: Connection[]): Connection[] => {
  const byId = new Map(shown.map((c) => [c.id, c]));
  return loaded.map((c) => {
    const seen = byId.get(c.id);
    return seen && !newer(c, seen) ? seen : c;
  });
};

export interface LiveConnections {
  /** 'loading' until the first answer (and while retrying after an error). */
  status: 'loading' | 'ready' | 'error';
  connections: Connection[];
  error: unknown;
  reload: () => void;
  /** An answer of the server (save, session action): shown at once, events may follow. */
  apply: (change: ConnectionChange) => void;
}

/**
 * @param enabled false: nothing is read (a user who may not manage connections, an expired company).
 * @param delayMs wait before the first read (the side menu's check runs 2 s after start, core spec §9).
 */
export function useLiveConnections(
  companyId: number,
  { enabled = true, delayMs = 0 }: { enabled?: boolean; delayMs?: number } = {},
): LiveConnections {
  const [state, setState] = useState<Pick<LiveConnections, 'status' | 'connections' | 'error'>>({
    status: 'loading',
    connections: [],
    error: undefined,
  });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (!enabled) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        listConnections({ signal: controller.signal }).then(
          (list) => {
            if (!controller.signal.aborted) {
              setState((s) => ({ status: 'ready', connections: mergeLoaded(list, s.connections), error: undefined }));
            }
          },
          (error: unknown) => {
            if (!controller.signal.aborted) setState((s) => ({ ...s, status: 'error', error }));
          },
        );
      },
      generation === 0 ? delayMs : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [enabled, delayMs, generation]);

  const apply = useCallback(
    (change: ConnectionChange) =>
      setState((s) => ({ ...s, connections: applyConnectionChange(s.connections, change) })),
    [],
  );
  const onEvent = (event: SocketEvent) => {
    const change = enabled ? connectionChangeOf(event) : null;
    if (change) apply(change);
  };
  useChannel(companyChannel(companyId, 'whatsapp'), onEvent);
  useChannel(companyChannel(companyId, 'whatsappSession'), onEvent);

  const reload = useCallback(() => {
    setState((s) => (s.status === 'error' ? { ...s, status: 'loading' } : s));
    setGeneration((g) => g + 1);
  }, []);
  useOnReconnect(reload);

  return { ...state, reload, apply };
}
