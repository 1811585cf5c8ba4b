import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Chat, ChatMessage } from '@/api/chats';
import { buttonNamed, click, FakeIntersectionObserver, openModal } from '@/components/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { fieldByLabel, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';

const ME = authUser({ id: 5, name: 'Ana Souza', profile: 'user' });

const chat = (id: number, title: string, overrides: Partial<Chat> = {}): Chat => ({
  id,
  uuid: `00000000-0000-4000-8000-00000000000${id}`,
  title,
  ownerId: ME.id,
  lastMessage: '',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: `2026-01-0${id}T00:00:00.000Z`,
  users: [
    { userId: ME.id, unreads: 0, user: { id: ME.id, name: ME.name } },
    { userId: 7, unreads: 0, user: { id: 7, name: 'Bruno' } },
  ],
  ...overrides,
});
const withUnreads = (c: Chat, n: number): Chat => ({
  ...c,
  users: c.users.map((u) => (u.userId === ME.id ? { ...u, unreads: n } : u)),
});
const message = (id: number, text: string, senderId = 7): ChatMessage => ({
  id: `01J${String(id).padStart(23, '0')}`,
  chatId: 1,
  senderId,
  sender: { id: senderId, name: senderId === ME.id ? ME.name : 'Bruno' },
  message: text,
  createdAt: '2026-01-05T12:00:00.000Z',
});

const EQUIPE = withUnreads(chat(1, 'Equipe', { lastMessage: 'Bom dia' }), 2);
const ALHEIO = chat(2, 'Do Bruno', { ownerId: 7 });
/** Newest first, as the server answers: 20 on page 1 with a cursor, 3 on page 2. */
const MESSAGES = Array.from({ length: 23 }, (_, i) => message(i + 1, `m${i + 1}`)).reverse();

const chatsApi = (extra: Record<string, Route> = {}) => {
  const server = fakeApi({
    ...shellRoutes(ME),
    'GET /chats': () =>
      json(200, { records: [ALHEIO, EQUIPE].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)), hasMore: false }),
    'GET /announcements': () => json(200, { records: [], hasMore: false }),
    'GET /chats/1/messages': (req) =>
      req.query?.cursor
        ? json(200, { records: MESSAGES.slice(20), hasMore: false })
        : json(200, { records: MESSAGES.slice(0, 20), hasMore: true, nextCursor: 'c2' }),
    'GET /chats/2/messages': () => json(200, { records: [], hasMore: false }),
    'POST /chats/1/read': () => json(200, withUnreads(EQUIPE, 0)),
    'POST /chats/2/read': () => json(200, ALHEIO),
    'GET /users/list': () =>
      json(200, [
        { id: ME.id, name: ME.name },
        { id: 7, name: 'Bruno' },
        { id: 8, name: 'Carla' },
      ]),
    ...extra,
  });
  return {
    ...server,
    sent: (method: string, prefix = '/chats') =>
      server.requests.filter((r) => r.method === method && r.path.startsWith(prefix)),
  };
};

const openPage = async (path = '/chats', api = chatsApi()) => {
  const view = renderApp({ path, adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: 'Chat interno' }, { timeout: 15_000 })).toBeTruthy();
  await screen.findByRole('button', { name: 'Equipe (2 não lidas)' });
  return { ...view, api };
};

const texts = () => screen.queryAllByTestId('chat-message').map((m) => m.textContent ?? '');

describe('internal chat page', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists my chats with unread counts; opening one shows its messages oldest first and marks it read', async () => {
    const { api, router } = await openPage();
    expect(screen.getByText('Selecione um chat')).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Equipe (2 não lidas)' }).click());
    await waitFor(() => expect(texts()).toHaveLength(20));
    expect(router.state.location.pathname).toBe(`/chats/${EQUIPE.uuid}`);
    expect(texts()[0]).toContain('m4');
    expect(texts()[19]).toContain('m23');
    await waitFor(() => expect(api.sent('POST').map((r) => r.path)).toEqual(['/chats/1/read']));
    expect(api.sent('POST')[0]?.body).toEqual({ userId: ME.id });
  });

  it('loads older messages when the pane is scrolled near its top', async () => {
    const { api } = await openPage(`/chats/${EQUIPE.uuid}`);
    await waitFor(() => expect(texts()).toHaveLength(20));
    const pane = screen.getByTestId('chat-messages');
    act(() => {
      fireEvent.scroll(pane, { target: { scrollTop: 0 } });
    });
    await waitFor(() => expect(texts()).toHaveLength(23));
    expect(texts()[0]).toContain('m1');
    expect(api.sent('GET', '/chats/1/messages').map((r) => r.query)).toEqual([undefined, { cursor: 'c2' }]);
  });

  it('sends with Enter (Shift+Enter does not), never a blank message, and shows what was sent', async () => {
    const sent = message(99, 'Olá equipe', ME.id);
    const api = chatsApi({ 'POST /chats/1/messages': () => json(201, sent) });
    const { wrapper } = await openPage(`/chats/${EQUIPE.uuid}`, api);
    await waitFor(() => expect(texts()).toHaveLength(20));
    const textarea = wrapper.findTextarea()!;
    act(() => textarea.setTextareaValue('   '));
    act(() => {
      fireEvent.keyDown(textarea.findNativeTextarea().getElement(), { key: 'Enter' });
    });
    expect(api.sent('POST', '/chats/1/messages')).toHaveLength(0);

    act(() => textarea.setTextareaValue('Olá equipe'));
    act(() => {
      fireEvent.keyDown(textarea.findNativeTextarea().getElement(), { key: 'Enter', shiftKey: true });
    });
    expect(api.sent('POST', '/chats/1/messages')).toHaveLength(0);
    act(() => {
      fireEvent.keyDown(textarea.findNativeTextarea().getElement(), { key: 'Enter' });
    });
    await waitFor(() => expect(texts().at(-1)).toContain('Olá equipe'));
    expect(api.sent('POST', '/chats/1/messages')[0]?.body).toEqual({ message: 'Olá equipe' });
    expect(textarea.findNativeTextarea().getElement().value).toBe('');
  });

  it('shows edit and delete only to the owner of the chat', async () => {
    const { wrapper } = await openPage(`/chats/${EQUIPE.uuid}`);
    await waitFor(() => expect(buttonNamed(wrapper, 'Editar Equipe')).toBeTruthy());
    expect(buttonNamed(wrapper, 'Excluir Equipe')).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Do Bruno' }).click());
    await screen.findByRole('heading', { name: 'Do Bruno' });
    expect(() => buttonNamed(wrapper, 'Editar Do Bruno')).toThrow();
    expect(() => buttonNamed(wrapper, 'Excluir Do Bruno')).toThrow();
  });

  it('adds live messages to the open chat and unread counts to the list', async () => {
    const view = await openPage(`/chats/${EQUIPE.uuid}`);
    await waitFor(() => expect(texts()).toHaveLength(20));
    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    act(() =>
      view.server.latest().push({
        channel: `company-2-chat-1`,
        action: 'new-message',
        newMessage: message(50, 'chegou agora'),
      }),
    );
    await waitFor(() => expect(texts().at(-1)).toContain('chegou agora'));
    act(() =>
      view.server.latest().push({
        channel: `company-2-chat-user-${ME.id}`,
        action: 'new-message',
        record: withUnreads({ ...ALHEIO, updatedAt: '2026-02-01T00:00:00.000Z', lastMessage: 'novidade' }, 4),
      }),
    );
    expect(await screen.findByRole('button', { name: 'Do Bruno (4 não lidas)' })).toBeTruthy();
  });

  it('the new chat dialog saves only with a title and at least one user', async () => {
    const created = chat(3, 'Plantão', {
      users: [...EQUIPE.users, { userId: 8, unreads: 0, user: { id: 8, name: 'Carla' } }],
    });
    const api = chatsApi({
      'POST /chats': () => json(201, created),
      'GET /chats/3/messages': () => json(200, { records: [], hasMore: false }),
      'POST /chats/3/read': () => json(200, created),
    });
    const { wrapper, router } = await openPage('/chats', api);
    click(wrapper, 'Novo');
    const modal = openModal(wrapper);
    expect(buttonNamed(modal, 'Salvar').isDisabled()).toBe(true);
    typeInto(wrapper, 'Título', 'Plantão');
    expect(buttonNamed(modal, 'Salvar').isDisabled()).toBe(true);
    const picker = fieldByLabel(wrapper, 'Usuários').findControl()!.findMultiselect()!;
    act(() => picker.openDropdown());
    await waitFor(() => expect(picker.findDropdown().findOptions()).toHaveLength(2));
    expect(
      picker
        .findDropdown()
        .findOptions()
        .map((o) => o.getElement().textContent),
    ).toEqual(['Bruno', 'Carla']);
    act(() => picker.selectOptionByValue('8'));
    expect(buttonNamed(modal, 'Salvar').isDisabled()).toBe(false);
    click(modal, 'Salvar');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/chats/${created.uuid}`));
    expect(api.sent('POST', '/chats')[0]?.body).toEqual({ title: 'Plantão', users: [{ id: 8, name: 'Carla' }] });
  });

  it('on a narrow screen shows the tabs Chats and Mensagens', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query.includes('max-width: 599px') || query.includes('prefers-reduced-motion: reduce'),
          media: query,
          onchange: null,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          addListener: () => undefined,
          removeListener: () => undefined,
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
    const { wrapper } = await openPage();
    const tabs = wrapper.findTabs()!;
    expect(tabs.findTabLinks().map((l) => l.getElement().textContent)).toEqual(['Chats', 'Mensagens']);
    act(() => screen.getByRole('button', { name: 'Equipe (2 não lidas)' }).click());
    await waitFor(() => expect(tabs.findActiveTab()?.getElement().textContent).toBe('Mensagens'));
  });
});
