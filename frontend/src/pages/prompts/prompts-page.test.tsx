import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PromptView } from '@/api/integrations';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { click, columnTexts, FakeIntersectionObserver, openModal } from '@/pages/users/test-kit';

const ADMIN = authUser({ id: 5, profile: 'admin' });
const PROMPT_TEXT = 'Você é um assistente de vendas educado que responde dúvidas sobre os planos da empresa.';

const prompt = (id: number, name: string, overrides: Partial<PromptView> = {}): PromptView => ({
  id,
  name,
  prompt: PROMPT_TEXT,
  voice: 'texto',
  voiceKey: null,
  voiceRegion: null,
  maxTokens: 100,
  temperature: 1,
  apiKey: '********',
  queueId: 3,
  queue: { id: 3, name: 'Vendas', color: '#00ff00' },
  maxMessages: 10,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const promptsApi = (extra: Record<string, Route> = {}, me = ADMIN) => {
  const server = fakeApi({
    ...shellRoutes(me),
    'GET /prompt': () =>
      json(200, { prompts: [prompt(1, 'Assistente de vendas', { maxTokens: 150 })], hasMore: false }),
    'GET /queue': () => json(200, [{ id: 3, name: 'Vendas', color: '#00ff00' }]),
    ...extra,
  });
  return {
    ...server,
    sent: (method: string) => server.requests.filter((r) => r.method === method && r.path.startsWith('/prompt')),
  };
};

const openPage = async (api = promptsApi()) => {
  const view = renderApp({ path: '/prompts', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Prompts/ }, { timeout: 40_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, 1)).toHaveLength(1));
  return { ...view, api };
};

describe('prompts page', { timeout: 90_000 }, () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists name, queue and max tokens', async () => {
    const { wrapper } = await openPage();
    expect(columnTexts(wrapper, 1)).toEqual(['Assistente de vendas']);
    expect(columnTexts(wrapper, 2)).toEqual(['Vendas']);
    expect(columnTexts(wrapper, 3)).toEqual(['150']);
  });

  it("adds a prompt with the spec's texts, a voice and the defaults", async () => {
    const api = promptsApi({ 'POST /prompt': () => json(201, prompt(7, 'Assistente novo')) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Adicionar Prompt');
    const modal = openModal(wrapper);
    typeInto(wrapper, 'Nome', 'Ana');
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Nome')).toBe('Muito curto!');
    expect(errorOf(wrapper, 'Setor')).toBe('Informe o setor');
    expect(errorOf(wrapper, 'API Key')).toBe('Obrigatório');
    expect(api.sent('POST')).toHaveLength(0);

    typeInto(wrapper, 'Nome', 'Assistente novo');
    typeInto(wrapper, 'API Key', 'sk-secret');
    act(() => {
      const field = createWrapper(modal.getElement())
        .findAllFormFields()
        .find((f) => f.findLabel()?.getElement().textContent === 'Prompt');
      field?.findControl()?.findTextarea()?.setTextareaValue(PROMPT_TEXT);
    });
    const selects = createWrapper(modal.getElement()).findAllSelects();
    await waitFor(() => {
      act(() => selects[0]?.openDropdown());
      expect(selects[0]?.findDropdown().findOptions()).toHaveLength(1);
    });
    act(() => selects[0]?.selectOptionByValue('3'));
    act(() => selects[1]?.openDropdown());
    expect(selects[1]?.findDropdown().findOptions()).toHaveLength(16);
    act(() => selects[1]?.selectOptionByValue('pt-BR-FranciscaNeural'));
    click(modal, 'Salvar');
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Prompt salvo com sucesso!'));
    expect(api.sent('POST')[0]?.body).toEqual({
      name: 'Assistente novo',
      prompt: PROMPT_TEXT,
      voice: 'pt-BR-FranciscaNeural',
      voiceKey: null,
      voiceRegion: null,
      maxTokens: 100,
      temperature: 1,
      apiKey: 'sk-secret',
      queueId: 3,
      maxMessages: 10,
    });
  });

  it('edits without retyping the key: the masked key goes back and the server keeps the stored one', async () => {
    const api = promptsApi({ 'PUT /prompt/1': () => json(200, prompt(1, 'Assistente de vendas')) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Editar Assistente de vendas');
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(api.sent('PUT')).toHaveLength(1));
    expect(api.sent('PUT')[0]?.body).toMatchObject({ apiKey: '********', maxTokens: 150 });
  });

  it('shows a plain user the no-permission view', async () => {
    const api = promptsApi({}, authUser({ id: 9, profile: 'user' }));
    renderApp({ path: '/prompts', adapter: api.adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', {}, { timeout: 40_000 })).toBeTruthy();
    expect(api.sent('GET')).toHaveLength(0);
  });
});
