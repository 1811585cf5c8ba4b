import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueueIntegrationView } from '@/api/integrations';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { fullPlan, shellRoutes } from '@/testing/shell-api';
import { click, columnTexts, FakeIntersectionObserver, openModal } from '@/pages/users/test-kit';

const ADMIN = authUser({ id: 5, profile: 'admin' });
const NAME = 2;

const integration = (
  id: number,
  name: string,
  overrides: Partial<QueueIntegrationView> = {},
): QueueIntegrationView => ({
  id,
  name,
  type: 'webhook',
  projectName: null,
  jsonContent: null,
  language: null,
  urlN8N: 'https://hooks.example/x',
  typebotSlug: null,
  typebotExpires: null,
  typebotKeywordFinish: null,
  typebotKeywordRestart: null,
  typebotRestartMessage: null,
  typebotUnknownMessage: null,
  typebotDelayMessage: null,
  flowId: null,
  webhookSecret: '********',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const RECORDS = [
  integration(1, 'Dialogflow vendas', { type: 'dialogflow', projectName: 'vendas', language: 'pt-BR' }),
  integration(2, 'Typebot suporte', {
    type: 'typebot',
    typebotSlug: 'suporte',
    typebotExpires: 1,
    typebotDelayMessage: 1000,
  }),
  integration(3, 'Webhook n8n'),
];

const integrationsApi = (extra: Record<string, Route> = {}, me = ADMIN, plan = fullPlan()) => {
  const server = fakeApi({
    ...shellRoutes(me, plan),
    'GET /queueIntegration': () => json(200, { queueIntegrations: RECORDS, hasMore: false }),
    ...extra,
  });
  return {
    ...server,
    sent: (method: string) =>
      server.requests.filter((r) => r.method === method && r.path.startsWith('/queueIntegration')),
  };
};

const openPage = async (api = integrationsApi()) => {
  const view = renderApp({ path: '/queue-integration', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Integrações/ }, { timeout: 40_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toHaveLength(3));
  return { ...view, api };
};

describe('queue integrations page', { timeout: 90_000 }, () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists each integration with its type icon and name', async () => {
    const { wrapper } = await openPage();
    expect(columnTexts(wrapper, 1)).toEqual(['Dialogflow', 'Typebot', 'Webhook']);
    expect(columnTexts(wrapper, NAME)).toEqual(['Dialogflow vendas', 'Typebot suporte', 'Webhook n8n']);
    expect(screen.getAllByLabelText('Typebot').length).toBeGreaterThan(0);
  });

  it("adds a typebot with the spec's checks and sends only the typebot's fields", async () => {
    const api = integrationsApi({
      'POST /queueIntegration': (req) =>
        json(201, integration(9, (req.body as { name: string }).name, { type: 'typebot', typebotSlug: 'vendas' })),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Adicionar');
    const modal = openModal(wrapper);
    const type = createWrapper(modal.getElement()).findSelect();
    act(() => type?.openDropdown());
    act(() => type?.selectOptionByValue('typebot'));
    typeInto(wrapper, 'Nome', 'T');
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Nome')).toBe('Too Short!');
    expect(errorOf(wrapper, 'Typebot - Slug')).toBe('Required');
    expect(api.sent('POST')).toHaveLength(0);
    typeInto(wrapper, 'Nome', 'Typebot vendas');
    typeInto(wrapper, 'URL', 'https://typebot.example');
    typeInto(wrapper, 'Typebot - Slug', 'vendas');
    click(modal, 'Salvar');
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Integração salva com sucesso!'));
    expect(api.sent('POST')[0]?.body).toEqual({
      type: 'typebot',
      name: 'Typebot vendas',
      urlN8N: 'https://typebot.example',
      typebotSlug: 'vendas',
      typebotExpires: 1,
      typebotDelayMessage: 1000,
      typebotKeywordFinish: null,
      typebotKeywordRestart: null,
      typebotUnknownMessage: null,
      typebotRestartMessage: null,
    });
  });

  it("tests a Dialogflow project and shows the agent's answer", async () => {
    const api = integrationsApi({
      'POST /queueIntegration/testSession': () => json(200, { success: true, message: 'Olá! Como posso ajudar?' }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Editar Dialogflow vendas');
    const modal = openModal(wrapper);
    act(() =>
      fieldByLabel(wrapper, 'Conteúdo JSON')
        .findControl()
        ?.findTextarea()
        ?.setTextareaValue('{"client_email":"a@b.c","private_key":"********"}'),
    );
    click(modal, 'Testar bot');
    expect(await screen.findByText('O bot respondeu: Olá! Como posso ajudar?')).toBeTruthy();
    expect(api.sent('POST')[0]?.body).toEqual({
      projectName: 'vendas',
      jsonContent: '{"client_email":"a@b.c","private_key":"********"}',
      language: 'pt-BR',
      integrationId: 1,
    });
  });

  it('shows a plain user the no-permission view and asks the server for nothing', async () => {
    const api = integrationsApi({}, authUser({ id: 9, profile: 'user' }));
    renderApp({ path: '/queue-integration', adapter: api.adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', {}, { timeout: 40_000 })).toBeTruthy();
    expect(api.sent('GET')).toHaveLength(0);
  });
});
