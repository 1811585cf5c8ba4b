import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authUser } from '@/testing/auth-fixtures';
import { json } from '@/testing/fake-api';
import { toastTexts } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { click, columnTexts, FakeIntersectionObserver, openModal } from '@/pages/users/test-kit';
import { fileList, filesApi, option } from './test-kit';

const NAME = 1;
const FILES = 2;

/** 22 lists by name: page 1 has 20 and a cursor, page 2 the other 2. */
const LISTS = [
  fileList(1, 'Catálogo', { options: [option(1, 'Preços'), option(2, 'Fotos')] }),
  fileList(2, 'Boas-vindas', { options: [option(1, 'Manual')] }),
  ...Array.from({ length: 20 }, (_, i) => fileList(100 + i, `Lista ${String(i + 1).padStart(2, '0')}`)),
].sort((a, b) => a.name.localeCompare(b.name));

const openPage = async (api = filesApi(() => LISTS)) => {
  const view = renderApp({ path: '/files', adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: /Lista de arquivos/ }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, NAME)).toHaveLength(20));
  return { ...view, api };
};

/** The page title as read: the heading and its counter. */
const title = () => screen.getByRole('heading', { level: 1 }).textContent;

describe('files page', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists name and number of files with the count in the title, and loads page 2 near the bottom', async () => {
    const { wrapper, api } = await openPage();
    const table = wrapper.findTable();
    expect(table?.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual(['Nome', 'Arquivos', 'Ações']);
    const row = columnTexts(wrapper, NAME).indexOf('Catálogo') + 1;
    expect(table?.findBodyCell(row, FILES)?.getElement().textContent).toBe('2');
    expect(title()).toBe('Lista de arquivos (20+)');

    FakeIntersectionObserver.intersect(screen.getByTestId('files-list-end'));
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toHaveLength(LISTS.length));
    expect(title()).toBe('Lista de arquivos (22)');
    expect(api.sent('GET').map((r) => r.query)).toEqual([{ pageNumber: '1' }, { pageNumber: '2', cursor: 'cursor-2' }]);
  });

  it('searches from 3 characters after the debounce', async () => {
    const { wrapper, api } = await openPage();
    const input = wrapper.findTextFilter()?.findInput();
    act(() => input?.setInputValue('ca'));
    await act(() => new Promise((r) => setTimeout(r, 600)));
    expect(api.sent('GET')).toHaveLength(1);
    act(() => input?.setInputValue('cat'));
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toEqual(['Catálogo']));
    expect(api.sent('GET').at(-1)?.query).toEqual({ searchParam: 'cat', pageNumber: '1' });
  });

  it('shows a plain user the no-permission view and asks the server for nothing', async () => {
    const api = filesApi(() => LISTS, {}, authUser({ id: 9, profile: 'user' }));
    renderApp({ path: '/files', adapter: api.adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', {}, { timeout: 15_000 })).toBeTruthy();
    expect(api.sent('GET')).toHaveLength(0);
  });

  it('deletes a list after confirming', async () => {
    const api = filesApi(() => LISTS, { 'DELETE /files/2': () => json(200, { message: 'File list deleted' }) });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Excluir Boas-vindas');
    const modal = openModal(wrapper);
    expect(modal.findHeader().getElement().textContent).toBe('Excluir Boas-vindas?');
    click(modal, 'Excluir');
    await waitFor(() => expect(columnTexts(wrapper, NAME)).not.toContain('Boas-vindas'));
    expect(api.sent('DELETE').map((r) => r.path)).toEqual(['/files/2']);
    expect(toastTexts(wrapper)).toContain('Lista de arquivos excluída com sucesso!');
  });

  it('keeps a list a queue sends and says which queues use it', async () => {
    const api = filesApi(() => LISTS, {
      'DELETE /files/1': () =>
        json(409, {
          error: 'ERR_FILE_LIST_IN_USE',
          message: 'Queues send this file list: remove it from them first',
          details: { queues: [{ id: 3, name: 'Vendas' }], queueNames: 'Vendas' },
        }),
    });
    const { wrapper } = await openPage(api);
    click(wrapper, 'Excluir Catálogo');
    click(openModal(wrapper), 'Excluir');
    await waitFor(() =>
      expect(toastTexts(wrapper)).toContain(
        'Esta lista de arquivos está em uso pelas filas: Vendas. Retire-a dessas filas antes de excluir.',
      ),
    );
    expect(columnTexts(wrapper, NAME)).toContain('Catálogo');
  });

  it('follows live changes of company-{id}-file: update, create in order, delete', async () => {
    const view = await openPage();
    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    const push = (event: object) => act(() => view.server.latest().push({ channel: 'company-2-file', ...event }));
    push({
      action: 'update',
      files: { ...LISTS[0], options: [option(1, 'Um'), option(2, 'Dois'), option(3, 'Três')] },
    });
    const row = columnTexts(view.wrapper, NAME).indexOf(LISTS[0]!.name) + 1;
    expect(view.wrapper.findTable()?.findBodyCell(row, FILES)?.getElement().textContent).toBe('3');
    push({ action: 'create', files: fileList(700, 'Cardápio') });
    expect(columnTexts(view.wrapper, NAME).slice(0, 3)).toEqual(['Boas-vindas', 'Cardápio', 'Catálogo']);
    push({ action: 'delete', fileId: 2 });
    expect(columnTexts(view.wrapper, NAME)).not.toContain('Boas-vindas');
    // Another channel's event changes nothing here.
    push({ channel: 'company-2-quickemessage', action: 'delete', id: 1 });
    expect(columnTexts(view.wrapper, NAME)).toContain('Catálogo');
    act(() => view.socket.stop());
  });
});
