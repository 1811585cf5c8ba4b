import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Announcement } from '@/api/announcements';
import type { Chat } from '@/api/chats';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { fullPlan, shellRoutes } from '@/testing/shell-api';

const ME = authUser({ id: 5, profile: 'user' });

const announcement = (id: number, title: string, priority: 1 | 2 | 3): Announcement => ({
  id,
  title,
  text: `Texto ${title}`,
  priority,
  status: true,
  mediaPath: null,
  mediaName: null,
  createdAt: `2026-01-0${id}T00:00:00.000Z`,
  updatedAt: `2026-01-0${id}T00:00:00.000Z`,
});

const chat = (unreads: number): Chat => ({
  id: 1,
  uuid: '00000000-0000-4000-8000-000000000001',
  title: 'Equipe',
  ownerId: 7,
  lastMessage: 'Oi',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  users: [
    { userId: ME.id, unreads, user: { id: ME.id, name: ME.name } },
    { userId: 7, unreads: 0, user: { id: 7, name: 'Bruno' } },
  ],
});

const open = (useInternalChat = true) => {
  const api = fakeApi({
    ...shellRoutes(ME, fullPlan({ useInternalChat })),
    'GET /announcements': () =>
      json(200, { records: [announcement(1, 'Baixa prioridade', 3), announcement(2, 'Urgente', 1)], hasMore: false }),
    'GET /chats': () => json(200, { records: [chat(3)], hasMore: false }),
  });
  const view = renderApp({ path: '/todolist', adapter: api.adapter });
  return { ...view, api };
};

class FakeAudioContext {
  static created = 0;
  currentTime = 0;
  destination = {};
  constructor() {
    FakeAudioContext.created += 1;
  }
  createGain() {
    return { gain: { value: 0 }, connect: () => undefined };
  }
  createOscillator() {
    return { frequency: { value: 0 }, connect: () => undefined, start: () => undefined, stop: () => undefined };
  }
  close() {
    return Promise.resolve();
  }
}

describe('top bar: announcements and internal chats', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the active announcements by priority with their colour, and follows company-announcement live', async () => {
    const view = open();
    const button = await screen.findByRole('button', { name: 'Informativos: 2' }, { timeout: 15_000 });
    act(() => button.click());
    await waitFor(() => expect(screen.getAllByTestId('announcement')).toHaveLength(2));
    expect(screen.getAllByTestId('announcement').map((a) => [a.textContent, a.dataset.priority])).toEqual([
      ['UrgenteTexto Urgente', '1'],
      ['Baixa prioridadeTexto Baixa prioridade', '3'],
    ]);
    expect(screen.getAllByTestId('announcement')[0]!.style.borderLeft).toContain('rgb(217, 21, 21)');

    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    act(() =>
      view.server
        .latest()
        .push({ channel: 'company-announcement', action: 'create', record: announcement(3, 'Nova', 2) }),
    );
    expect(await screen.findByRole('button', { name: 'Informativos: 3' })).toBeTruthy();
    act(() =>
      view.server.latest().push({
        channel: 'company-announcement',
        action: 'update',
        record: { ...announcement(2, 'Urgente', 1), status: false },
      }),
    );
    expect(await screen.findByRole('button', { name: 'Informativos: 2' })).toBeTruthy();
  });

  it('shows the unread chat messages and plays the sound only for messages from someone else', async () => {
    vi.stubGlobal('AudioContext', FakeAudioContext);
    FakeAudioContext.created = 0;
    const view = open();
    expect(
      await screen.findByRole('button', { name: 'Chats internos: 3 não lidas' }, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(screen.getByTestId('chats-unread-count').textContent).toBe('3');

    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    const push = (senderId: number, unreads: number) =>
      act(() =>
        view.server.latest().push({
          channel: `company-2-chat-user-${ME.id}`,
          action: 'new-message',
          newMessage: {
            id: `m${unreads}`,
            chatId: 1,
            senderId,
            sender: { id: senderId, name: 'x' },
            message: 'oi',
            createdAt: '2026-01-03T00:00:00.000Z',
          },
          record: { ...chat(unreads), updatedAt: `2026-01-0${unreads}T00:00:00.000Z` },
        }),
      );
    push(ME.id, 3);
    expect(FakeAudioContext.created).toBe(0);
    push(7, 4);
    expect(await screen.findByRole('button', { name: 'Chats internos: 4 não lidas' })).toBeTruthy();
    expect(FakeAudioContext.created).toBe(1);
  });

  it('has no chats popover when the plan has no internal chat', async () => {
    const view = open(false);
    await screen.findByRole('button', { name: 'Informativos: 2' }, { timeout: 15_000 });
    expect(screen.queryByRole('button', { name: /Chats internos/ })).toBeNull();
    expect(view.api.requests.some((r) => r.path === '/chats')).toBe(false);
  });
});
