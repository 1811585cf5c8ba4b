import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DashboardAnswer } from '@/api/dashboard';
import type { ExportView } from '@/api/exports';
import { exportDownloads } from '@/components/export-progress';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';

const ADMIN = authUser({ queues: [{ id: 3, name: 'Vendas', color: '#1f77b4' }], queueIds: [3] });

const ANSWER: DashboardAnswer = {
  dateFrom: '2026-03-01',
  dateTo: '2026-03-31',
  counters: {
    supportHappening: 2,
    supportPending: 0,
    supportFinished: 4,
    supportGroups: 1,
    leads: 3,
    avgSupportTime: 57,
    avgWaitTime: 18,
    activeTickets: 1,
    passiveTickets: 7,
    tickets: 8,
    waitRating: 1,
    withoutRating: 1,
    withRating: 2,
    percRating: 66.7,
    npsScore: 0,
    npsPromotersPerc: 50,
    npsDetractorsPerc: 50,
    npsPassivePerc: 0,
  },
  attendants: [
    { id: 7, name: 'Bia', rating: 2, countRating: 1, tickets: 3, avgWaitTime: 31, avgSupportTime: 110, online: true },
  ],
};

const dashboardApi = (me = ADMIN) =>
  fakeApi({
    ...shellRoutes(me),
    'GET /dashboard': () => json(200, ANSWER),
    'GET /dashboard/ticketsUsers': () => json(200, { data: [{ userId: 7, nome: 'Bia', quantidade: 3 }], count: 3 }),
    'GET /dashboard/ticketsDay': () =>
      json(200, {
        data: [
          { data: '2026-03-01', total: 8 },
          { data: '2026-03-02', total: 0 },
        ],
        count: 8,
      }),
  });

const EXPORT_ID = '0b9f3f55-8a7e-4a43-9d0d-0d1f7a0c2f11';
/** The range the page asks for first: the month so far (core §9). */
const ANSWER_RANGE = (() => {
  const today = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const month = `${today.getFullYear()}-${pad(today.getMonth() + 1)}`;
  return { from: `${month}-01`, to: `${month}-${pad(today.getDate())}` };
})();

const card = (key: string) => screen.getByTestId(`card-${key}`).textContent;

describe('dashboard page', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('asks for the month so far in the user’s queues and shows the cards, times as hours and minutes', async () => {
    const api = dashboardApi();
    renderApp({ path: '/', adapter: api.adapter });
    await screen.findByTestId('card-tickets', {}, { timeout: 45_000 });
    const sent = api.requests.find((r) => r.path === '/dashboard')!;
    const today = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(sent.query).toEqual({
      date_from: `${today.getFullYear()}-${pad(today.getMonth() + 1)}-01`,
      date_to: `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`,
      queueIds: '[3]',
    });
    expect(card('tickets')).toBe('Total de atendimentos8');
    expect(card('supportHappening')).toBe('Em atendimento2');
    expect(card('avgSupportTime')).toBe('T.M. de atendimento0h 57m');
    expect(card('percRating')).toBe('Índice de avaliação66.7%');
  }, 60_000);

  it('shows the NPS gauges and the attendants table with its charts', async () => {
    renderApp({ path: '/', adapter: dashboardApi().adapter });
    await screen.findByTestId('card-tickets', {}, { timeout: 45_000 });
    act(() => screen.getByRole('tab', { name: 'NPS' }).click());
    expect(screen.getByTestId('nps-score').textContent).toBe('NPS: 0');
    expect(screen.getAllByText('Promotores').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Detratores').length).toBeGreaterThan(0);

    act(() => screen.getByRole('tab', { name: 'Atendentes' }).click());
    const table = await screen.findByRole('table');
    const row = within(table).getByRole('rowheader', { name: 'Bia' }).closest('tr')!;
    expect(row.textContent).toContain('🙁 2');
    expect(row.textContent).toContain('0h 31m');
    expect(row.textContent).toContain('1h 50m');
    await waitFor(() => expect(screen.getByText('Atendimentos por atendente')).toBeTruthy());
    expect(screen.getByText('Atendimentos por dia')).toBeTruthy();
  }, 60_000);

  it('exports the attendants sheet for the range shown: progress from the socket, then the download', async () => {
    const open = vi.spyOn(exportDownloads, 'open').mockImplementation(() => undefined);
    const view = (over: Partial<ExportView>): ExportView => ({
      id: EXPORT_ID,
      kind: 'attendants',
      format: 'xlsx',
      fileName: 'relatorio-de-atendentes.xlsx',
      status: 'queued',
      processed: 0,
      total: 1,
      createdAt: '2026-03-31T12:00:00.000Z',
      ...over,
    });
    const api = fakeApi({
      ...dashboardApi().routes,
      'POST /exports': () => json(202, view({})),
      [`GET /exports/${EXPORT_ID}`]: () =>
        json(200, view({ status: 'done', processed: 1, downloadUrl: 'https://s3.example/x?X-Amz-Expires=300' })),
    });
    const app = renderApp({ path: '/', adapter: api.adapter });
    await screen.findByTestId('card-tickets', {}, { timeout: 45_000 });
    act(() => app.socket.start());
    act(() => app.server.latest().accept());
    act(() => screen.getByRole('tab', { name: 'Atendentes' }).click());
    act(() => screen.getByRole('button', { name: 'Exportar Excel' }).click());
    await waitFor(() => expect(app.wrapper.findProgressBar()).not.toBeNull());
    const sent = api.requests.find((r) => r.method === 'POST' && r.path === '/exports')!;
    expect(sent.body).toEqual({
      kind: 'attendants',
      filters: { date_from: ANSWER_RANGE.from, date_to: ANSWER_RANGE.to },
    });
    expect(screen.getByText('Preparando relatorio-de-atendentes.xlsx...')).toBeTruthy();

    act(() =>
      app.server
        .latest()
        .push({ channel: 'company-2-export', action: 'update', export: view({ status: 'done', processed: 1 }) }),
    );
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith('https://s3.example/x?X-Amz-Expires=300', 'relatorio-de-atendentes.xlsx'),
    );
    expect(screen.getByText('relatorio-de-atendentes.xlsx pronto')).toBeTruthy();
    expect(open).toHaveBeenCalledTimes(1);
  }, 60_000);

  it('reads its numbers again after ticket events, without a reload', async () => {
    let tickets = 8;
    const api = fakeApi({
      ...dashboardApi().routes,
      'GET /dashboard': () => json(200, { ...ANSWER, counters: { ...ANSWER.counters, tickets } }),
    });
    const app = renderApp({ path: '/', adapter: api.adapter });
    await screen.findByTestId('card-tickets', {}, { timeout: 45_000 });
    act(() => app.socket.start());
    act(() => app.server.latest().accept());
    tickets = 9;
    act(() => app.server.latest().push({ channel: 'company-2-ticket', action: 'update', ticket: { id: 1 } }));
    act(() => app.server.latest().push({ channel: 'company-2-ticket', action: 'update', ticket: { id: 2 } }));
    await waitFor(() => expect(card('tickets')).toBe('Total de atendimentos9'), { timeout: 5_000 });
    // One read for the burst of two events.
    expect(api.requests.filter((r) => r.path === '/dashboard')).toHaveLength(2);
  }, 60_000);

  it('shows the 403 screen to a user without showDashboard', async () => {
    const me = authUser({ profile: 'user', showDashboard: 'disabled' });
    renderApp({ path: '/', adapter: dashboardApi(me).adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', {}, { timeout: 45_000 })).toBeTruthy();
  });
});
