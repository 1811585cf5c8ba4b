import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KanbanTicketView } from '@/api/tags';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { toastTexts } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { tagRow } from '@/pages/tags/test-kit';
import { cardTime, localDay } from './kanban-page';

const LANES = [tagRow(10, 'Proposta', { kanban: 1, color: '#aa00aa' }), tagRow(11, 'Fechado', { kanban: 1 })];

const card = (id: number, overrides: Partial<KanbanTicketView> = {}): KanbanTicketView => ({
  id,
  uuid: `uuid-${id}`,
  status: 'open',
  queueId: null,
  contact: { id: 100 + id, name: `Cliente ${id}`, number: `551199999000${id}` },
  lastMessage: `Mensagem ${id}`,
  unreadMessages: 0,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  channel: 'whatsapp',
  whatsapp: { id: 1, name: 'Loja' },
  user: null,
  tags: [],
  kanbanTagId: null,
  ...overrides,
});

const TICKETS = [
  card(1, { unreadMessages: 3, user: { id: 5, name: 'Ana Souza' } }),
  card(2, { kanbanTagId: 10, tags: [{ id: 10, name: 'Proposta', color: '#aa00aa', kanban: 1 }] }),
];

const boardApi = (me = authUser(), extra: Record<string, Route> = {}) =>
  fakeApi({
    ...shellRoutes(me),
    'GET /tag/kanban': () => json(200, { lista: LANES }),
    'GET /ticket/kanban': () => json(200, { tickets: TICKETS }),
    ...extra,
  });

const laneOf = (laneId: number) => screen.getByTestId(`kanban-lane-${laneId}`);
const cardsIn = (laneId: number) =>
  [...laneOf(laneId).querySelectorAll('[data-testid^="kanban-card-"]')].map((e) => e.getAttribute('data-testid'));

const openBoard = async (api = boardApi()) => {
  const view = renderApp({ path: '/Kanban', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: 'Kanban' }, { timeout: 60_000 })).toBeTruthy();
  await waitFor(() => expect(cardsIn(0)).toEqual(['kanban-card-1']));
  return { ...view, api };
};

describe('/Kanban', { timeout: 90_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the default lane "Em aberto" then one lane per kanban tag, and what a card shows', async () => {
    const { api } = await openBoard();
    const titles = [...document.querySelectorAll('[data-testid^="kanban-lane-"]')].map((e) =>
      e.getAttribute('aria-label'),
    );
    expect(titles).toEqual(['Em aberto', 'Proposta', 'Fechado']);
    expect(cardsIn(10)).toEqual(['kanban-card-2']);
    expect(laneOf(10).style.borderTop).toContain('rgb(170, 0, 170)');
    const first = screen.getByTestId('kanban-card-1');
    expect(first.textContent).toContain('Ticket nº 1');
    expect(first.textContent).toContain('Cliente 1');
    expect(first.textContent).toContain('5511999990001');
    expect(first.textContent).toContain('Mensagem 1');
    expect(first.textContent).toContain('Ana Souza');
    expect(first.querySelector('[title="Loja"]')).toBeTruthy();
    expect(first.style.border).toContain('2px solid');
    const today = localDay();
    expect(api.requests.find((r) => r.path === '/ticket/kanban')?.query).toEqual({ startDate: today, endDate: today });
    expect(screen.getByRole('button', { name: '+ Adicionar colunas' })).toBeTruthy();
  });

  it('moves a card to a lane with one PUT and back to "Em aberto" with the lane-only DELETE', async () => {
    const { api, wrapper } = await openBoard(
      boardApi(authUser(), {
        'PUT /ticket-tags/1/11': () => json(200, { ticketId: 1, tags: [LANES[1]] }),
        'DELETE /ticket-tags/2': () => json(200, { ticketId: 2, tags: [] }),
      }),
    );
    const menu = createWrapper(screen.getByTestId('kanban-card-1')).findButtonDropdown()!;
    act(() => menu.openDropdown());
    act(() => menu.findItemById('11')!.click());
    await waitFor(() => expect(cardsIn(11)).toEqual(['kanban-card-1']));
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Ticket Tag Adicionado com Sucesso!'));

    const back = createWrapper(screen.getByTestId('kanban-card-2')).findButtonDropdown()!;
    act(() => back.openDropdown());
    act(() => back.findItemById('0')!.click());
    await waitFor(() => expect(cardsIn(0)).toEqual(['kanban-card-2']));
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Ticket Tag Removido!'));
    const moves = api.requests.filter((r) => r.path.startsWith('/ticket-tags/'));
    expect(moves.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query ?? {})}`)).toEqual([
      'PUT /ticket-tags/1/11 {}',
      'DELETE /ticket-tags/2 {"kanban":"1"}',
    ]);
  });

  it('refetches on a tag or ticket event, searches the chosen dates, and shows an empty board when loading fails', async () => {
    let fail = false;
    const view = await openBoard(
      boardApi(authUser({ profile: 'user' }), {
        'GET /ticket/kanban': () => (fail ? json(500, { error: 'ERR_INTERNAL' }) : json(200, { tickets: TICKETS })),
      }),
    );
    expect(screen.queryByRole('button', { name: '+ Adicionar colunas' })).toBeNull();
    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    const before = view.api.requests.filter((r) => r.path === '/ticket/kanban').length;
    fail = true;
    act(() => view.server.latest().push({ channel: 'company2-tag', action: 'update', tag: LANES[0] }));
    await waitFor(() => expect(view.api.requests.filter((r) => r.path === '/ticket/kanban').length).toBe(before + 1));
    await waitFor(() => expect(document.querySelectorAll('[data-testid^="kanban-card-"]')).toHaveLength(0));
    expect(screen.getByTestId('kanban-lane-0').getAttribute('aria-label')).toBe('Em aberto');
  });

  it('formats a card time as HH:mm today and dd/MM/yyyy before', () => {
    const now = new Date(2026, 10, 27, 15, 0);
    expect(cardTime(new Date(2026, 10, 27, 9, 5).toISOString(), now)).toBe('09:05');
    expect(cardTime(new Date(2026, 10, 3, 9, 5).toISOString(), now)).toBe('03/11/2026');
  });
});
