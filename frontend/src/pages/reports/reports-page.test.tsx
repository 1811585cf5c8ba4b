import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ReportRow } from '@/api/dashboard';
import type { ExportView } from '@/api/exports';
import { exportDownloads } from '@/components/export-progress';
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

const EXPORT_ID = '4f1c8a0e-3b7d-4c1e-9a51-2e6d7b8c9d00';
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

  it('exports every row of the filters applied to Excel, with progress, then downloads it', async () => {
    const open = vi.spyOn(exportDownloads, 'open').mockImplementation(() => undefined);
    const view = (over: Partial<ExportView>): ExportView => ({
      id: EXPORT_ID,
      kind: 'tickets-report',
      format: 'xlsx',
      fileName: 'relatorio-de-atendimentos.xlsx',
      status: 'running',
      processed: 200,
      total: 23,
      createdAt: '2026-03-31T12:00:00.000Z',
      ...over,
    });
    let reads = 0;
    const api = fakeApi({
      ...reportApi().routes,
      'POST /exports': () => json(202, view({ status: 'queued', processed: 0 })),
      // No socket here: the page reads the export again until it is done.
      [`GET /exports/${EXPORT_ID}`]: () =>
        json(
          200,
          (reads += 1) < 2
            ? view({ processed: 10 })
            : view({ status: 'done', processed: 23, downloadUrl: 'https://s3.example/r?X-Amz-Expires=300' }),
        ),
    });
    renderApp({ path: '/reports', adapter: api.adapter });
    await screen.findByRole('table', {}, { timeout: 45_000 });
    act(() => screen.getByRole('checkbox', { name: 'Somente avaliados' }).click());
    act(() => screen.getByRole('button', { name: 'Filtrar' }).click());
    act(() => screen.getByRole('button', { name: 'Exportar Excel' }).click());
    await waitFor(() => expect(screen.getByText('10 de 23 linhas')).toBeTruthy(), { timeout: 10_000 });
    const sent = api.requests.find((r) => r.method === 'POST' && r.path === '/exports')!;
    expect(sent.body).toMatchObject({ kind: 'tickets-report', filters: { onlyRated: 'true' } });
    await waitFor(
      () =>
        expect(open).toHaveBeenCalledWith('https://s3.example/r?X-Amz-Expires=300', 'relatorio-de-atendimentos.xlsx'),
      { timeout: 10_000 },
    );
    expect(screen.getByText('relatorio-de-atendimentos.xlsx pronto')).toBeTruthy();
    open.mockRestore();
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
