import { act, waitFor, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Company } from '@/api/companies';
import { authUser, PLANS } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { click, columnTexts, FakeIntersectionObserver, noOpenModal, openModal } from '@/components/test-kit';
import { dueTint } from './companies-page';

const OWNER = authUser({ id: 1, name: 'Dono', profile: 'admin', companyId: 1, super: true });
const NAME = 3;
const DUE = 8;

/** A due date `days` from today, as the server sends it (yyyy-mm-dd). */
const inDays = (days: number) => {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const company = (id: number, name: string, overrides: Partial<Company> = {}): Company => ({
  id,
  name,
  email: `contato@${name.toLowerCase().replace(/\s+/g, '')}.com`,
  phone: '',
  document: '',
  status: true,
  planId: 1,
  plan: { id: 1, name: 'Básico', amount: 49, useExternalApi: true, useSchedules: true, useCampaigns: true },
  recurrence: 'MENSAL',
  dueDate: inDays(30),
  createdAt: '2026-01-10T12:00:00.000Z',
  lastLogin: null,
  folderSize: 2048,
  numberFileFolder: 3,
  updatedAtFolder: '2026-11-01T03:00:00.000Z',
  numberAttendants: 1,
  numberConections: 0,
  ...overrides,
});

const COMPANIES: Company[] = [
  company(1, 'Plataforma', { dueDate: '2999-12-31' }),
  company(2, 'Padaria Pão Quente', { dueDate: inDays(3) }),
  company(3, 'Floricultura Ipê', { dueDate: inDays(0), status: false }),
  company(4, 'Mercado Bom Preço', { dueDate: inDays(-2) }),
  company(5, 'Oficina Central'),
];

const listRoute =
  (rows: () => Company[]): Route =>
  (req) => {
    const search = req.query?.searchParam?.toLowerCase();
    return json(200, {
      companies: rows().filter((c) => !search || c.name.toLowerCase().startsWith(search)),
      hasMore: false,
    });
  };

const companiesApi = (extra: Record<string, Route> = {}) => {
  const server = fakeApi({
    ...shellRoutes(OWNER),
    'GET /companiesPlan': listRoute(() => COMPANIES),
    'GET /plans/all': () => json(200, PLANS),
    ...extra,
  });
  return {
    ...server,
    sent: (method: string) => server.requests.filter((r) => r.method === method && r.path.startsWith('/compan')),
  };
};

const openPage = async (api = companiesApi()) => {
  const view = renderApp({ path: '/companies', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Empresas/ }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toHaveLength(COMPANIES.length));
  return { ...view, api };
};

describe('companies page', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('tints the due date yellow with 1–5 days left and red at 0 or overdue', () => {
    const now = new Date(2026, 10, 27, 15, 0);
    expect(dueTint('2026-12-27', now)).toBeNull();
    expect(dueTint('2026-12-03', now)).toBeNull();
    expect(dueTint('2026-12-02', now)).toBe('warning');
    expect(dueTint('2026-11-28', now)).toBe('warning');
    expect(dueTint('2026-11-27', now)).toBe('error');
    expect(dueTint('2026-10-01', now)).toBe('error');
  });

  it('lists the companies with their plan, value, due date and folder, tinted by due date', async () => {
    const { wrapper } = await openPage();
    const table = wrapper.findTable()!;
    expect(table.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual([
      'ID',
      'Ativo',
      'Nome',
      'E-mail',
      'Plano',
      'Valor',
      'Criada em',
      'Vencimento',
      'Último login',
      'Tamanho da pasta',
      'Total de arquivos',
      'Pasta atualizada em',
      'Ações',
    ]);
    const row = (name: string) => columnTexts(wrapper, NAME).indexOf(name) + 1;
    const tintOf = (name: string) =>
      table.findBodyCell(row(name), DUE)?.getElement().querySelector('[data-tint]')?.getAttribute('data-tint') ?? null;
    expect(tintOf('Padaria Pão Quente')).toBe('warning');
    expect(tintOf('Floricultura Ipê')).toBe('error');
    expect(tintOf('Mercado Bom Preço')).toBe('error');
    expect(tintOf('Oficina Central')).toBeNull();
    expect(tintOf('Plataforma')).toBeNull();
    expect(table.findBodyCell(row('Floricultura Ipê'), 2)?.getElement().textContent).toBe('Não');
    expect(table.findBodyCell(row('Oficina Central'), 6)?.getElement().textContent).toMatch(/R\$\s?49,00/);
    expect(table.findBodyCell(row('Oficina Central'), DUE)?.getElement().textContent).toContain('Mensal');
    expect(table.findBodyCell(row('Oficina Central'), 10)?.getElement().textContent).toBe('2.0 KB');
  });

  it('searches by name after the debounce', async () => {
    const { wrapper, api } = await openPage();
    act(() => wrapper.findTextFilter()?.findInput().setInputValue('pad'));
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toEqual(['Padaria Pão Quente']));
    expect(api.sent('GET').at(-1)?.query).toEqual({ searchParam: 'pad', pageNumber: '1' });
  });

  it('creates a company: the spec texts first, then the company with its plan and default password', async () => {
    const created = company(6, 'Nova Loja');
    const api = companiesApi({ 'POST /companies': () => json(201, created) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Adicionar');
    const modal = openModal(wrapper);
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Nome')).toBe('Nome é obrigatório');
    expect(errorOf(wrapper, 'E-mail')).toBe('E-mail é obrigatório');
    expect(errorOf(wrapper, 'Plano')).toBe('Plano é obrigatório');
    typeInto(wrapper, 'E-mail', 'nao-e-email');
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'E-mail')).toBe('Email é inválido');
    expect(api.sent('POST')).toHaveLength(0);

    typeInto(wrapper, 'Nome', 'Nova Loja');
    typeInto(wrapper, 'E-mail', 'Contato@NovaLoja.com');
    typeInto(wrapper, 'Senha padrão', 'Senha@123');
    const select = wrapper.findSelect()!;
    act(() => select.openDropdown());
    await waitFor(() => expect(select.findDropdown().findOptions()).toHaveLength(2));
    act(() => select.selectOptionByValue('2'));
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.sent('POST')[0]?.body).toMatchObject({
      name: 'Nova Loja',
      email: 'contato@novaloja.com',
      passwordDefault: 'Senha@123',
      planId: 2,
      status: true,
      recurrence: 'MENSAL',
    });
    expect(toastTexts(wrapper)).toContain('Operação realizada com sucesso!');
  });

  it('shows the duplicate-name hint when the server answers 409', async () => {
    const api = companiesApi({
      'PUT /companies/5': () => json(409, { error: 'ERR_COMPANY_NAME_ALREADY_EXISTS', message: 'taken' }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Editar Oficina Central');
    const modal = openModal(wrapper);
    typeInto(wrapper, 'Nome', 'Padaria Pão Quente');
    click(modal, 'Salvar');
    await waitFor(() =>
      expect(wrapper.getElement().textContent).toContain(
        'Não foi possível realizar a operação. Verifique se já existe uma empresa com esse nome.',
      ),
    );
    expect(api.sent('PUT')[0]?.body).toMatchObject({ name: 'Padaria Pão Quente', planId: 1 });
  });

  it('deletes a company after confirming, and never offers to delete the platform company', async () => {
    const api = companiesApi({ 'DELETE /companies/4': () => json(200, { message: 'Company deleted' }) });
    const { wrapper } = await openPage(api);
    expect(wrapper.findButton('[aria-label="Excluir Plataforma"]')?.isDisabled()).toBe(true);
    click(wrapper, 'Excluir Mercado Bom Preço');
    const modal = openModal(wrapper);
    expect(modal.findHeader().getElement().textContent).toBe('Excluir Mercado Bom Preço?');
    click(modal, 'Excluir');
    await waitFor(() => expect(columnTexts(wrapper, NAME)).not.toContain('Mercado Bom Preço'));
    expect(api.sent('DELETE').map((r) => r.path)).toEqual(['/companies/4']);
  });
});
