import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpRequest } from '@/api/transport';
import type { User } from '@/api/users';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { pageReload } from '@/hooks/page-reload';
import {
  buttonNamed,
  click,
  columnTexts,
  FakeIntersectionObserver,
  noOpenModal,
  openModal,
  toggleNamed,
} from '@/components/test-kit';
import { userRow } from './test-kit';

const ADMIN = authUser({ id: 5, name: 'Ana Souza', profile: 'admin' });
const NAME_COLUMN = 3;

/** 25 users by name: page 1 has 20 of them and a cursor, page 2 the other 5. */
const PEOPLE: User[] = [
  userRow(5, 'Ana Souza', { profile: 'admin', online: true }),
  userRow(2, 'Bruno Lima'),
  ...Array.from({ length: 23 }, (_, i) => userRow(100 + i, `Pessoa ${String(i + 1).padStart(2, '0')}`)),
];

const PAGE_SIZE = 20;

/** GET /users as the server pages it: by pageNumber (and cursor), filtered by a name-prefix search. */
const listRoute =
  (people: () => User[]): Route =>
  (req) => {
    const search = req.query?.searchParam?.toLowerCase();
    const matching = people().filter((u) => !search || u.name.toLowerCase().startsWith(search));
    const page = Number(req.query?.pageNumber ?? '1');
    const users = matching.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    const hasMore = page * PAGE_SIZE < matching.length;
    return json(200, { users, hasMore, ...(hasMore ? { nextCursor: `cursor-${page + 1}` } : {}) });
  };

const usersApi = (extra: Record<string, Route> = {}, me = ADMIN) => {
  let people = [...PEOPLE];
  const server = fakeApi({
    ...shellRoutes(me),
    'GET /users': listRoute(() => people),
    ...extra,
  });
  return {
    ...server,
    setPeople: (next: User[]) => {
      people = next;
    },
    listCalls: () => server.requests.filter((r) => r.method === 'GET' && r.path === '/users'),
  };
};

const openUsers = async (api = usersApi()) => {
  const view = renderApp({ path: '/users', adapter: api.adapter });
  // The first test of the file pays for transforming the shell's and the page's chunks.
  expect(await screen.findByRole('heading', { name: 'Usuários' }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, NAME_COLUMN)).toHaveLength(PAGE_SIZE));
  return { ...view, api };
};

const listEnd = () => screen.getByTestId('users-list-end');

const sleep = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

const searchFor = (wrapper: ReturnType<typeof renderApp>['wrapper'], text: string) => {
  const input = wrapper.findTextFilter()?.findInput();
  if (!input) throw new Error('no search input');
  act(() => input.setInputValue(text));
};

describe('users list', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the users of page 1 with id, status, name, e-mail, profile and hours', async () => {
    const { wrapper, api } = await openUsers();

    const table = wrapper.findTable();
    expect(table?.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual([
      'ID',
      'Status',
      'Nome',
      'E-mail',
      'Perfil',
      'Expediente',
      'Ações',
    ]);
    const first = [1, 2, 3, 4, 5, 6].map((col) => table?.findBodyCell(1, col)?.getElement().textContent);
    expect(first).toEqual(['5', 'Online', 'Ana Souza', 'ana.souza@example.com', 'Administrador', '00:00 – 23:59']);
    expect(table?.findBodyCell(2, 2)?.getElement().textContent).toBe('Offline');
    expect(api.listCalls().map((r) => r.query)).toEqual([{ pageNumber: '1' }]);
  });

  it('loads page 2 (with the cursor) when the end of the list comes within 100 px of the bottom, then stops', async () => {
    const { wrapper, api } = await openUsers();
    const observers = FakeIntersectionObserver.watching(listEnd());
    expect(observers.map((o) => o.options.rootMargin)).toEqual(['0px 0px 100px 0px']);

    FakeIntersectionObserver.intersect(listEnd());

    await waitFor(() => expect(columnTexts(wrapper, NAME_COLUMN)).toHaveLength(PEOPLE.length));
    expect(columnTexts(wrapper, NAME_COLUMN).at(-1)).toBe('Pessoa 23');
    expect(api.listCalls().map((r) => r.query)).toEqual([{ pageNumber: '1' }, { pageNumber: '2', cursor: 'cursor-2' }]);
    // No more pages: nothing watches the end any longer.
    expect(FakeIntersectionObserver.watching(listEnd())).toEqual([]);
    FakeIntersectionObserver.intersect(listEnd());
    expect(api.listCalls()).toHaveLength(2);
  });

  it('searches 500 ms after typing, from 3 characters; fewer characters search nothing', async () => {
    const { wrapper, api } = await openUsers();

    searchFor(wrapper, 'Br');
    await sleep(700);
    expect(api.listCalls()).toHaveLength(1);

    searchFor(wrapper, 'Bru');
    expect(api.listCalls()).toHaveLength(1); // not before the debounce
    await waitFor(() => expect(columnTexts(wrapper, NAME_COLUMN)).toEqual(['Bruno Lima']));
    expect(api.listCalls().map((r) => r.query)).toEqual([{ pageNumber: '1' }, { searchParam: 'Bru', pageNumber: '1' }]);

    // Back under 3 characters: the whole list again.
    searchFor(wrapper, 'B');
    await waitFor(() => expect(columnTexts(wrapper, NAME_COLUMN)).toHaveLength(PAGE_SIZE));
    expect(api.listCalls().at(-1)?.query).toEqual({ pageNumber: '1' });
  });

  it('says so when the search matches nobody', async () => {
    const { wrapper } = await openUsers();
    searchFor(wrapper, 'Zzz');
    expect(await screen.findByText('Nenhum usuário encontrado')).toBeTruthy();
    expect(wrapper.findTable()?.findRows()).toHaveLength(0);
  });

  it('shows a failed first load with the translated error and retries', async () => {
    let fail = true;
    const api = usersApi({
      'GET /users': (req) =>
        fail ? json(500, { error: 'ERR_INTERNAL', message: 'boom' }) : listRoute(() => PEOPLE)(req),
    });
    const { wrapper } = renderApp({ path: '/users', adapter: api.adapter });

    expect(await screen.findByText('Não foi possível carregar a lista de registros')).toBeTruthy();
    expect(screen.getByText('Erro interno do servidor. Tente novamente mais tarde.')).toBeTruthy();
    fail = false;
    click(wrapper, 'Tentar novamente');
    await waitFor(() => expect(columnTexts(wrapper, NAME_COLUMN)).toHaveLength(PAGE_SIZE));
  });

  it('deletes only after the confirmation: Cancelar keeps the user, Excluir removes the row', async () => {
    const api = usersApi({ 'DELETE /users/2': () => json(200, { message: 'User deleted' }) });
    const { wrapper } = await openUsers(api);

    click(wrapper, 'Excluir Bruno Lima');
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Excluir Bruno Lima?');
    click(openModal(wrapper), 'Cancelar');
    expect(noOpenModal(wrapper)).toBe(true);
    expect(columnTexts(wrapper, NAME_COLUMN)).toContain('Bruno Lima');

    click(wrapper, 'Excluir Bruno Lima');
    click(openModal(wrapper), 'Excluir');

    await waitFor(() => expect(columnTexts(wrapper, NAME_COLUMN)).not.toContain('Bruno Lima'));
    expect(noOpenModal(wrapper)).toBe(true);
    expect(toastTexts(wrapper)).toEqual(['Usuário excluído com sucesso!']);
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/users/2']);
  });

  it('does not offer deleting oneself, and shows a refused delete as a translated toast', async () => {
    const api = usersApi({
      'DELETE /users/2': () => json(400, { error: 'ERR_CANNOT_DELETE_SELF', message: 'no' }),
    });
    const { wrapper } = await openUsers(api);
    expect(buttonNamed(wrapper, 'Excluir Ana Souza').isDisabled()).toBe(true);

    click(wrapper, 'Excluir Bruno Lima');
    click(openModal(wrapper), 'Excluir');

    await waitFor(() => expect(toastTexts(wrapper)).toEqual(['Você não pode excluir o seu próprio usuário.']));
    expect(columnTexts(wrapper, NAME_COLUMN)).toContain('Bruno Lima');
  });

  it("creates a user: the spec's messages first, then POST, 'user saved' and the list from page 1", async () => {
    const created = userRow(300, 'Carla Dias');
    const api = usersApi({
      'POST /users': (req: HttpRequest) => json(201, { ...created, ...(req.body as object) }),
    });
    const { wrapper } = await openUsers(api);

    click(wrapper, 'Adicionar usuário');
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Adicionar usuário');
    click(openModal(wrapper), 'Adicionar');
    expect(['Nome', 'E-mail', 'Senha'].map((label) => errorOf(wrapper, label))).toEqual([
      'Required',
      'Required',
      'Required',
    ]);

    typeInto(wrapper, 'Nome', 'C');
    typeInto(wrapper, 'E-mail', 'carla@example');
    typeInto(wrapper, 'Senha', '1234');
    expect(errorOf(wrapper, 'Nome')).toBe('Too Short!');
    expect(errorOf(wrapper, 'E-mail')).toBe('Invalid email');
    expect(errorOf(wrapper, 'Senha')).toBe('Too Short!');
    typeInto(wrapper, 'Nome', 'x'.repeat(51));
    typeInto(wrapper, 'Senha', 'x'.repeat(51));
    expect(errorOf(wrapper, 'Nome')).toBe('Too Long!');
    expect(errorOf(wrapper, 'Senha')).toBe('Too Long!');
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    typeInto(wrapper, 'Nome', ' Carla Dias ');
    typeInto(wrapper, 'E-mail', 'Carla@Example.com');
    typeInto(wrapper, 'Senha', 'segredo1');
    api.setPeople([...PEOPLE, created]);
    click(openModal(wrapper), 'Adicionar');

    await waitFor(() => expect(toastTexts(wrapper)).toEqual(['Usuário salvo com sucesso!']));
    expect(noOpenModal(wrapper)).toBe(true);
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'Carla Dias',
      email: 'carla@example.com',
      password: 'segredo1',
      profile: 'user',
      startWork: '00:00',
      endWork: '23:59',
      farewellMessage: '',
      allTicket: 'disable',
      allowGroup: false,
      allHistoric: 'disabled',
      allUserChat: 'disabled',
      userClosePendingTicket: 'enabled',
      showDashboard: 'disabled',
      allowRealTime: 'disabled',
      allowConnections: 'disabled',
      defaultTheme: 'light',
      defaultMenu: 'open',
      whatsappId: null,
    });
    await waitFor(() => expect(api.listCalls()).toHaveLength(2));
    expect(api.listCalls()[1]?.query).toEqual({ pageNumber: '1' });
  });

  it('keeps the dialog open with a translated toast when the plan has no seat left', async () => {
    const api = usersApi({
      'POST /users': () => json(403, { error: 'ERR_PLAN_LIMIT_USERS', message: 'limit', details: { limit: 3 } }),
      'POST /auth/refresh_token': () => json(200, { token: 'token-2', user: ADMIN }),
    });
    const { wrapper } = await openUsers(api);

    click(wrapper, 'Adicionar usuário');
    typeInto(wrapper, 'Nome', 'Carla Dias');
    typeInto(wrapper, 'E-mail', 'carla@example.com');
    typeInto(wrapper, 'Senha', 'segredo1');
    click(openModal(wrapper), 'Adicionar');

    await waitFor(() => expect(toastTexts(wrapper)).toEqual(['O limite de usuários do seu plano foi atingido.']));
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Adicionar usuário');
    expect(buttonNamed(openModal(wrapper), 'Adicionar').isDisabled()).toBe(false);
  });

  it('edits a user from a fresh read: the new name and permission go out with PUT and the row changes', async () => {
    const bruno = PEOPLE[1] as User;
    const api = usersApi({
      'GET /users/2': () => json(200, bruno),
      'PUT /users/2': (req) => json(200, { ...bruno, ...(req.body as object) }),
    });
    const reload = vi.spyOn(pageReload, 'reload').mockImplementation(() => undefined);
    const { wrapper } = await openUsers(api);

    click(wrapper, 'Editar Bruno Lima');
    await waitFor(() => expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Editar usuário'));
    await waitFor(() =>
      expect(fieldByLabel(wrapper, 'Nome').findControl()?.findInput()?.getInputValue()).toBe('Bruno Lima'),
    );
    expect(fieldByLabel(wrapper, 'Senha').findConstraint()?.getElement().textContent).toBe(
      'Deixe em branco para manter a senha atual.',
    );
    typeInto(wrapper, 'Nome', 'Bruno Lima Neto');
    act(() => wrapper.findTabs()?.findTabLinkById('permissions')?.click());
    act(() => toggleNamed(wrapper, 'Ver o dashboard').findNativeInput().click());
    click(openModal(wrapper), 'Salvar');

    await waitFor(() => expect(columnTexts(wrapper, NAME_COLUMN)).toContain('Bruno Lima Neto'));
    expect(toastTexts(wrapper)).toEqual(['Usuário salvo com sucesso!']);
    const put = api.requests.find((r) => r.method === 'PUT');
    expect(put?.body).toMatchObject({ name: 'Bruno Lima Neto', showDashboard: 'enabled', allTicket: 'disable' });
    expect(put?.body).not.toHaveProperty('password');
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads the page after an admin saves their own user', async () => {
    const me = PEOPLE[0] as User;
    const api = usersApi({
      'GET /users/5': () => json(200, me),
      'PUT /users/5': (req) => json(200, { ...me, ...(req.body as object) }),
    });
    const reload = vi.spyOn(pageReload, 'reload').mockImplementation(() => undefined);
    const { wrapper } = await openUsers(api);

    click(wrapper, 'Editar Ana Souza');
    await waitFor(() =>
      expect(fieldByLabel(wrapper, 'Nome').findControl()?.findInput()?.getInputValue()).toBe('Ana Souza'),
    );
    click(openModal(wrapper), 'Salvar');

    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(toastTexts(wrapper)).toEqual(['Usuário salvo com sucesso!']);
  });
});

describe('users list, live', () => {
  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("follows other admins' changes: update replaces a row, create lands in name order, delete removes", async () => {
    const view = await openUsers();
    act(() => view.socket.start());
    act(() => view.server.latest().accept());
    const push = (event: object) => act(() => view.server.latest().push({ channel: 'company-2-user', ...event }));

    push({ action: 'update', user: { ...PEOPLE[1], name: 'Bruno Lima Neto', profile: 'admin' } });
    expect(columnTexts(view.wrapper, NAME_COLUMN)[1]).toBe('Bruno Lima Neto');
    expect(view.wrapper.findTable()?.findBodyCell(2, 5)?.getElement().textContent).toBe('Administrador');

    push({ action: 'create', user: userRow(301, 'Carla Dias') });
    expect(columnTexts(view.wrapper, NAME_COLUMN).slice(0, 4)).toEqual([
      'Ana Souza',
      'Bruno Lima Neto',
      'Carla Dias',
      'Pessoa 01',
    ]);
    // After the rows shown while more pages exist: it comes with its page instead.
    push({ action: 'create', user: userRow(302, 'Zélia Prado') });
    expect(columnTexts(view.wrapper, NAME_COLUMN)).not.toContain('Zélia Prado');

    push({ action: 'delete', userId: 2 });
    expect(columnTexts(view.wrapper, NAME_COLUMN)).not.toContain('Bruno Lima Neto');
    // Other companies' events are not ours.
    act(() => view.server.latest().push({ channel: 'company-3-user', action: 'delete', userId: 5 }));
    expect(columnTexts(view.wrapper, NAME_COLUMN)).toContain('Ana Souza');
    act(() => view.socket.stop());
  });
});

describe('users page for a plain user', () => {
  it('shows the 403 screen and never asks for the list', async () => {
    const api = usersApi({}, authUser({ id: 9, profile: 'user' }));
    renderApp({ path: '/users', adapter: api.adapter });

    expect(await screen.findByText('Oops! Acesso Negado!')).toBeTruthy();
    expect(api.listCalls()).toHaveLength(0);
  });
});
