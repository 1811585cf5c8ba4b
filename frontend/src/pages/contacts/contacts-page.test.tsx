import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Contact } from '@/api/contacts';
import type { ExportView } from '@/api/exports';
import { exportDownloads } from '@/components/export-progress';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { click, columnTexts, FakeIntersectionObserver, openModal } from '@/components/test-kit';
import { contactRow } from './test-kit';

const ADMIN = authUser({ id: 5, name: 'Ana Souza', profile: 'admin' });
const PLAIN = authUser({ id: 6, name: 'Bia Lima', profile: 'user' });
const NAME = 1;
const EXPORT_ID = '9d2e6b1a-7c3f-4e8a-b5d0-1f2a3b4c5d6e';

const CONTACTS: Contact[] = [
  contactRow(1, 'Alice Prado', { email: 'alice@ex.com', tags: [{ id: 7 }] }),
  contactRow(2, 'Bruno Costa', { active: false }),
  contactRow(3, 'Carla Dias'),
];

const contactsApi = (extra: Record<string, Route> = {}, me = ADMIN) => {
  const server = fakeApi({
    ...shellRoutes(me),
    'GET /contacts': (request) =>
      json(200, {
        contacts: request.query?.contactTag === '[7]' ? [CONTACTS[0]] : CONTACTS,
        hasMore: false,
        count: 3,
        countIsExact: true,
      }),
    'GET /tags/list': () => json(200, [{ id: 7, name: 'VIP', color: '#ff0000', kanban: 0 }]),
    ...extra,
  });
  return {
    ...server,
    calls: (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path),
  };
};

const openPage = async (api = contactsApi()) => {
  const view = renderApp({ path: '/contacts', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Contatos/ }, { timeout: 45_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toHaveLength(3));
  return { ...view, api };
};

describe('contacts page', { timeout: 90_000 }, () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
  });

  it('lists name, number, e-mail, tags and status; a blocked contact says so', async () => {
    const { wrapper } = await openPage();
    expect(columnTexts(wrapper, NAME)).toEqual(['Alice Prado', 'Bruno Costa', 'Carla Dias']);
    expect(columnTexts(wrapper, 3)).toEqual(['alice@ex.com', '—', '—']);
    await waitFor(() => expect(columnTexts(wrapper, 4)).toEqual(['VIP', '', '']));
    expect(columnTexts(wrapper, 5)).toEqual(['Ativo', 'Bloqueado', 'Ativo']);
  });

  it('adds a contact with extra information, checking the spec rules first', async () => {
    const saved = contactRow(9, 'Diego Reis', { extraInfo: [{ id: 1, name: 'CPF', value: '123' }] });
    const api = contactsApi({ 'POST /contacts': () => json(201, saved) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Adicionar contato');
    const modal = openModal(wrapper);
    typeInto(wrapper, 'Nome', 'D');
    typeInto(wrapper, 'Número do Whatsapp', '123');
    click(modal, 'Salvar');
    await waitFor(() => expect(modal.getElement().textContent).toContain('Muito curto!'));
    expect(api.calls('POST', '/contacts')).toHaveLength(0);
    typeInto(wrapper, 'Nome', 'Diego Reis');
    typeInto(wrapper, 'Número do Whatsapp', '5511987650099');
    click(modal, 'Adicionar informação');
    typeInto(wrapper, 'Nome do campo', 'CPF');
    typeInto(wrapper, 'Valor', '123');
    click(modal, 'Salvar');
    await waitFor(() => expect(api.calls('POST', '/contacts')).toHaveLength(1));
    expect(api.calls('POST', '/contacts')[0]?.body).toEqual({
      name: 'Diego Reis',
      number: '5511987650099',
      email: '',
      disableBot: false,
      extraInfo: [{ name: 'CPF', value: '123' }],
    });
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Contato salvo com sucesso!'));
  });

  it("blocks and unblocks with the spec's toasts", async () => {
    const api = contactsApi({
      'PUT /contacts/block/1': () => json(200, { ...CONTACTS[0], active: false }),
      'PUT /contacts/block/2': () => json(200, { ...CONTACTS[1], active: true }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Bloquear Alice Prado');
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Contato bloqueado'));
    expect(api.calls('PUT', '/contacts/block/1')[0]?.body).toEqual({ active: false });
    click(wrapper, 'Desbloquear Bruno Costa');
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Contato desbloqueado'));
    await waitFor(() => expect(columnTexts(wrapper, 5)).toEqual(['Bloqueado', 'Ativo', 'Ativo']));
  });

  it('deletes for an admin after confirming; a plain user has no delete', async () => {
    const api = contactsApi({ 'DELETE /contacts/3': () => json(200, { message: 'Contact deleted' }) });
    const { wrapper, unmount } = await openPage(api);
    click(wrapper, 'Excluir Carla Dias');
    click(openModal(wrapper), 'Excluir');
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toEqual(['Alice Prado', 'Bruno Costa']));
    expect(toastTexts(wrapper)).toContain('Contato excluído com sucesso!');
    unmount();

    const plain = renderApp({ path: '/contacts', adapter: contactsApi({}, PLAIN).adapter });
    await waitFor(() => expect(columnTexts(plain.wrapper, NAME)).toHaveLength(3), { timeout: 15_000 });
    expect(plain.wrapper.find('[aria-label="Excluir Carla Dias"]')).toBeNull();
    expect(plain.wrapper.find('[aria-label="Editar Carla Dias"]')).not.toBeNull();
  });

  it('filters by tag, and follows company-{id}-contact', async () => {
    const view = await openPage();
    const select = view.wrapper.findMultiselect()!;
    act(() => select.openDropdown());
    act(() => select.selectOptionByValue('7'));
    await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toEqual(['Alice Prado']));
    expect(view.api.calls('GET', '/contacts').at(-1)?.query?.contactTag).toBe('[7]');

    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    act(() =>
      view.server.latest().push({ channel: 'company-2-contact', action: 'update', contact: contactRow(1, 'Alice P.') }),
    );
    expect(columnTexts(view.wrapper, NAME)).toEqual(['Alice P.']);
    act(() => view.server.latest().push({ channel: 'company-2-contact', action: 'delete', contactId: 1 }));
    expect(columnTexts(view.wrapper, NAME)).toEqual([]);
  });

  it('opens a ticket: the contact goes to the tickets screen, whose new-ticket dialog opens with it', async () => {
    const { wrapper, router } = await openPage();
    click(wrapper, 'Abrir ticket com Alice Prado');
    await waitFor(() => expect(router.state.location.pathname).toBe('/tickets'));
  });

  it('the import menu leads to /contacts/import', async () => {
    const { wrapper, router } = await openPage();
    const menu = wrapper
      .findAllButtonDropdowns()
      .find((d) => d.findNativeButton().getElement().textContent === 'Importar / Exportar')!;
    act(() => menu.openDropdown());
    act(() => menu.findItemById('sheet')!.click());
    await waitFor(() => expect(router.state.location.pathname).toBe('/contacts/import'));
  });

  it('exports every contact as csv from the import/export menu and downloads it when ready', async () => {
    const open = vi.spyOn(exportDownloads, 'open').mockImplementation(() => undefined);
    const view = (over: Partial<ExportView>): ExportView => ({
      id: EXPORT_ID,
      kind: 'contacts',
      format: 'csv',
      fileName: 'contatos.csv',
      status: 'queued',
      processed: 0,
      total: 3,
      createdAt: '2026-03-31T12:00:00.000Z',
      ...over,
    });
    const api = contactsApi({
      'POST /exports': () => json(202, view({})),
      [`GET /exports/${EXPORT_ID}`]: () =>
        json(200, view({ status: 'done', processed: 3, downloadUrl: 'https://s3.example/c?X-Amz-Expires=300' })),
    });
    const { wrapper, socket, server } = await openPage(api);
    act(() => socket.start());
    act(() => server.latest().accept());
    const menu = wrapper
      .findAllButtonDropdowns()
      .find((d) => d.findNativeButton().getElement().textContent === 'Importar / Exportar')!;
    act(() => menu.openDropdown());
    expect(menu.findItemById('xlsx')!.getElement().textContent).toBe('Exportar Excel (.xlsx)');
    act(() => menu.findItemById('csv')!.click());
    await waitFor(() => expect(api.calls('POST', '/exports')).toHaveLength(1));
    expect(api.calls('POST', '/exports')[0]?.body).toEqual({ kind: 'contacts', format: 'csv' });
    act(() =>
      server
        .latest()
        .push({ channel: 'company-2-export', action: 'update', export: view({ status: 'running', processed: 2 }) }),
    );
    await waitFor(() => expect(screen.getByText('2 de 3 linhas')).toBeTruthy());
    act(() =>
      server
        .latest()
        .push({ channel: 'company-2-export', action: 'update', export: view({ status: 'done', processed: 3 }) }),
    );
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://s3.example/c?X-Amz-Expires=300', 'contatos.csv'));
    open.mockRestore();
  });
});
