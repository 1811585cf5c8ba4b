import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContactList } from '@/api/contact-lists';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import {
  buttonNamed,
  click,
  columnTexts,
  FakeIntersectionObserver,
  noOpenModal,
  openModal,
} from '@/components/test-kit';

const ME = authUser({ id: 5, profile: 'admin' });
const NAME = 1;

const contactList = (id: number, name: string, contactsCount = 0): ContactList => ({
  id,
  name,
  contactsCount,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const LISTS = [contactList(1, 'Clientes VIP', 120), contactList(2, 'Leads de março', 3)];

const listsApi = (extra: Record<string, Route> = {}) => {
  const server = fakeApi({
    ...shellRoutes(ME),
    'GET /contact-lists': (req) => {
      const search = req.query?.searchParam?.toLowerCase();
      return json(200, {
        records: LISTS.filter((l) => !search || l.name.toLowerCase().startsWith(search)),
        hasMore: false,
      });
    },
    ...extra,
  });
  return {
    ...server,
    sent: (method: string) => server.requests.filter((r) => r.method === method && r.path.startsWith('/contact-lists')),
  };
};

const openPage = async (api = listsApi()) => {
  const view = renderApp({ path: '/contact-lists', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Listas de contatos/ }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toEqual(['Clientes VIP', 'Leads de março']));
  return { ...view, api };
};

describe('contact lists page', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows name and contact count, the example download, and opens a list’s contacts', async () => {
    const { wrapper, router } = await openPage();
    const table = wrapper.findTable()!;
    expect(table.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual([
      'Nome',
      'Contatos',
      'Planilha e contatos',
      'Ações',
    ]);
    expect(table.findBodyCell(1, 2)?.getElement().textContent).toBe('120');
    expect(buttonNamed(wrapper, 'Baixar planilha de exemplo').getElement().getAttribute('href')).toBe(
      '/planilha-exemplo-lista-de-contatos.xlsx',
    );
    click(wrapper, 'Contatos de Clientes VIP');
    await waitFor(() => expect(router.state.location.pathname).toBe('/contact-lists/1/contacts'));
  });

  it('creates a list: the spec’s name rules, then it saves', async () => {
    const api = listsApi({ 'POST /contact-lists': () => json(201, contactList(3, 'Aniversariantes')) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Adicionar');
    const modal = openModal(wrapper);
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Nome')).toBe('Required');
    typeInto(wrapper, 'Nome', 'A');
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Nome')).toBe('Too Short!');
    typeInto(wrapper, 'Nome', 'x'.repeat(51));
    click(modal, 'Salvar');
    expect(errorOf(wrapper, 'Nome')).toBe('Too Long!');
    expect(api.sent('POST')).toHaveLength(0);

    typeInto(wrapper, 'Nome', 'Aniversariantes');
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.sent('POST')[0]?.body).toEqual({ name: 'Aniversariantes' });
    expect(toastTexts(wrapper)).toContain('Lista de contatos salva com sucesso!');
  });

  it('a list deleted elsewhere leaves the table live; a delete here asks first', async () => {
    const api = listsApi({ 'DELETE /contact-lists/2': () => json(200, { message: 'Contact list deleted' }) });
    const { wrapper, socket, server } = await openPage(api);
    act(() => socket.start());
    act(() => server.latest().accept());
    act(() => server.latest().push({ channel: 'company-2-ContactList', action: 'delete', id: 1 }));
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toEqual(['Leads de março']));

    click(wrapper, 'Excluir Leads de março');
    click(openModal(wrapper), 'Excluir');
    await waitFor(() => expect(api.sent('DELETE').map((r) => r.path)).toEqual(['/contact-lists/2']));
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toEqual([]));
  });
});
