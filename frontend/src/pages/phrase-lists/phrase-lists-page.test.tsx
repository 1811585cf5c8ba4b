import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Flow, FlowCampaign } from '@/api/flows';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { click, columnTexts, toggleNamed, noOpenModal, openModal } from '@/components/test-kit';

const ME = authUser({ id: 1, name: 'Admin', profile: 'admin' });

const campaign = (id: number, name: string, overrides: Partial<FlowCampaign> = {}): FlowCampaign => ({
  id,
  name,
  phrase: `frase ${id}`,
  flowId: 7,
  whatsappId: null,
  status: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
const FLOW: Flow = {
  id: 7,
  name: 'Boas-vindas',
  active: true,
  version: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const phraseApi = (extra: Record<string, Route> = {}) => {
  const server = fakeApi({
    ...shellRoutes(ME),
    'GET /flowcampaign': () => json(200, { flow: [campaign(1, 'Promo'), campaign(2, 'Natal', { status: false })] }),
    'GET /flowbuilder': () => json(200, { flows: [FLOW], hasMore: false }),
    'GET /whatsapp': () => json(200, []),
    ...extra,
  });
  return {
    ...server,
    sent: (method: string) => server.requests.filter((r) => r.method === method && r.path.startsWith('/flowcampaign')),
  };
};

const openPage = async (api = phraseApi()) => {
  const view = renderApp({ path: '/phrase-lists', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Campanhas/ }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, 1)).toEqual(['Promo', 'Natal']));
  return { ...view, api };
};

describe('phrase campaigns page', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists name, phrase and Ativo/Desativado', async () => {
    const { wrapper } = await openPage();
    expect(columnTexts(wrapper, 3)).toEqual(['Ativo', 'Desativado']);
  });

  it('creates a campaign: name, flow and phrase required, then saved with its toast', async () => {
    const api = phraseApi({ 'POST /flowcampaign': () => json(201, campaign(3, 'Black Friday')) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Campanha');
    const modal = openModal(wrapper);
    expect(modal.findHeader().getElement().textContent).toBe('Nova campanha com fluxo por frase');
    click(modal, 'Criar campanha');
    expect(errorOf(wrapper, 'Nome do disparo por frase')).toBe('Obrigatório');
    expect(errorOf(wrapper, 'Escolha um fluxo')).toBe('Obrigatório');
    expect(errorOf(wrapper, 'Qual frase dispara o fluxo?')).toBe('Obrigatório');
    expect(api.sent('POST')).toHaveLength(0);

    typeInto(wrapper, 'Nome do disparo por frase', 'Black Friday');
    typeInto(wrapper, 'Qual frase dispara o fluxo?', 'quero desconto');
    const select = wrapper.findSelect();
    act(() => select?.openDropdown());
    await waitFor(() => expect(select?.findDropdown().findOptions()).toHaveLength(1));
    act(() => select?.selectOption(1));
    click(modal, 'Criar campanha');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.sent('POST')[0]?.body).toEqual({
      name: 'Black Friday',
      phrase: 'quero desconto',
      flowId: 7,
      whatsappId: null,
    });
    expect(toastTexts(wrapper)).toContain('Frase criada com sucesso!');
  });

  it('edits with the status switch, then deletes', async () => {
    const api = phraseApi({
      'PUT /flowcampaign': () => json(200, campaign(1, 'Promo', { status: false })),
      'DELETE /flowcampaign/2': () => json(200, { message: 'Frase deletada' }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Editar Promo');
    const modal = openModal(wrapper);
    act(() => toggleNamed(wrapper, 'Ativo').findNativeInput().click());
    click(modal, 'Salvar campanha');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.sent('PUT')[0]?.body).toEqual({
      id: 1,
      name: 'Promo',
      phrase: 'frase 1',
      flowId: 7,
      whatsappId: null,
      status: false,
    });
    expect(toastTexts(wrapper)).toContain('Frase alterada com sucesso!');
    expect(columnTexts(wrapper, 3)).toEqual(['Desativado', 'Desativado']);

    click(wrapper, 'Excluir Natal');
    click(openModal(wrapper), 'Excluir');
    await waitFor(() => expect(columnTexts(wrapper, 1)).toEqual(['Promo']));
    expect(toastTexts(wrapper)).toContain('Frase deletada');
  });
});
