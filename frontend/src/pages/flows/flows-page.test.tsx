import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Flow } from '@/api/flows';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import {
  click,
  columnTexts,
  toggleNamed,
  FakeIntersectionObserver,
  noOpenModal,
  openModal,
} from '@/components/test-kit';

const ME = authUser({ id: 1, name: 'Admin', profile: 'admin' });
const NAME = 1;

const flow = (id: number, name: string, overrides: Partial<Flow> = {}): Flow => ({
  id,
  name,
  active: true,
  version: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/** 22 flows, newest first: page 1 has 20 and a cursor, page 2 the other 2. */
const FLOWS: Flow[] = [
  flow(30, 'Boas-vindas'),
  flow(29, 'Pós-venda', { active: false }),
  ...Array.from({ length: 20 }, (_, i) => flow(28 - i, `Fluxo ${String(i + 1).padStart(2, '0')}`)),
];

const listRoute =
  (flows: () => Flow[]): Route =>
  (req) => {
    const search = req.query?.searchParam?.toLowerCase();
    const matching = flows().filter((f) => !search || f.name.toLowerCase().startsWith(search));
    const page = Number(req.query?.pageNumber ?? '1');
    const hasMore = page * 20 < matching.length;
    return json(200, {
      flows: matching.slice((page - 1) * 20, page * 20),
      hasMore,
      ...(hasMore ? { nextCursor: `cursor-${page + 1}` } : {}),
    });
  };

const flowsApi = (extra: Record<string, Route> = {}) => {
  const server = fakeApi({ ...shellRoutes(ME), 'GET /flowbuilder': listRoute(() => FLOWS), ...extra });
  return {
    ...server,
    sent: (method: string) => server.requests.filter((r) => r.method === method && r.path.startsWith('/flowbuilder')),
  };
};

const openPage = async (api = flowsApi()) => {
  const view = renderApp({ path: '/flowbuilders', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: 'Fluxos de conversa' }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toHaveLength(20));
  return { ...view, api };
};

describe('flows page', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists name and Ativo/Desativado, and loads page 2 near the bottom', async () => {
    const { wrapper, api } = await openPage();
    const table = wrapper.findTable();
    expect(table?.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual([
      'Nome',
      'Status',
      'Fluxo',
      'Ações',
    ]);
    expect([1, 2].map((row) => table?.findBodyCell(row, 2)?.getElement().textContent)).toEqual(['Ativo', 'Desativado']);
    act(() => FakeIntersectionObserver.intersect(screen.getByTestId('flows-list-end')));
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toHaveLength(FLOWS.length));
    expect(api.sent('GET').map((r) => r.query)).toEqual([{ pageNumber: '1' }, { pageNumber: '2', cursor: 'cursor-2' }]);
  });

  it('adds a flow: the name rules, then the save and its toast', async () => {
    const api = flowsApi({ 'POST /flowbuilder': () => json(201, flow(31, 'Promoções', { version: 0 })) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Adicionar Fluxo');
    const modal = openModal(wrapper);
    expect(modal.findHeader().getElement().textContent).toBe('Adicionar Fluxo');
    click(modal, 'Adicionar');
    expect(errorOf(wrapper, 'Nome')).toBe('Digite um nome!');
    typeInto(wrapper, 'Nome', 'P');
    click(modal, 'Adicionar');
    expect(errorOf(wrapper, 'Nome')).toBe('Muito curto!');
    typeInto(wrapper, 'Nome', 'x'.repeat(51));
    click(modal, 'Adicionar');
    expect(errorOf(wrapper, 'Nome')).toBe('Muito longo!');
    expect(api.sent('POST')).toHaveLength(0);
    typeInto(wrapper, 'Nome', ' Promoções ');
    click(modal, 'Adicionar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.sent('POST')[0]?.body).toEqual({ name: 'Promoções' });
    expect(toastTexts(wrapper)).toContain('Fluxo salvo com sucesso');
  });

  it('renames a flow and switches it off (Editar nome)', async () => {
    const api = flowsApi({
      'PUT /flowbuilder': () => json(200, flow(30, 'Bem-vindo', { active: false })),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Editar nome de Boas-vindas');
    const modal = openModal(wrapper);
    expect(modal.findHeader().getElement().textContent).toBe('Editar Fluxo');
    typeInto(wrapper, 'Nome', 'Bem-vindo');
    act(() => toggleNamed(wrapper, 'Ativo').findNativeInput().click());
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.sent('PUT')[0]?.body).toEqual({ flowId: 30, name: 'Bem-vindo', active: false });
    expect(columnTexts(wrapper, NAME)[0]).toBe('Bem-vindo');
    expect(wrapper.findTable()?.findBodyCell(1, 2)?.getElement().textContent).toBe('Desativado');
  });

  it("duplicates after the spec's question, with its toast", async () => {
    const api = flowsApi({ 'POST /flowbuilder/duplicate': () => json(201, flow(31, 'Boas-vindas (cópia)')) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Duplicar Boas-vindas');
    const modal = openModal(wrapper);
    expect(modal.findContent().getElement().textContent).toBe('Tem certeza que deseja duplicar este fluxo?');
    click(modal, 'Duplicar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.sent('POST')[0]).toMatchObject({ path: '/flowbuilder/duplicate', body: { flowId: 30 } });
    expect(toastTexts(wrapper)).toContain('Fluxo duplicado com sucesso');
  });

  it("deletes after the spec's warning, with its toast", async () => {
    const api = flowsApi({ 'DELETE /flowbuilder/29': () => json(200, { message: 'Fluxo excluído com sucesso' }) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Excluir Pós-venda');
    const modal = openModal(wrapper);
    expect(modal.findContent().getElement().textContent).toContain(
      'Tem certeza que deseja deletar este fluxo? Todas as integrações relacionados serão perdidos.',
    );
    click(modal, 'Excluir');
    await waitFor(() => expect(columnTexts(wrapper, NAME)).not.toContain('Pós-venda'));
    expect(toastTexts(wrapper)).toContain('Fluxo excluído com sucesso');
  });
});
