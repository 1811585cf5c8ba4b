import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { useAppServices } from '@/app-services';
import type { SocketEvent, SocketState } from './socket';

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
