import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppServicesProvider } from '@/app-services';
import { createSessionUserStore } from '@/session-user';
import { fakeWebSocketServer } from '@/testing/fake-web-socket';
import { TEST_CONFIG } from '@/testing/render-app';
import { RealtimeSocket } from './socket';
import { USER_STATUS_INTERVAL_MS, useRoom, useUserStatus } from './use-socket';

const setup = () => {
  const server = fakeWebSocketServer();
  const socket = new RealtimeSocket({
    url: TEST_CONFIG.wsUrl,
    getToken: () => 'token-1',
    WebSocketImpl: server.WebSocket,
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppServicesProvider services={{ config: TEST_CONFIG, socket, sessionUser: createSessionUserStore() }}>
      {children}
    </AppServicesProvider>
  );
  return { server, socket, wrapper };
};

describe('presence and room hooks', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends userStatus when the connection opens, every 5 minutes, and again after a reconnect', () => {
    const { server, socket, wrapper } = setup();
    const hook = renderHook(() => useUserStatus(), { wrapper });
    // The socket's own keep-alive pings on the same period; count the presence reports.
    const statuses = () => server.latest().sent.filter((m) => (m as { action: string }).action === 'userStatus');
    socket.start();
    act(() => server.latest().accept());
    expect(server.latest().sent).toEqual([{ action: 'userStatus' }]);

    act(() => vi.advanceTimersByTime(USER_STATUS_INTERVAL_MS));
    expect(statuses()).toHaveLength(2);

    act(() => server.latest().drop());
    act(() => vi.advanceTimersByTime(1000));
    act(() => server.latest().accept());
    expect(server.latest().sent).toEqual([{ action: 'userStatus' }]);

    hook.unmount();
    act(() => vi.advanceTimersByTime(USER_STATUS_INTERVAL_MS));
    expect(statuses()).toHaveLength(1);
    socket.stop();
  });

  it('joins a room while mounted, after every reconnect, and leaves it on unmount', () => {
    const { server, socket, wrapper } = setup();
    socket.start();
    act(() => server.latest().accept());
    const hook = renderHook(() => useRoom({ action: 'joinNotification' }, { action: 'leaveNotification' }), {
      wrapper,
    });
    hook.rerender(); // a new message object with the same content does not join twice
    expect(server.latest().sent).toEqual([{ action: 'joinNotification' }]);

    act(() => server.latest().drop());
    act(() => vi.advanceTimersByTime(1000));
    act(() => server.latest().accept());
    expect(server.latest().sent).toEqual([{ action: 'joinNotification' }]);

    hook.unmount();
    expect(server.latest().sent).toEqual([{ action: 'joinNotification' }, { action: 'leaveNotification' }]);
    socket.stop();
  });
});
