import { screen } from '@testing-library/react';
import { expect } from 'vitest';
import type { AuthUser } from '@/api/auth';
import type { Ticket } from '@/api/tickets';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { messageRow, ticketRow } from './ticket-fixtures';

/** The ticket screen's fake API and page opener, shared by its component tests. */
export const QUEUES = [
  { id: 1, name: 'Vendas', color: '#ff0000' },
  { id: 2, name: 'Suporte', color: '#00ff00' },
];
/** Every queue of the company (GET /queue): one more than the users' own. */
export const COMPANY_QUEUES = [...QUEUES, { id: 3, name: 'Financeiro', color: '#0000ff', orderQueue: 3 }];
export const ADMIN = authUser({ queues: QUEUES, queueIds: [1, 2] });
/** A plain attendant of Vendas only. */
export const AGENT = authUser({ id: 7, name: 'Bruno', profile: 'user', queues: [QUEUES[0]!], queueIds: [1] });
export const TAGS = [
  { id: 1, name: 'VIP', color: '#000', kanban: 0 },
  { id: 2, name: 'Novo', color: '#111', kanban: 0 },
  { id: 3, name: 'Atraso', color: '#222', kanban: 0 },
];

const page = (tickets: Ticket[]) => json(200, { tickets, hasMore: false, count: tickets.length });

export type TicketsApi = ReturnType<typeof ticketsApi>;

/** GET /tickets answers by the status asked (search: by searchParam). */
export const ticketsApi = (
  lists: Partial<Record<string, Ticket[]>>,
  extra: Record<string, Route> = {},
  me: AuthUser = ADMIN,
) => {
  const server = fakeApi({
    ...shellRoutes(me),
    'GET /companySettings/2': () => json(200, { sendSignMessage: 'enabled', requiredTag: 'disabled' }),
    'GET /tags/list': () => json(200, TAGS),
    'GET /users/list': () =>
      json(200, [
        { id: 5, name: 'Ana Souza' },
        { id: 7, name: 'Bruno' },
      ]),
    'GET /queue': () => json(200, COMPANY_QUEUES),
    'GET /whatsapp': () => json(200, []),
    'GET /tickets': (request) =>
      page(lists[request.query?.status ?? `search:${request.query?.searchParam ?? ''}`] ?? []),
    ...extra,
  });
  return {
    ...server,
    calls: (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path),
  };
};

export const openTickets = async (api: TicketsApi, path = '/tickets', me: AuthUser = ADMIN) => {
  const view = renderApp({ path, adapter: api.adapter });
  view.sessionUser.set(me);
  expect(await screen.findByText('Abertos', {}, { timeout: 15_000 })).toBeTruthy();
  return view;
};

export const pendingTicket = ticketRow(12, 'Carla', { status: 'pending', unreadMessages: 1 });
export const openTicket = ticketRow(12, 'Carla', {
  status: 'open',
  userId: 5,
  user: { id: 5, name: 'Ana Souza' },
});

/** Ticket 12 (uuid-12) with three messages. */
export const conversationApi = (ticket: Ticket, extra: Record<string, Route> = {}, me: AuthUser = ADMIN) =>
  ticketsApi(
    {},
    {
      'GET /tickets/u/uuid-12': () => json(200, ticket),
      'GET /messages/uuid-12': () =>
        json(200, {
          messages: [
            messageRow('m2', 12, 'Segunda', { createdAt: '2026-01-01T10:02:00.000Z', fromMe: true, userId: 5 }),
            messageRow('m1', 12, 'Primeira', { createdAt: '2026-01-01T10:01:00.000Z' }),
          ],
          hasMore: false,
        }),
      ...extra,
    },
    me,
  );
