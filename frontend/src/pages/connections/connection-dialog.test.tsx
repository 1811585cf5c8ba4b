import { act, fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Connection, ConnectionChannel } from '@/api/connections';
import { changeLanguage } from '@/i18n';
import { click, openModal } from '@/pages/users/test-kit';
import { connectionRow } from '@/testing/connection-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { ConnectionDialog } from './connection-dialog';

type Wrapper = ReturnType<typeof renderApp>['wrapper'];

const SAO_PAULO = connectionRow(3, 'Vendas', {
  greetingMediaAttachment: '/media/c/2/connections/3/0b7c/ola.pdf',
});

/** GET /companySettingOne?column=... with the company's scheduleType and userRating. */
const settingsRoute =
  (settings: { scheduleType?: string; userRating?: string } = {}): Route =>
  (req) => {
    const column = req.query?.column ?? '';
    const all: Record<string, string> = { scheduleType: 'disabled', userRating: 'disabled', ...settings };
    return json(200, { [column]: all[column] });
  };

/** The dialog alone, as the page opens it. */
const openDialog = async ({
  connectionId,
  channel = 'whatsapp',
  routes = {},
  settings,
}: {
  connectionId?: number;
  channel?: ConnectionChannel;
  routes?: Record<string, Route>;
  settings?: { scheduleType?: string; userRating?: string };
}) => {
  const api = fakeApi({ 'GET /companySettingOne': settingsRoute(settings), ...routes });
  const onSaved = vi.fn<(connection: Connection) => void>();
  const onDismiss = vi.fn();
  const view = renderApp({
    path: '/',
    adapter: api.adapter,
    routes: [
      {
        path: '/',
        element: (
          <ConnectionDialog connectionId={connectionId} channel={channel} onSaved={onSaved} onDismiss={onDismiss} />
        ),
      },
    ],
  });
  await waitFor(() => expect(openModal(view.wrapper).findContent().findAllFormFields().length).toBeGreaterThan(0), {
    timeout: 15_000,
  });
  const sent = (method: string) => api.requests.filter((r) => r.method === method && !r.path.startsWith('/company'));
  return { ...view, api, onSaved, onDismiss, sent };
};

const tabLabels = (wrapper: Wrapper) =>
  wrapper
    .findTabs()
    ?.findTabLinks()
    .map((l) => l.getElement().textContent);

const openTab = (wrapper: Wrapper, id: string) => act(() => wrapper.findTabs()?.findTabLinkById(id)?.click());
const activeTab = (wrapper: Wrapper) => wrapper.findTabs()?.findActiveTab()?.getElement().textContent;

const typeText = (wrapper: Wrapper, label: string, value: string) => {
  const area = fieldByLabel(wrapper, label).findControl()?.findTextarea();
  if (!area) throw new Error(`the field '${label}' has no text area`);
  act(() => area.setTextareaValue(value));
};

const chooseFile = (wrapper: Wrapper, file: File) => {
  const input = wrapper.findFileInput()?.findNativeInput().getElement();
  if (!input) throw new Error('no file input');
  act(() => {
    fireEvent.change(input, { target: { files: [file] } });
  });
};

/** GET /queue as an admin gets it (only the fields the dialog reads). */
const COMPANY_QUEUES = [
  { id: 1, name: 'Vendas', color: '#0000ff' },
  { id: 2, name: 'Suporte', color: '#00ff00' },
  { id: 3, name: 'Financeiro', color: '#ff0000' },
];
const queuesRoute: Route = () => json(200, COMPANY_QUEUES);

/** Picks options of the multiselect or select of the field labelled `label`, by value. */
const choose = (wrapper: Wrapper, label: string, ...values: string[]) => {
  const control = fieldByLabel(wrapper, label).findControl();
  const select = control?.findMultiselect() ?? control?.findSelect();
  if (!select) throw new Error(`no select '${label}'`);
  for (const value of values) {
    // A multiselect stays open after a pick; opening it again would close it.
    if (!select.findDropdown().findOpenDropdown()) act(() => select.openDropdown());
    act(() => select.selectOptionByValue(value));
  }
};

/** The connection's queues as the chatbot tab lists them, in order. */
const queueOrder = (wrapper: Wrapper) =>
  [...wrapper.getElement().querySelectorAll('ol[aria-label="Ordem das filas"] > li')].map((li) =>
    li.textContent?.trim(),
  );

const pressButton = (wrapper: Wrapper, ariaLabel: string) => {
  const button = wrapper.findAllButtons().find((b) => b.getElement().getAttribute('aria-label') === ariaLabel);
  if (!button) throw new Error(`no button '${ariaLabel}'`);
  act(() => button.click());
};

const warningOf = (wrapper: Wrapper, label: string) =>
  fieldByLabel(wrapper, label).findWarning()?.getElement().textContent ?? null;

const SPEC_REDIRECT =
  'Foi informado tempo para redirecionar fila, porém não foi selecionada fila para redirecionar. Os dois campos precisam estar preenchidos';

describe('connection dialog', () => {
  it("creates a WhatsApp connection: the spec's name texts first, then POST with the spec's defaults", async () => {
    const { wrapper, api, onSaved, sent } = await openDialog({
      routes: { 'POST /whatsapp': (req) => json(201, connectionRow(9, 'Atendimento', req.body as object)) },
    });
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Adicionar conexão WhatsApp');
    expect(tabLabels(wrapper)).toEqual(['Geral', 'Integrações', 'Mensagens', 'Chatbot', 'Avaliações (NPS)']);

    click(openModal(wrapper), 'Adicionar');
    expect(errorOf(wrapper, 'Nome')).toBe('Required');
    typeInto(wrapper, 'Nome', 'A');
    expect(errorOf(wrapper, 'Nome')).toBe('Too Short!');
    typeInto(wrapper, 'Nome', 'x'.repeat(51));
    expect(errorOf(wrapper, 'Nome')).toBe('Too Long!');
    expect(sent('POST')).toHaveLength(0);

    typeInto(wrapper, 'Nome', ' Atendimento ');
    click(openModal(wrapper), 'Adicionar');

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ id: 9 })));
    expect(toastTexts(wrapper)).toEqual(['Conexão salva com sucesso!']);
    const body = sent('POST')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Atendimento',
      channel: 'whatsapp',
      isDefault: false,
      maxUseBotQueues: 3,
      maxUseBotQueuesNPS: 3,
      provider: 'beta',
      groupAsTicket: 'disabled',
      allowGroup: false,
      timeSendQueue: 0,
      sendIdQueue: null,
      whenExpiresTicket: '0',
      importOldMessages: null,
      collectiveVacationStart: null,
    });
    expect((body.schedules as unknown[])[0]).toEqual({
      weekday: 'Segunda-feira',
      weekdayEn: 'monday',
      startTimeA: '08:00',
      endTimeA: '12:00',
      startTimeB: '13:00',
      endTimeB: '18:00',
    });
    expect(api.requests.filter((r) => r.path === '/companySettingOne').map((r) => r.query?.column)).toEqual([
      'scheduleType',
      'userRating',
    ]);
  });

  it('edits a Meta connection (here a Cloud API number) like any other: its channel in the title, only the change sent', async () => {
    const number = connectionRow(8, 'Loja Oficial', { channel: 'whatsappapi', number: '5511988887777' });
    const { wrapper, sent, onSaved } = await openDialog({
      connectionId: 8,
      channel: 'whatsappapi',
      routes: {
        'GET /whatsapp/8': () => json(200, number),
        'PUT /whatsapp/8': (req) => json(200, { ...number, ...(req.body as object) }),
      },
    });
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Editar conexão WhatsApp Cloud API');
    expect(openModal(wrapper).findContent().findAlert()).toBeNull();
    typeInto(wrapper, 'Nome', 'Loja Oficial SP');
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ name: 'Loja Oficial SP' })));
    expect(sent('PUT')[0]?.body).toEqual({ name: 'Loja Oficial SP' });
  });

  it("shows the spec's redirect and NPS texts on their fields and opens the first tab with a problem", async () => {
    const { wrapper, sent } = await openDialog({ settings: { userRating: 'enabled' } });
    typeInto(wrapper, 'Nome', 'Atendimento');
    openTab(wrapper, 'chatbot');
    typeInto(wrapper, 'Redirecionar para a fila após', '10');
    openTab(wrapper, 'general');
    click(openModal(wrapper), 'Adicionar');

    expect(activeTab(wrapper)).toBe('Chatbot');
    expect(errorOf(wrapper, 'Redirecionar para a fila após')).toBe(SPEC_REDIRECT);
    expect(errorOf(wrapper, 'Fila de redirecionamento')).toBe(SPEC_REDIRECT);
    openTab(wrapper, 'assessments');
    expect(errorOf(wrapper, 'Mensagem de avaliação')).toBe(
      'É obrigado informar uma mensagem de avaliação quando se utiliza o NPS.',
    );
    expect(errorOf(wrapper, 'Tempo de espera pela avaliação')).toBe(
      'É obrigado informar um tempo para avaliação quando se utiliza o NPS.',
    );
    expect(sent('POST')).toHaveLength(0);

    // Fixed: the redirect time back to 0, a rating message and a wait time.
    typeText(wrapper, 'Mensagem de avaliação', 'Dê uma nota de 0 a 10');
    typeInto(wrapper, 'Tempo de espera pela avaliação', '30');
    openTab(wrapper, 'chatbot');
    typeInto(wrapper, 'Redirecionar para a fila após', '0');
    expect(errorOf(wrapper, 'Redirecionar para a fila após')).toBeNull();
  });

  it('shows the rules in English too', async () => {
    await changeLanguage('en');
    const { wrapper } = await openDialog({});
    typeInto(wrapper, 'Name', 'Sales');
    openTab(wrapper, 'chatbot');
    typeInto(wrapper, 'Redirect to the queue after', '5');
    click(openModal(wrapper), 'Add');
    expect(errorOf(wrapper, 'Redirect queue')).toBe(
      'A time to redirect to a queue was given but no queue was chosen (or the reverse). Both fields must be filled in',
    );
  });

  it("shows the server's field errors on their fields, in the language when the reason is known, and opens their tab", async () => {
    const { wrapper, sent } = await openDialog({
      connectionId: 3,
      routes: {
        'GET /whatsapp/3': () => json(200, SAO_PAULO),
        'PUT /whatsapp/3': () =>
          json(400, {
            error: 'ERR_VALIDATION',
            message: 'Invalid connection',
            fields: [
              { field: 'body.sendIdQueue', reason: 'no queue 12' },
              {
                field: 'body.greetingMessage',
                reason: 'A mensagem de saudação é obrigatória quando há mais de uma fila.',
              },
            ],
          }),
      },
    });
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Editar conexão WhatsApp');
    typeInto(wrapper, 'Nome', 'Vendas Sul');
    click(openModal(wrapper), 'Salvar');

    await waitFor(() => expect(activeTab(wrapper)).toBe('Mensagens'));
    expect(errorOf(wrapper, 'Mensagem de saudação')).toBe(
      'A mensagem de saudação é obrigatória quando há mais de uma fila.',
    );
    await waitFor(() =>
      expect(toastTexts(wrapper)).toEqual(['Dados inválidos. Verifique os campos e tente novamente.']),
    );
    openTab(wrapper, 'chatbot');
    expect(errorOf(wrapper, 'Fila de redirecionamento')).toBe('no queue 12');
    openTab(wrapper, 'messages');
    typeText(wrapper, 'Mensagem de saudação', 'Olá!');
    expect(errorOf(wrapper, 'Mensagem de saudação')).toBeNull(); // edited: the server's word no longer applies
    expect(sent('PUT')).toHaveLength(1);
  });

  it('an edit sends only the fields that changed; schedules show only for schedules per connection', async () => {
    const { wrapper, sent, onSaved } = await openDialog({
      connectionId: 3,
      settings: { scheduleType: 'connection' },
      routes: {
        'GET /whatsapp/3': () => json(200, SAO_PAULO),
        'PUT /whatsapp/3': (req) => json(200, { ...SAO_PAULO, ...(req.body as object) }),
      },
    });
    expect(tabLabels(wrapper)).toEqual([
      'Geral',
      'Integrações',
      'Mensagens',
      'Chatbot',
      'Avaliações (NPS)',
      'Horários',
    ]);
    openTab(wrapper, 'schedules');
    typeInto(wrapper, 'Início (turno A)', '09:00'); // the first day shown: Segunda-feira
    openTab(wrapper, 'general');
    typeInto(wrapper, 'Nome', 'Vendas Sul');
    click(openModal(wrapper), 'Salvar');

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = sent('PUT')[0]?.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['name', 'schedules']);
    expect(body.name).toBe('Vendas Sul');
    expect((body.schedules as { startTimeA: string }[])[0]?.startTimeA).toBe('09:00');
  });

  it('uploads a chosen greeting attachment after saving, as multipart file; over 2.5 MB is refused', async () => {
    const { wrapper, sent, onSaved } = await openDialog({
      routes: {
        'POST /whatsapp': (req) => json(201, connectionRow(9, 'Atendimento', req.body as object)),
        'POST /whatsapp/9/media-upload': () =>
          json(200, connectionRow(9, 'Atendimento', { greetingMediaAttachment: '/media/c/2/connections/9/a/ola.pdf' })),
      },
    });
    typeInto(wrapper, 'Nome', 'Atendimento');
    openTab(wrapper, 'messages');
    chooseFile(wrapper, new File([new Uint8Array(2.5 * 1024 * 1024 + 1)], 'grande.pdf', { type: 'application/pdf' }));
    expect(errorOf(wrapper, 'Anexo da saudação')).toBe('O arquivo deve ter no máximo 2,5 MB.');
    click(openModal(wrapper), 'Adicionar');
    expect(sent('POST')).toHaveLength(0);

    chooseFile(wrapper, new File(['%PDF-1.4'], 'ola.pdf', { type: 'application/pdf' }));
    click(openModal(wrapper), 'Adicionar');

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent('POST').map((r) => r.path)).toEqual(['/whatsapp', '/whatsapp/9/media-upload']);
    const form = sent('POST')[1]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('file') as File).name).toBe('ola.pdf');
    expect(onSaved).toHaveBeenCalledWith(
      expect.objectContaining({ greetingMediaAttachment: '/media/c/2/connections/9/a/ola.pdf' }),
    );
  });

  it('removes the current greeting attachment on save (DELETE), and sends no edit when nothing else changed', async () => {
    const { wrapper, sent, onSaved } = await openDialog({
      connectionId: 3,
      routes: {
        'GET /whatsapp/3': () => json(200, SAO_PAULO),
        'DELETE /whatsapp/3/media-upload': () => json(200, { ...SAO_PAULO, greetingMediaAttachment: null }),
      },
    });
    openTab(wrapper, 'messages');
    expect(wrapper.findLink()?.getElement().textContent?.trim()).toBe('ola.pdf');
    click(openModal(wrapper), 'Remover anexo');
    click(openModal(wrapper), 'Salvar');

    await waitFor(() =>
      expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ greetingMediaAttachment: null })),
    );
    expect(sent('PUT')).toHaveLength(0);
    expect(sent('DELETE').map((r) => r.path)).toEqual(['/whatsapp/3/media-upload']);
  });

  it("chatbot tab: the company's queues in the bot's order, the greeting they need and the redirect queue", async () => {
    const { wrapper, sent, onSaved } = await openDialog({
      routes: {
        'GET /queue': queuesRoute,
        'POST /whatsapp': (req) => json(201, connectionRow(9, 'Atendimento', req.body as object)),
      },
    });
    typeInto(wrapper, 'Nome', 'Atendimento');
    openTab(wrapper, 'chatbot');
    // Ticked Suporte first, then Vendas: the menu numbers them in that order; the arrows change it.
    choose(wrapper, 'Filas', '2', '1');
    expect(queueOrder(wrapper)).toEqual(['Suporte', 'Vendas']);
    pressButton(wrapper, 'Subir Vendas');
    expect(queueOrder(wrapper)).toEqual(['Vendas', 'Suporte']);
    expect(warningOf(wrapper, 'Filas')).toBe(
      'Com mais de uma fila, a mensagem de saudação (aba Mensagens) é obrigatória.',
    );
    // The redirect queue without a time: the spec's text on both fields.
    choose(wrapper, 'Fila de redirecionamento', '3');
    click(openModal(wrapper), 'Adicionar');
    // The first tab with a problem (in the dialog's order) is Mensagens: the greeting, as the server says it.
    expect(activeTab(wrapper)).toBe('Mensagens');
    expect(errorOf(wrapper, 'Mensagem de saudação')).toBe(
      'A mensagem de saudação é obrigatória quando há mais de uma fila.',
    );
    openTab(wrapper, 'chatbot');
    expect(errorOf(wrapper, 'Redirecionar para a fila após')).toBe(SPEC_REDIRECT);
    expect(errorOf(wrapper, 'Fila de redirecionamento')).toBe(SPEC_REDIRECT);
    expect(sent('POST')).toHaveLength(0);

    typeInto(wrapper, 'Redirecionar para a fila após', '15');
    expect(errorOf(wrapper, 'Fila de redirecionamento')).toBeNull();
    typeInto(wrapper, 'Enviar o chatbot no máximo (vezes)', '-1');
    click(openModal(wrapper), 'Adicionar');
    expect(activeTab(wrapper)).toBe('Mensagens'); // the greeting is still missing there
    openTab(wrapper, 'chatbot');
    expect(errorOf(wrapper, 'Enviar o chatbot no máximo (vezes)')).toBe('Informe um número inteiro, sem decimais.');
    typeInto(wrapper, 'Enviar o chatbot no máximo (vezes)', '2');
    openTab(wrapper, 'messages');
    typeText(wrapper, 'Mensagem de saudação', 'Olá! Escolha uma fila.');
    openTab(wrapper, 'chatbot');
    expect(warningOf(wrapper, 'Filas')).toBeNull();
    click(openModal(wrapper), 'Adicionar');

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent('POST')[0]?.body).toMatchObject({
      queueIds: [1, 2],
      sendIdQueue: 3,
      timeSendQueue: 15,
      maxUseBotQueues: 2,
      greetingMessage: 'Olá! Escolha uma fila.',
    });
  }, 120_000);

  it('chatbot tab: an edit sends the new queue order alone; removing the redirect queue asks to clear its time', async () => {
    const linked = connectionRow(3, 'Vendas', {
      queueIds: [1, 2],
      queues: COMPANY_QUEUES.slice(0, 2),
      greetingMessage: 'Olá!',
      sendIdQueue: 3,
      timeSendQueue: 10,
    });
    const { wrapper, sent, onSaved } = await openDialog({
      connectionId: 3,
      routes: {
        'GET /queue': queuesRoute,
        'GET /whatsapp/3': () => json(200, linked),
        'PUT /whatsapp/3': (req) => json(200, { ...linked, ...(req.body as object) }),
      },
    });
    openTab(wrapper, 'chatbot');
    expect(queueOrder(wrapper)).toEqual(['Vendas', 'Suporte']);
    choose(wrapper, 'Fila de redirecionamento', '');
    click(openModal(wrapper), 'Salvar');
    expect(errorOf(wrapper, 'Redirecionar para a fila após')).toBe(SPEC_REDIRECT);
    choose(wrapper, 'Fila de redirecionamento', '3');
    pressButton(wrapper, 'Descer Vendas');
    expect(queueOrder(wrapper)).toEqual(['Suporte', 'Vendas']);
    click(openModal(wrapper), 'Salvar');

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent('PUT')[0]?.body).toEqual({ queueIds: [2, 1] });
  });

  it('chatbot tab: without the queue list (GET /queue failed) the stored queues stay and can be removed', async () => {
    const linked = connectionRow(3, 'Vendas', { queueIds: [1], queues: COMPANY_QUEUES.slice(0, 1) });
    const { wrapper, sent, onSaved } = await openDialog({
      connectionId: 3,
      routes: {
        'GET /queue': () => json(500, { error: 'ERR_INTERNAL', message: 'boom' }),
        'GET /whatsapp/3': () => json(200, linked),
        'PUT /whatsapp/3': (req) => json(200, { ...linked, ...(req.body as object) }),
      },
    });
    openTab(wrapper, 'chatbot');
    expect(queueOrder(wrapper)).toEqual(['Vendas']);
    pressButton(wrapper, 'Remover Vendas');
    expect(queueOrder(wrapper)).toEqual([]);
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent('PUT')[0]?.body).toEqual({ queueIds: [] });
  });

  it("integrations tab: the company's integrations and prompts are choices, and a change is sent", async () => {
    const { wrapper, sent } = await openDialog({
      connectionId: 3,
      routes: {
        'GET /whatsapp/3': () => json(200, SAO_PAULO),
        'GET /queueIntegration': () =>
          json(200, { queueIntegrations: [{ id: 4, name: 'Webhook vendas' }], hasMore: false }),
        'GET /prompt': () => json(200, { prompts: [{ id: 6, name: 'Assistente' }], hasMore: false }),
        'PUT /whatsapp/3': () => json(200, { ...SAO_PAULO, integrationId: 4 }),
      },
    });
    openTab(wrapper, 'integrations');
    const select = (label: string) => fieldByLabel(wrapper, label).findControl()?.findSelect();
    await waitFor(() => expect(select('Integração')?.isDisabled()).toBe(false));
    act(() => select('Integração')?.openDropdown());
    act(() => select('Integração')?.selectOptionByValue('4'));
    act(() => select('Prompt (Open.Ai)')?.openDropdown());
    expect(
      select('Prompt (Open.Ai)')
        ?.findDropdown()
        .findOptions()
        .map((o) => o.getElement().textContent),
    ).toEqual(['Nenhum', 'Assistente']);
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(sent('PUT')).toHaveLength(1));
    expect(sent('PUT')[0]?.body).toEqual({ integrationId: 4 });
  });

  it('integrations tab: the four references are shown disabled, each saying which area brings its choices', async () => {
    const { wrapper } = await openDialog({
      connectionId: 3,
      routes: { 'GET /whatsapp/3': () => json(200, { ...SAO_PAULO, integrationId: 4 }) },
    });
    openTab(wrapper, 'integrations');
    const shown = (label: string) => {
      const field = fieldByLabel(wrapper, label);
      const select = field.findControl()?.findSelect();
      return {
        disabled: select?.isDisabled(),
        value: select?.findTrigger().getElement().textContent,
        hint: field.findConstraint()?.getElement().textContent,
      };
    };
    expect(shown('Integração')).toEqual({
      disabled: true,
      value: '#4',
      hint: 'A escolha de integrações chega com a área de integrações.',
    });
    expect(shown('Prompt (Open.Ai)')).toMatchObject({ disabled: true, value: 'Nenhum' });
    // Flows are listed for admins only (decisions D140): without the list the fields stay as they are.
    expect(shown('Fluxo de boas-vindas')).toMatchObject({
      disabled: true,
      hint: 'Inicia quando um ticket novo chega (boas-vindas) ou quando nenhuma frase de campanha combina (padrão).',
    });
    expect(shown('Fluxo para frase não encontrada')).toMatchObject({ disabled: true });
  });

  it("integrations tab: the welcome and default flows are chosen among the company's flows", async () => {
    const flow = (id: number, name: string) => ({
      id,
      name,
      active: true,
      version: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    const { wrapper, sent, onSaved } = await openDialog({
      connectionId: 3,
      routes: {
        'GET /whatsapp/3': () => json(200, { ...SAO_PAULO, flowIdNotPhrase: 8 }),
        'GET /flowbuilder': () => json(200, { flows: [flow(8, 'Padrão'), flow(9, 'Boas-vindas')], hasMore: false }),
        'PUT /whatsapp/3': (req) => json(200, { ...SAO_PAULO, ...(req.body as object) }),
      },
    });
    openTab(wrapper, 'integrations');
    const select = (label: string) => fieldByLabel(wrapper, label).findControl()?.findSelect();
    await waitFor(() => expect(select('Fluxo de boas-vindas')?.isDisabled()).toBe(false));
    expect(select('Fluxo para frase não encontrada')?.findTrigger().getElement().textContent).toBe('Padrão');
    act(() => select('Fluxo de boas-vindas')?.openDropdown());
    act(() => select('Fluxo de boas-vindas')?.selectOptionByValue('9'));
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent('PUT')[0]?.body).toEqual({ flowIdWelcome: 9 });
  });

  it('assessments tab: whole minutes and counts only; without NPS in use nothing is required', async () => {
    const { wrapper, sent, onSaved } = await openDialog({
      routes: { 'POST /whatsapp': (req) => json(201, connectionRow(9, 'Atendimento', req.body as object)) },
    });
    expect(openModal(wrapper).findContent().findAlert()).toBeNull();
    typeInto(wrapper, 'Nome', 'Atendimento');
    openTab(wrapper, 'assessments');
    typeInto(wrapper, 'Tempo de espera pela avaliação', '-5');
    typeInto(wrapper, 'Enviar a avaliação no máximo (vezes)', '101');
    click(openModal(wrapper), 'Adicionar');
    expect(activeTab(wrapper)).toBe('Avaliações (NPS)');
    expect(errorOf(wrapper, 'Tempo de espera pela avaliação')).toBe('Informe um número inteiro, sem decimais.');
    expect(errorOf(wrapper, 'Enviar a avaliação no máximo (vezes)')).not.toBeNull();
    typeInto(wrapper, 'Tempo de espera pela avaliação', '');
    typeInto(wrapper, 'Enviar a avaliação no máximo (vezes)', '2');
    click(openModal(wrapper), 'Adicionar');
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent('POST')[0]?.body).toMatchObject({ ratingMessage: '', expiresTicketNPS: 0, maxUseBotQueuesNPS: 2 });
  });

  it('schedules tab: HH:MM or empty, checked before saving; a server problem shows under its time', async () => {
    const { wrapper, sent, onSaved } = await openDialog({
      connectionId: 3,
      settings: { scheduleType: 'connection' },
      routes: {
        'GET /whatsapp/3': () => json(200, SAO_PAULO),
        'PUT /whatsapp/3': (req) => {
          const days = (req.body as { schedules: { endTimeB: string }[] }).schedules;
          return days[2]?.endTimeB === '23:59'
            ? json(400, {
                error: 'ERR_VALIDATION',
                message: 'Invalid connection',
                fields: [{ field: 'body.schedules.2.endTimeB', reason: 'must end after it starts' }],
              })
            : json(200, { ...SAO_PAULO, ...(req.body as object) });
        },
      },
    });
    openTab(wrapper, 'schedules');
    const timeInput = (day: string, label: string) => {
      const input = wrapper
        .findAllInputs()
        .find((i) => i.findNativeInput().getElement().getAttribute('aria-label') === `${day} ${label}`);
      if (!input) throw new Error(`no time '${day} ${label}'`);
      return input;
    };
    act(() => timeInput('Segunda-feira', 'Início (turno A)').setInputValue('9h'));
    act(() => timeInput('Quarta-feira', 'Fim (turno B)').setInputValue('23:59'));
    click(openModal(wrapper), 'Salvar');
    const errors = () => wrapper.findAllFormFields().flatMap((f) => f.findError()?.getElement().textContent ?? []);
    expect(errors()).toEqual(['Use o formato HH:MM']);
    expect(sent('PUT')).toHaveLength(0);

    act(() => timeInput('Segunda-feira', 'Início (turno A)').setInputValue('09:00'));
    act(() => timeInput('Terça-feira', 'Início (turno B)').setInputValue(''));
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(toastTexts(wrapper)).toHaveLength(1));
    expect(errors()).toEqual(['must end after it starts']);
    act(() => timeInput('Quarta-feira', 'Fim (turno B)').setInputValue('18:30'));
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const days = (sent('PUT')[1]?.body as { schedules: Record<string, string>[] }).schedules;
    expect(days[0]).toMatchObject({ weekdayEn: 'monday', startTimeA: '09:00' });
    expect(days[1]).toMatchObject({ weekdayEn: 'tuesday', startTimeB: '' });
    expect(days[2]).toMatchObject({ weekdayEn: 'wednesday', endTimeB: '18:30' });
  }, 120_000);
});
