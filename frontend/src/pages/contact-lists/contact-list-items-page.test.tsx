import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContactListItem } from '@/api/contact-lists';
import type { ContactImportView } from '@/api/contacts';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { click, columnTexts, FakeIntersectionObserver, noOpenModal, openModal } from '@/components/test-kit';

const ME = authUser({ id: 5, profile: 'admin' });
const NAME = 2;

const item = (id: number, name: string, number: string, overrides: Partial<ContactListItem> = {}): ContactListItem => ({
  id,
  name,
  number,
  email: '',
  isWhatsappValid: null,
  companyId: 2,
  contactListId: 7,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const ITEMS = [
  item(1, 'Ana', '5511999990001', { isWhatsappValid: true, email: 'ana@x.com' }),
  item(2, 'Bruno', '5511999990002', { isWhatsappValid: false }),
  item(3, 'Carla', '5511999990003'),
];

const importView = (overrides: Partial<ContactImportView> = {}): ContactImportView => ({
  id: '5c0d1e2f-0000-4000-8000-000000000001',
  fileName: 'lista.xlsx',
  status: 'queued',
  total: null,
  processed: 0,
  created: 0,
  merged: 0,
  ignored: 0,
  invalid: 0,
  source: 'sheet',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const itemsApi = (extra: Record<string, Route> = {}) => {
  let listed = 0;
  const server = fakeApi({
    ...shellRoutes(ME),
    'GET /contact-lists/7': () =>
      json(200, { id: 7, name: 'Clientes VIP', contactsCount: 3, createdAt: '', updatedAt: '' }),
    'GET /contact-list-items': () => {
      listed += 1;
      return json(200, { contacts: ITEMS, hasMore: false });
    },
    ...extra,
  });
  return {
    ...server,
    listed: () => listed,
    sent: (method: string, prefix = '/contact-list') =>
      server.requests.filter((r) => r.method === method && r.path.startsWith(prefix)),
  };
};

const openPage = async (api = itemsApi()) => {
  const view = renderApp({ path: '/contact-lists/7/contacts', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Contatos da lista/ }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toEqual(['Ana', 'Bruno', 'Carla']));
  return { ...view, api };
};

describe('contact list items page', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the list’s name and each contact’s WhatsApp indicator, name, number and e-mail', async () => {
    const { wrapper, api } = await openPage();
    expect(screen.getByTestId('contact-list-name').textContent).toBe('Clientes VIP');
    expect(columnTexts(wrapper, 1)).toEqual(['WhatsApp válido', 'Sem WhatsApp', 'Não verificado']);
    expect(columnTexts(wrapper, 3)).toEqual(['5511999990001', '5511999990002', '5511999990003']);
    expect(columnTexts(wrapper, 4)).toEqual(['ana@x.com', '—', '—']);
    expect(api.sent('GET', '/contact-list-items')[0]?.query).toEqual({ contactListId: '7', pageNumber: '1' });
  });

  it('adds a contact with the spec’s rules; a number already in the list shows the server’s answer', async () => {
    const api = itemsApi({
      'POST /contact-list-items': (req) =>
        (req.body as { number: string }).number === '5511999990001'
          ? json(409, { error: 'ERR_DUPLICATED_CONTACT', message: 'Já existe um contato com este número nesta lista' })
          : json(201, item(9, 'Dani', '5511999990009')),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Adicionar contato');
    const modal = openModal(wrapper);
    typeInto(wrapper, 'Nome', 'D');
    typeInto(wrapper, 'Número', '123');
    typeInto(wrapper, 'E-mail', 'não é e-mail');
    click(modal, 'Salvar');
    expect([errorOf(wrapper, 'Nome'), errorOf(wrapper, 'Número'), errorOf(wrapper, 'E-mail')]).toEqual([
      'Too Short!',
      'Too Short!',
      'Invalid email',
    ]);
    expect(api.sent('POST')).toHaveLength(0);

    typeInto(wrapper, 'Nome', 'Dani');
    typeInto(wrapper, 'Número', '5511999990001');
    typeInto(wrapper, 'E-mail', '');
    click(modal, 'Salvar');
    await waitFor(() => expect(api.sent('POST')).toHaveLength(1));
    expect(noOpenModal(wrapper)).toBe(false);

    typeInto(wrapper, 'Número', '5511999990009');
    click(modal, 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(api.sent('POST')[1]?.body).toEqual({ name: 'Dani', number: '5511999990009', email: '', contactListId: 7 });
    expect(toastTexts(wrapper)).toContain('Contato salvo com sucesso');
  });

  it('imports a spreadsheet with a progress bar and reads the list again when it is done', async () => {
    const api = itemsApi({ 'POST /contact-lists/7/upload': () => json(201, importView()) });
    const { wrapper, socket, server } = await openPage(api);
    act(() => socket.start());
    act(() => server.latest().accept());
    const input = wrapper.findFileInput()!.findNativeInput().getElement();
    act(() => {
      fireEvent.change(input, { target: { files: [new File(['x'], 'lista.xlsx')] } });
    });
    await waitFor(() => expect(api.sent('POST', '/contact-lists/7/upload')).toHaveLength(1));
    const form = api.sent('POST', '/contact-lists/7/upload')[0]?.body as FormData;
    expect((form.get('file') as File).name).toBe('lista.xlsx');
    await waitFor(() => expect(wrapper.findProgressBar()).not.toBeNull());

    const before = api.listed();
    act(() =>
      server.latest().push({
        channel: 'company-2-contactImport',
        action: 'update',
        import: importView({ status: 'done', total: 4, processed: 4, created: 3, merged: 1, ignored: 0 }),
      }),
    );
    await waitFor(() =>
      expect(wrapper.findProgressBar()?.getElement().textContent).toContain(
        '3 adicionados, 1 já estavam na lista, 0 ignorados',
      ),
    );
    await waitFor(() => expect(api.listed()).toBeGreaterThan(before));
  });

  it('refuses a file that is not a spreadsheet without sending it', async () => {
    const api = itemsApi();
    const { wrapper } = await openPage(api);
    const input = wrapper.findFileInput()!.findNativeInput().getElement();
    act(() => {
      fireEvent.change(input, { target: { files: [new File(['x'], 'lista.pdf')] } });
    });
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Envie uma planilha .xls, .xlsx ou .csv'));
    expect(api.sent('POST')).toHaveLength(0);
  });
});
