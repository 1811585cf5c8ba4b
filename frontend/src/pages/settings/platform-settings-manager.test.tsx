import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { click } from '@/components/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { errorOf, fieldByLabel, toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';

const OWNER = authUser({
  id: 1,
  companyId: 1,
  super: true,
  company: { id: 1, name: 'ZapDesk', dueDate: '2999-12-31' },
});

const SETTINGS = [
  { key: 'userCreation', value: 'enabled' },
  { key: 'downloadLimit', value: '64' },
  { key: 'appName', value: 'ZapDesk' },
  { key: 'primaryColorLight', value: '#0000FF' },
  { key: 'primaryColorDark', value: '#39ACE7' },
  { key: 'openAiKey', value: '••••Zx91', masked: true },
  { key: 'appLogoLight', value: 'platform/branding/light/a1.png' },
  { key: 'appLogoDark', value: '' },
  { key: 'appLogoFavicon', value: '' },
];

const openTab = async () => {
  const server = fakeApi({
    ...shellRoutes(OWNER),
    'GET /companySettings/1': () =>
      json(200, {
        userRating: 'disabled',
        scheduleType: 'disabled',
        enableLGPD: 'disabled',
        timezone: 'America/Sao_Paulo',
        schedules: [],
      }),
    'GET /helps/list': () => json(200, []),
    'GET /announcements': () => json(200, { records: [], hasMore: false }),
    'GET /chats': () => json(200, { records: [], hasMore: false }),
    'GET /plans/all': () => json(200, []),
    'GET /settings': () => json(200, SETTINGS),
    'PUT /settings/appName': () =>
      json(400, {
        error: 'ERR_VALIDATION',
        message: 'Invalid input',
        fields: [{ field: 'body.value', reason: 'Too big: expected string to have <=50 characters' }],
      }),
    'PUT /settings/primaryColorLight': (req) =>
      json(200, { key: 'primaryColorLight', value: (req.body as { value: string }).value }),
    'PUT /settings/userCreation': (req) =>
      json(200, { key: 'userCreation', value: (req.body as { value: string }).value }),
    'PUT /settings/downloadLimit': (req) =>
      json(200, { key: 'downloadLimit', value: (req.body as { value: string }).value }),
    'PUT /settings/openAiKey': () => json(200, { key: 'openAiKey', value: '••••9876', masked: true }),
    'POST /settings-whitelabel/logo': (req) => {
      const file = (req.body as FormData).get('file') as File;
      return file.name.endsWith('.gif')
        ? json(400, {
            error: 'ERR_VALIDATION',
            message: 'Invalid request',
            fields: [{ field: 'body.file', reason: 'not a PNG, JPEG or WebP image' }],
          })
        : json(200, { key: 'appLogoDark', value: 'platform/branding/dark/b2.png' });
    },
  });
  const view = renderApp({ path: '/settings', adapter: server.adapter });
  const tabs = await waitFor(
    () => {
      const found = view.wrapper.findTabs();
      if (!found) throw new Error('no tabs yet');
      return found;
    },
    { timeout: 15_000 },
  );
  act(() =>
    tabs
      .findTabLinks()
      .find((l) => l.getElement().textContent === 'Plataforma')!
      .click(),
  );
  await waitFor(() => expect(screen.getByText('Chave da API da OpenAI')).toBeTruthy());
  return { ...view, server };
};

describe('the Plataforma tab of /settings (the owner)', () => {
  it('shows the AI key only as set or not, and saves only what changed: the key when typed', async () => {
    const { wrapper, server } = await openTab();
    expect(screen.getByText('Definida (••••Zx91). Digite para trocar.')).toBeTruthy();
    // The payment credentials live in their own tab, not here.
    expect(screen.queryByText('Efí: Client Secret')).toBeNull();

    typeInto(wrapper, 'Cor primária (tema claro)', '#112233');
    typeInto(wrapper, 'Chave da API da OpenAI', 'sk-nova-9876');
    click(wrapper, 'Salvar');
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Configurações salvas com sucesso!'));
    const puts = server.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => [r.path, r.body])).toEqual([
      ['/settings/primaryColorLight', { key: 'primaryColorLight', value: '#112233' }],
      ['/settings/openAiKey', { key: 'openAiKey', value: 'sk-nova-9876' }],
    ]);
    // The key's field empties again and says it is set.
    await waitFor(() => expect(screen.getByText('Definida (••••9876). Digite para trocar.')).toBeTruthy());
  });

  it('closes sign-ups and sets the download limit through their selects', async () => {
    const { wrapper, server } = await openTab();
    const creation = fieldByLabel(wrapper, 'Criação de empresas (cadastro)').findControl()!.findSelect()!;
    act(() => creation.openDropdown());
    act(() => creation.selectOptionByValue('disabled'));
    const limit = fieldByLabel(wrapper, 'Limite de download').findControl()!.findSelect()!;
    act(() => limit.openDropdown());
    act(() => limit.selectOptionByValue('256'));
    expect(limit.findTrigger().getElement().textContent).toBe('256 MB');
    click(wrapper, 'Salvar');
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Configurações salvas com sucesso!'));
    expect(server.requests.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body])).toEqual([
      ['/settings/userCreation', { key: 'userCreation', value: 'disabled' }],
      ['/settings/downloadLimit', { key: 'downloadLimit', value: '256' }],
    ]);
    expect(creation.findTrigger().getElement().textContent).toBe('Desabilitada');
  });

  it('previews the logos and uploads one; a refused file shows the reason under its field', async () => {
    const { wrapper, server } = await openTab();
    expect(screen.getByAltText('Logotipo (tema claro)').getAttribute('src')).toBe(
      '/media/platform/branding/light/a1.png',
    );
    expect(screen.queryByAltText('Logotipo (tema escuro)')).toBeNull();
    const input = fieldByLabel(wrapper, 'Logotipo (tema escuro)').findControl()!.findFileInput()!;
    act(() => {
      fireEvent.change(input.findNativeInput().getElement(), {
        target: { files: [new File(['GIF89a'], 'logo.gif', { type: 'image/gif' })] },
      });
    });
    await waitFor(() => expect(errorOf(wrapper, 'Logotipo (tema escuro)')).toBe('not a PNG, JPEG or WebP image'));
    act(() => {
      fireEvent.change(input.findNativeInput().getElement(), {
        target: { files: [new File(['png'], 'logo.png', { type: 'image/png' })] },
      });
    });
    await waitFor(() =>
      expect(screen.getByAltText('Logotipo (tema escuro)').getAttribute('src')).toBe(
        '/media/platform/branding/dark/b2.png',
      ),
    );
    expect(errorOf(wrapper, 'Logotipo (tema escuro)')).toBeNull();
    expect(toastTexts(wrapper)).toContain('Logotipo atualizado com sucesso!');
    const sent = server.requests.filter((r) => r.path === '/settings-whitelabel/logo').map((r) => r.body as FormData);
    expect(sent.map((f) => [f.get('typeArch'), f.get('mode')])).toEqual([
      ['logo', 'Dark'],
      ['logo', 'Dark'],
    ]);
  });

  it("shows the server's reason under the field it refused", async () => {
    const { wrapper } = await openTab();
    typeInto(wrapper, 'Nome do aplicativo', 'x'.repeat(60));
    click(wrapper, 'Salvar');
    await waitFor(() =>
      expect(errorOf(wrapper, 'Nome do aplicativo')).toBe('Too big: expected string to have <=50 characters'),
    );
    expect(toastTexts(wrapper)).not.toContain('Configurações salvas com sucesso!');
  });
});
