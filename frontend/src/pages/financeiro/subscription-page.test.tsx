import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buttonNamed, click, openModal } from '@/components/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const open = (dueDate: string, invoices: unknown[]) => {
  const me = authUser({ id: 5, profile: 'admin', company: { id: 2, name: 'Padaria Central', dueDate } });
  const api = fakeApi({
    ...shellRoutes(me),
    'GET /invoices/all': () => json(200, { invoices, hasMore: false }),
    'GET /announcements': () => json(200, { records: [], hasMore: false }),
    'GET /chats': () => json(200, { records: [], hasMore: false }),
  });
  return renderApp({ path: '/subscription', adapter: api.adapter });
};

const INVOICE = {
  id: 7,
  detail: 'Básico',
  users: 3,
  connections: 3,
  queues: 3,
  value: 49,
  dueDate: inDays(9),
  status: 'open',
  displayStatus: 'Em Aberto',
  planId: 2,
  recurrence: 'MENSAL',
  createdAt: '2026-11-01T00:00:00.000Z',
};

describe('/subscription', () => {
  it("shows the license period and the billing e-mail; 'Assine Agora!' opens the checkout", async () => {
    const { wrapper } = open(inDays(9), [INVOICE]);
    await screen.findByRole('heading', { name: 'Assinatura' }, { timeout: 15_000 });
    expect(screen.getByDisplayValue('Sua licença vence em 9 dias!')).toBeTruthy();
    expect(screen.getByDisplayValue('ana@example.com')).toBeTruthy();
    await waitFor(() => expect(buttonNamed(wrapper, 'Assine Agora!').isDisabled()).toBe(false));
    click(wrapper, 'Assine Agora!');
    expect(openModal(wrapper)).toBeTruthy();
    await waitFor(() => expect(wrapper.findWizard()?.findHeader()?.getElement().textContent).toContain('Personalizar'));
  });

  it('on the due date it says today, and with nothing to pay the button is off', async () => {
    const { wrapper } = open(new Date().toISOString().slice(0, 10), []);
    await screen.findByRole('heading', { name: 'Assinatura' }, { timeout: 15_000 });
    expect(screen.getByDisplayValue('Sua licença vence em hoje!')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Nenhuma fatura em aberto')).toBeTruthy());
    expect(buttonNamed(wrapper, 'Assine Agora!').isDisabled()).toBe(true);
  });
});
