import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MomentTicket, UserMoment } from '@/api/dashboard';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';

const ticket = (id: number, overrides: Partial<MomentTicket> = {}): MomentTicket => ({
  id,
  uuid: `uuid-${id}`,
  status: 'open',
  lastMessage: `Mensagem ${id}`,
  updatedAt: '2026-03-01T10:00:00.000Z',
  createdAt: '2026-03-01T09:00:00.000Z',
  unreadMessages: 0,
  userId: null,
  user: null,
  queueId: 3,
  queue: { id: 3, name: 'Vendas', color: '#1f77b4' },
  contact: { id: id + 100, name: `Cliente ${id}` },
  whatsapp: { id: 1, name: 'Loja' },
  canOpen: true,
  ...overrides,
});
const USERS: UserMoment[] = [
  { id: 7, name: 'Bia', online: true, profile: 'user', open: 1, pending: 0 },
  { id: 8, name: 'Caio', online: false, profile: 'user', open: 0, pending: 0 },
];

const panelApi = (me = authUser(), answers: MomentTicket[][]) => {
  let call = 0;
  return fakeApi({
    ...shellRoutes(me),
    'GET /dashboard/moments': () =>
      json(200, { tickets: answers[Math.min(call++, answers.length - 1)], hasMore: false }),
    'GET /usersMoments': () => json(200, USERS),
  });
};

const bia = { userId: 7, user: { id: 7, name: 'Bia' } };

describe('attendance panel', () => {
  it('shows Pendentes and one card per attendant with open tickets, and follows ticket events', async () => {
    const first = [ticket(1, { status: 'pending' }), ticket(2, bia)];
    const second = [ticket(2, bia), ticket(1, { ...bia, status: 'open' })];
    const api = panelApi(authUser(), [first, second]);
    const view = renderApp({ path: '/moments', adapter: api.adapter });
    const pending = await screen.findByRole('list', { name: 'Pendentes' }, { timeout: 45_000 });
    expect(
      within(pending)
        .getAllByTestId('panel-ticket')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('Cliente 1')]);
    const biaCard = screen.getByRole('list', { name: 'Bia' });
    expect(within(biaCard).getAllByTestId('panel-ticket')).toHaveLength(1);
    expect(screen.queryByRole('list', { name: 'Caio' })).toBeNull();

    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    act(() => view.server.latest().push({ channel: 'company-2-ticket', action: 'update', ticket: { id: 1 } }));
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Bia' })).getAllByTestId('panel-ticket')).toHaveLength(2),
    );
    expect(within(screen.getByRole('list', { name: 'Pendentes' })).queryAllByTestId('panel-ticket')).toHaveLength(0);
  }, 60_000);

  it('offers to open only the tickets the server says the caller may open', async () => {
    const me = authUser({ profile: 'user', allowRealTime: 'enabled', id: 7 });
    const api = panelApi(me, [
      [ticket(2, { ...bia, canOpen: true }), ticket(3, { userId: 8, user: { id: 8, name: 'Caio' }, canOpen: false })],
    ]);
    renderApp({ path: '/moments', adapter: api.adapter });
    await screen.findByRole('list', { name: 'Caio' }, { timeout: 45_000 });
    expect(screen.getByRole('link', { name: 'Ver ticket 2' }).getAttribute('href')).toBe('/tickets/uuid-2');
    expect(screen.queryByRole('link', { name: 'Ver ticket 3' })).toBeNull();
  }, 60_000);

  it('shows the no-permission view to a user without allowRealTime', async () => {
    const me = authUser({ profile: 'user', allowRealTime: 'disabled' });
    renderApp({ path: '/moments', adapter: panelApi(me, [[]]).adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', {}, { timeout: 45_000 })).toBeTruthy();
  }, 60_000);
});
