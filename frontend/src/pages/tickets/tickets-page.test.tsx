import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '@/api/auth';
import type { Ticket } from '@/api/tickets';
import { click, openModal } from '@/pages/users/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { toastTexts } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { messageRow, ticketRow } from './ticket-fixtures';

type View = ReturnType<typeof renderApp>;

const QUEUES = [
  { id: 1, name: 'Vendas', color: '#ff0000' },
  { id: 2, name: 'Suporte', color: '#00ff00' },
];
const ADMIN = authUser({ queues: QUEUES, queueIds: [1, 2] });
const AGENT = authUser({ id: 7, name: 'Bruno', profile: 'user', queues: QUEUES, queueIds: [1, 2] });
const TAGS = [
  { id: 1, name: 'VIP', color: '#000', kanban: 0 },
  { id: 2, name: 'Novo', color: '#111', kanban: 0 },
  { id: 3, name: 'Atraso', color: '#222', kanban: 0 },
];

const page = (tickets: Ticket[]) => json(200, { tickets, hasMore: false, count: tickets.length });

/** GET /tickets answers by the status asked (search: by searchParam). */
const ticketsApi = (
  lists: Partial<Record<string, Ticket[]>>,
  extra: Record<string, Route> = {},
  me: AuthUser = ADMIN,
) => {
  const server = fakeApi({
    ...shellRoutes(me),
    'GET /companySettings/2': () => json(200, { sendSignMessage: 'enabled', requiredTag: 'disabled' }),
    'GET /tags/list': () => json(200, TAGS),
    'GET /users/list': () =>
      json(200, [
        { id: 5, name: 'Ana Souza' },
        { id: 7, name: 'Bruno' },
      ]),
    'GET /whatsapp': () => json(200, []),
    'GET /tickets': (request) =>
      page(lists[request.query?.status ?? `search:${request.query?.searchParam ?? ''}`] ?? []),
    ...extra,
  });
  return {
    ...server,
    calls: (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path),
  };
};

const open = async (api: ReturnType<typeof ticketsApi>, path = '/tickets', me: AuthUser = ADMIN) => {
  const view = renderApp({ path, adapter: api.adapter });
  view.sessionUser.set(me);
  expect(await screen.findByText('Abertos', {}, { timeout: 15_000 })).toBeTruthy();
  return view;
};

const online = (view: View) => {
  act(() => view.socket.start());
  act(() => view.server.latest().accept());
  return (event: object) => act(() => view.server.latest().push(event));
};

/** The names on the list with the given aria-label (the section's empty text labels it). */
const names = (label: string) =>
  within(screen.getByRole('list', { name: label }))
    .getAllByTestId('ticket-item')
    .map((item) => item.querySelector('[data-field="name"]')?.textContent);

/** The labels of the list toolbar's fields (queue selector and filters) on the active tab. */
const filterLabels = (wrapper: View['wrapper']) =>
  wrapper
    .findAllFormFields()
    .filter((f) => f.getElement().closest('[data-testid="ticket-list-panel"]'))
    .map((f) => f.findLabel()?.getElement().textContent)
    .filter((label, i, all) => all.indexOf(label) === i);

const activeTab = (label: RegExp) => {
  const tab = screen.getAllByRole('tab').find((t) => label.test(t.textContent ?? ''));
  if (!tab) throw new Error(`no tab ${label}`);
  act(() => fireEvent.click(tab));
};

beforeAll(async () => {
  await Promise.all([
    import('@/components/shell/app-shell'),
    import('./tickets-page'),
    import('./ticket-view'),
    import('./ticket-dialogs'),
  ]);
}, 30_000);

describe('ticket lists', () => {
  it('loads Atendendo and Aguardando for the user queues and shows the rows cut as the spec says', async () => {
    const longName = 'N'.repeat(70);
    const api = ticketsApi({
      open: [ticketRow(1, 'Carla', { status: 'open', userId: 5, user: { id: 5, name: 'Ana Souza' } })],
      pending: [
        ticketRow(2, longName, {
          lastMessage: 'x'.repeat(50),
          unreadMessages: 3,
          tags: [{ id: 1 }, { id: 2 }, { id: 3 }],
        }),
      ],
    });
    await open(api);
    await waitFor(() => expect(screen.getByText('Atendendo (1)')).toBeTruthy(), { timeout: 3000 });
    expect(screen.getByText('Aguardando (1)')).toBeTruthy();
    expect(screen.queryByText(/^Grupos/)).toBeNull(); // allowGroup off
    const calls = api.calls('GET', '/tickets');
    expect(calls.map((c) => c.query?.status).sort()).toEqual(['open', 'pending']);
    expect(calls[0]?.query?.queueIds).toBe('[1,2]');
    expect(names('Nenhum ticket em atendimento')).toEqual(['Carla']);

    activeTab(/^Aguardando/);
    const row = screen.getByRole('list', { name: 'Nenhum ticket aguardando' }).querySelector('li')!;
    expect(row.querySelector('[data-field="name"]')?.textContent).toBe(`${'N'.repeat(60)}...`);
    expect(row.querySelector('[data-field="lastMessage"]')?.textContent).toBe(`${'x'.repeat(40)}...`);
    expect([...row.querySelectorAll('[data-field="tag"]')].map((t) => t.textContent)).toEqual(['VIP', 'Novo']);
    expect(row.querySelector('[data-field="moreTags"]')?.textContent).toBe('+1');
    expect(row.querySelector('[data-field="unread"]')?.textContent).toBe('3');
    expect(row.querySelector('[data-field="time"]')?.textContent).toBe('01/01/2026');
  });

  it('live events: a new unread message moves its ticket to the top, updates add and remove, deletes remove', async () => {
    const api = ticketsApi({
      pending: [ticketRow(1, 'Alfa'), ticketRow(2, 'Beta'), ticketRow(3, 'Gama')],
    });
    const view = await open(api);
    activeTab(/^Aguardando/);
    await waitFor(() => expect(names('Nenhum ticket aguardando')).toEqual(['Alfa', 'Beta', 'Gama']), { timeout: 3000 });
    const push = online(view);

    const gama = ticketRow(3, 'Gama', { unreadMessages: 1, lastMessage: 'oi', updatedAt: '2026-01-01T11:00:00.000Z' });
    push({
      channel: 'company-2-appMessage',
      action: 'create',
      message: messageRow('m1', 3, 'oi'),
      ticket: gama,
      contact: gama.contact,
    });
    expect(names('Nenhum ticket aguardando')).toEqual(['Gama', 'Alfa', 'Beta']);

    push({
      channel: 'company-2-ticket',
      action: 'update',
      ticket: ticketRow(4, 'Delta', { updatedAt: '2026-01-01T11:01:00.000Z' }),
    });
    expect(names('Nenhum ticket aguardando')).toEqual(['Delta', 'Gama', 'Alfa', 'Beta']);
    expect(screen.getByText('Aguardando (4)')).toBeTruthy();

    // Accepted by someone: it leaves Aguardando.
    push({
      channel: 'company-2-ticket',
      action: 'update',
      ticket: ticketRow(1, 'Alfa', { status: 'open', userId: 9, updatedAt: '2026-01-01T11:02:00.000Z' }),
    });
    push({ channel: 'company-2-ticket', action: 'delete', ticketId: 2 });
    expect(names('Nenhum ticket aguardando')).toEqual(['Delta', 'Gama']);
    // Another queue's ticket is not shown.
    push({ channel: 'company-2-ticket', action: 'update', ticket: ticketRow(5, 'Outra', { queueId: 9, queue: null }) });
    expect(names('Nenhum ticket aguardando')).toEqual(['Delta', 'Gama']);
  });

  it('search waits 500 ms after the last key and can search message contents', async () => {
    const api = ticketsApi({ 'search:maria': [ticketRow(8, 'Maria', { status: 'closed' })] });
    const { wrapper } = await open(api);
    activeTab(/^Busca$/);
    const input =
      wrapper.findInput('[type="search"]') ??
      wrapper.findAllInputs().find((i) => i.findNativeInput().getElement().type === 'search');
    act(() => wrapper.findCheckbox()!.findNativeInput().click());
    act(() => input!.setInputValue('mar'));
    act(() => input!.setInputValue('maria'));
    await waitFor(() => expect(names('Nenhum ticket encontrado')).toEqual(['Maria']), { timeout: 3000 });
    const searches = api.calls('GET', '/tickets').filter((c) => c.query?.status === undefined);
    expect(searches.map((c) => c.query?.searchParam)).toEqual(['maria']);
    expect(searches[0]?.query?.searchOnMessages).toBe('true');
  });

  it('close-all asks first and is admin only; plain users have no user filter or close-all', async () => {
    const api = ticketsApi({}, { 'POST /tickets/closeAll': () => json(200, {}) });
    const { wrapper } = await open(api);
    click(wrapper, 'Fechar todos');
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Fechar todos os tickets?');
    click(openModal(wrapper), 'Sim');
    await waitFor(() => expect(api.calls('POST', '/tickets/closeAll')).toHaveLength(1));
    expect(api.calls('POST', '/tickets/closeAll')[0]?.body).toEqual({ status: 'open', selectedQueueIds: [1, 2] });
    expect(filterLabels(wrapper)).toEqual(['Filas', 'Tags', 'Usuários', 'Status', 'Conexões']);
  });

  it('a plain user sees neither close-all nor the user filter nor show-all', async () => {
    const api = ticketsApi({}, {}, AGENT);
    const { wrapper } = await open(api, '/tickets', AGENT);
    expect(screen.queryByText('Fechar todos')).toBeNull();
    expect(filterLabels(wrapper)).toEqual(['Filas', 'Tags', 'Status', 'Conexões']);
    expect(screen.queryByText('Todos')).toBeNull();
  });
});

describe('ticket conversation', () => {
  const pendingTicket = ticketRow(12, 'Carla', { status: 'pending', unreadMessages: 1 });
  const openTicket = ticketRow(12, 'Carla', { status: 'open', userId: 5, user: { id: 5, name: 'Ana Souza' } });

  const conversationApi = (ticket: Ticket, extra: Record<string, Route> = {}) =>
    ticketsApi(
      {},
      {
        'GET /tickets/u/uuid-12': () => json(200, ticket),
        'GET /messages/uuid-12': () =>
          json(200, {
            messages: [
              messageRow('m3', 12, 'Terceira *negrito* ~riscado~ https://example.com', {
                createdAt: '2026-01-01T10:03:00.000Z',
                fromMe: true,
                ack: 3,
              }),
              messageRow('m2', 12, '<b>sem html</b>', { createdAt: '2026-01-01T10:02:00.000Z', isEdited: true }),
              messageRow('m1', 12, '', { createdAt: '2026-01-01T10:01:00.000Z', isDeleted: true }),
            ],
            hasMore: false,
          }),
        ...extra,
      },
    );

  it('shows the header and the messages oldest first with markdown, markers and ack; pending has no composer', async () => {
    const api = conversationApi(pendingTicket);
    await open(api, '/tickets/uuid-12');
    expect((await screen.findByTestId('ticket-contact-name', {}, { timeout: 3000 })).textContent).toBe('Carla');
    expect(screen.getByTestId('ticket-number').textContent).toBe('#12');
    await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(3));
    const bubbles = screen.getAllByTestId('message');
    expect(bubbles.map((b) => b.getAttribute('data-message-id'))).toEqual(['m1', 'm2', 'm3']);
    expect(bubbles[0]!.textContent).toContain('Esta mensagem foi apagada pelo contato');
    expect(bubbles[1]!.textContent).toContain('<b>sem html</b>');
    expect(bubbles[1]!.querySelector('b')).toBeNull();
    expect(bubbles[1]!.textContent).toContain('Editada');
    expect(bubbles[2]!.querySelector('strong')?.textContent).toBe('negrito');
    expect(bubbles[2]!.querySelector('s')?.textContent).toBe('riscado');
    expect(bubbles[2]!.querySelector('a')?.getAttribute('target')).toBe('_blank');
    expect(within(bubbles[2]!).getByRole('img', { name: 'Lida' })).toBeTruthy();
    expect(screen.queryByTestId('composer')).toBeNull();
    expect(screen.getByText('Aceite ou reabra o ticket para enviar mensagens.')).toBeTruthy();
  });

  it('accept sends status open with me as the user', async () => {
    const api = conversationApi(pendingTicket, {
      'PUT /tickets/12': () => json(200, { ...openTicket }),
    });
    const { wrapper } = await open(api, '/tickets/uuid-12');
    await screen.findByTestId('ticket-contact-name', {}, { timeout: 3000 });
    click(wrapper.findAllContainers()[1]!, 'Aceitar');
    await waitFor(() => expect(api.calls('PUT', '/tickets/12')).toHaveLength(1));
    expect(api.calls('PUT', '/tickets/12')[0]?.body).toEqual({ status: 'open', userId: 5 });
    await waitFor(() => expect(screen.getByTestId('composer')).toBeTruthy());
  });

  it('accept refused because another user holds the ticket names that user and queue', async () => {
    const api = conversationApi(pendingTicket, {
      'PUT /tickets/12': () =>
        json(409, {
          error: 'ERR_OTHER_OPEN_TICKET',
          message: 'x',
          details: { userId: 9, user: { name: 'Carlos' }, queue: { name: 'Suporte' }, uuid: 'uuid-99', status: 'open' },
        }),
    });
    const { wrapper } = await open(api, '/tickets/uuid-12');
    await screen.findByTestId('ticket-contact-name', {}, { timeout: 3000 });
    click(wrapper.findAllContainers()[1]!, 'Aceitar');
    await waitFor(() => expect(openModal(wrapper).getElement().textContent).toContain('Carlos'));
    expect(openModal(wrapper).getElement().textContent).toContain('Suporte');
  });

  it('Enter sends the text (signed), Shift+Enter does not; a private note goes unsigned with isPrivate', async () => {
    const sent: unknown[] = [];
    const api = conversationApi(openTicket, {
      'POST /messages/12': (request) => {
        sent.push(request.body);
        return json(
          201,
          messageRow(`new-${sent.length}`, 12, String((request.body as { body: string }).body), {
            fromMe: true,
            createdAt: `2026-01-01T11:0${sent.length}:00.000Z`,
          }),
        );
      },
    });
    const { wrapper } = await open(api, '/tickets/uuid-12');
    await screen.findByTestId('composer', {}, { timeout: 3000 });
    const textarea = createWrapper(screen.getByTestId('composer')).findTextarea()!;
    act(() => textarea.setTextareaValue('linha 1'));
    act(() => void fireEvent.keyDown(textarea.findNativeTextarea().getElement(), { key: 'Enter', shiftKey: true }));
    expect(sent).toHaveLength(0);
    act(() => void fireEvent.keyDown(textarea.findNativeTextarea().getElement(), { key: 'Enter' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ body: '*Ana Souza:*\nlinha 1', fromMe: true, read: 1 });
    await waitFor(() => expect(screen.getAllByTestId('message').at(-1)?.getAttribute('data-message-id')).toBe('new-1'));

    // Private note.
    const privateToggle = wrapper
      .findAllToggles()
      .find((t) => t.findLabel().getElement().textContent === 'Nota privada')!;
    act(() => privateToggle.findNativeInput().click());
    act(() => textarea.setTextareaValue('só a equipe'));
    act(() => void fireEvent.keyDown(textarea.findNativeTextarea().getElement(), { key: 'Enter' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ body: 'só a equipe', isPrivate: true, fromMe: true, read: 1 });
    expect(toastTexts(wrapper)).toEqual([]);
  });

  it('a leading slash lists the quick replies and picking one fills the text', async () => {
    const api = conversationApi(openTicket, {
      'GET /quick-messages/list': () =>
        json(200, [
          { id: 1, shortcode: 'ola', message: 'Olá! Como posso ajudar?' },
          { id: 2, shortcode: 'pix', message: 'Nossa chave PIX é ...' },
        ]),
    });
    await open(api, '/tickets/uuid-12');
    await screen.findByTestId('composer', {}, { timeout: 3000 });
    const textarea = createWrapper(screen.getByTestId('composer')).findTextarea()!;
    act(() => textarea.setTextareaValue('/pi'));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['/pix Nossa chave PIX é ...']);
    act(() => fireEvent.click(options[0]!));
    expect(textarea.getTextareaValue()).toBe('Nossa chave PIX é ...');
  });

  it('resolve with the required-tag setting on and no tags warns instead of calling', async () => {
    const api = conversationApi(openTicket, {
      'GET /companySettings/2': () => json(200, { requiredTag: 'enabled' }),
    });
    const { wrapper } = await open(api, '/tickets/uuid-12');
    await screen.findByTestId('composer', {}, { timeout: 3000 });
    const resolve = wrapper.findAllButtonDropdowns().find((d) => d.getElement().textContent?.includes('Resolver'))!;
    act(() => resolve.openDropdown());
    act(() => resolve.findItemById('farewell')!.click());
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Você deve atribuir uma tag antes de fechar o ticket.'));
    expect(api.calls('PUT', '/tickets/12')).toHaveLength(0);
  });

  it('a live message of this ticket appears at the bottom', async () => {
    const api = conversationApi(openTicket);
    const view = await open(api, '/tickets/uuid-12');
    await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(3), { timeout: 3000 });
    const push = online(view);
    push({
      channel: 'company-2-appMessage',
      action: 'create',
      message: messageRow('m4', 12, 'nova', { createdAt: '2026-01-01T12:00:00.000Z' }),
      ticket: openTicket,
      contact: openTicket.contact,
    });
    expect(screen.getAllByTestId('message').at(-1)?.getAttribute('data-message-id')).toBe('m4');
    expect(view.server.latest().sent).toEqual(expect.arrayContaining([{ action: 'joinChatBox', ticketId: 12 }]));
  });
});
