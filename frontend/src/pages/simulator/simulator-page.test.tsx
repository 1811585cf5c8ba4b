import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '@/api/auth';
import type { Connection } from '@/api/connections';
import type { SimulatorReceived, SimulatorSent } from '@/api/simulator';
import { buttonNamed, click, columnTexts } from '@/pages/users/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { connectionRow } from '@/testing/connection-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';

type Wrapper = ReturnType<typeof renderApp>['wrapper'];

const ADMIN = authUser();
const NUMBER = '5511988887777';
const MESSAGES = '/simulator/3/messages';

const received = (
  id: number,
  body: string,
  ack: number,
  overrides: Partial<SimulatorReceived> = {},
): SimulatorReceived => ({
  id: `R#01JAAAAAAAAAAAAAAAAAAAAAA${id}`,
  providerMessageId: `BAE5${id}`,
  chatId: `${NUMBER}@s.whatsapp.net`,
  type: 'text',
  body,
  ack,
  receivedAt: '2026-01-01T10:00:00.000Z',
  mediaUrl: null,
  ...overrides,
});

/** What the customer sent, as the GET answers it (`S#` ids share the received ones' ULID order). */
const sent = (id: number, body: string, ack: number, overrides: Partial<SimulatorSent> = {}): SimulatorSent => ({
  id: `S#01JAAAAAAAAAAAAAAAAAAAAAA${id}`,
  providerMessageId: `3A${id}`,
  chatId: `${NUMBER}@s.whatsapp.net`,
  type: 'text',
  body,
  ack,
  sentAt: '2026-01-01T10:00:00.000Z',
  mediaUrl: null,
  ...overrides,
});

const simulatorApi = (
  extra: Record<string, Route> = {},
  { me = ADMIN, list = [] as SimulatorReceived[], own = [] as SimulatorSent[] } = {},
) => {
  const server = fakeApi({
    ...shellRoutes(me),
    [`GET ${MESSAGES}`]: () => json(200, { messages: list, sent: own, hasMore: false, nextCursor: null }),
    [`POST ${MESSAGES}`]: () => json(200, { message: 'ok', providerMessageId: '3AABC' }),
    'POST /simulator/3/media': () => json(200, { message: 'ok', providerMessageId: '3AABD' }),
    'POST /simulator/3/read': () => json(200, { message: 'ok' }),
    ...extra,
  });
  return {
    ...server,
    calls: (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path),
  };
};

const openSimulator = async (api = simulatorApi()) => {
  const view = renderApp({ path: '/connections/3/simulator', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: 'Simulador de telefone' }, { timeout: 15_000 })).toBeTruthy();
  return { ...view, api };
};

/** Opens the chat of the customer (number and name typed, then "Abrir conversa"). */
const pickCustomer = async (wrapper: Wrapper, name = 'Maria') => {
  await waitFor(() => expect(buttonNamed(wrapper, 'Abrir conversa')).toBeTruthy());
  typeInto(wrapper, 'Número', `+${NUMBER}`);
  typeInto(wrapper, 'Nome (opcional)', name);
  click(wrapper, 'Abrir conversa');
  await waitFor(() => expect(screen.getByRole('log', { name: 'Conversa do cliente' })).toBeTruthy());
};

const textarea = (wrapper: Wrapper) => wrapper.findTextarea()!;

const typeAndPressEnter = (wrapper: Wrapper, text: string, shiftKey = false) => {
  act(() => textarea(wrapper).setTextareaValue(text));
  act(() => {
    fireEvent.keyDown(textarea(wrapper).findNativeTextarea().getElement(), { key: 'Enter', keyCode: 13, shiftKey });
  });
};

beforeAll(async () => {
  await Promise.all([
    import('@/components/shell/app-shell'),
    import('./simulator-page'),
    import('@/pages/connections/connections-page'),
  ]);
}, 30_000);

describe('phone simulator', () => {
  it('sends the text as the chosen customer with Enter, and refreshes the chat', async () => {
    const { wrapper, api } = await openSimulator();
    await pickCustomer(wrapper);

    typeAndPressEnter(wrapper, 'Olá, quero um pão');

    await waitFor(() => expect(api.calls('POST', MESSAGES)).toHaveLength(1));
    expect(api.calls('POST', MESSAGES)[0]?.body).toEqual({ number: NUMBER, name: 'Maria', body: 'Olá, quero um pão' });
    expect(textarea(wrapper).getTextareaValue()).toBe('');
    await waitFor(() =>
      expect(api.calls('GET', MESSAGES).filter((r) => r.query?.number === NUMBER).length).toBeGreaterThanOrEqual(2),
    );
  });

  it('ignores blank text and Shift+Enter', async () => {
    const { wrapper, api } = await openSimulator();
    await pickCustomer(wrapper);

    typeAndPressEnter(wrapper, '   \n ');
    click(wrapper, 'Enviar');
    typeAndPressEnter(wrapper, 'linha 1', true);

    await new Promise((r) => setTimeout(r, 50));
    expect(api.calls('POST', MESSAGES)).toHaveLength(0);
    expect(textarea(wrapper).getTextareaValue()).toBe('linha 1');
  });

  it('shows what the customer received, with time and ack labels', async () => {
    const list = [
      received(1, 'Bom dia!', 0),
      received(2, 'Seu pedido saiu', 2),
      received(3, '', 3, { type: 'document', body: undefined, filename: 'nota.pdf' }),
    ];
    const { wrapper } = await openSimulator(simulatorApi({}, { list }));
    await pickCustomer(wrapper);

    await waitFor(() => expect(screen.getAllByTestId('simulator-received')).toHaveLength(3));
    const bubbles = screen.getAllByTestId('simulator-received').map((b) => b.textContent ?? '');
    expect(bubbles[0]).toContain('Bom dia!');
    expect(bubbles[1]).toContain('Seu pedido saiu');
    expect(bubbles[2]).toContain('nota.pdf');
    expect(bubbles[0]).toMatch(/\d\d:00/);
    expect(screen.getByRole('img', { name: 'Pendente' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Entregue' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Lida' })).toBeTruthy();
  });

  it('right after the customer writes, the chat shows what they sent (not an empty chat)', async () => {
    const posted: SimulatorSent[] = [];
    const api = simulatorApi({
      [`GET ${MESSAGES}`]: () => json(200, { messages: [], sent: posted, hasMore: false, nextCursor: null }),
      [`POST ${MESSAGES}`]: (request) => {
        posted.push(sent(posted.length + 1, String((request.body as { body: string }).body), 0));
        return json(200, { message: 'ok', providerMessageId: `3A${posted.length}` });
      },
    });
    const { wrapper } = await openSimulator(api);
    await pickCustomer(wrapper);
    expect(await screen.findByText('Nenhuma mensagem nesta conversa ainda.')).toBeTruthy();

    typeAndPressEnter(wrapper, 'Oi, quero um *bolo*');

    await waitFor(() => expect(screen.getAllByTestId('simulator-sent')).toHaveLength(1));
    const bubble = screen.getByTestId('simulator-sent');
    expect(bubble.textContent).toContain('Oi, quero um bolo');
    expect(bubble.querySelector('strong')?.textContent).toBe('bolo');
    expect(within(bubble).getByRole('img', { name: 'Pendente' })).toBeTruthy();
    expect(screen.queryByText('Nenhuma mensagem nesta conversa ainda.')).toBeNull();
  });

  it('shows both sides in order, as the phone does: formatting, quotes, reactions, files and ticks', async () => {
    const list = [
      received(2, '*Ana Atendente:*\n_Bom dia!_ ~Promoção~ ```COD-1```', 3),
      received(4, '', 2, { type: 'image', body: undefined, mediaUrl: '/media/c/2/foto.jpg', filename: 'foto.jpg' }),
    ];
    const own = [
      sent(1, 'Olá, tudo bem?', 2),
      sent(3, 'Que ótimo!', 0, { quotedProviderMessageId: 'BAE52' }),
      sent(5, '', 2, { type: 'reaction', body: undefined, emoji: '❤️', targetProviderMessageId: 'BAE52' }),
      sent(6, 'recibo', 2, { type: 'document', mediaUrl: '/media/c/2/recibo.pdf', filename: 'recibo.pdf' }),
    ];
    const { wrapper } = await openSimulator(simulatorApi({}, { list, own }));
    await pickCustomer(wrapper);

    const log = await screen.findByRole('log', { name: 'Conversa do cliente' });
    await waitFor(() => expect(within(log).getAllByTestId(/^simulator-(sent|received)$/)).toHaveLength(5));
    const bubbles = within(log).getAllByTestId(/^simulator-(sent|received)$/);
    expect(bubbles.map((b) => b.getAttribute('data-testid'))).toEqual([
      'simulator-sent',
      'simulator-received',
      'simulator-sent',
      'simulator-received',
      'simulator-sent',
    ]);
    // The business's signature and formatting as WhatsApp draws them.
    const greeting = bubbles[1]!;
    expect(greeting.querySelector('strong')?.textContent).toBe('Ana Atendente:');
    expect(greeting.querySelector('em')?.textContent).toBe('Bom dia!');
    expect(greeting.querySelector('s')?.textContent).toBe('Promoção');
    expect(greeting.querySelector('code')?.textContent).toBe('COD-1');
    expect(greeting.textContent).not.toContain('*');
    // The customer's reaction sits under the message it reacts to, not in a bubble of its own.
    expect(within(greeting).getByTestId('simulator-reaction').textContent).toBe('❤️');
    // The reply shows what it quotes: the business's message, its words without markers.
    const quote = within(bubbles[2]!).getByTestId('simulator-quote');
    expect(quote.textContent).toContain('Empresa');
    expect(quote.textContent).toContain('Ana Atendente: Bom dia! Promoção COD-1');
    // Files: the picture inline, the document as a link.
    expect(bubbles[3]!.querySelector('img')?.getAttribute('src')).toBe('/media/c/2/foto.jpg');
    expect(bubbles[4]!.querySelector('a')?.getAttribute('href')).toBe('/media/c/2/recibo.pdf');
    expect(bubbles[4]!.textContent).toContain('recibo.pdf');
    // Ticks on the customer's own messages: delivered, and a clock for the one not sent yet.
    expect(within(bubbles[0]!).getByRole('img', { name: 'Entregue' })).toBeTruthy();
    expect(within(bubbles[2]!).getByRole('img', { name: 'Pendente' })).toBeTruthy();
  });

  it("'Responder' quotes the chosen message in the next send", async () => {
    const { wrapper, api } = await openSimulator(simulatorApi({}, { list: [received(1, 'Seu pedido saiu', 2)] }));
    await pickCustomer(wrapper);
    await waitFor(() => expect(screen.getAllByTestId('simulator-received')).toHaveLength(1));

    click(createWrapper(screen.getByTestId('simulator-received')), 'Responder');
    expect(screen.getByTestId('simulator-replying').textContent).toContain('Seu pedido saiu');
    typeAndPressEnter(wrapper, 'Obrigado!');

    await waitFor(() => expect(api.calls('POST', MESSAGES)).toHaveLength(1));
    expect(api.calls('POST', MESSAGES)[0]?.body).toEqual({
      number: NUMBER,
      name: 'Maria',
      body: 'Obrigado!',
      quotedProviderMessageId: 'BAE51',
    });
    expect(screen.queryByTestId('simulator-replying')).toBeNull();
  });

  it('reacts to a received message with an emoji', async () => {
    const { wrapper, api } = await openSimulator(simulatorApi({}, { list: [received(1, 'Bom dia!', 2)] }));
    await pickCustomer(wrapper);
    await waitFor(() => expect(screen.getAllByTestId('simulator-received')).toHaveLength(1));

    const menu = createWrapper(screen.getByTestId('simulator-received')).findButtonDropdown()!;
    act(() => menu.openDropdown());
    const item = menu.findItems().find((i) => i.getElement().textContent === '👍');
    if (!item) throw new Error(`no 👍 among ${menu.findItems().length} items`);
    act(() => item.click());

    await waitFor(() => expect(api.calls('POST', MESSAGES)).toHaveLength(1));
    expect(api.calls('POST', MESSAGES)[0]?.body).toEqual({
      number: NUMBER,
      name: 'Maria',
      reactTo: 'BAE51',
      emoji: '👍',
    });
  });

  it('refuses a file over 3 MB in the browser and sends a smaller one as multipart', async () => {
    const { wrapper, api } = await openSimulator();
    await pickCustomer(wrapper);
    const input = screen.getByTestId('simulator-file') as HTMLInputElement;

    const big = new File([new Uint8Array(3 * 1024 * 1024 + 1)], 'grande.mp4', { type: 'video/mp4' });
    act(() => {
      fireEvent.change(input, { target: { files: [big] } });
    });
    await waitFor(() => expect(toastTexts(wrapper)).toEqual(['O arquivo grande.mp4 passa de 3 MB.']));
    expect(api.calls('POST', '/simulator/3/media')).toHaveLength(0);

    const small = new File(['abc'], 'foto.jpg', { type: 'image/jpeg' });
    act(() => {
      fireEvent.change(input, { target: { files: [small] } });
    });
    await waitFor(() => expect(api.calls('POST', '/simulator/3/media')).toHaveLength(1));
    const form = api.calls('POST', '/simulator/3/media')[0]?.body as FormData;
    expect(form.get('number')).toBe(NUMBER);
    expect((form.get('file') as File).name).toBe('foto.jpg');
  });

  it("'Marcar como lido' posts ack 3 for the customer", async () => {
    const { wrapper, api } = await openSimulator();
    await pickCustomer(wrapper);

    click(wrapper, 'Marcar como lido');

    await waitFor(() => expect(api.calls('POST', '/simulator/3/read')).toHaveLength(1));
    expect(api.calls('POST', '/simulator/3/read')[0]?.body).toEqual({ number: NUMBER, ack: 3 });
  });

  it('remembers recent customers', async () => {
    const { wrapper } = await openSimulator();
    await pickCustomer(wrapper, 'Maria');
    typeInto(wrapper, 'Número', '5521977776666');
    typeInto(wrapper, 'Nome (opcional)', '');
    click(wrapper, 'Abrir conversa');
    await waitFor(() => expect(buttonNamed(wrapper, `Maria (${NUMBER})`)).toBeTruthy());
    expect(buttonNamed(wrapper, '5521977776666')).toBeTruthy();
  });

  it('refuses a number without 8 to 15 digits', async () => {
    const { wrapper, api } = await openSimulator();
    await waitFor(() => expect(buttonNamed(wrapper, 'Abrir conversa')).toBeTruthy());
    typeInto(wrapper, 'Número', '1234');
    click(wrapper, 'Abrir conversa');
    expect(await screen.findByText('Informe de 8 a 15 dígitos, com o código do país.')).toBeTruthy();
    expect(api.calls('GET', MESSAGES).filter((r) => r.query?.number)).toHaveLength(0);
  });

  it('shows an info message where the deployment has no simulator (404)', async () => {
    const api = simulatorApi({ [`GET ${MESSAGES}`]: () => json(404, { error: 'ERR_NOT_FOUND', message: 'x' }) });
    const { wrapper } = await openSimulator(api);

    expect(await screen.findByText('Simulador indisponível')).toBeTruthy();
    expect(wrapper.findTextarea()).toBeNull();
    expect(() => buttonNamed(wrapper, 'Abrir conversa')).toThrow();
  });

  it('a plain user without allowConnections gets the no-permission view', async () => {
    const api = simulatorApi({}, { me: authUser({ id: 9, profile: 'user' }) });
    renderApp({ path: '/connections/3/simulator', adapter: api.adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', {}, { timeout: 15_000 })).toBeTruthy();
    expect(api.calls('GET', MESSAGES)).toHaveLength(0);
  });
});

describe("the connections row's 'Simulador' button", () => {
  const rows = (): Connection[] => [
    connectionRow(1, 'Atendimento', { status: 'DISCONNECTED' }),
    connectionRow(3, 'Suporte', { status: 'CONNECTED', number: '5511999990000' }),
    connectionRow(6, 'Página', { channel: 'facebook', status: 'CONNECTED' }),
  ];
  const openConnections = async (me: AuthUser) => {
    const api = simulatorApi({ 'GET /whatsapp': () => json(200, rows()) }, { me });
    const view = renderApp({ path: '/connections', adapter: api.adapter });
    expect(await screen.findByRole('heading', { name: /^Conexões/ }, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() => expect(columnTexts(view.wrapper, 1)).toHaveLength(3));
    return view;
  };
  const simulatorButtons = (wrapper: Wrapper) =>
    wrapper
      .findAllButtons()
      .map((b) => b.getElement().getAttribute('aria-label') ?? '')
      .filter((label) => label.startsWith('Abrir o simulador'));

  it('shows only on CONNECTED WhatsApp connections and opens the simulator', async () => {
    const { wrapper, router } = await openConnections(ADMIN);
    expect(simulatorButtons(wrapper)).toEqual(['Abrir o simulador de Suporte']);

    click(wrapper, 'Abrir o simulador de Suporte');
    await waitFor(() => expect(router.state.location.pathname).toBe('/connections/3/simulator'));
    expect(await screen.findByRole('heading', { name: 'Simulador de telefone' }, { timeout: 15_000 })).toBeTruthy();
  });

  it('shows for a plain user with allowConnections, not for one without', async () => {
    const manager = await openConnections(authUser({ id: 9, profile: 'user', allowConnections: 'enabled' }));
    expect(simulatorButtons(manager.wrapper)).toEqual(['Abrir o simulador de Suporte']);
    manager.unmount();

    const api = simulatorApi(
      { 'GET /whatsapp': () => json(200, rows()) },
      { me: authUser({ id: 9, profile: 'user' }) },
    );
    const view = renderApp({ path: '/connections', adapter: api.adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', {}, { timeout: 15_000 })).toBeTruthy();
    expect(simulatorButtons(view.wrapper)).toEqual([]);
  });
});
