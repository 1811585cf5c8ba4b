import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PLANS } from '@/testing/auth-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';

const signupApi = (signup: Route = () => json(201, { ok: true })) =>
  fakeApi({ 'GET /plans/list': () => json(200, PLANS), 'POST /auth/signup': signup });

const openSignup = async (path = '/signup', api = signupApi()) => {
  const view = renderApp({ path, adapter: api.adapter, token: null });
  expect(await screen.findByRole('heading', { name: 'Cadastre-se' })).toBeTruthy();
  return { ...view, api };
};

const submit = (wrapper: ReturnType<typeof renderApp>['wrapper']) =>
  act(() => wrapper.findForm()?.findActions()?.findButton()?.click());

const choosePlan = async (wrapper: ReturnType<typeof renderApp>['wrapper'], name: string) => {
  const select = fieldByLabel(wrapper, 'Plano').findControl()?.findSelect();
  if (!select) throw new Error('no plan select');
  act(() => select.openDropdown());
  await waitFor(() => expect(select.findDropdown().findOptions().length).toBe(PLANS.length));
  const plan = PLANS.find((p) => p.name === name);
  act(() => select.selectOptionByValue(String(plan?.id)));
  expect(select.findTrigger().getElement().textContent).toContain(name);
};

const fillValid = async (wrapper: ReturnType<typeof renderApp>['wrapper']) => {
  typeInto(wrapper, 'Nome', 'Ana Souza');
  typeInto(wrapper, 'Empresa', 'Padaria Central');
  typeInto(wrapper, 'E-mail', ' Ana.Souza@Example.COM ');
  typeInto(wrapper, 'Senha', 'segredo1');
  typeInto(wrapper, 'Telefone', '(11) 91234-5678');
  await choosePlan(wrapper, 'Profissional');
};

const FIELDS = ['Nome', 'Empresa', 'E-mail', 'Senha', 'Telefone', 'Plano'];

describe('sign-up page', () => {
  it("marks every empty field 'Obrigatório' and sends nothing", async () => {
    const { wrapper, api } = await openSignup();
    submit(wrapper);

    expect(FIELDS.map((label) => errorOf(wrapper, label))).toEqual(FIELDS.map(() => 'Obrigatório'));
    expect(api.requests.filter((r) => r.path === '/auth/signup')).toHaveLength(0);
  });

  it("shows the spec's messages for short, long and malformed values", async () => {
    const { wrapper } = await openSignup();
    submit(wrapper);

    typeInto(wrapper, 'Nome', 'A');
    typeInto(wrapper, 'Empresa', 'x'.repeat(51));
    typeInto(wrapper, 'E-mail', 'ana@example');
    typeInto(wrapper, 'Senha', '1234');
    expect(errorOf(wrapper, 'Nome')).toBe('Muito curto!');
    expect(errorOf(wrapper, 'Empresa')).toBe('Muito longo!');
    expect(errorOf(wrapper, 'E-mail')).toBe('E-mail inválido');
    expect(errorOf(wrapper, 'Senha')).toBe('Muito curto!');

    typeInto(wrapper, 'Nome', 'x'.repeat(50));
    typeInto(wrapper, 'Senha', 'x'.repeat(51));
    expect(errorOf(wrapper, 'Nome')).toBeNull();
    expect(errorOf(wrapper, 'Senha')).toBe('Muito longo!');
  });

  it('offers the public plans and signs up with the lower-cased e-mail and the link’s companyId, then goes to /login', async () => {
    const { wrapper, api, router } = await openSignup('/signup?companyId=7');
    await fillValid(wrapper);
    submit(wrapper);

    await waitFor(() =>
      expect(toastTexts(wrapper)).toEqual(['Cadastro realizado com sucesso! Entre com seu e-mail e senha.']),
    );
    expect(await screen.findByRole('heading', { name: 'Entrar' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(api.requests.find((r) => r.path === '/auth/signup')?.body).toEqual({
      name: 'Ana Souza',
      companyName: 'Padaria Central',
      email: 'ana.souza@example.com',
      password: 'segredo1',
      phone: '(11) 91234-5678',
      planId: 2,
      companyId: 7,
    });
  });

  it('shows a refused sign-up as a translated toast and stays on the form', async () => {
    const { wrapper, router } = await openSignup(
      '/signup',
      signupApi(() => json(400, { error: 'ERR_EMAIL_ALREADY_EXISTS', message: 'E-mail in use' })),
    );
    await fillValid(wrapper);
    submit(wrapper);

    await waitFor(() => expect(toastTexts(wrapper)).toEqual(['Já existe um usuário com este e-mail.']));
    expect(router.state.location.pathname).toBe('/signup');
    expect(wrapper.findForm()?.findActions()?.findButton()?.isDisabled()).toBe(false);
  });

  it('says so when the platform owner has closed sign-ups (userCreation disabled)', async () => {
    const { wrapper, router } = await openSignup(
      '/signup',
      signupApi(() =>
        json(403, { error: 'ERR_USER_CREATION_DISABLED', message: 'Sign-up is disabled by the administrator' }),
      ),
    );
    await fillValid(wrapper);
    submit(wrapper);

    await waitFor(() =>
      expect(toastTexts(wrapper)).toEqual(['A criação de usuários foi desabilitada pelo administrador.']),
    );
    expect(router.state.location.pathname).toBe('/signup');
  });
});
