import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ticket } from '@/api/tickets';
import { click, openModal } from '@/pages/users/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { json } from '@/testing/fake-api';
import type { renderApp } from '@/testing/render-app';
import { messageRow, ticketRow } from './ticket-fixtures';
import { ADMIN, QUEUES, openTicket, openTickets, ticketsApi } from './ticket-test-kit';
import { READ_AGAIN_MS } from './use-messages';

type View = ReturnType<typeof renderApp>;

/**
 * The ticket lists as a new user meets them (tracker issue 14): what a row shows, where the list goes after
 * an accept, unread counts of the open ticket, the queue selector and close-all per section.
 */
beforeAll(async () => {
  await Promise.all([
    import('@/components/shell/app-shell'),
    import('./tickets-page'),
    import('./ticket-view'),
    import('./ticket-dialogs'),
  ]);
}, 30_000);

/** The rows of the list labelled by its empty text. */
const rows = (label: string) => within(screen.getByRole('list', { name: label })).getAllByTestId('ticket-item');

/** The labels of the selected tabs (the list's tab and the open tab's section). */
const selectedTab = () =>
  screen
    .getAllByRole('tab')
    .filter((tab) => tab.getAttribute('aria-selected') === 'true')
    .map((tab) => tab.textContent);

const showSection = (label: RegExp) => {
  const tab = screen.getAllByRole('tab').find((t) => label.test(t.textContent ?? ''));
  if (!tab) throw new Error(`no tab ${label}`);
  act(() => fireEvent.click(tab));
};

/** The unread badge of the row of `uuid`, or null. */
const unreadOf = (uuid: string) =>
  document.querySelector(`[data-ticket-id="${uuid.replace('uuid-', '')}"] [data-field="unread"]`)?.textContent ?? null;

const online = (view: View) => {
  act(() => view.socket.start());
  act(() => view.server.latest().accept());
  return (event: object) => act(() => view.server.latest().push(event));
};

/** Ticket 12 opens on the right: its read and its first page of messages. */
const conversation = (ticket: Ticket) => ({
  'GET /tickets/u/uuid-12': () => json(200, ticket),
  'GET /messages/uuid-12': () => json(200, { messages: [messageRow('m1', 12, 'Olá')], hasMore: false }),
});

describe('a row of the ticket list', () => {
  it("shows the last message without WhatsApp's markers: the signature reads as words", async () => {
    const api = ticketsApi({
      open: [
        ticketRow(1, 'Carla', {
          status: 'open',
          userId: 5,
          lastMessage: '*Ana Atendente:*\nSeu _pedido_ saiu ~ontem~ hoje',
        }),
      ],
    });
    await openTickets(api);
    await waitFor(() => expect(rows('Nenhum ticket em atendimento')).toHaveLength(1), { timeout: 3000 });

    const preview = rows('Nenhum ticket em atendimento')[0]!.querySelector('[data-field="lastMessage"]');

    expect(preview?.textContent).toBe('Ana Atendente: Seu pedido saiu ontem hoj...');
  });
});

describe('the list follows the ticket the user is taken to', () => {
  it('accepting from Aguardando moves to Atendendo with the accepted ticket selected', async () => {
    const waiting = ticketRow(12, 'Carla', { status: 'pending' });
    const api = ticketsApi(
      { pending: [waiting] },
      { ...conversation(openTicket), 'PUT /tickets/12': () => json(200, openTicket) },
    );
    const { router } = await openTickets(api);
    showSection(/^Aguardando/);
    await waitFor(() => expect(rows('Nenhum ticket aguardando')).toHaveLength(1), { timeout: 3000 });

    click(createWrapper(rows('Nenhum ticket aguardando')[0]!), 'Aceitar Carla');

    await waitFor(() => expect(router.state.location.pathname).toBe('/tickets/uuid-12'));
    await waitFor(() => expect(selectedTab()).toContain('Atendendo (1)'));
    expect(selectedTab()).not.toContain('Aguardando (0)');
    await waitFor(() =>
      expect(rows('Nenhum ticket em atendimento').map((row) => row.getAttribute('aria-current'))).toEqual(['true']),
    );
    expect(rows('Nenhum ticket em atendimento')[0]!.querySelector('[data-field="name"]')?.textContent).toBe('Carla');
  });
});

describe('the unread count of the ticket open on screen', () => {
  it('clears when the ticket opens, stays clear while messages arrive, and the server is told it was read', async () => {
    const mine = ticketRow(12, 'Carla', { status: 'open', userId: ADMIN.id, unreadMessages: 1 });
    const api = ticketsApi({ open: [mine] }, conversation({ ...mine, unreadMessages: 0 }));
    const view = await openTickets(api);
    await waitFor(() => expect(unreadOf('uuid-12')).toBe('1'), { timeout: 3000 });
    const push = online(view);

    act(() => fireEvent.click(within(rows('Nenhum ticket em atendimento')[0]!).getByRole('button', { name: 'Carla' })));

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/tickets/uuid-12'));
    expect(unreadOf('uuid-12')).toBeNull();
    await waitFor(() => expect(api.calls('GET', '/messages/uuid-12')).toHaveLength(1), { timeout: 3000 });

    // A customer message arrives while it is open: the server counts it unread, the open ticket does not.
    const later = { ...mine, unreadMessages: 2, lastMessage: 'ainda aí?', updatedAt: '2026-01-01T11:00:00.000Z' };
    push({
      channel: 'company-2-appMessage',
      action: 'create',
      message: messageRow('m2', 12, 'ainda aí?', { createdAt: '2026-01-01T11:00:00.000Z', read: false }),
      ticket: later,
      contact: later.contact,
    });
    push({ channel: 'company-2-ticket', action: 'update', ticket: later });

    expect(unreadOf('uuid-12')).toBeNull();
    expect(rows('Nenhum ticket em atendimento')[0]!.querySelector('[data-field="lastMessage"]')?.textContent).toBe(
      'ainda aí?',
    );
    // Its first page is read again (which marks the ticket read on the server).
    await waitFor(() => expect(api.calls('GET', '/messages/uuid-12')).toHaveLength(2), {
      timeout: READ_AGAIN_MS + 2000,
    });
  });

  it('another ticket still counts its unread messages', async () => {
    const mine = ticketRow(12, 'Carla', { status: 'open', userId: ADMIN.id });
    const other = ticketRow(13, 'Beto', { status: 'open', userId: ADMIN.id, unreadMessages: 3 });
    const api = ticketsApi({ open: [mine, other] }, conversation(mine));
    await openTickets(api, '/tickets/uuid-12');
    await waitFor(() => expect(unreadOf('uuid-13')).toBe('3'), { timeout: 3000 });
  });
});

describe('the queue selector', () => {
  const filasTrigger = (wrapper: ReturnType<typeof createWrapper>) =>
    wrapper
      .findAllFormFields()
      .find((f) => f.findLabel()?.getElement().textContent === 'Filas')!
      .findControl()!
      .findMultiselect()!
      .findTrigger()
      .getElement().textContent;

  it('shows the chosen queues, and the placeholder only when none is chosen', async () => {
    const { wrapper } = await openTickets(ticketsApi({}));

    // The chosen queues as tokens inside the trigger (the placeholder stays only for screen readers).
    expect(filasTrigger(wrapper)).toContain(QUEUES[0]!.name);
    expect(filasTrigger(wrapper)).toContain(QUEUES[1]!.name);

    const filas = wrapper
      .findAllFormFields()
      .find((f) => f.findLabel()?.getElement().textContent === 'Filas')!
      .findControl()!
      .findMultiselect()!;
    act(() => filas.openDropdown());
    act(() => filas.selectOptionByValue('1'));
    act(() => filas.selectOptionByValue('2'));
    expect(filasTrigger(wrapper)).toBe('Selecione as filas');
  });
});

describe('close-all on the Grupos tab', () => {
  it("closes the group tickets: status 'group' with the selected queues", async () => {
    const admin = authUser({ queues: QUEUES, queueIds: [1, 2], allowGroup: true });
    const api = ticketsApi({}, { 'POST /tickets/closeAll': () => json(200, { closed: 0, hasMore: false }) }, admin);
    const { wrapper } = await openTickets(api, '/tickets', admin);
    showSection(/^Grupos/);

    click(wrapper, 'Fechar todos');
    click(openModal(wrapper), 'Sim');

    await waitFor(() => expect(api.calls('POST', '/tickets/closeAll')).toHaveLength(1));
    expect(api.calls('POST', '/tickets/closeAll')[0]?.body).toEqual({ status: 'group', selectedQueueIds: [1, 2] });
  });
});
