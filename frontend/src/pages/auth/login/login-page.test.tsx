import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { session, type SessionAnswer } from '@/api/session';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';

const TOKEN = 'access-token-from-login';

const loginApi = (answer = json(200, { token: TOKEN, user: authUser() })) =>
  fakeApi({
    'POST /auth/login': () => answer,
    'GET /version': () => json(200, { version: '7.0.0' }),
  });

const openLogin = async (api = loginApi()) => {
  const view = renderApp({ path: '/login', adapter: api.adapter, token: null });
  expect(await screen.findByRole('heading', { name: 'Entrar' })).toBeTruthy();
  return { ...view, api };
};

const submit = (wrapper: ReturnType<typeof renderApp>['wrapper']) =>
  act(() => wrapper.findForm()?.findActions()?.findButton()?.click());

const meterText = (wrapper: ReturnType<typeof renderApp>['wrapper']) =>
  fieldByLabel(wrapper, 'Senha').findConstraint()?.getElement().textContent ?? null;

const loginCalls = (api: ReturnType<typeof loginApi>) => api.requests.filter((r) => r.path === '/auth/login');

let stopListening: (() => void) | undefined;
afterEach(() => stopListening?.());

describe('login page', () => {
  it('logs in with a strong password: stores the token, tells the session listeners, lands on the start page', async () => {
    const { wrapper, api, router } = await openLogin();
    const changes: SessionAnswer[] = [];
    stopListening = session.onChange((answer) => changes.push(answer));

    typeInto(wrapper, 'E-mail', ' Ana@Example.com ');
    typeInto(wrapper, 'Senha', 'Str0ng!Pass');
    expect(meterText(wrapper)).toContain('Força da senha: Senha forte');
    submit(wrapper);

    expect(await screen.findByRole('heading', { name: 'Atendimentos' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/tickets');
    expect(localStorage.getItem('token')).toBe(TOKEN);
    expect(loginCalls(api).map((r) => r.body)).toEqual([{ email: 'ana@example.com', password: 'Str0ng!Pass' }]);
    expect(changes.map((c) => (c.user as { name: string }).name)).toEqual(['Ana Souza']);
    expect(wrapper.findModal()?.isVisible() ?? false).toBe(false);
  });

  it('sends a user whose subscription has expired to /financeiro', async () => {
    const expired = authUser({ company: { id: 2, name: 'Padaria Central', dueDate: '2020-01-31' } });
    const { wrapper, router } = await openLogin(loginApi(json(200, { token: TOKEN, user: expired })));
    typeInto(wrapper, 'E-mail', 'ana@example.com');
    typeInto(wrapper, 'Senha', 'Str0ng!Pass');
    submit(wrapper);

    await waitFor(() => expect(router.state.location.pathname).toBe('/financeiro'));
    expect(localStorage.getItem('token')).toBe(TOKEN);
  });

  it('lands a super-company user with an old due date on the start page', async () => {
    const superUser = authUser({ companyId: 1, company: { id: 1, name: 'ZapDesk', dueDate: '2020-01-31' } });
    const { wrapper, router } = await openLogin(loginApi(json(200, { token: TOKEN, user: superUser })));
    typeInto(wrapper, 'E-mail', 'admin@zapdesk.com');
    typeInto(wrapper, 'Senha', 'Str0ng!Pass');
    submit(wrapper);

    expect(await screen.findByRole('heading', { name: 'Atendimentos' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/tickets');
  });

  it('shows bad credentials translated and stays on the login page without a token', async () => {
    const { wrapper, router } = await openLogin(
      loginApi(json(401, { error: 'ERR_INVALID_CREDENTIALS', message: 'Invalid e-mail or password' })),
    );
    typeInto(wrapper, 'E-mail', 'ana@example.com');
    typeInto(wrapper, 'Senha', 'Wr0ng!Pass');
    submit(wrapper);

    await waitFor(() => expect(toastTexts(wrapper)).toEqual(['Erro de autenticação. Por favor, tente novamente.']));
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
    expect(wrapper.findForm()?.findActions()?.findButton()?.isDisabled()).toBe(false);
  });

  it("asks with the 'Senha fraca' dialog before sending a weak password, and 'Continuar' sends it", async () => {
    const { wrapper, api, router } = await openLogin();
    typeInto(wrapper, 'E-mail', 'ana@example.com');
    typeInto(wrapper, 'Senha', 'abc');
    submit(wrapper);

    const modal = wrapper.findModal();
    expect(modal?.isVisible()).toBe(true);
    expect(modal?.findHeader().getElement().textContent).toBe('Senha fraca');
    expect(modal?.findContent().getElement().textContent).toBe(
      'A senha informada é fraca. Deseja continuar assim mesmo ou alterar a senha?',
    );
    expect(loginCalls(api)).toHaveLength(0);

    const continueButton = modal
      ?.findFooter()
      ?.findAllButtons()
      .find((b) => b.getElement().textContent === 'Continuar');
    act(() => continueButton?.click());

    expect(await screen.findByRole('heading', { name: 'Atendimentos' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/tickets');
    expect(loginCalls(api).map((r) => r.body)).toEqual([{ email: 'ana@example.com', password: 'abc' }]);
  });

  it("'Alterar senha' closes the dialog without sending, back to the password", async () => {
    const { wrapper, api } = await openLogin();
    typeInto(wrapper, 'E-mail', 'ana@example.com');
    typeInto(wrapper, 'Senha', 'abc');
    submit(wrapper);

    const modal = wrapper.findModal();
    const change = modal
      ?.findFooter()
      ?.findAllButtons()
      .find((b) => b.getElement().textContent === 'Alterar senha');
    act(() => change?.click());

    expect(modal?.isVisible()).toBe(false);
    expect(loginCalls(api)).toHaveLength(0);
    expect(document.activeElement).toBe(
      fieldByLabel(wrapper, 'Senha').findControl()?.findInput()?.findNativeInput().getElement(),
    );
  });

  it('scores the password from the five checks as the user types', async () => {
    const { wrapper } = await openLogin();
    expect(meterText(wrapper)).toBeNull();

    const cases: [string, string][] = [
      ['abc', 'Senha fraca'], // lower
      ['abc1', 'Senha fraca'], // lower, digit
      ['abcD1', 'Senha média'], // lower, upper, digit
      ['abcDEF12', 'Senha média'], // + length
      ['abcDEF1!', 'Senha forte'], // all five
    ];
    for (const [password, verdict] of cases) {
      typeInto(wrapper, 'Senha', password);
      expect(meterText(wrapper)).toContain(`Força da senha: ${verdict}`);
    }
  });

  it("requires both fields ('Obrigatório') and checks the e-mail ('E-mail inválido') before calling the server", async () => {
    const { wrapper, api } = await openLogin();
    submit(wrapper);
    expect(errorOf(wrapper, 'E-mail')).toBe('Obrigatório');
    expect(errorOf(wrapper, 'Senha')).toBe('Obrigatório');

    typeInto(wrapper, 'E-mail', 'ana@');
    expect(errorOf(wrapper, 'E-mail')).toBe('E-mail inválido');
    expect(api.requests).toHaveLength(0);
  });

  it('shows and hides the password', async () => {
    const { wrapper } = await openLogin();
    const field = fieldByLabel(wrapper, 'Senha');
    const native = () => field.findControl()?.findInput()?.findNativeInput().getElement();
    expect(native()?.type).toBe('password');

    act(() => field.findSecondaryControl()?.findButton()?.click());
    expect(native()?.type).toBe('text');
    expect(field.findSecondaryControl()?.findButton()?.getElement().getAttribute('aria-label')).toBe('Ocultar senha');
  });

  it('links to sign-up and password reset', async () => {
    const { wrapper, router } = await openLogin();
    const link = (text: string) => wrapper.findAllLinks().find((l) => l.getElement().textContent === text);

    act(() => link('Esqueceu a senha?')?.click());
    expect(await screen.findByRole('heading', { name: 'Redefinir senha' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/forgetpsw');

    act(() => link('Voltar para o login')?.click());
    expect(await screen.findByRole('heading', { name: 'Entrar' })).toBeTruthy();
    act(() => link('Não tem uma conta? Cadastre-se!')?.click());
    expect(await screen.findByRole('heading', { name: 'Cadastre-se' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signup');
  });
});
