import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { messageRow, ticketRow } from '@/pages/tickets/ticket-fixtures';

/** A browser Notification API that grants permission and records every popup shown. */
class FakeNotification {
  static permission: NotificationPermission = 'granted';
  static requestPermission = () => Promise.resolve<NotificationPermission>('granted');
  static shown: FakeNotification[] = [];
  onclick: (() => void) | null = null;
  closed = false;
  constructor(
    readonly title: string,
    readonly options: NotificationOptions = {},
  ) {
    FakeNotification.shown.push(this);
  }
  close() {
    this.closed = true;
  }
}

const USER = authUser({ queues: [{ id: 1, name: 'Vendas', color: '#ff0000' }], queueIds: [1] });
const LONG = 'Bom dia, gostaria de saber o prazo de entrega do meu pedido 4512';
const carla = ticketRow(3, 'Carla', { status: 'open' });

const titles = () => FakeNotification.shown.map((n) => `${n.title}: ${n.options.body ?? ''}`);
const bellCount = () => screen.queryByTestId('notifications-count')?.textContent ?? null;

const openApp = async (path: string) => {
  const api = fakeApi({
    ...shellRoutes(USER),
    'GET /companySettings/2': () => json(200, {}),
    'GET /tickets': () => json(200, { tickets: [carla], hasMore: false, count: 1 }),
    'GET /tickets/u/uuid-3': () => json(200, carla),
    'GET /messages/uuid-3': () => json(200, { messages: [], hasMore: false }),
  });
  const view = renderApp({ path, adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: 'Tarefas' }, { timeout: 15_000 })).toBeTruthy();
  act(() => view.socket.start());
  act(() => view.server.latest().accept());
  const push = (event: object) => act(() => view.server.latest().push(event));
  return { ...view, push };
};

const newMessage = (ticket: ReturnType<typeof ticketRow>, id: string, body: string) => ({
  channel: 'company-2-appMessage',
  action: 'create',
  message: messageRow(id, ticket.id, body, { read: false }),
  ticket,
});

beforeAll(async () => {
  await Promise.all([
    import('@/components/shell/app-shell'),
    import('@/pages/todolist/todo-list-page'),
    import('@/pages/tickets/tickets-page'),
  ]);
}, 30_000);

beforeEach(() => {
  FakeNotification.shown = [];
  vi.stubGlobal('Notification', FakeNotification);
  document.title = 'ZapDesk';
  vi.spyOn(window, 'focus').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ticket notifications in the app shell', () => {
  it('notifies on another page, counts in the bell and the title, and the click opens the ticket', async () => {
    const view = await openApp('/todolist');
    expect(bellCount()).toBeNull();

    view.push(newMessage(carla, 'm1', LONG));
    expect(titles()).toEqual([`Carla: ${LONG}`]);
    expect(bellCount()).toBe('1');
    expect(document.title).toBe('① ZapDesk');

    // The bell lists the ticket: contact name and the message cut to 40 characters, linking to it.
    const bell = view.wrapper
      .findAllButtonDropdowns()
      .find((d) => d.findNativeButton().getElement().getAttribute('aria-label')?.startsWith('Notificações'));
    if (!bell) throw new Error('no notifications bell');
    expect(bell.findNativeButton().getElement().getAttribute('aria-label')).toBe('Notificações (1)');
    act(() => bell.openDropdown());
    const item = bell.findItemById('uuid-3');
    expect(item?.getElement().textContent).toContain('Carla');
    expect(item?.getElement().textContent).toContain(`${LONG.slice(0, 40)}…`);
    expect(item?.getElement().textContent).not.toContain(LONG);
    expect(item?.find('a')?.getElement().getAttribute('href')).toBe('/tickets/uuid-3');

    // Clicking the browser notification opens the ticket; opening it takes it off the bell and the title.
    act(() => FakeNotification.shown[0]?.onclick?.());
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/tickets/uuid-3'));
    await waitFor(() => expect(bellCount()).toBeNull());
    expect(document.title).toBe('ZapDesk');
  });

  it('does not notify for the ticket open on the screen, but does for another one', async () => {
    const view = await openApp('/todolist');
    act(() => void view.router.navigate('/tickets/uuid-3'));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/tickets/uuid-3'));
    expect(await screen.findByText('Abertos', {}, { timeout: 15_000 })).toBeTruthy();

    view.push(newMessage(carla, 'm2', 'ainda aí?'));
    expect(titles()).toEqual([]);
    expect(bellCount()).toBeNull();

    const beto = ticketRow(4, 'Beto', { status: 'open' });
    view.push(newMessage(beto, 'm3', 'olá'));
    expect(titles()).toEqual(['Beto: olá']);
    expect(bellCount()).toBe('1');

    // Back on another page, news of Carla's ticket notifies again.
    act(() => void view.router.navigate('/todolist'));
    expect(await screen.findByRole('heading', { name: 'Tarefas' })).toBeTruthy();
    view.push(newMessage(carla, 'm4', 'oi de novo'));
    expect(titles()).toEqual(['Beto: olá', 'Carla: oi de novo']);
    expect(bellCount()).toBe('2');
  });

  it('shows the message without WhatsApp markers, in the popup and in the bell', async () => {
    const view = await openApp('/todolist');

    view.push(newMessage(carla, 'm5', '*Ana Atendente:*\nSeu _pedido_ saiu'));

    expect(titles()).toEqual(['Carla: Ana Atendente: Seu pedido saiu']);
    const bell = view.wrapper
      .findAllButtonDropdowns()
      .find((d) => d.findNativeButton().getElement().getAttribute('aria-label')?.startsWith('Notificações'))!;
    act(() => bell.openDropdown());
    expect(bell.findItemById('uuid-3')?.getElement().textContent).toContain('Ana Atendente: Seu pedido saiu');
    expect(bell.findItemById('uuid-3')?.getElement().textContent).not.toContain('*');
  });
});
