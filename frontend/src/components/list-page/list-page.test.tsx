import createWrapper from '@cloudscape-design/components/test-utils/dom';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { AppServicesProvider } from '@/app-services';
import { FormModal } from '@/components/form-modal/form-modal';
import { NotificationsProvider } from '@/components/notifications';
import {
  buttonNamed,
  click,
  columnTexts,
  FakeIntersectionObserver,
  noOpenModal,
  openModal,
} from '@/components/test-kit';
import { i18n } from '@/i18n';
import { RealtimeSocket } from '@/realtime/socket';
import { createSessionUserStore } from '@/session-user';
import { fakeWebSocketServer } from '@/testing/fake-web-socket';
import { toastTexts, typeInto } from '@/testing/form-fields';
import { TEST_CONFIG } from '@/testing/render-app';
import { ListPage } from './list-page';
import { channelChange, useLiveList, type ListQuery } from './use-live-list';

type Tag = { id: number; name: string };
const tag = (id: number, name: string): Tag => ({ id, name });
const byName = (a: Tag, b: Tag) => a.name.localeCompare(b.name, 'pt', { sensitivity: 'base' });

const CHANNEL = 'company-2-tag';
const PAGE_SIZE = 20;
const TAGS = Array.from({ length: 25 }, (_, i) => tag(i + 1, `Etiqueta ${String(i + 1).padStart(2, '0')}`));

beforeAll(() => {
  i18n.addResourceBundle('pt', 'translation', {
    tagsTest: {
      title: 'Etiquetas',
      add: 'Nova etiqueta',
      searchPlaceholder: 'Pesquisar...',
      searchLabel: 'Pesquisar etiquetas',
      loading: 'Carregando etiquetas',
      loadingMore: 'Carregando mais etiquetas',
      loadError: 'Não foi possível carregar a lista de registros',
      empty: 'Nenhuma etiqueta',
      noMatch: 'Nenhuma etiqueta encontrada',
      columns: { name: 'Nome', actions: 'Ações' },
      edit: 'Editar {{name}}',
      remove: 'Excluir {{name}}',
      required: 'Obrigatório',
      saved: 'Etiqueta salva',
      delete: {
        title: 'Excluir {{name}}?',
        text: 'Esta ação não pode ser desfeita.',
        confirm: 'Excluir',
        cancel: 'Cancelar',
        success: 'Etiqueta excluída',
      },
    },
  });
});

/** A list API over `rows`: by name, a name-prefix search, 20 a page with a cursor; every call recorded. */
const tagsApi = (initial: Tag[] = TAGS) => {
  let rows = [...initial];
  let failing = false;
  const calls: { query: ListQuery; at: number }[] = [];
  const fetchPage = vi.fn(async (query: ListQuery) => {
    calls.push({ query, at: Date.now() });
    if (failing) throw new Error('down');
    const matching = rows
      .filter((r) => !query.searchParam || r.name.toLowerCase().startsWith(query.searchParam.toLowerCase()))
      .sort(byName);
    const page = matching.slice((query.pageNumber - 1) * PAGE_SIZE, query.pageNumber * PAGE_SIZE);
    const hasMore = query.pageNumber * PAGE_SIZE < matching.length;
    return { items: page, hasMore, ...(hasMore ? { nextCursor: `cursor-${query.pageNumber + 1}` } : {}) };
  });
  return {
    fetchPage,
    calls,
    setRows: (next: Tag[]) => {
      rows = next;
    },
    fail: (value: boolean) => {
      failing = value;
    },
  };
};

type Api = ReturnType<typeof tagsApi>;

function TagsScreen({
  api,
  save,
  remove,
}: {
  api: Api;
  save: (name: string, item?: Tag) => Promise<Tag>;
  remove: (t: Tag) => Promise<unknown>;
}) {
  const list = useLiveList({
    fetchPage: (query) => api.fetchPage(query),
    compare: byName,
    channel: CHANNEL,
    change: channelChange<Tag>({ item: 'tag', deletedId: 'tagId' }),
  });
  return (
    <ListPage
      list={list}
      section="tagsTest"
      columns={[{ id: 'name', header: 'Nome', cell: (t) => t.name, isRowHeader: true }]}
      itemName={(t) => t.name}
      form={({ item, onDismiss, onSaved }) => (
        <FormModal
          title={item ? 'Editar etiqueta' : 'Nova etiqueta'}
          initial={{ name: item?.name ?? '' }}
          schema={z.object({ name: z.string().trim().min(1, 'tagsTest.required') })}
          onSubmit={({ name }) => save(name, item)}
          savedText="Etiqueta salva"
          onSaved={onSaved}
          onDismiss={onDismiss}
        >
          {(form) => (
            <FormField label="Nome" errorText={form.error('name')}>
              <Input {...form.text('name')} />
            </FormField>
          )}
        </FormModal>
      )}
      remove={remove}
      removeDisabled={(t) => t.id === 1 && 'Em uso'}
      endTestId="tags-list-end"
    />
  );
}

const NAME = 1;

const openTags = async ({
  api = tagsApi(),
  save = vi.fn(async (name: string, item?: Tag) => ({ id: item?.id ?? 99, name })),
  remove = vi.fn(async () => undefined),
}: {
  api?: Api;
  save?: (name: string, item?: Tag) => Promise<Tag>;
  remove?: (t: Tag) => Promise<unknown>;
} = {}) => {
  const server = fakeWebSocketServer();
  const socket = new RealtimeSocket({
    url: TEST_CONFIG.wsUrl,
    getToken: () => 'token-1',
    WebSocketImpl: server.WebSocket,
    reconnectDelayMs: 10,
  });
  render(
    <AppServicesProvider services={{ config: TEST_CONFIG, socket, sessionUser: createSessionUserStore() }}>
      <NotificationsProvider>
        <TagsScreen api={api} save={save} remove={remove} />
      </NotificationsProvider>
    </AppServicesProvider>,
  );
  const wrapper = createWrapper();
  await waitFor(() => expect(columnTexts(wrapper, NAME)).toHaveLength(PAGE_SIZE));
  const live = () => {
    socket.start();
    act(() => server.latest().accept());
  };
  const push = (event: object) => act(() => server.latest().push({ channel: CHANNEL, ...event }));
  return { wrapper, api, save, remove, socket, server, live, push };
};

const search = (wrapper: ReturnType<typeof createWrapper>, text: string) => {
  const input = wrapper.findTextFilter()?.findInput();
  if (!input) throw new Error('no search input');
  act(() => input.setInputValue(text));
};

/** The table's title and its counter. */
const title = (wrapper: ReturnType<typeof createWrapper>) => {
  const header = wrapper.findTable()?.findHeaderSlot()?.findHeader();
  return [header?.findHeadingText().getElement().textContent, header?.findCounter()?.getElement().textContent?.trim()];
};

const sleep = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

describe('ListPage with useLiveList', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the title with the count, the search, the add button and the actions column', async () => {
    const { wrapper } = await openTags();
    expect(title(wrapper)).toEqual(['Etiquetas', '(20+)']);
    expect(
      wrapper
        .findTable()
        ?.findColumnHeaders()
        .map((h) => h.getElement().textContent),
    ).toEqual(['Nome', 'Ações']);
    expect(buttonNamed(wrapper, 'Nova etiqueta').isDisabled()).toBe(false);
    expect(buttonNamed(wrapper, 'Excluir Etiqueta 01').isDisabled()).toBe(true);
    expect(buttonNamed(wrapper, 'Excluir Etiqueta 02').isDisabled()).toBe(false);
    expect(buttonNamed(wrapper, 'Editar Etiqueta 01').isDisabled()).toBe(false);
  });

  it('loads the next page once when the end comes within 100 px of the bottom, then stops watching', async () => {
    const { wrapper, api } = await openTags();
    const end = screen.getByTestId('tags-list-end');
    expect(FakeIntersectionObserver.watching(end).map((o) => o.options.rootMargin)).toEqual(['0px 0px 100px 0px']);

    FakeIntersectionObserver.intersect(end);
    FakeIntersectionObserver.intersect(end);
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toHaveLength(TAGS.length));
    expect(api.calls.map((c) => c.query)).toEqual([
      { searchParam: '', pageNumber: 1 },
      { searchParam: '', pageNumber: 2, cursor: 'cursor-2' },
    ]);
    expect(title(wrapper)).toEqual(['Etiquetas', '(25)']);
    expect(FakeIntersectionObserver.watching(end)).toEqual([]);
  });

  it('searches from 3 characters, 500 ms after the last keystroke; fewer characters mean no filter', async () => {
    const { wrapper, api } = await openTags();
    search(wrapper, 'Et');
    await sleep(700);
    expect(api.calls).toHaveLength(1);

    const typedAt = Date.now();
    search(wrapper, 'Etiqueta 1');
    expect(api.calls).toHaveLength(1);
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toHaveLength(10));
    expect(api.calls.at(-1)?.query).toEqual({ searchParam: 'Etiqueta 1', pageNumber: 1 });
    expect(api.calls.at(-1)!.at - typedAt).toBeGreaterThanOrEqual(490);

    search(wrapper, 'Zz');
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toHaveLength(PAGE_SIZE));
    expect(api.calls.at(-1)?.query).toEqual({ searchParam: '', pageNumber: 1 });

    search(wrapper, 'Zzz');
    expect(await screen.findByText('Nenhuma etiqueta encontrada')).toBeTruthy();
  });

  it("applies the channel's create, update and delete to the rows, in order", async () => {
    const { wrapper, live, push, server, socket } = await openTags();
    live();

    push({ action: 'create', tag: tag(100, 'Etiqueta 02b') });
    expect(columnTexts(wrapper, NAME).slice(0, 4)).toEqual([
      'Etiqueta 01',
      'Etiqueta 02',
      'Etiqueta 02b',
      'Etiqueta 03',
    ]);
    // After the last row loaded while more pages exist: it comes with its page.
    push({ action: 'create', tag: tag(101, 'Zeta') });
    expect(columnTexts(wrapper, NAME)).not.toContain('Zeta');

    push({ action: 'update', tag: tag(2, 'Etiqueta 10b') });
    const names = columnTexts(wrapper, NAME);
    expect(names).not.toContain('Etiqueta 02');
    expect(names.indexOf('Etiqueta 10b')).toBe(names.indexOf('Etiqueta 10') + 1);

    push({ action: 'delete', tagId: 3 });
    expect(columnTexts(wrapper, NAME)).not.toContain('Etiqueta 03');
    // Another channel's events are not this list's.
    act(() => server.latest().push({ channel: 'company-3-tag', action: 'delete', tagId: 4 }));
    expect(columnTexts(wrapper, NAME)).toContain('Etiqueta 04');
    act(() => socket.stop());
  });

  it('while searching, leaves creates out and only changes the rows shown', async () => {
    const { wrapper, live, push, socket } = await openTags();
    search(wrapper, 'Etiqueta 2');
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toHaveLength(6));
    live();

    push({ action: 'create', tag: tag(100, 'Etiqueta 2x') });
    push({ action: 'update', tag: tag(3, 'Etiqueta 2y') }); // not shown: not added
    push({ action: 'update', tag: tag(21, 'Etiqueta 21 nova') });
    expect(columnTexts(wrapper, NAME)).toEqual([
      'Etiqueta 20',
      'Etiqueta 21 nova',
      'Etiqueta 22',
      'Etiqueta 23',
      'Etiqueta 24',
      'Etiqueta 25',
    ]);
    act(() => socket.stop());
  });

  it('reads page 1 again after the socket reconnects, keeping the rows until it arrives', async () => {
    const { wrapper, api, live, server, socket } = await openTags();
    live();
    api.setRows([tag(500, 'Aaa'), ...TAGS]);

    act(() => server.latest().drop());
    await waitFor(() => expect(server.connections).toHaveLength(2));
    expect(columnTexts(wrapper, NAME)).toHaveLength(PAGE_SIZE);
    act(() => server.latest().accept());

    await waitFor(() => expect(columnTexts(wrapper, NAME)[0]).toBe('Aaa'));
    expect(api.calls.map((c) => c.query.pageNumber)).toEqual([1, 1]);
    act(() => socket.stop());
  });

  it('shows a failed first page with the translated error and retries; a failed next page in the footer', async () => {
    const api = tagsApi();
    api.fail(true);
    const server = fakeWebSocketServer();
    const socket = new RealtimeSocket({ url: TEST_CONFIG.wsUrl, getToken: () => 't', WebSocketImpl: server.WebSocket });
    render(
      <AppServicesProvider services={{ config: TEST_CONFIG, socket, sessionUser: createSessionUserStore() }}>
        <NotificationsProvider>
          <TagsScreen api={api} save={vi.fn()} remove={vi.fn()} />
        </NotificationsProvider>
      </AppServicesProvider>,
    );
    const wrapper = createWrapper();
    expect(await screen.findByText('Não foi possível carregar a lista de registros')).toBeTruthy();
    expect(title(wrapper)).toEqual(['Etiquetas', undefined]);

    api.fail(false);
    click(wrapper, 'Tentar novamente');
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toHaveLength(PAGE_SIZE));

    api.fail(true);
    FakeIntersectionObserver.intersect(screen.getByTestId('tags-list-end'));
    expect(await screen.findByText('Tentar novamente')).toBeTruthy();
    api.fail(false);
    click(wrapper, 'Tentar novamente');
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toHaveLength(TAGS.length));
  });

  it('says so when there is nothing yet', async () => {
    const api = tagsApi([]);
    const server = fakeWebSocketServer();
    const socket = new RealtimeSocket({ url: TEST_CONFIG.wsUrl, getToken: () => 't', WebSocketImpl: server.WebSocket });
    render(
      <AppServicesProvider services={{ config: TEST_CONFIG, socket, sessionUser: createSessionUserStore() }}>
        <NotificationsProvider>
          <TagsScreen api={api} save={vi.fn()} remove={vi.fn()} />
        </NotificationsProvider>
      </AppServicesProvider>,
    );
    expect(await screen.findByText('Nenhuma etiqueta')).toBeTruthy();
  });

  it('adds through the form and reads the list again from page 1; an edit puts the row in its place', async () => {
    const { wrapper, api, save } = await openTags();

    click(wrapper, 'Nova etiqueta');
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Nova etiqueta');
    typeInto(wrapper, 'Nome', 'Nova');
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    expect(save).toHaveBeenCalledWith('Nova', undefined);
    expect(toastTexts(wrapper)).toEqual(['Etiqueta salva']);
    await waitFor(() => expect(api.calls).toHaveLength(2));
    expect(api.calls[1]?.query).toEqual({ searchParam: '', pageNumber: 1 });
    await waitFor(() => expect(columnTexts(wrapper, NAME)).toHaveLength(PAGE_SIZE));

    click(wrapper, 'Editar Etiqueta 02');
    typeInto(wrapper, 'Nome', 'Etiqueta 05b');
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(noOpenModal(wrapper)).toBe(true));
    const names = columnTexts(wrapper, NAME);
    expect(names.indexOf('Etiqueta 05b')).toBe(names.indexOf('Etiqueta 05') + 1);
    expect(api.calls).toHaveLength(2);
  });

  it('deletes only after the confirmation, then removes the row', async () => {
    const { wrapper, remove } = await openTags();
    click(wrapper, 'Excluir Etiqueta 02');
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Excluir Etiqueta 02?');
    click(openModal(wrapper), 'Cancelar');
    expect(remove).not.toHaveBeenCalled();

    click(wrapper, 'Excluir Etiqueta 02');
    click(openModal(wrapper), 'Excluir');
    await waitFor(() => expect(columnTexts(wrapper, NAME)).not.toContain('Etiqueta 02'));
    expect(remove).toHaveBeenCalledWith(tag(2, 'Etiqueta 02'));
    expect(toastTexts(wrapper)).toEqual(['Etiqueta excluída']);
  });
});

describe('channelChange', () => {
  const change = channelChange<Tag>({ item: 'tag', deletedId: 'tagId' });
  it('reads create, update and delete, and nothing else', () => {
    expect(change({ channel: CHANNEL, action: 'create', tag: tag(1, 'a') })).toEqual({
      kind: 'create',
      item: tag(1, 'a'),
    });
    expect(change({ channel: CHANNEL, action: 'update', tag: tag(1, 'a') })).toEqual({
      kind: 'update',
      item: tag(1, 'a'),
    });
    expect(change({ channel: CHANNEL, action: 'delete', tagId: 1 })).toEqual({ kind: 'delete', id: 1 });
    expect(change({ channel: CHANNEL, action: 'delete', tagId: '1' })).toBeNull();
    expect(change({ channel: CHANNEL, action: 'update', tag: { name: 'no id' } })).toBeNull();
    expect(change({ channel: CHANNEL, action: 'bulkUpdate', tag: tag(1, 'a') })).toBeNull();
  });
});
