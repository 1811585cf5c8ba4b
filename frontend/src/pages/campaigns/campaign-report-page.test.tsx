import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CampaignReport } from '@/api/campaigns';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { campaign } from './test-kit';

const ME = authUser({ id: 5, profile: 'admin' });

const running = campaign(7, 'Black Friday', {
  status: 'EM_ANDAMENTO',
  validContacts: 200,
  done: 50,
  delivered: 48,
  failed: 2,
  updatedAt: '2026-11-27T12:00:00.000Z',
});
const REPORT: CampaignReport = {
  campaign: running,
  variants: [
    { variant: 1, contacts: 110, delivered: 30, read: 12, replied: 3 },
    { variant: 2, contacts: 90, delivered: 18, read: 9, replied: 1 },
  ],
};

/** A card's figure: the group named by its label holds the label and the value. */
const cardValue = (label: string): string | null =>
  screen.getByRole('group', { name: label }).lastElementChild?.textContent ?? null;

describe('campaign report page', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows the status, progress, cards and variants; follows live updates and reloads 5 s after FINALIZADA', async () => {
    let reads = 0;
    const finished = { ...running, status: 'FINALIZADA' as const, done: 200, delivered: 196, failed: 4 };
    const api = fakeApi({
      ...shellRoutes(ME),
      'GET /campaigns/7/report': () => {
        reads += 1;
        return json(
          200,
          reads === 1 ? REPORT : { ...REPORT, campaign: { ...finished, completedAt: '2026-11-27T13:00:00.000Z' } },
        );
      },
    });
    const { wrapper, socket, server } = renderApp({ path: '/campaign/7/report', adapter: api.adapter });
    expect(await screen.findByRole('heading', { name: 'Relatório de Black Friday' }, { timeout: 40_000 })).toBeTruthy();
    expect(screen.getByText('Status: Em andamento')).toBeTruthy();
    expect(wrapper.findProgressBar()?.findPercentageText()?.getElement().textContent).toBe('25%');
    expect(cardValue('Contatos válidos')).toBe('200');
    expect(cardValue('Entregues')).toBe('48');
    expect(cardValue('Conexão')).toBe('Vendas');
    expect(cardValue('Lista de contatos')).toBe('Clientes VIP');
    const table = wrapper.findTable()!;
    expect(table.findRows().map((_, i) => table.findBodyCell(i + 1, 1)?.getElement().textContent)).toEqual([
      'Mensagem 1',
      'Mensagem 2',
    ]);
    expect(table.findBodyCell(1, 4)?.getElement().textContent).toBe('12');

    act(() => socket.start());
    act(() => server.latest().accept());
    act(() =>
      server.latest().push({
        channel: 'company-2-campaign',
        action: 'update',
        record: { ...running, done: 100, delivered: 98, updatedAt: '2026-11-27T12:01:00.000Z' },
      }),
    );
    await waitFor(() => expect(wrapper.findProgressBar()?.findPercentageText()?.getElement().textContent).toBe('50%'));
    expect(cardValue('Entregues')).toBe('98');

    act(() =>
      server.latest().push({
        channel: 'company-2-campaign',
        action: 'update',
        record: { ...finished, updatedAt: '2026-11-27T12:02:00.000Z' },
      }),
    );
    await waitFor(() => expect(screen.getByText('Status: Finalizada')).toBeTruthy());
    expect(reads).toBe(1);
    await waitFor(() => expect(reads).toBe(2), { timeout: 8_000 });
    await waitFor(() => expect(cardValue('Entregues')).toBe('196'));
  }, 90_000);
});
