import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { QueueAdminView } from '@/api/queues';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { toastTexts } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { click, columnTexts, openModal } from '@/components/test-kit';
import { queueRow } from './test-kit';

const ADMIN = authUser({ id: 5, name: 'Ana Souza', profile: 'admin' });
const NAME = 2;

const QUEUES: QueueAdminView[] = [
  queueRow(1, 'Vendas', { color: '#ff0000' }),
  queueRow(2, 'Suporte', { greetingMessage: '' }),
  queueRow(3, 'Financeiro', { orderQueue: null }),
];

const queuesApi = (extra: Record<string, Route> = {}, me = ADMIN) => {
  const server = fakeApi({ ...shellRoutes(me), 'GET /queue': () => json(200, QUEUES), ...extra });
  return {
    ...server,
    sent: (method: string) => server.requests.filter((r) => r.method === method && r.path.startsWith('/queue')),
  };
};

const openPage = async (api = queuesApi()) => {
  const view = renderApp({ path: '/queues', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Filas & Chatbot/ }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toHaveLength(3));
  return { ...view, api };
};

describe('queues page', () => {
  it('lists id, name, colour, order and greeting with the count in the title', async () => {
    const { wrapper } = await openPage();
    const table = wrapper.findTable();
    expect(table?.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual([
      'ID',
      'Nome',
      'Cor',
      'Ordem',
      'Mensagem de saudação',
      'Ações',
    ]);
    expect(table?.findHeaderSlot()?.getElement().textContent).toContain('(3)');
    expect(columnTexts(wrapper, NAME)).toEqual(['Vendas', 'Suporte', 'Financeiro']);
    expect(columnTexts(wrapper, 4)).toEqual(['1', '2', '—']);
    expect(columnTexts(wrapper, 5)).toEqual(['Bem-vindo à Vendas', '—', 'Bem-vindo à Financeiro']);
    const swatch = table?.findBodyCell(1, 3)?.find('[data-testid="queue-color"]')?.getElement() as HTMLElement;
    expect(swatch.style.backgroundColor).toBe('rgb(255, 0, 0)');
  });

  it("deletes a queue after confirming, with the spec's toast", async () => {
    const api = queuesApi({ 'DELETE /queue/2': () => json(200, { message: 'Queue deleted' }) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Excluir Suporte');
    click(openModal(wrapper), 'Excluir');
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toEqual(['Vendas', 'Financeiro']));
    expect(api.sent('DELETE').map((r) => r.path)).toEqual(['/queue/2']);
    expect(toastTexts(wrapper)).toContain('Fila excluída com sucesso!');
  });

  it('names the queues whose menus point at a queue the server refuses to delete', async () => {
    const api = queuesApi({
      'DELETE /queue/2': () =>
        json(409, {
          error: 'ERR_QUEUE_IN_USE',
          message: 'in use',
          details: {
            queues: [
              { id: 1, name: 'Vendas' },
              { id: 3, name: 'Financeiro' },
            ],
          },
        }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Excluir Suporte');
    click(openModal(wrapper), 'Excluir');
    await waitFor(() =>
      expect(toastTexts(wrapper)).toContain(
        'Esta fila não pode ser excluída: os menus de chatbot destas filas enviam clientes para ela: Vendas, Financeiro.',
      ),
    );
    expect(columnTexts(wrapper, NAME)).toContain('Suporte');
  });

  it('follows company-{id}-queue: update, create in order, delete', async () => {
    const view = await openPage();
    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    const push = (event: object) => act(() => view.server.latest().push({ channel: 'company-2-queue', ...event }));
    push({ action: 'update', queue: { ...QUEUES[1]!, name: 'Suporte técnico' } });
    expect(columnTexts(view.wrapper, NAME)).toEqual(['Vendas', 'Suporte técnico', 'Financeiro']);
    push({ action: 'create', queue: queueRow(9, 'Cobrança', { orderQueue: 0 }) });
    expect(columnTexts(view.wrapper, NAME)[0]).toBe('Cobrança');
    push({ action: 'delete', queueId: 1 });
    expect(columnTexts(view.wrapper, NAME)).toEqual(['Cobrança', 'Suporte técnico', 'Financeiro']);
    act(() => view.socket.stop());
  });
});

describe('queues page for a plain user', () => {
  it('shows the no-access screen and never asks for the queues', async () => {
    const api = queuesApi({}, authUser({ id: 9, profile: 'user' }));
    renderApp({ path: '/queues', adapter: api.adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', undefined, { timeout: 15_000 })).toBeTruthy();
    expect(api.sent('GET')).toHaveLength(0);
  });
});
