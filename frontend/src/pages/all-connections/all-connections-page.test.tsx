import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ConnectionStatus, ConnectionSummary } from '@/api/connections';
import { click, columnTexts } from '@/pages/users/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { addToCounts, totalsOf } from './company-counts';

const OWNER = authUser({
  id: 1,
  companyId: 1,
  name: 'Dona da Plataforma',
  super: true,
  company: { id: 1, name: 'ZapDesk', dueDate: '2999-12-31' },
});

const summary = (id: number, companyId: number, companyName: string, status: ConnectionStatus): ConnectionSummary => ({
  id,
  companyId,
  company: { id: companyId, name: companyName },
  name: `Conexão ${id}`,
  number: '',
  channel: 'whatsapp',
  status,
  isDefault: false,
  updatedAt: '2026-01-01T10:00:00.000Z',
});

/** Two pages, the second one's company continuing from the first. */
const PAGES: ConnectionSummary[][] = [
  [
    summary(1, 2, 'Padaria Central', 'CONNECTED'),
    summary(2, 2, 'Padaria Central', 'DISCONNECTED'),
    summary(3, 3, 'Mercado Sol', 'CONNECTED'),
  ],
  [summary(4, 3, 'Mercado Sol', 'qrcode'), summary(5, 4, 'Auto Peças Lima', 'TIMEOUT')],
];

const pagedRoute = (): Route => (req) => {
  const page = req.query?.cursor === 'page-2' ? 1 : 0;
  const hasMore = page === 0;
  return json(200, { whatsapps: PAGES[page], hasMore, ...(hasMore ? { nextCursor: 'page-2' } : {}) });
};

describe('all connections (super)', () => {
  it('sums every page per company: connected, disconnected, total, and a totals row', async () => {
    const api = fakeApi({ ...shellRoutes(OWNER), 'GET /whatsapp/all': pagedRoute() });
    const { wrapper } = renderApp({ path: '/allConnections', adapter: api.adapter });
    expect(await screen.findByRole('heading', { name: /^Todas as conexões/ }, { timeout: 15_000 })).toBeTruthy();

    await waitFor(() => expect(columnTexts(wrapper, 1)).toHaveLength(4));
    const table = wrapper.findTable();
    expect(table?.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual([
      'Empresa',
      'Conectadas',
      'Desconectadas',
      'Total',
    ]);
    const rows = [1, 2, 3, 4].map((row) =>
      [1, 2, 3, 4].map((col) => table?.findBodyCell(row, col)?.getElement().textContent),
    );
    expect(rows).toEqual([
      ['Auto Peças Lima', '0', '1', '1'],
      ['Mercado Sol', '1', '1', '2'],
      ['Padaria Central', '1', '1', '2'],
      ['Total', '2', '3', '5'],
    ]);
    expect(api.requests.filter((r) => r.path === '/whatsapp/all').map((r) => r.query)).toEqual([
      { session: '0' },
      { session: '0', cursor: 'page-2' },
    ]);
  });

  it('continues from the page that failed', async () => {
    let failures = 1;
    const api = fakeApi({
      ...shellRoutes(OWNER),
      'GET /whatsapp/all': (req) => {
        if (req.query?.cursor === 'page-2' && failures-- > 0) return json(500, { error: 'ERR_INTERNAL', message: 'x' });
        return pagedRoute()(req);
      },
    });
    const { wrapper } = renderApp({ path: '/allConnections', adapter: api.adapter });
    expect(
      await screen.findByText('Erro interno do servidor. Tente novamente mais tarde.', {}, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(columnTexts(wrapper, 1)).toEqual(['Mercado Sol', 'Padaria Central', 'Total']);

    click(wrapper, 'Tentar novamente');
    await waitFor(() => expect(columnTexts(wrapper, 1)).toHaveLength(4));
    expect(wrapper.findTable()?.findBodyCell(4, 4)?.getElement().textContent).toBe('5');
    expect(api.requests.filter((r) => r.path === '/whatsapp/all').map((r) => r.query?.cursor)).toEqual([
      undefined,
      'page-2',
      'page-2',
    ]);
  });

  it('is for the platform owner only: an admin gets the no-permission view', async () => {
    const api = fakeApi({ ...shellRoutes(authUser()), 'GET /whatsapp/all': pagedRoute() });
    renderApp({ path: '/allConnections', adapter: api.adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', {}, { timeout: 15_000 })).toBeTruthy();
    expect(api.requests.filter((r) => r.path === '/whatsapp/all')).toHaveLength(0);
  });

  it('counts every status but CONNECTED as disconnected', () => {
    const counts = addToCounts([], [...PAGES[0]!, ...PAGES[1]!]);
    expect(totalsOf(counts)).toEqual({ connected: 2, disconnected: 3, total: 5 });
  });
});
