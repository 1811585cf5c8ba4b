import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { click, openModal } from '@/pages/users/test-kit';
import { json } from '@/testing/fake-api';
import { toastTexts } from '@/testing/form-fields';
import { ticketRow } from './ticket-fixtures';
import {
  AGENT,
  conversationApi,
  openTicket,
  openTickets,
  pendingTicket,
  ticketsApi,
  type TicketsApi,
} from './ticket-test-kit';

type Wrapper = ReturnType<typeof createWrapper>;

beforeAll(async () => {
  await Promise.all([
    import('@/components/shell/app-shell'),
    import('./tickets-page'),
    import('./ticket-view'),
    import('./ticket-dialogs'),
  ]);
}, 30_000);

/** The open dialog, with every finder of the test utils. */
const modal = (wrapper: Wrapper) => createWrapper(openModal(wrapper).getElement());

/** The labels a select of the open dialog offers, after opening it. */
const selectOptions = (wrapper: Wrapper, label: string): string[] => {
  const field = modal(wrapper)
    .findAllFormFields()
    .find((f) => f.findLabel()?.getElement().textContent === label)!;
  const select = createWrapper(field.getElement()).findSelect()!;
  act(() => select.openDropdown());
  return select
    .findDropdown()
    .findOptions()
    .map((o) => o.getElement().textContent ?? '');
};

const pickOption = (wrapper: Wrapper, label: string, option: string) => {
  const field = modal(wrapper)
    .findAllFormFields()
    .find((f) => f.findLabel()?.getElement().textContent === label)!;
  const select = createWrapper(field.getElement()).findSelect()!;
  if (select.findDropdown().findOptions().length === 0) act(() => select.openDropdown());
  const index = select
    .findDropdown()
    .findOptions()
    .findIndex((o) => o.getElement().textContent === option);
  act(() => select.selectOption(index + 1));
};

/** The text on the trigger of the open dialog's select labelled `label` (its chosen option). */
const selectedText = (wrapper: Wrapper, label: string): string => {
  const field = modal(wrapper)
    .findAllFormFields()
    .find((f) => f.findLabel()?.getElement().textContent === label)!;
  return createWrapper(field.getElement()).findSelect()!.findTrigger().getElement().textContent ?? '';
};

const waitForCall = async (api: TicketsApi, method: string, path: string) => {
  await waitFor(() => expect(api.calls(method, path).length).toBeGreaterThan(0), { timeout: 3000 });
  return api.calls(method, path).at(-1)!;
};

describe('transfer dialog', () => {
  it("offers every queue of the company (GET /queue), not only the user's, and sends queue, user and message", async () => {
    const api = conversationApi(
      { ...openTicket, userId: 7, user: { id: 7, name: 'Bruno' } },
      { 'PUT /tickets/12': () => json(200, { ...openTicket, status: 'pending', queueId: 3, userId: null }) },
      AGENT,
    );
    const { wrapper } = await openTickets(api, '/tickets/uuid-12', AGENT);
    await screen.findByTestId('composer', {}, { timeout: 3000 });
    click(wrapper.findAllContainers()[1]!, 'Transferir');
    await waitFor(() => expect(openModal(wrapper).getElement().textContent).toContain('Transferir ticket'));
    await waitFor(() => expect(selectOptions(wrapper, 'Fila')).toEqual(['Vendas', 'Suporte', 'Financeiro']));

    // No queue: the dialog says so and sends nothing.
    act(() => openModal(wrapper).findFooter()!.findAllButtons().at(-1)!.click());
    expect(openModal(wrapper).getElement().textContent).toContain('Selecione uma fila');
    expect(api.calls('PUT', '/tickets/12')).toHaveLength(0);

    pickOption(wrapper, 'Fila', 'Financeiro');
    act(() => modal(wrapper).findTextarea()!.setTextareaValue('Cliente pediu boleto'));
    act(() => openModal(wrapper).findFooter()!.findAllButtons().at(-1)!.click());
    const call = await waitForCall(api, 'PUT', '/tickets/12');
    expect(call.body).toEqual({ queueId: 3, userId: null, msgTransfer: 'Cliente pediu boleto', isTransfered: true });
    // The transferred ticket leaves the conversation.
    await waitFor(() => expect(screen.queryByTestId('composer')).toBeNull());
  });

  it('sends the chosen user with the queue', async () => {
    const api = conversationApi(openTicket, { 'PUT /tickets/12': () => json(200, openTicket) });
    const { wrapper } = await openTickets(api, '/tickets/uuid-12');
    await screen.findByTestId('composer', {}, { timeout: 3000 });
    click(wrapper.findAllContainers()[1]!, 'Transferir');
    await waitFor(() => expect(selectOptions(wrapper, 'Fila')).toHaveLength(3));
    pickOption(wrapper, 'Fila', 'Suporte');
    pickOption(wrapper, 'Usuário', 'Bruno');
    act(() => openModal(wrapper).findFooter()!.findAllButtons().at(-1)!.click());
    const call = await waitForCall(api, 'PUT', '/tickets/12');
    expect(call.body).toEqual({ queueId: 2, userId: 7, msgTransfer: '', isTransfered: true });
  });
});

describe('accept dialog', () => {
  it("a ticket without a queue asks for one: every company queue offered, the user's sole queue preselected", async () => {
    const noQueue = { ...pendingTicket, queueId: null, queue: null };
    const api = conversationApi(
      noQueue,
      { 'PUT /tickets/12': () => json(200, { ...openTicket, userId: 7, queueId: 3 }) },
      AGENT,
    );
    const { wrapper } = await openTickets(api, '/tickets/uuid-12', AGENT);
    await screen.findByTestId('ticket-contact-name', {}, { timeout: 3000 });
    click(wrapper.findAllContainers()[1]!, 'Aceitar');
    await waitFor(() => expect(openModal(wrapper).getElement().textContent).toContain('Aceitar ticket'));
    expect(api.calls('PUT', '/tickets/12')).toHaveLength(0);
    expect(selectedText(wrapper, 'Fila')).toBe('Vendas');
    await waitFor(() => expect(selectOptions(wrapper, 'Fila')).toEqual(['Vendas', 'Suporte', 'Financeiro']));
    pickOption(wrapper, 'Fila', 'Financeiro');
    act(() => openModal(wrapper).findFooter()!.findAllButtons().at(-1)!.click());
    const call = await waitForCall(api, 'PUT', '/tickets/12');
    expect(call.body).toEqual({ status: 'open', userId: 7, queueId: 3 });
  });
});

describe('new-ticket dialog', () => {
  const contacts = [
    { ...ticketRow(40, 'Marcos Lima').contact, id: 40, number: '5511912345678' },
    { ...ticketRow(41, 'Marcela Dias').contact, id: 41, number: '5511987650000' },
  ];

  const openNewTicket = async (extra: Parameters<typeof ticketsApi>[1] = {}) => {
    const api = ticketsApi(
      {},
      {
        'GET /contacts': (request) =>
          json(200, {
            contacts: contacts.filter((c) => c.name.toLowerCase().includes(String(request.query?.searchParam))),
            hasMore: false,
          }),
        'GET /whatsapp': () => json(200, [{ id: 1, name: 'Atendimento', channel: 'whatsapp', status: 'CONNECTED' }]),
        ...extra,
      },
      AGENT,
    );
    const view = await openTickets(api, '/tickets', AGENT);
    click(view.wrapper.findAllContainers()[0]!, 'Novo ticket');
    await waitFor(() => expect(openModal(view.wrapper).getElement().textContent).toContain('Novo ticket'));
    return { api, ...view };
  };

  const searchContact = async (wrapper: Wrapper, api: TicketsApi, text: string) => {
    const suggest = modal(wrapper).findAutosuggest()!;
    act(() => suggest.setInputValue(text));
    await waitFor(() => expect(api.calls('GET', '/contacts').at(-1)?.query?.searchParam).toBe(text), {
      timeout: 3000,
    });
    return suggest;
  };

  it('searches contacts from 3 characters, offers every company queue with the sole one preselected, creates', async () => {
    const { api, wrapper } = await openNewTicket({
      'POST /tickets': () => json(201, ticketRow(60, 'Marcos Lima', { status: 'open', uuid: 'uuid-60' })),
      'GET /tickets/u/uuid-60': () => json(200, ticketRow(60, 'Marcos Lima', { status: 'open', uuid: 'uuid-60' })),
      'GET /messages/uuid-60': () => json(200, { messages: [], hasMore: false }),
    });
    const suggest = modal(wrapper).findAutosuggest()!;
    act(() => suggest.setInputValue('Ma'));
    await new Promise((r) => setTimeout(r, 400));
    expect(api.calls('GET', '/contacts')).toHaveLength(0);

    await searchContact(wrapper, api, 'marc');
    await waitFor(() => expect(suggest.findDropdown().findOptions()).toHaveLength(2));
    act(() => suggest.selectSuggestion(1));
    expect(selectedText(wrapper, 'Fila')).toBe('Vendas');
    await waitFor(() => expect(selectOptions(wrapper, 'Fila')).toEqual(['Vendas', 'Suporte', 'Financeiro']));
    await waitFor(() => expect(selectOptions(wrapper, 'Conexão')).toEqual(['Atendimento']));
    pickOption(wrapper, 'Conexão', 'Atendimento');
    pickOption(wrapper, 'Fila', 'Suporte');
    act(() => openModal(wrapper).findFooter()!.findAllButtons().at(-1)!.click());
    const call = await waitForCall(api, 'POST', '/tickets');
    expect(call.body).toEqual({ contactId: 40, queueId: 2, whatsappId: 1, userId: 7, status: 'open' });
    await waitFor(() => expect(screen.getByTestId('ticket-contact-name').textContent).toBe('Marcos Lima'), {
      timeout: 10_000,
    });
  });

  it("a contact with another user's open ticket names that user and queue", async () => {
    const { api, wrapper } = await openNewTicket({
      'POST /tickets': () =>
        json(409, {
          error: 'ERR_OTHER_OPEN_TICKET',
          message: 'x',
          details: { userId: 9, user: { name: 'Carlos' }, queue: { name: 'Suporte' }, uuid: 'uuid-99', status: 'open' },
        }),
    });
    const suggest = await searchContact(wrapper, api, 'marc');
    await waitFor(() => expect(suggest.findDropdown().findOptions()).toHaveLength(2));
    act(() => suggest.selectSuggestion(2));
    act(() => openModal(wrapper).findFooter()!.findAllButtons().at(-1)!.click());
    await waitFor(() =>
      expect(openModal(wrapper).getElement().textContent).toContain(
        'Este contato já está em atendimento por Carlos na fila Suporte.',
      ),
    );
    expect(api.calls('POST', '/tickets')[0]?.body).toMatchObject({ contactId: 41 });
  });
});

describe('log, send-contact and forward dialogs', () => {
  it('the log lists the timeline in the spec words', async () => {
    const api = conversationApi(openTicket, {
      'GET /tickets-log/12': () =>
        json(200, [
          { type: 'create', user: null, queue: null, createdAt: '2026-01-01T09:00:00.000Z' },
          { type: 'queue', user: null, queue: { id: 1, name: 'Vendas' }, createdAt: '2026-01-01T09:00:01.000Z' },
          { type: 'open', user: { id: 5, name: 'Ana Souza' }, queue: null, createdAt: '2026-01-01T09:05:00.000Z' },
          {
            type: 'transfered',
            user: { id: 5, name: 'Ana Souza' },
            queue: { id: 2, name: 'Suporte' },
            createdAt: '2026-01-01T09:10:00.000Z',
          },
        ]),
    });
    const { wrapper } = await openTickets(api, '/tickets/uuid-12');
    await screen.findByTestId('composer', {}, { timeout: 3000 });
    const more = wrapper
      .findAllButtonDropdowns()
      .find((d) => d.findNativeButton().getElement().ariaLabel === 'Mais opções')!;
    act(() => more.openDropdown());
    act(() => more.findItemById('log')!.click());
    await waitFor(() => expect(screen.getAllByTestId('log-entry')).toHaveLength(4), { timeout: 3000 });
    expect(screen.getAllByTestId('log-entry').map((e) => e.textContent?.split(' — ')[1])).toEqual([
      'Ticket criado',
      'Entrou na fila Vendas',
      'Ana Souza aceitou o ticket',
      'Ana Souza transferiu o ticket',
    ]);
  });

  it('the log that cannot load says so', async () => {
    const api = conversationApi(openTicket, { 'GET /tickets-log/12': () => json(500, { error: 'ERR_INTERNAL' }) });
    const { wrapper } = await openTickets(api, '/tickets/uuid-12');
    await screen.findByTestId('composer', {}, { timeout: 3000 });
    const more = wrapper
      .findAllButtonDropdowns()
      .find((d) => d.findNativeButton().getElement().ariaLabel === 'Mais opções')!;
    act(() => more.openDropdown());
    act(() => more.findItemById('log')!.click());
    await waitFor(() => expect(screen.getByText('Não foi possível carregar o histórico.')).toBeTruthy(), {
      timeout: 3000,
    });
  });

  it('send contact picks a contact and sends its vCard', async () => {
    const sent: unknown[] = [];
    const api = conversationApi(openTicket, {
      'GET /contacts': () =>
        json(200, { contacts: [{ ...ticketRow(40, 'Marcos Lima').contact, id: 40, number: '5511912345678' }] }),
      'POST /messages/12': (request) => {
        sent.push(request.body);
        return json(201, {});
      },
    });
    const { wrapper } = await openTickets(api, '/tickets/uuid-12');
    await screen.findByTestId('composer', {}, { timeout: 3000 });
    const more = createWrapper(screen.getByTestId('composer'))
      .findAllButtonDropdowns()
      .find((d) => d.findNativeButton().getElement().ariaLabel === 'Mais')!;
    act(() => more.openDropdown());
    act(() => more.findItemById('contact')!.click());
    await waitFor(() => expect(openModal(wrapper).getElement().textContent).toContain('Enviar contato'));
    const suggest = modal(wrapper).findAutosuggest()!;
    act(() => suggest.setInputValue('Marcos'));
    await waitFor(() => expect(suggest.findDropdown().findOptions()).toHaveLength(1), { timeout: 3000 });
    act(() => suggest.selectSuggestion(1));
    act(() => openModal(wrapper).findFooter()!.findAllButtons().at(-1)!.click());
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      body: 'Marcos Lima',
      vCard: 'BEGIN:VCARD\nVERSION:3.0\nFN:Marcos Lima\nTEL;type=CELL;waid=5511912345678:+5511912345678\nEND:VCARD',
      fromMe: true,
      read: 1,
    });
  });

  it('forward sends the message to the chosen contact with the sign toggle and confirms', async () => {
    const api = conversationApi(openTicket, {
      'GET /contacts': () =>
        json(200, { contacts: [{ ...ticketRow(40, 'Marcos Lima').contact, id: 40, number: '5511912345678' }] }),
      'POST /message/forward': () => json(200, {}),
    });
    const { wrapper } = await openTickets(api, '/tickets/uuid-12');
    await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(2), { timeout: 3000 });
    const options = createWrapper(screen.getAllByTestId('message')[0]!).findButtonDropdown()!;
    act(() => options.openDropdown());
    act(() => options.findItemById('forward')!.click());
    await waitFor(() => expect(openModal(wrapper).getElement().textContent).toContain('Encaminhar mensagem'));
    // The company signs messages: the toggle starts on; the attendant turns it off.
    const toggle = modal(wrapper).findToggle()!;
    expect(toggle.findNativeInput().getElement().checked).toBe(true);
    act(() => toggle.findNativeInput().click());
    const suggest = modal(wrapper).findAutosuggest()!;
    act(() => suggest.setInputValue('Marcos'));
    await waitFor(() => expect(suggest.findDropdown().findOptions()).toHaveLength(1), { timeout: 3000 });
    act(() => suggest.selectSuggestion(1));
    act(() => openModal(wrapper).findFooter()!.findAllButtons().at(-1)!.click());
    const call = await waitForCall(api, 'POST', '/message/forward');
    expect(call.body).toEqual({ messageId: 'm1', contactId: 40, signMessage: false });
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Mensagem encaminhada.'));
  });
});
