import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';

const CODE_PATH = '/forgetpassword/ana%40example.com';
const RESET_PATH = '/resetpasswords/ana%40example.com/123456/N0vaSenha%2F1';

const resetApi = (request: Route = () => json(200, { ok: true })) =>
  fakeApi({ [`POST ${CODE_PATH}`]: request, [`POST ${RESET_PATH}`]: () => json(200, { ok: true }) });

const openReset = async (api = resetApi()) => {
  const view = renderApp({ path: '/forgetpsw', adapter: api.adapter, token: null });
  expect(await screen.findByRole('heading', { name: 'Redefinir senha' })).toBeTruthy();
  return { ...view, api };
};

const submit = (wrapper: ReturnType<typeof renderApp>['wrapper']) =>
  act(() => wrapper.findForm()?.findActions()?.findButton()?.click());

const labels = (wrapper: ReturnType<typeof renderApp>['wrapper']) =>
  wrapper.findAllFormFields().map((f) => f.findLabel()?.getElement().textContent);

/** Step one done: the code was sent and the reset fields are on screen. */
const toStepTwo = async (wrapper: ReturnType<typeof renderApp>['wrapper']) => {
  typeInto(wrapper, 'E-mail', 'Ana@Example.com');
  submit(wrapper);
  await waitFor(() => expect(labels(wrapper)).toContain('Código de verificação'));
};

describe('password reset page', () => {
  it("sends the code ('Email enviado com sucesso!'), then resets with code and new password and goes to /login", async () => {
    const { wrapper, api, router } = await openReset();
    expect(labels(wrapper)).toEqual(['E-mail']);
    expect(wrapper.findForm()?.findActions()?.findButton()?.getElement().textContent).toBe('Enviar código');

    await toStepTwo(wrapper);
    expect(toastTexts(wrapper)).toEqual(['Email enviado com sucesso!']);
    expect(labels(wrapper)).toEqual(['E-mail', 'Código de verificação', 'Nova senha', 'Confirme a nova senha']);

    typeInto(wrapper, 'Código de verificação', ' 123456 ');
    typeInto(wrapper, 'Nova senha', 'N0vaSenha/1');
    typeInto(wrapper, 'Confirme a nova senha', 'N0vaSenha/1');
    submit(wrapper);

    expect(await screen.findByRole('heading', { name: 'Entrar' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(toastTexts(wrapper)).toContain('Senha redefinida com sucesso.');
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${CODE_PATH}`, `POST ${RESET_PATH}`]);
  });

  it("answers an unknown e-mail (404) with 'Email não encontrado' and stays on step one", async () => {
    const { wrapper } = await openReset(resetApi(() => json(404, { error: 'ERR_NOT_FOUND', message: 'Not found' })));
    typeInto(wrapper, 'E-mail', 'ana@example.com');
    submit(wrapper);

    await waitFor(() => expect(toastTexts(wrapper)).toEqual(['Email não encontrado']));
    expect(labels(wrapper)).toEqual(['E-mail']);
  });

  it('checks the e-mail before sending a code', async () => {
    const { wrapper, api } = await openReset();
    submit(wrapper);
    expect(errorOf(wrapper, 'E-mail')).toBe('Obrigatório');
    typeInto(wrapper, 'E-mail', 'ana@');
    expect(errorOf(wrapper, 'E-mail')).toBe('E-mail inválido');
    expect(api.requests).toHaveLength(0);
  });

  it("holds the new password to the spec's rule and the confirmation to 'As senhas não correspondem'", async () => {
    const { wrapper, api } = await openReset();
    await toStepTwo(wrapper);

    typeInto(wrapper, 'Código de verificação', '123456');
    typeInto(wrapper, 'Nova senha', 'semmaiuscula1');
    typeInto(wrapper, 'Confirme a nova senha', 'outra');
    submit(wrapper);

    expect(errorOf(wrapper, 'Nova senha')).toBe(
      'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
    );
    expect(errorOf(wrapper, 'Confirme a nova senha')).toBe('As senhas não correspondem');

    typeInto(wrapper, 'Nova senha', 'N0vaSenha/1');
    expect(errorOf(wrapper, 'Nova senha')).toBeNull();
    expect(errorOf(wrapper, 'Confirme a nova senha')).toBe('As senhas não correspondem');
    expect(api.requests.map((r) => r.path)).toEqual([CODE_PATH]);
  });
});
