import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { useAppServices } from '@/app-services';
import type { SocketEvent, SocketMessage, SocketState } from './socket';

/** The socket's live state; re-renders when it changes. */
export function useSocketState(): SocketState {
  const { socket } = useAppServices();
  return useSyncExternalStore(
    (onChange) => socket.onStateChange(onChange),
    () => socket.state,
  );
}

/** Calls `handler` for every event on `channel` while the component is mounted. */
export function useChannel(channel: string, handler: (event: SocketEvent) => void): void {
  const { socket } = useAppServices();
  const onEvent = useEffectEvent(handler);
  useEffect(() => socket.subscribe(channel, (event) => onEvent(event)), [socket, channel]);
}

/** Calls `handler` when the connection comes back after a loss: refetch what the screen shows. */
export function useOnReconnect(handler: () => void): void {
  const { socket } = useAppServices();
  const onReconnect = useEffectEvent(handler);
  useEffect(() => socket.onReconnect(() => onReconnect()), [socket]);
}

/**
 * Joins a room while the component is mounted (again after every reconnect) and leaves it on unmount,
 * e.g. `useRoom({action: 'joinNotification'}, {action: 'leaveNotification'})`.
 */
export function useRoom(join: SocketMessage, leave: SocketMessage): void {
  const { socket } = useAppServices();
  const joinKey = JSON.stringify(join);
  const leaveKey = JSON.stringify(leave);
  useEffect(
    () => socket.join(JSON.parse(joinKey) as SocketMessage, JSON.parse(leaveKey) as SocketMessage),
    [socket, joinKey, leaveKey],
  );
}

/** Core spec §7, §9: the browser reports its user's presence every 5 minutes. */
export const USER_STATUS_INTERVAL_MS = 300_000;

/**
 * Sends `userStatus` when the connection opens (so a user shows online at once, also after a reconnect)
 * and every 5 minutes while mounted; the server derives "online" from it
 * (docs/decisions/D16-websocket-rooms-presence.md).
 */
export function useUserStatus(intervalMs = USER_STATUS_INTERVAL_MS): void {
  const { socket } = useAppServices();
  useEffect(() => {
    const send = () => socket.send({ action: 'userStatus' });
    if (socket.state === 'open') send();
    const stopWatching = socket.onStateChange(() => {
      if (socket.state === 'open') send();
    });
    const timer = setInterval(send, intervalMs);
    return () => {
      stopWatching();
      clearInterval(timer);
    };
  }, [socket, intervalMs]);
}
