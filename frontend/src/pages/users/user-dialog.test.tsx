import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthUser } from '@/api/auth';
import type { User } from '@/api/users';
import { changeLanguage } from '@/i18n';
import { authUser } from '@/testing/auth-fixtures';
import { connectionRow } from '@/testing/connection-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { click, openModal } from '@/components/test-kit';
import { userRow } from './test-kit';
import { UserDialog } from './user-dialog';

const ATTENDANT = userRow(9, 'Davi Rocha', { profile: 'user' });
const BRUNO = userRow(2, 'Bruno Lima');

/** The dialog alone, as the app shell's profile menu would open it. */
const openDialog = async ({
  currentUser,
  userId,
  routes,
}: {
  currentUser: Pick<AuthUser, 'id' | 'profile' | 'super'>;
  userId: number | undefined;
  routes: Record<string, Route>;
}) => {
  const api = fakeApi(routes);
  const onSaved = vi.fn<(user: User) => void>();
  const onDismiss = vi.fn();
  const reloadPage = vi.fn();
  const view = renderApp({
    path: '/',
    adapter: api.adapter,
    routes: [
      {
        path: '/',
        element: (
          <UserDialog
            userId={userId}
            currentUser={currentUser}
            onSaved={onSaved}
            onDismiss={onDismiss}
            reloadPage={reloadPage}
          />
        ),
      },
    ],
  });
  // Ready once the form shows (an edit first reads the user).
  await waitFor(() => expect(openModal(view.wrapper).findContent().findAllFormFields().length).toBeGreaterThan(0));
  return { ...view, api, onSaved, onDismiss, reloadPage };
};

const labels = (wrapper: ReturnType<typeof renderApp>['wrapper']) =>
  wrapper.findAllFormFields().map((f) => f.findLabel()?.getElement().textContent);

const chooseFile = (wrapper: ReturnType<typeof renderApp>['wrapper'], file: File) => {
  const input = wrapper.findFileInput()?.findNativeInput().getElement();
  if (!input) throw new Error('no file input');
  act(() => {
    fireEvent.change(input, { target: { files: [file] } });
  });
};

const png = (bytes = 4) => new File([new Uint8Array(bytes)], 'foto.png', { type: 'image/png' });

describe('user dialog', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a plain user editing themself sees only name, e-mail, password, theme, menu and picture, and saving reloads', async () => {
    const { wrapper, api, onSaved, reloadPage } = await openDialog({
      currentUser: authUser({ id: 9, profile: 'user' }),
      userId: 9,
      routes: {
        'GET /users/9': () => json(200, ATTENDANT),
        'PUT /users/9': (req) => json(200, { ...ATTENDANT, ...(req.body as object) }),
      },
    });

    expect(wrapper.findTabs()).toBeNull();
    expect(screen.queryByText('Permissões')).toBeNull();
    expect(labels(wrapper)).toEqual(['Nome', 'E-mail', 'Senha', 'Tema padrão', 'Menu padrão', 'Foto do perfil']);
    expect(wrapper.findAllToggles()).toHaveLength(0);

    typeInto(wrapper, 'Nome', 'Davi R.');
    const theme = fieldByLabel(wrapper, 'Tema padrão').findControl()?.findSelect();
    act(() => theme?.openDropdown());
    act(() => theme?.selectOptionByValue('dark'));
    click(openModal(wrapper), 'Salvar');

    await waitFor(() => expect(reloadPage).toHaveBeenCalledTimes(1));
    // Only what a plain user may change about themself goes out (spec §6).
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      name: 'Davi R.',
      email: ATTENDANT.email,
      defaultTheme: 'dark',
      defaultMenu: 'open',
    });
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ name: 'Davi R.', defaultTheme: 'dark' }));
    expect(toastTexts(wrapper)).toEqual(['Usuário salvo com sucesso!']);
  });

  it('an admin sees the general and permissions tabs with profile, work hours and farewell message', async () => {
    const { wrapper } = await openDialog({
      currentUser: authUser({ id: 5, profile: 'admin' }),
      userId: undefined,
      routes: {},
    });

    expect(
      wrapper
        .findTabs()
        ?.findTabLinks()
        .map((l) => l.getElement().textContent),
    ).toEqual(['Geral', 'Permissões']);
    expect(labels(wrapper)).toEqual([
      'Nome',
      'E-mail',
      'Senha',
      'Perfil',
      'Início do expediente',
      'Fim do expediente',
      'Conexão padrão',
      'Mensagem de despedida',
      'Tema padrão',
      'Menu padrão',
      'Foto do perfil',
    ]);
    act(() => wrapper.findTabs()?.findTabLinkById('permissions')?.click());
    expect(wrapper.findAllToggles()).toHaveLength(8);
  });

  it("an admin picks the user's default connection from the company's connections; none sends null", async () => {
    const { wrapper, api, onSaved } = await openDialog({
      currentUser: authUser({ id: 5, profile: 'admin' }),
      userId: 2,
      routes: {
        'GET /users/2': () => json(200, { ...BRUNO, whatsappId: 7 }),
        'GET /whatsapp': () => json(200, [connectionRow(7, 'Atendimento'), connectionRow(8, 'Vendas')]),
        'PUT /users/2': (req) => json(200, { ...BRUNO, ...(req.body as object) }),
      },
    });
    const select = createWrapper(fieldByLabel(wrapper, 'Conexão padrão').getElement()).findSelect()!;
    await waitFor(() => expect(select.findTrigger().getElement().textContent).toBe('Atendimento'));

    act(() => select.openDropdown());
    expect(
      select
        .findDropdown()
        .findOptions()
        .map((o) => o.getElement().textContent),
    ).toEqual(['Nenhuma', 'Atendimento', 'Vendas']);
    act(() => select.selectOptionByValue('8'));
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toMatchObject({ whatsappId: 8 });
  });

  it("sends whatsappId null when the admin picks 'Nenhuma'", async () => {
    const { wrapper, api, onSaved } = await openDialog({
      currentUser: authUser({ id: 5, profile: 'admin' }),
      userId: 2,
      routes: {
        'GET /users/2': () => json(200, { ...BRUNO, whatsappId: 7 }),
        'GET /whatsapp': () => json(200, [connectionRow(7, 'Atendimento')]),
        'PUT /users/2': (req) => json(200, { ...BRUNO, ...(req.body as object) }),
      },
    });
    const select = createWrapper(fieldByLabel(wrapper, 'Conexão padrão').getElement()).findSelect()!;
    await waitFor(() => expect(select.findTrigger().getElement().textContent).toBe('Atendimento'));
    act(() => select.openDropdown());
    act(() => select.selectOptionByValue(''));
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toMatchObject({ whatsappId: null });
  });

  it('a plain user editing themself gets no default-connection picker and sends no whatsappId', async () => {
    const { wrapper, api } = await openDialog({
      currentUser: authUser({ id: 9, profile: 'user' }),
      userId: 9,
      routes: {
        'GET /users/9': () => json(200, ATTENDANT),
        'PUT /users/9': (req) => json(200, { ...ATTENDANT, ...(req.body as object) }),
      },
    });
    expect(labels(wrapper)).not.toContain('Conexão padrão');
    click(openModal(wrapper), 'Salvar');
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(api.requests.find((r) => r.method === 'PUT')?.body).not.toHaveProperty('whatsappId');
    expect(api.requests.some((r) => r.path === '/whatsapp')).toBe(false);
  });

  it('work times move in steps of 10 minutes; 23:59 (the default end) is allowed', async () => {
    const { wrapper, api } = await openDialog({
      currentUser: authUser({ id: 5, profile: 'admin' }),
      userId: 2,
      routes: {
        'GET /users/2': () => json(200, BRUNO),
        'PUT /users/2': (req) => json(200, { ...BRUNO, ...(req.body as object) }),
      },
    });
    const setTime = (label: string, value: string) => {
      const input = fieldByLabel(wrapper, label).findControl()?.findTimeInput();
      act(() => input?.setInputValue(value));
    };

    setTime('Início do expediente', '08:05');
    click(openModal(wrapper), 'Salvar');
    expect(errorOf(wrapper, 'Início do expediente')).toBe('Use passos de 10 minutos (ou 23:59).');
    expect(errorOf(wrapper, 'Fim do expediente')).toBeNull();
    expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);

    setTime('Início do expediente', '08:10');
    setTime('Fim do expediente', '18:00');
    click(openModal(wrapper), 'Salvar');

    await waitFor(() => expect(api.requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toMatchObject({ startWork: '08:10', endWork: '18:00' });
  });

  it('uploads a chosen picture after saving, as multipart with userId, typeArch and profileImage', async () => {
    const { wrapper, api, onSaved, reloadPage } = await openDialog({
      currentUser: authUser({ id: 5, profile: 'admin' }),
      userId: 2,
      routes: {
        'GET /users/2': () => json(200, BRUNO),
        'PUT /users/2': (req) => json(200, { ...BRUNO, ...(req.body as object) }),
        'POST /users/2/media-upload': () => json(200, { ...BRUNO, profileImage: '/media/c/2/users/2/foto.png' }),
      },
    });
    const file = png();

    chooseFile(wrapper, file);
    expect(screen.getByText('foto.png')).toBeTruthy();
    expect(errorOf(wrapper, 'Foto do perfil')).toBeNull();
    click(openModal(wrapper), 'Salvar');

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /users/2',
      'GET /whatsapp', // the default-connection picker's choices
      'PUT /users/2',
      'POST /users/2/media-upload',
    ]);
    const form = api.requests.at(-1)?.body;
    expect(form).toBeInstanceOf(FormData);
    expect((form as FormData).get('userId')).toBe('2');
    expect((form as FormData).get('typeArch')).toBe('user');
    expect((form as FormData).get('profileImage')).toBeInstanceOf(File);
    expect(((form as FormData).get('profileImage') as File).name).toBe('foto.png');
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ profileImage: '/media/c/2/users/2/foto.png' }));
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('takes image files only, up to 2 MB, and sends nothing otherwise', async () => {
    const { wrapper, api } = await openDialog({
      currentUser: authUser({ id: 5, profile: 'admin' }),
      userId: 2,
      routes: { 'GET /users/2': () => json(200, BRUNO) },
    });
    expect(wrapper.findFileInput()?.findNativeInput().getElement().getAttribute('accept')).toBe(
      'image/png,image/jpeg,image/webp,image/gif',
    );

    chooseFile(wrapper, new File(['oi'], 'notas.txt', { type: 'text/plain' }));
    expect(errorOf(wrapper, 'Foto do perfil')).toBe('Escolha uma imagem PNG, JPEG, WebP ou GIF.');
    chooseFile(wrapper, png(2 * 1024 * 1024 + 1));
    expect(errorOf(wrapper, 'Foto do perfil')).toBe('A imagem pode ter no máximo 2 MB.');
    click(openModal(wrapper), 'Salvar');

    expect(api.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
  });

  it('only logs a failed picture upload (core spec §8): the user is saved all the same', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { wrapper, onSaved } = await openDialog({
      currentUser: authUser({ id: 5, profile: 'admin' }),
      userId: 2,
      routes: {
        'GET /users/2': () => json(200, BRUNO),
        'PUT /users/2': () => json(200, BRUNO),
        'POST /users/2/media-upload': () => json(400, { error: 'ERR_INVALID_IMAGE', message: 'bad image' }),
      },
    });

    chooseFile(wrapper, png());
    click(openModal(wrapper), 'Salvar');

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(BRUNO));
    expect(toastTexts(wrapper)).toEqual(['Usuário salvo com sucesso!']);
    expect(logged).toHaveBeenCalledWith('avatar upload failed', expect.objectContaining({ code: 'ERR_INVALID_IMAGE' }));
  });

  it.each([
    ['en', 'Name', 'E-mail', 'Password', 'Add', 'Too Short!', 'Invalid email', 'Required'],
    [
      'es',
      'Nombre',
      'Correo electrónico',
      'Contraseña',
      'Agregar',
      '¡Muy corto!',
      'Correo electrónico inválido',
      'Obligatorio',
    ],
    ['tr', 'Ad', 'E-posta', 'Parola', 'Ekle', 'Çok kısa!', 'Geçersiz e-posta', 'Zorunlu'],
  ] as const)(
    'shows the validation texts in %s',
    async (language, nameLabel, emailLabel, passwordLabel, add, tooShort, invalidEmail, required) => {
      await changeLanguage(language);
      const { wrapper } = await openDialog({
        currentUser: authUser({ id: 5, profile: 'admin' }),
        userId: undefined,
        routes: {},
      });

      click(openModal(wrapper), add);
      expect(errorOf(wrapper, passwordLabel)).toBe(required);
      typeInto(wrapper, nameLabel, 'A');
      typeInto(wrapper, emailLabel, 'x@y');
      expect(errorOf(wrapper, nameLabel)).toBe(tooShort);
      expect(errorOf(wrapper, emailLabel)).toBe(invalidEmail);
    },
  );
});
