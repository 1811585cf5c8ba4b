import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@/api/messages';
import { CHAT_PALETTE } from '@/components/chat-colors';
import { json, type Route } from '@/testing/fake-api';
import { setTheme } from '@/theme';
import { messageRow, ticketRow } from './ticket-fixtures';
import { ADMIN, conversationApi, openTicket, openTickets, ticketsApi } from './ticket-test-kit';

/**
 * The open conversation: 'Conversar com o remetente' on a group message (core spec §2 message options, §4)
 * — the server names the writer by number, LID and push name, so the action finds (or creates) the number's
 * contact and opens a ticket with it — and the bubbles' colours in the dark theme.
 */
beforeAll(async () => {
  await Promise.all([
    import('@/components/shell/app-shell'),
    import('./tickets-page'),
    import('./ticket-view'),
    import('./ticket-dialogs'),
  ]);
}, 30_000);

const RITA = '5511977776666';
const group = ticketRow(12, 'Fornecedores', { status: 'group', isGroup: true, userId: ADMIN.id, queueId: 1 });
const created = ticketRow(40, 'Rita', { status: 'open', userId: ADMIN.id });

const groupApi = (participant: Message['participant'], extra: Record<string, Route> = {}) =>
  ticketsApi(
    {},
    {
      'GET /tickets/u/uuid-12': () => json(200, group),
      'GET /messages/uuid-12': () =>
        json(200, { messages: [messageRow('m1', 12, 'Bom dia, grupo', { participant })], hasMore: false }),
      'POST /tickets': () => json(201, created),
      'GET /tickets/u/uuid-40': () => json(200, created),
      'GET /messages/uuid-40': () => json(200, { messages: [], hasMore: false }),
      ...extra,
    },
  );

/** The ids of the options menu of the only message. */
const messageMenu = async () => {
  const bubble = await screen.findByTestId('message', {}, { timeout: 3000 });
  const menu = createWrapper(bubble).findButtonDropdown()!;
  act(() => menu.openDropdown());
  return menu;
};

describe('talk to the sender of a group message', () => {
  it("opens a ticket with the writer's existing contact, found by number", async () => {
    const api = groupApi(
      { number: RITA, name: 'Rita' },
      { [`GET /contacts/profile/${RITA}`]: () => json(200, { contactId: 300, urlPicture: '' }) },
    );
    const { router } = await openTickets(api, '/tickets/uuid-12');
    const menu = await messageMenu();

    act(() => menu.findItemById('talkToSender')!.click());

    await waitFor(() => expect(api.calls('POST', '/tickets')).toHaveLength(1));
    expect(api.calls('POST', '/tickets')[0]?.body).toEqual({
      contactId: 300,
      queueId: 1,
      whatsappId: 1,
      userId: ADMIN.id,
      status: 'open',
    });
    expect(api.calls('POST', '/contacts')).toHaveLength(0);
    await waitFor(() => expect(router.state.location.pathname).toBe('/tickets/uuid-40'));
  });

  it('creates the contact first when the number has none (named by the push name)', async () => {
    const api = groupApi(
      { number: RITA, lid: '123@lid', name: 'Rita' },
      {
        [`GET /contacts/profile/${RITA}`]: () => json(404, { error: 'ERR_NO_CONTACT_FOUND', message: 'x' }),
        'POST /contacts': () => json(201, { ...created.contact, id: 301 }),
      },
    );
    const { router } = await openTickets(api, '/tickets/uuid-12');
    const menu = await messageMenu();

    act(() => menu.findItemById('talkToSender')!.click());

    await waitFor(() => expect(api.calls('POST', '/tickets')).toHaveLength(1));
    expect(api.calls('POST', '/contacts')[0]?.body).toEqual({ name: 'Rita', number: RITA });
    expect(api.calls('POST', '/tickets')[0]?.body).toMatchObject({ contactId: 301, status: 'open' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/tickets/uuid-40'));
  });

  it('is not offered for a writer known only by LID (there is no number to reach)', async () => {
    const api = groupApi({ lid: '123@lid', name: 'Rita' });
    await openTickets(api, '/tickets/uuid-12');
    const menu = await messageMenu();

    expect(menu.findItemById('talkToSender')).toBeNull();
    expect(menu.findItemById('reply')).not.toBeNull();
  });
});

describe('chat bubbles in the dark theme', () => {
  it("take the theme's chat colours, not fixed white and green", async () => {
    setTheme('dark');
    try {
      await openTickets(conversationApi(openTicket), '/tickets/uuid-12');
      await waitFor(() => expect(screen.getAllByTestId('bubble')).toHaveLength(2), { timeout: 3000 });

      const [theirs, ours] = screen.getAllByTestId('bubble').map((b) => b.style.background);
      expect(theirs).toBe('var(--zd-chat-incoming)');
      expect(ours).toBe('var(--zd-chat-outgoing)');
      expect(document.body.classList.contains('awsui-dark-mode')).toBe(true);
      const sheet = [...document.head.querySelectorAll('style')].map((el) => el.textContent ?? '').join('\n');
      expect(sheet).toContain(`.awsui-dark-mode { --zd-chat-incoming: ${CHAT_PALETTE.dark.incoming};`);
      expect(sheet).toContain(`--zd-chat-outgoing: ${CHAT_PALETTE.dark.outgoing};`);
    } finally {
      setTheme('light');
    }
  });
});
