import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ReportRow } from '@/api/dashboard';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';

const row = (id: number, overrides: Partial<ReportRow> = {}): ReportRow => ({
  id,
  uuid: `uuid-${id}`,
  whatsappName: 'Loja',
  contactName: `Cliente ${id}`,
  userName: 'Bia',
  queueName: 'Suporte',
  status: 'closed',
  lastMessage: 'Obrigado!',
  createdAt: '2026-03-01T03:00:00.000Z',
  closedAt: '2026-03-01T05:15:00.000Z',
  supportTime: 110,
  NPS: 4,
  ...overrides,
});

const ROWS = Array.from({ length: 23 }, (_, i) => row(100 - i));

const reportApi = () =>
  fakeApi({
    ...shellRoutes(authUser()),
    'GET /ticketreport/reports': (req) => {
      const page = Number(req.query?.page);
      const size = Number(req.query?.pageSize);
      return json(200, {
        tickets: ROWS.slice((page - 1) * size, page * size),
        totalTickets: { total: ROWS.length },
        countIsExact: true,
        hasMore: page * size < ROWS.length,
      });
    },
    'GET /queue': () => json(200, [{ id: 3, name: 'Suporte', color: '#ff7f0e' }]),
    'GET /users/list': () => json(200, [{ id: 7, name: 'Bia' }]),
    'GET /tickets-log/100': () =>
      json(200, [{ type: 'create', user: null, queue: { name: 'Suporte' }, createdAt: '2026-03-01T03:00:00.000Z' }]),
  });

const reportCalls = (api: ReturnType<typeof reportApi>) =>
  api.requests.filter((r) => r.path === '/ticketreport/reports').map((r) => r.query);

describe('reports page', () => {
  it('pages the month so far by 10 with the row fields, support time as hours and minutes, and the log', async () => {
    const api = reportApi();
    renderApp({ path: '/reports', adapter: api.adapter });
    const table = await screen.findByRole('table', {}, { timeout: 45_000 });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(11));
    const [first] = reportCalls(api);
    expect(first).toMatchObject({ page: '1', pageSize: '10' });
    expect(first?.dateFrom?.endsWith('-01')).toBe(true);
    expect(screen.getByRole('heading', { name: /Atendimentos\s*\(23\)/ })).toBeTruthy();
    const cells = within(within(table).getAllByRole('row')[1]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual(
      expect.arrayContaining(['Loja', 'Cliente 100', 'Bia', 'Suporte', 'Finalizado', '1h 50m', '4']),
    );

    act(() => screen.getByRole('button', { name: 'Página 3' }).click());
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(reportCalls(api).at(-1)).toMatchObject({ page: '3', pageSize: '10' });

    act(() => screen.getByRole('button', { name: 'Histórico do ticket 80' }).click());
    expect(await screen.findByRole('dialog')).toBeTruthy();
  }, 60_000);

  it('sends the filters when Filtrar is pressed, from page 1', async () => {
    const api = reportApi();
    renderApp({ path: '/reports', adapter: api.adapter });
    await screen.findByRole('table', {}, { timeout: 45_000 });
    act(() => screen.getByRole('checkbox', { name: 'Somente avaliados' }).click());
    act(() => screen.getByRole('button', { name: 'Filtrar' }).click());
    await waitFor(() => expect(reportCalls(api).at(-1)).toMatchObject({ onlyRated: 'true', page: '1' }));
  }, 60_000);
});
