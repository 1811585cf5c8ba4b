import { act, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '@/api/auth';
import type { CompanyPlan } from '@/api/plans';
import { changeLanguage } from '@/i18n';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { connectionRow } from '@/testing/connection-fixtures';
import { fieldByLabel, toastTexts } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { fullPlan, shellRoutes } from '@/testing/shell-api';
import { THEME_STORAGE_KEY } from '@/theme';
import { CAMPAIGNS_FLAG_KEY, VOLUME_STORAGE_KEY } from './preferences';

type View = ReturnType<typeof renderApp>;
type Wrapper = View['wrapper'];

const DAY_MS = 24 * 60 * 60 * 1000;
/** A due date `days` calendar days from today (UTC, the rule the shell and the server use). */
const dueIn = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
const ddMMyyyy = (date: string) => date.split('-').reverse().join('/');

/** Opens a private page in the shell; the user arrives through GET /auth/me, as after a reload. */
const openShell = async ({
  user = authUser(),
  path = '/tickets',
  heading = 'Atendimentos',
  plan = fullPlan(),
  routes = {},
}: {
  user?: AuthUser;
  path?: string;
  heading?: string;
  plan?: CompanyPlan;
  routes?: Record<string, Route>;
} = {}) => {
  const api = fakeApi({ ...shellRoutes(user, plan), ...routes });
  const view = renderApp({ path, adapter: api.adapter });
  expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
  return { ...view, api };
};

const menuTexts = (wrapper: Wrapper) =>
  [...(wrapper.findSideNavigation()?.getElement().querySelectorAll('a') ?? [])].map((a) => a.textContent);

const greeting = () => screen.queryByTestId('shell-greeting')?.textContent ?? null;

const button = (wrapper: Wrapper, label: string) => {
  const found = wrapper.findAllButtons().find((b) => b.getElement().getAttribute('aria-label') === label);
  if (!found) throw new Error(`no button '${label}'`);
  return found;
};

const accountMenu = (wrapper: Wrapper, name: string) => {
  const dropdown = wrapper
    .findAllButtonDropdowns()
    .find((d) => d.findNativeButton().getElement().getAttribute('aria-label') === `Conta de ${name}`);
  if (!dropdown) throw new Error('no account menu');
  return dropdown;
};

const flashTexts = (wrapper: Wrapper) =>
  (wrapper.find('.zd-shell-notifications')?.findFlashbar()?.findItems() ?? []).map(
    (item) => item.getElement().textContent,
  );

// The first shell render transforms Cloudscape's and the shell's modules: do it before the first timed wait.
beforeAll(async () => {
  await Promise.all([import('./app-shell'), import('@/pages/coming-soon/coming-soon-page')]);
}, 30_000);

describe('app shell: top bar', () => {
  it("greets an admin with the user's and the company's name and shows the due date", async () => {
    const { wrapper } = await openShell({
      user: authUser({ company: { id: 2, name: 'Padaria Central', dueDate: '2999-12-31' } }),
    });
    expect(greeting()).toBe('Olá Ana Souza, seja bem-vindo a Padaria Central!Ativo até 31/12/2999');
    expect(wrapper.findTopNavigation()).not.toBeNull();
  });

  it('greets a plain user without the due date', async () => {
    await openShell({ user: authUser({ profile: 'user', name: 'Bruno Lima' }) });
    expect(greeting()).toBe('Olá Bruno Lima, seja bem-vindo a Padaria Central!');
  });

  it("starts on the user's default theme, and the toggle switches it and remembers the choice", async () => {
    const { wrapper } = await openShell({ user: authUser({ defaultTheme: 'dark' }) });
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(document.body.classList.contains('awsui-dark-mode')).toBe(true);

    act(() => button(wrapper, 'Usar tema claro').click());

    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(document.body.classList.contains('awsui-dark-mode')).toBe(false);
    expect(button(wrapper, 'Usar tema escuro')).toBeTruthy();
  });

  it("keeps a browser's remembered theme over the user's default", async () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'light');
    await openShell({ user: authUser({ defaultTheme: 'dark' }) });
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });

  it("sets the volume from 0 to 1 in steps of 0.1 and keeps it under 'volume'", async () => {
    const { wrapper } = await openShell();
    act(() => button(wrapper, 'Volume: 100%').click());
    const slider = wrapper.findSlider();
    expect(slider).not.toBeNull();
    const input = slider?.findNativeInput().getElement() as HTMLInputElement;
    expect([input.min, input.max, input.step]).toEqual(['0', '1', '0.1']);

    act(() => slider?.setInputValue('0.3'));

    expect(localStorage.getItem(VOLUME_STORAGE_KEY)).toBe('0.3');
    expect(button(wrapper, 'Volume: 30%')).toBeTruthy();
  });

  it('reads a stored volume', async () => {
    localStorage.setItem(VOLUME_STORAGE_KEY, '0');
    const { wrapper } = await openShell();
    expect(button(wrapper, 'Volume: 0%')).toBeTruthy();
  });

  it('logs out from the account menu: DELETE /auth/logout, the token is gone, /login', async () => {
    const { wrapper, api, router } = await openShell({
      routes: { 'DELETE /auth/logout': () => json(204, undefined) },
    });
    act(() => accountMenu(wrapper, 'Ana Souza').openDropdown());
    act(() => accountMenu(wrapper, 'Ana Souza').findItemById('logout')?.click());

    expect(await screen.findByRole('heading', { name: 'Entrar' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toContain('DELETE /auth/logout');
  });

  it("opens the users area's dialog on the signed-in user from 'Perfil', and adds no route", async () => {
    const me = authUser();
    const { wrapper, router, api } = await openShell({
      user: me,
      routes: { 'GET /users/5': () => json(200, { ...me, createdAt: '', updatedAt: '' }) },
    });
    act(() => accountMenu(wrapper, 'Ana Souza').openDropdown());
    act(() => accountMenu(wrapper, 'Ana Souza').findItemById('profile')?.click());

    await waitFor(() =>
      expect(fieldByLabel(wrapper, 'Nome').findControl()?.findInput()?.getInputValue()).toBe('Ana Souza'),
    );
    const modal = wrapper.findAllModals().find((m) => m.isVisible());
    expect(modal?.findHeader().getElement().textContent).toBe('Editar usuário');
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toContain('GET /users/5');
    expect(router.state.location.pathname).toBe('/tickets');
  });

  it('changes the interface language from the account menu', async () => {
    const { wrapper } = await openShell();
    act(() => accountMenu(wrapper, 'Ana Souza').openDropdown());
    act(() => accountMenu(wrapper, 'Ana Souza').findItemById('language:en')?.click());

    expect(await screen.findByRole('heading', { name: 'Tickets' })).toBeTruthy();
    expect(localStorage.getItem('i18nextLng')).toBe('en');
    const account = wrapper
      .findAllButtonDropdowns()
      .find((d) => d.findNativeButton().getElement().getAttribute('aria-label') === "Ana Souza's account");
    act(() => account?.openDropdown());
    expect(
      account?.findItemById('language:en')?.getElement().querySelector('[aria-checked]')?.getAttribute('aria-checked'),
    ).toBe('true');
    expect(
      account?.findItemById('language:pt')?.getElement().querySelector('[aria-checked]')?.getAttribute('aria-checked'),
    ).toBe('false');
  });
});

describe('app shell: side menu', () => {
  it("shows an admin's menu with the version at the bottom", async () => {
    const { wrapper } = await openShell();
    await waitFor(() => expect(menuTexts(wrapper)).toContain('Kanban')); // the plan has arrived
    expect(menuTexts(wrapper)).toEqual([
      'ZapDesk',
      'Dashboard',
      'Relatórios',
      'Painel de Atendimentos',
      'Atendimentos',
      'Respostas rápidas',
      'Kanban',
      'Contatos',
      'Agendamentos',
      'Tags',
      'Chat interno',
      'Tarefas',
      'Flowbuilder',
      'Fluxo de campanha',
      'Fluxo de conversa',
      'API',
      'Usuários',
      'Filas & Chatbot',
      'Open.Ai',
      'Integrações',
      'Conexões',
      'Lista de arquivos',
      'Financeiro',
      'Configurações',
    ]);
    expect((await screen.findByTestId('app-version')).textContent).toBe('Versão 7.0.0');
    expect(wrapper.findSideNavigation()?.findActiveLink()?.getElement().textContent).toBe('Atendimentos');
  });

  it("follows the company's plan flags and the local campaigns flag", async () => {
    localStorage.setItem(CAMPAIGNS_FLAG_KEY, '1');
    const { wrapper } = await openShell({ plan: fullPlan({ useKanban: false, useOpenAi: false }) });
    await waitFor(() => expect(menuTexts(wrapper)).toContain('Campanhas'));
    const texts = menuTexts(wrapper);
    expect(texts).not.toContain('Kanban');
    expect(texts).not.toContain('Open.Ai');
    expect(texts).toContain('Agendamentos');
  });

  it('gives a plain user the service links only', async () => {
    const { wrapper } = await openShell({ user: authUser({ profile: 'user' }) });
    await waitFor(() => expect(menuTexts(wrapper)).toContain('Kanban'));
    expect(menuTexts(wrapper)).toEqual([
      'ZapDesk',
      'Atendimentos',
      'Respostas rápidas',
      'Kanban',
      'Contatos',
      'Agendamentos',
      'Tags',
      'Chat interno',
      'Tarefas',
    ]);
  });

  it('navigates inside the app from a menu link, to the page of that area', async () => {
    const { wrapper, router } = await openShell();
    // /prompts is a plan-gated link (useOpenAi): it is in the menu once the plan has arrived.
    await waitFor(() => expect(menuTexts(wrapper)).toContain('Open.Ai'));
    act(() => wrapper.findSideNavigation()?.findLinkByHref('/prompts')?.click());

    expect(await screen.findByRole('heading', { name: 'Prompts' }, { timeout: 15_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/prompts');
  });

  it("opens with the menu closed when the user's defaultMenu is closed", async () => {
    const { wrapper } = await openShell({ user: authUser({ defaultMenu: 'closed' }) });
    expect(screen.queryByTestId('shell-navigation')).toBeNull();
    act(() => button(wrapper, 'Abrir navegação lateral').click());
    expect(screen.getByRole('navigation', { name: 'Menu lateral' })).toBeTruthy();
    expect(menuTexts(wrapper)).toContain('Tarefas');
  });

  it('opens with the menu open by default', async () => {
    const { wrapper } = await openShell();
    expect(screen.getByRole('navigation', { name: 'Menu lateral' })).toBeTruthy();
    act(() => button(wrapper, 'Fechar navegação lateral').click());
    expect(screen.queryByTestId('shell-navigation')).toBeNull();
    expect(menuTexts(wrapper)).toEqual([]);
  });

  it('translates the menu and Cloudscape labels when the language changes (pt to en)', async () => {
    const { wrapper } = await openShell();
    const closeLabel = () =>
      wrapper.find('[data-testid="shell-navigation"]')?.findButton()?.getElement().getAttribute('aria-label') ?? null;
    expect(closeLabel()).toBe('Fechar navegação lateral');

    await act(() => changeLanguage('en'));

    await waitFor(() => expect(menuTexts(wrapper)).toContain('Tickets'));
    expect(menuTexts(wrapper)).toContain('Queues & Chatbot');
    expect(screen.getByRole('heading', { name: 'Tickets' })).toBeTruthy();
    expect(greeting()).toBe('Hello Ana Souza, welcome to Padaria Central!Active until 31/12/2999');
    await waitFor(() => expect(closeLabel()).toBe('Close side navigation'));
  });
});

describe('app shell: subscription', () => {
  it('warns when 4 days remain, and the warning can be dismissed', async () => {
    const { wrapper } = await openShell({
      user: authUser({ company: { id: 2, name: 'Padaria Central', dueDate: dueIn(4) } }),
    });
    expect(flashTexts(wrapper)).toEqual(['Sua assinatura vence em 4 dias.']);

    act(() => wrapper.find('.zd-shell-notifications')?.findFlashbar()?.findItems()[0]?.findDismissButton()?.click());
    expect(flashTexts(wrapper)).toEqual([]);
  });

  it("says 'dia' for one day left", async () => {
    const { wrapper } = await openShell({
      user: authUser({ company: { id: 2, name: 'Padaria Central', dueDate: dueIn(1) } }),
    });
    expect(flashTexts(wrapper)).toEqual(['Sua assinatura vence em 1 dia.']);
  });

  it('shows no warning when 6 days remain', async () => {
    const { wrapper } = await openShell({
      user: authUser({ company: { id: 2, name: 'Padaria Central', dueDate: dueIn(6) } }),
    });
    expect(flashTexts(wrapper)).toEqual([]);
  });

  it('sends an expired company to /financeiro with the expiry date and a reduced menu, and keeps it there', async () => {
    const due = dueIn(-3);
    const user = authUser({ company: { id: 2, name: 'Padaria Central', dueDate: due } });
    const { wrapper, router, api } = await openShell({ user, path: '/contacts', heading: 'Faturas' });

    expect(router.state.location.pathname).toBe('/financeiro');
    expect(flashTexts(wrapper)).toEqual([
      `Assinatura vencidaSua assinatura venceu em ${ddMMyyyy(due)}. Pague a fatura em aberto em Financeiro para voltar a usar o sistema.`,
    ]);
    expect(menuTexts(wrapper)).toEqual(['ZapDesk', 'Tarefas', 'Financeiro']);
    // The server refuses an expired company's plan read: the shell does not ask.
    expect(api.requests.some((r) => r.path.startsWith('/companies/listPlan'))).toBe(false);

    act(() => wrapper.findSideNavigation()?.findHeaderLink()?.click());
    await waitFor(() => expect(router.state.location.pathname).toBe('/financeiro'));
  });

  it('asks a plain user of an expired company to talk to the administrator', async () => {
    const due = dueIn(-1);
    const user = authUser({ profile: 'user', company: { id: 2, name: 'Padaria Central', dueDate: due } });
    // Financeiro is for admins (core spec §6): a plain user sent there gets the no-permission view, and the
    // notice says whom to ask.
    const { wrapper } = await openShell({ user, path: '/financeiro', heading: 'Oops! Acesso Negado!' });
    expect(flashTexts(wrapper)).toEqual([
      `Assinatura vencidaSua assinatura venceu em ${ddMMyyyy(due)}. Peça ao administrador da sua empresa para regularizar a assinatura.`,
    ]);
    expect(menuTexts(wrapper)).toEqual(['ZapDesk', 'Tarefas']);
  });
});

describe('app shell: real time', () => {
  it('joins the notification room and reports presence when the socket opens', async () => {
    const { server, socket } = await openShell();
    act(() => socket.start());
    act(() => server.latest().accept());
    expect(server.latest().sent).toEqual(
      expect.arrayContaining([{ action: 'joinNotification' }, { action: 'userStatus' }]),
    );
    act(() => socket.stop());
  });

  it("shows 'Sua conta foi acessada em outro computador.' on a login elsewhere, then ends the session after 1 s", async () => {
    const { server, socket, wrapper, router } = await openShell();
    act(() => socket.start());
    act(() => server.latest().accept());

    act(() => server.latest().push({ channel: 'company-2-auth', action: 'update', user: { id: 99 } }));
    expect(toastTexts(wrapper)).toEqual([]);

    localStorage.setItem(VOLUME_STORAGE_KEY, '0.5');
    act(() => server.latest().push({ channel: 'company-2-auth', action: 'update', user: { id: 5 } }));

    expect(toastTexts(wrapper)).toEqual(['Sua conta foi acessada em outro computador.']);
    expect(localStorage.getItem('token')).toBe('token-1');
    expect(router.state.location.pathname).toBe('/tickets');

    expect(await screen.findByRole('heading', { name: 'Entrar' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem(VOLUME_STORAGE_KEY)).toBe('0.5'); // preferences stay
    expect(toastTexts(wrapper)).toEqual(['Sua conta foi acessada em outro computador.']);
    act(() => socket.stop());
  });

  it('ignores the event when another tab of this browser made that login (its token is now stored)', async () => {
    const { server, socket, wrapper, router } = await openShell();
    act(() => socket.start());
    act(() => server.latest().accept());

    localStorage.setItem('token', 'token-of-the-other-tab');
    act(() => server.latest().push({ channel: 'company-2-auth', action: 'update', user: { id: 5 } }));

    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(toastTexts(wrapper)).toEqual([]);
    expect(localStorage.getItem('token')).toBe('token-of-the-other-tab');
    expect(router.state.location.pathname).toBe('/tickets');
    act(() => socket.stop());
  });
});

describe('app shell: connections attention badge', () => {
  const badge = () => screen.queryByLabelText('Alguma conexão precisa de atenção');

  it('checks GET /whatsapp 2 s after start, shows the badge while a connection needs attention, and follows the events', async () => {
    let list = [connectionRow(1, 'Atendimento'), connectionRow(2, 'Vendas', { status: 'qrcode', qrcode: 'x' })];
    const { api, server, socket } = await openShell({ routes: { 'GET /whatsapp': () => json(200, list) } });
    act(() => socket.start());
    act(() => server.latest().accept());
    const calls = () => api.requests.filter((r) => r.path === '/whatsapp');
    expect(calls()).toHaveLength(0); // not before 2 s (core spec §9)

    await waitFor(() => expect(badge()).not.toBeNull(), { timeout: 4000 });
    expect(calls()).toHaveLength(1);

    const connected = connectionRow(2, 'Vendas', { status: 'CONNECTED', updatedAt: '2026-01-01T11:00:00.000Z' });
    act(() => server.latest().push({ channel: 'company-2-whatsappSession', action: 'update', session: connected }));
    expect(badge()).toBeNull();

    const dropped = { ...connected, status: 'DISCONNECTED', updatedAt: '2026-01-01T12:00:00.000Z' };
    act(() => server.latest().push({ channel: 'company-2-whatsapp', action: 'update', whatsapp: dropped }));
    expect(badge()).not.toBeNull();

    act(() => server.latest().push({ channel: 'company-2-whatsapp', action: 'delete', whatsappId: 2 }));
    expect(badge()).toBeNull();

    // Back after a lost connection: the list is read again.
    list = [connectionRow(1, 'Atendimento', { status: 'TIMEOUT', updatedAt: '2026-01-01T13:00:00.000Z' })];
    act(() => server.latest().drop());
    await waitFor(() => expect(server.connections).toHaveLength(2), { timeout: 3000 });
    act(() => server.latest().accept());
    await waitFor(() => expect(badge()).not.toBeNull());
    act(() => socket.stop());
  });

  it('never asks for a plain user who may not manage connections', async () => {
    const { api } = await openShell({
      user: authUser({ profile: 'user' }),
      routes: { 'GET /whatsapp': () => json(200, [connectionRow(2, 'Vendas', { status: 'qrcode' })]) },
    });
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect(api.requests.filter((r) => r.path === '/whatsapp')).toHaveLength(0);
    expect(badge()).toBeNull();
  });
});

describe('app shell: the signed-in user', () => {
  it("follows an admin's change to this user live (company-{id}-user update): the menu grows", async () => {
    const me = authUser({ profile: 'user', name: 'Bruno Lima' });
    const { wrapper, server, socket } = await openShell({ user: me });
    act(() => socket.start());
    act(() => server.latest().accept());
    expect(menuTexts(wrapper)).not.toContain('Dashboard');

    act(() =>
      server.latest().push({
        channel: 'company-2-user',
        action: 'update',
        user: { ...me, company: undefined, showDashboard: 'enabled' },
      }),
    );
    await waitFor(() => expect(menuTexts(wrapper)).toContain('Dashboard'));
    expect(greeting()).toBe('Olá Bruno Lima, seja bem-vindo a Padaria Central!');
    act(() => socket.stop());
  });

  it('uses the login answer and does not ask GET /auth/me again', async () => {
    const user = authUser();
    const api = fakeApi({
      ...shellRoutes(user),
      'POST /auth/login': () => json(200, { token: 'fresh', user }),
    });
    const { sessionUser } = renderApp({ path: '/login', adapter: api.adapter, token: null });
    await screen.findByRole('heading', { name: 'Entrar' });
    const { login } = await import('@/api/auth');
    await act(() => login({ email: 'ana@example.com', password: 'x' }));
    expect(sessionUser.get()?.name).toBe('Ana Souza');
    expect(api.requests.some((r) => r.path === '/auth/me')).toBe(false);
  });

  it('says so when GET /auth/me fails after a reload, and retries', async () => {
    let fail = true;
    const user = authUser();
    const api = fakeApi({
      ...shellRoutes(user),
      'GET /auth/me': () => (fail ? json(500, { error: 'ERR_INTERNAL', message: 'boom' }) : json(200, user)),
    });
    const { wrapper } = renderApp({ path: '/tickets', adapter: api.adapter });
    expect(await screen.findByText('Não foi possível carregar os seus dados')).toBeTruthy();

    fail = false;
    const retry = wrapper.findAllButtons().find((b) => b.getElement().textContent === 'Tentar novamente');
    act(() => retry?.click());
    expect(await screen.findByRole('heading', { name: 'Atendimentos' })).toBeTruthy();
  });
});
