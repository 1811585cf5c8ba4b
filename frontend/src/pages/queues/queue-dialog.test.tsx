import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { QueueAdminView, QueueInput } from '@/api/queues';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { click, columnTexts, noOpenModal, openModal } from '@/components/test-kit';
import { queueRow } from './test-kit';

const ADMIN = authUser({ id: 5, name: 'Ana Souza', profile: 'admin' });
type Wrapper = ReturnType<typeof createWrapper>;

const VENDAS = queueRow(1, 'Vendas', {
  chatbots: [
    {
      id: 10,
      name: 'Comprar',
      queueType: 'queue',
      greetingMessage: '',
      closeTicket: false,
      optQueueId: 2,
      optUserId: null,
      optIntegrationId: null,
      optFileId: null,
      options: [],
    },
  ],
});
const QUEUES: QueueAdminView[] = [VENDAS, queueRow(2, 'Suporte'), queueRow(3, 'Financeiro')];

const dialogApi = (extra: Record<string, Route> = {}, scheduleType = 'disabled') => {
  const server = fakeApi({
    ...shellRoutes(ADMIN),
    'GET /queue': () => json(200, QUEUES),
    'GET /queue/1': () => json(200, VENDAS),
    [`GET /companySettings/${ADMIN.companyId}`]: () => json(200, { scheduleType, schedules: [] }),
    'GET /users/list': () => json(200, [{ id: 7, name: 'Bruno Lima' }]),
    ...extra,
  });
  const bodies = (method: string) =>
    server.requests.filter((r) => r.method === method && r.path.startsWith('/queue')).map((r) => r.body as QueueInput);
  return { ...server, bodies };
};

const openDialog = async (api: ReturnType<typeof dialogApi>, edit?: string) => {
  const view = renderApp({ path: '/queues', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Filas & Chatbot/ }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, 2)).toHaveLength(3));
  click(view.wrapper, edit ? `Editar ${edit}` : 'Adicionar fila');
  await waitFor(() => expect(modal(view.wrapper).findTabs()).toBeTruthy());
  return view;
};

const tab = (wrapper: Wrapper, label: string) => {
  const link = modal(wrapper)
    .findTabs()!
    .findTabLinks()
    .find((l) => l.getElement().textContent === label);
  if (!link) throw new Error(`no tab '${label}'`);
  act(() => link.click());
};

const tabLabels = (wrapper: Wrapper) =>
  modal(wrapper)
    .findTabs()!
    .findTabLinks()
    .map((l) => l.getElement().textContent);

const modal = (wrapper: Wrapper) => createWrapper(openModal(wrapper).getElement());

const option = (number: string) => createWrapper(screen.getByTestId(`chatbot-option-${number}`));

const typeMessage = (scope: Wrapper, value: string) => {
  const field = scope.findAllFormFields().find((f) => f.findLabel()?.getElement().textContent === 'Mensagem do bot');
  const textarea = field?.findControl()?.findTextarea();
  if (!textarea) throw new Error('no bot message');
  act(() => textarea.setTextareaValue(value));
};

/** The option's add-sub-option button (a disabled one also holds its reason's text). */
const addSub = (scope: Wrapper) => {
  const button = scope.findAllButtons().find((b) => b.getElement().textContent?.startsWith('Adicionar sub-opção'));
  if (!button) throw new Error('no add-sub-option button');
  return button;
};

const choose = (scope: Wrapper, label: string, value: string) => {
  const field = scope.findAllFormFields().find((f) => f.findLabel()?.getElement().textContent === label);
  const select = field?.findControl()?.findSelect();
  if (!select) throw new Error(`no select '${label}'`);
  act(() => select.openDropdown());
  act(() => select.selectOptionByValue(value));
};

describe('queue dialog', () => {
  it('creates a queue: required name and colour first, then POST with the typed fields', async () => {
    const created = queueRow(4, 'Cobrança');
    const api = dialogApi({ 'POST /queue': () => json(201, created) });
    const { wrapper } = await openDialog(api);
    click(openModal(wrapper), 'Salvar');
    expect(errorOf(wrapper, 'Nome')).toBe('Obrigatório');
    expect(api.bodies('POST')).toHaveLength(0);

    typeInto(wrapper, 'Nome', ' Cobrança ');
    typeInto(wrapper, 'Cor', '#00aa00');
    typeInto(wrapper, 'Ordem da fila (bot)', '4');
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.bodies('POST')[0]).toMatchObject({
      name: 'Cobrança',
      color: '#00aa00',
      orderQueue: 4,
      tempoRoteador: 0,
      chatbots: [],
    });
    expect(api.bodies('POST')[0]?.schedules).toHaveLength(7);
    expect(toastTexts(wrapper)).toContain('Fila salva com sucesso!');
  });

  it("offers the company's queue integrations on the queue and PUTs the one chosen", async () => {
    const api = dialogApi({
      'GET /queueIntegration': () =>
        json(200, { queueIntegrations: [{ id: 31, name: 'Typebot de vendas', type: 'typebot' }], hasMore: false }),
      'PUT /queue/1': () => json(200, VENDAS),
    });
    const { wrapper } = await openDialog(api, 'Vendas');
    await waitFor(() => expect(api.requests.some((r) => r.path === '/queueIntegration')).toBe(true));
    choose(modal(wrapper), 'Integração', '31');
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(api.bodies('PUT')).toHaveLength(1));
    expect(api.bodies('PUT')[0]).toMatchObject({ integrationId: 31 });
  });

  it('edits the menu: adds a nested option with an attendant, removes one, and PUTs the whole tree', async () => {
    const api = dialogApi({ 'PUT /queue/1': () => json(200, VENDAS) });
    const { wrapper } = await openDialog(api, 'Vendas');
    tab(wrapper, 'Opções do chatbot');
    expect(option('1').findHeader()?.getElement().textContent).toContain('1. Comprar');

    click(openModal(wrapper), 'Adicionar opção');
    const second = option('2');
    typeInto(second, 'Nome da opção', 'Falar com atendente');
    typeMessage(second, 'Escolha quem vai atender');
    click(second, 'Adicionar sub-opção');
    const nested = option('2.1');
    typeInto(nested, 'Nome da opção', 'Bruno');
    choose(nested, 'Tipo', 'attendent');
    choose(option('2.1'), 'Atendente', '7');
    click(openModal(wrapper), 'Adicionar opção');
    click(option('3'), 'Remover');
    expect(screen.queryByTestId('chatbot-option-3')).toBeNull();

    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(api.bodies('PUT')).toHaveLength(1));
    expect(api.bodies('PUT')[0]?.chatbots).toMatchObject([
      { id: 10, name: 'Comprar', queueType: 'queue', optQueueId: 2 },
      {
        name: 'Falar com atendente',
        greetingMessage: 'Escolha quem vai atender',
        options: [{ name: 'Bruno', queueType: 'attendent', optUserId: 7, optQueueId: null, options: [] }],
      },
    ]);
  });

  it('offers the other queues as targets and refuses option names under 4 characters', async () => {
    const api = dialogApi();
    const { wrapper } = await openDialog(api, 'Vendas');
    tab(wrapper, 'Opções do chatbot');
    click(option('1'), 'Editar');
    const field = option('1')
      .findAllFormFields()
      .find((f) => f.findLabel()?.getElement().textContent === 'Fila');
    const select = field!.findControl()!.findSelect()!;
    act(() => select.openDropdown());
    expect(
      select
        .findDropdown()
        .findOptions()
        .map((o) => o.getElement().textContent),
    ).toEqual(['Suporte', 'Financeiro']);
    typeInto(option('1'), 'Nome da opção', 'Abc');
    click(openModal(wrapper), 'Salvar');
    expect(errorOf(option('1'), 'Nome da opção')).toBe('O nome deve ter pelo menos 4 caracteres');
    expect(api.bodies('PUT')).toHaveLength(0);
  });

  it("shows the server's error on the option it names", async () => {
    const api = dialogApi({
      'PUT /queue/1': () =>
        json(400, {
          error: 'ERR_VALIDATION',
          message: 'invalid',
          fields: [{ field: 'body.chatbots.0.optQueueId', reason: 'Fila inexistente' }],
        }),
    });
    const { wrapper } = await openDialog(api, 'Vendas');
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(api.bodies('PUT')).toHaveLength(1));
    tab(wrapper, 'Opções do chatbot');
    await waitFor(() => expect(errorOf(option('1'), 'Fila')).toBe('Fila inexistente'));
    expect(noOpenModal(wrapper)).toBe(false);
  });

  it('stops adding sub-options at the maximum depth', async () => {
    const { wrapper } = await openDialog(dialogApi());
    tab(wrapper, 'Opções do chatbot');
    click(openModal(wrapper), 'Adicionar opção');
    let number = '1';
    for (let depth = 1; depth < 5; depth++) {
      act(() => addSub(option(number)).click());
      number = `${number}.1`;
    }
    expect(addSub(option('1.1.1.1.1')).isDisabled()).toBe(true);
    expect(addSub(option('1.1.1.1')).isDisabled()).toBe(false);
  });

  it('shows the out-of-hours tab only for hours per queue, and hints to save after editing hours', async () => {
    const { wrapper } = await openDialog(dialogApi({}, 'queue'), 'Vendas');
    expect(tabLabels(wrapper)).toContain('Mensagem fora de expediente');
    tab(wrapper, 'Horários de atendimento');
    typeInto(modal(wrapper), 'Início (turno A)', '09:00');
    expect(toastTexts(wrapper)).toContain('Clique em salvar para registar as alterações');
  });

  it('has no out-of-hours tab when the company hours are not per queue', async () => {
    const { wrapper } = await openDialog(dialogApi({}, 'disabled'), 'Vendas');
    expect(tabLabels(wrapper)).not.toContain('Mensagem fora de expediente');
  });
});
