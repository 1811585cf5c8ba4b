import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { ticketRow } from './ticket-fixtures';
import { openTickets, ticketsApi } from './ticket-test-kit';

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
