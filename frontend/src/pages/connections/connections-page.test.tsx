import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthUser } from '@/api/auth';
import type { Connection } from '@/api/connections';
import type { CompanyPlan } from '@/api/plans';
import type { RuntimeConfig } from '@/config';
import { i18n } from '@/i18n';
import { buttonNamed, click, columnTexts, noOpenModal, openModal } from '@/pages/users/test-kit';
import { authUser } from '@/testing/auth-fixtures';
import { connectionRow } from '@/testing/connection-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { toastTexts, typeInto } from '@/testing/form-fields';
import { renderApp, TEST_CONFIG } from '@/testing/render-app';
import { fullPlan, shellRoutes } from '@/testing/shell-api';
import { qrImageUrl } from './qr-code-dialog';

type View = ReturnType<typeof renderApp>;
type Wrapper = View['wrapper'];

const ADMIN = authUser();
const COLUMN = { name: 1, channel: 2, status: 4, session: 5, updatedAt: 6, default: 7 };

const rows = (): Connection[] => [
  connectionRow(1, 'Atendimento', { status: 'qrcode', qrcode: 'zapdesk-sim:primeiro', isDefault: true }),
  connectionRow(2, 'Vendas', { status: 'DISCONNECTED' }),
  connectionRow(3, 'Suporte', { status: 'CONNECTED', number: '5511999990000' }),
  connectionRow(4, 'Financeiro', { status: 'OPENING' }),
  connectionRow(5, 'Loja', { status: 'TIMEOUT' }),
  connectionRow(6, 'Página', { channel: 'facebook', status: 'DISCONNECTED' }),
];

/** A later moment than the fixtures' updatedAt, so events and answers count as newer. */
const later = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 10, minutes)).toISOString();

const connectionsApi = (
  extra: Record<string, Route> = {},
  { me = ADMIN, plan = fullPlan(), list = rows() }: { me?: AuthUser; plan?: CompanyPlan; list?: Connection[] } = {},
) => {
  const server = fakeApi({ ...shellRoutes(me, plan), 'GET /whatsapp': () => json(200, list), ...extra });
  return {
    ...server,
    calls: (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path),
  };
};

const openConnections = async (api = connectionsApi(), count = 6, config: RuntimeConfig = TEST_CONFIG) => {
  const view = renderApp({ path: '/connections', adapter: api.adapter, config });
  expect(await screen.findByRole('heading', { name: /^Conexões/ }, { timeout: 15_000 })).toBeTruthy();
  await waitFor(() => expect(columnTexts(view.wrapper, COLUMN.name)).toHaveLength(count));
  return { ...view, api };
};

/** The session cell's buttons of a row, by their text (disabled ones marked). */
const sessionButtons = (wrapper: Wrapper, row: number) =>
  createWrapper(wrapper.findTable()!.findBodyCell(row, COLUMN.session)!.getElement())
    .findAllButtons()
    .map((b) => `${b.getElement().textContent}${b.isDisabled() ? ' (disabled)' : ''}`);

const cellText = (wrapper: Wrapper, row: number, column: number) =>
  wrapper.findTable()?.findBodyCell(row, column)?.getElement().textContent ?? '';

/** Starts the socket and lets the fake server accept it: the page then hears events. */
const online = (view: View) => {
  act(() => view.socket.start());
  act(() => view.server.latest().accept());
  return (event: object) => act(() => view.server.latest().push(event));
};

beforeAll(async () => {
  await Promise.all([import('@/components/shell/app-shell'), import('./connections-page')]);
}, 30_000);

describe('connections list', () => {
  it('shows name, channel, status, the session actions of each status, last update and the default marker', async () => {
    const { wrapper, api } = await openConnections();

    expect(
      wrapper
        .findTable()
        ?.findColumnHeaders()
        .map((h) => h.getElement().textContent),
    ).toEqual(['Nome', 'Canal', 'Número', 'Status', 'Sessão', 'Última atualização', 'Padrão', 'Ações']);
    expect(columnTexts(wrapper, COLUMN.name)).toEqual([
      'Atendimento',
      'Vendas',
      'Suporte',
      'Financeiro',
      'Loja',
      'Página',
    ]);
    expect(columnTexts(wrapper, COLUMN.channel)).toEqual([
      'WhatsApp',
      'WhatsApp',
      'WhatsApp',
      'WhatsApp',
      'WhatsApp',
      'Facebook',
    ]);
    expect(columnTexts(wrapper, COLUMN.status)).toEqual([
      'Aguardando leitura do QR Code',
      'Desconectado',
      'Conectado',
      'Conectando',
      'Conexão perdida',
      'Desconectado',
    ]);
    expect([1, 2, 3, 4, 5].map((row) => sessionButtons(wrapper, row))).toEqual([
      ['QR CODE'],
      ['Tentar novamente', 'Novo QR CODE'],
      ['Desconectar'],
      ['Conectando (disabled)'],
      ['Desconectar'],
    ]);
    expect(cellText(wrapper, 6, COLUMN.session)).toBe('Sem sessão'); // Facebook: no WhatsApp session
    expect(cellText(wrapper, 1, COLUMN.updatedAt)).toMatch(/^01\/01\/26 \d\d:00$/);
    expect(screen.getAllByRole('img', { name: 'Conexão padrão' })).toHaveLength(1);
    expect(wrapper.findTable()?.findBodyCell(1, COLUMN.default)?.getElement().innerHTML).toContain('Conexão padrão');
    expect(api.calls('GET', '/whatsapp')[0]?.query).toEqual({ session: '0' });
  });

  it('try again, new QR and disconnect call their endpoints and show the answer at once', async () => {
    const api = connectionsApi({
      'POST /whatsappsession/2': () =>
        json(200, {
          message: 'Starting session.',
          whatsapp: connectionRow(2, 'Vendas', { status: 'OPENING', updatedAt: later(1) }),
        }),
      'PUT /whatsappsession/2': () =>
        json(200, {
          message: 'Starting session.',
          whatsapp: connectionRow(2, 'Vendas', { status: 'OPENING', updatedAt: later(2) }),
        }),
      'DELETE /whatsappsession/5': () =>
        json(200, {
          message: 'Session disconnected.',
          whatsapp: connectionRow(5, 'Loja', { status: 'DISCONNECTED', updatedAt: later(1) }),
        }),
    });
    const { wrapper } = await openConnections(api);

    click(wrapper, 'Tentar novamente – Vendas');
    await waitFor(() => expect(sessionButtons(wrapper, 2)).toEqual(['Conectando (disabled)']));
    expect(api.calls('POST', '/whatsappsession/2')).toHaveLength(1);

    // Disconnect asks first; Cancelar sends nothing.
    click(wrapper, 'Desconectar – Loja');
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Desconectar Loja?');
    click(openModal(wrapper), 'Cancelar');
    expect(api.calls('DELETE', '/whatsappsession/5')).toHaveLength(0);
    click(wrapper, 'Desconectar – Loja');
    click(openModal(wrapper), 'Desconectar');
    await waitFor(() => expect(sessionButtons(wrapper, 5)).toEqual(['Tentar novamente', 'Novo QR CODE']));
    expect(api.calls('DELETE', '/whatsappsession/5')).toHaveLength(1);

    // A new QR code: PUT, then the QR dialog waits for the code the worker will send.
    click(wrapper, 'Novo QR CODE – Loja');
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(api.requests.filter((r) => r.method === 'PUT').map((r) => r.path)).toEqual(['/whatsappsession/5']);
  });

  it('shows a refused action as a translated toast', async () => {
    const api = connectionsApi({
      'POST /whatsappsession/2': () => json(403, { error: 'ERR_NO_PERMISSION', message: 'no' }),
      'POST /auth/refresh_token': () => json(200, { token: 'token-2', user: ADMIN }),
    });
    const { wrapper } = await openConnections(api);
    click(wrapper, 'Tentar novamente – Vendas');
    await waitFor(() => expect(toastTexts(wrapper)).toEqual(['Você não tem permissão para acessar este recurso.']));
    expect(sessionButtons(wrapper, 2)).toEqual(['Tentar novamente', 'Novo QR CODE']);
  });

  it('deletes after the confirmation, and says why the default cannot go', async () => {
    const api = connectionsApi({
      'DELETE /whatsapp/2': () => json(200, { message: 'Whatsapp deleted.' }),
      'DELETE /whatsapp/1': () => json(400, { error: 'ERR_NO_OTHER_WHATSAPP', message: 'no' }),
    });
    const { wrapper } = await openConnections(api);

    click(wrapper, 'Excluir Vendas');
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Excluir Vendas?');
    click(openModal(wrapper), 'Excluir');
    await waitFor(() => expect(columnTexts(wrapper, COLUMN.name)).not.toContain('Vendas'));
    expect(toastTexts(wrapper)).toEqual(['Conexão excluída com sucesso!']);

    click(wrapper, 'Excluir Atendimento');
    click(openModal(wrapper), 'Excluir');
    await waitFor(() => expect(toastTexts(wrapper)).toContain('Deve haver pelo menos uma conexão padrão.'));
    expect(columnTexts(wrapper, COLUMN.name)).toContain('Atendimento');
    expect(noOpenModal(wrapper)).toBe(true);
  });
});

describe('connections list layout', () => {
  /** Whether the text sits in an element that keeps it on one line. */
  const oneLine = (element: Element | null | undefined): boolean => {
    for (let e = element ?? null; e && e.tagName !== 'TD'; e = e.parentElement) {
      if ((e as HTMLElement).style?.whiteSpace === 'nowrap') return true;
    }
    return false;
  };
  const textElement = (cell: Element, text: string) =>
    [...cell.querySelectorAll('*')].find((e) => e.children.length === 0 && e.textContent === text);

  it.each([
    ['pt', 'Conectado'],
    ['en', 'Connected'],
  ])('keeps the status on one line (%s: %s), never broken mid-word', async (language, text) => {
    await i18n.changeLanguage(language);
    const { wrapper } = renderApp({ path: '/connections', adapter: connectionsApi().adapter });
    await waitFor(() => expect(columnTexts(wrapper, COLUMN.name)).toHaveLength(6), { timeout: 15_000 });
    const cell = wrapper.findTable()!.findBodyCell(3, COLUMN.status)!.getElement();

    await waitFor(() => expect(textElement(cell, text)).toBeTruthy());
    expect(oneLine(textElement(cell, text))).toBe(true);
  });

  it('keeps the session and action buttons of a row side by side on one row', async () => {
    const { wrapper } = await openConnections();
    const table = wrapper.findTable()!;
    const actionsColumn = table.findColumnHeaders().length;

    for (const column of [COLUMN.session, actionsColumn]) {
      const cell = table.findBodyCell(3, column)!.getElement();
      const buttons = createWrapper(cell).findAllButtons();
      expect(buttons.length).toBeGreaterThan(0);
      const row = buttons[0]!.getElement().parentElement!.closest('div[style*="nowrap"]') as HTMLElement | null;
      expect(row?.style.flexWrap).toBe('nowrap');
      for (const b of buttons) expect(row!.contains(b.getElement())).toBe(true);
    }
    expect(buttonNamed(wrapper, 'Abrir o simulador de Suporte').getElement().textContent).toBe('Simulador');
  });
});

describe('who may open /connections', () => {
  it('a plain user without allowConnections gets the no-permission view and no list call', async () => {
    const api = connectionsApi({}, { me: authUser({ id: 9, profile: 'user' }) });
    renderApp({ path: '/connections', adapter: api.adapter });
    expect(await screen.findByText('Oops! Acesso Negado!', {}, { timeout: 15_000 })).toBeTruthy();
    expect(api.calls('GET', '/whatsapp')).toHaveLength(0);
  });

  it('a plain user with allowConnections manages them like an admin', async () => {
    const me = authUser({ id: 9, profile: 'user', allowConnections: 'enabled' });
    const { wrapper } = await openConnections(connectionsApi({}, { me }));
    expect(sessionButtons(wrapper, 2)).toEqual(['Tentar novamente', 'Novo QR CODE']);
    expect(buttonNamed(wrapper, 'Editar Vendas')).toBeTruthy();
  });
});

/** The page's new-connection menu (the top bar has the account menu too). */
const newMenu = (wrapper: Wrapper) => {
  const menu = wrapper
    .findAllButtonDropdowns()
    .find((d) => d.findNativeButton().getElement().textContent?.startsWith('Nova conexão'));
  if (!menu) throw new Error('no new-connection menu');
  return menu;
};

/** Cloudscape marks a disabled button with a reason as aria-disabled instead of disabled. */
const menuDisabled = (wrapper: Wrapper) => {
  const button = newMenu(wrapper).findNativeButton().getElement();
  return button?.hasAttribute('disabled') === true || button?.getAttribute('aria-disabled') === 'true';
};

describe('new-connection menu', () => {
  const menuItems = (wrapper: Wrapper) => {
    const dropdown = newMenu(wrapper);
    act(() => dropdown.openDropdown());
    return dropdown.findItems().map((item) => item.getElement().textContent);
  };

  const choose = (wrapper: Wrapper, channel: string) => {
    const dropdown = newMenu(wrapper);
    act(() => dropdown.openDropdown());
    const item = dropdown.findItemById(channel);
    if (!item) throw new Error(`no menu item '${channel}'`);
    act(() => item.click());
  };

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('offers WhatsApp, Facebook, Instagram and WhatsApp Cloud API when the plan has them', async () => {
    const { wrapper } = await openConnections();
    await waitFor(() => expect(menuDisabled(wrapper)).toBe(false));
    expect(menuItems(wrapper)).toEqual(['WhatsApp', 'Facebook', 'Instagram', 'WhatsApp Cloud API']);
  });

  it('hides the channels the plan lacks; the Cloud API comes with WhatsApp', async () => {
    const { wrapper } = await openConnections(
      connectionsApi({}, { plan: fullPlan({ useFacebook: false, useInstagram: false }) }),
    );
    await waitFor(() => expect(menuDisabled(wrapper)).toBe(false));
    expect(menuItems(wrapper)).toEqual(['WhatsApp', 'WhatsApp Cloud API']);
  });

  it('offers no Cloud API without WhatsApp in the plan', async () => {
    const { wrapper } = await openConnections(connectionsApi({}, { plan: fullPlan({ useWhatsapp: false }) }));
    await waitFor(() => expect(menuDisabled(wrapper)).toBe(false));
    expect(menuItems(wrapper)).toEqual(['Facebook', 'Instagram']);
  });

  it('is disabled when the plan has no channel at all', async () => {
    const plan = fullPlan({ useWhatsapp: false, useFacebook: false, useInstagram: false });
    const { wrapper, api } = await openConnections(connectionsApi({}, { plan }));
    await waitFor(() => expect(api.requests.some((r) => r.path.startsWith('/companies/listPlan'))).toBe(true));
    await waitFor(() => expect(menuDisabled(wrapper)).toBe(true));
  });

  it('WhatsApp Cloud API opens its form; the new number joins the list without session actions', async () => {
    const api = connectionsApi({
      'POST /whatsapp/cloud-api': () =>
        json(201, connectionRow(12, 'Loja Oficial', { channel: 'whatsappapi', number: '5511988887777' })),
    });
    const { wrapper } = await openConnections(api);
    await waitFor(() => expect(menuDisabled(wrapper)).toBe(false));
    choose(wrapper, 'whatsappapi');
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Conectar WhatsApp Cloud API');

    typeInto(wrapper, 'ID do número de telefone', '106540352242922');
    typeInto(wrapper, 'Token de acesso', 'EAAGm0PX4ZCpsBAKZBZCzq1ZA9ZBQ2ZCi3Hh7Z');
    click(openModal(wrapper), 'Conectar');

    await screen.findByText('Loja Oficial');
    expect(noOpenModal(wrapper)).toBe(true);
    expect(toastTexts(wrapper)).toEqual(['Número do WhatsApp Cloud API conectado!']);
    expect(cellText(wrapper, 7, COLUMN.channel)).toBe('WhatsApp Cloud API');
    expect(cellText(wrapper, 7, COLUMN.status)).toBe('Conectado');
    expect(cellText(wrapper, 7, COLUMN.session)).toBe('Sem sessão');
    expect(() => buttonNamed(wrapper, 'Abrir o simulador de Loja Oficial')).toThrow();
    expect(() => buttonNamed(wrapper, 'Abrir o simulador de Suporte')).not.toThrow(); // a connected WhatsApp has it
    expect(api.calls('POST', '/whatsapp')).toHaveLength(0);
  });

  it('Facebook opens the Meta login, never the connection form (no disconnected connection is created)', async () => {
    const api = connectionsApi();
    const { wrapper } = await openConnections(api);
    await waitFor(() => expect(menuDisabled(wrapper)).toBe(false));
    choose(wrapper, 'facebook');
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Conectar Facebook');
    expect(openModal(wrapper).findContent().findAllFormFields()).toHaveLength(0);
    click(openModal(wrapper), 'Cancelar');
    expect(noOpenModal(wrapper)).toBe(true);
    expect(api.calls('POST', '/whatsapp')).toHaveLength(0);
  });

  it('Instagram logs in with Instagram accounts; every connection created or renewed shows in the list', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const api = connectionsApi({
        'POST /facebook': () =>
          json(200, {
            created: [connectionRow(22, 'padaria.central', { channel: 'instagram' })],
            updated: [connectionRow(6, 'Página renovada', { channel: 'facebook', updatedAt: later(5) })],
            skipped: [],
          }),
      });
      const { wrapper } = await openConnections(api, 6, { ...TEST_CONFIG, metaAppId: '1234567890' });
      vi.spyOn(window, 'open').mockImplementation((url) => {
        const state = new URL(String(url)).searchParams.get('state');
        const href = `${window.location.origin}/meta-login.html#access_token=EAAGm0PX4ZCpsBA&state=${state}`;
        return { closed: false, location: { href }, close: () => undefined } as unknown as Window;
      });
      await waitFor(() => expect(menuDisabled(wrapper)).toBe(false));
      choose(wrapper, 'instagram');
      click(openModal(wrapper), 'Continuar com o Facebook');
      act(() => vi.advanceTimersByTime(500));

      await screen.findByText('Conexões criadas');
      expect(api.calls('POST', '/facebook')[0]?.body).toMatchObject({ addInstagram: true });
      expect(columnTexts(wrapper, COLUMN.name)).toContain('padaria.central');
      expect(cellText(wrapper, 6, COLUMN.name)).toBe('Página renovada');
      expect(cellText(wrapper, 6, COLUMN.status)).toBe('Conectado');
      click(openModal(wrapper), 'Fechar');
      expect(noOpenModal(wrapper)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('live connections', () => {
  it('patches a row on a whatsapp update, removes one on delete, follows session updates, and adds new ones', async () => {
    const view = await openConnections();
    const push = online(view);

    push({
      channel: 'company-2-whatsapp',
      action: 'update',
      whatsapp: connectionRow(2, 'Vendas Sul', { status: 'CONNECTED', updatedAt: later(3) }),
    });
    expect(cellText(view.wrapper, 2, COLUMN.name)).toBe('Vendas Sul');
    expect(cellText(view.wrapper, 2, COLUMN.status)).toBe('Conectado');

    push({
      channel: 'company-2-whatsappSession',
      action: 'update',
      session: connectionRow(4, 'Financeiro', { status: 'qrcode', qrcode: 'abc', updatedAt: later(3) }),
    });
    expect(sessionButtons(view.wrapper, 4)).toEqual(['QR CODE']);

    // An older copy (an event overtaken by a newer one) does not take the status back.
    push({
      channel: 'company-2-whatsapp',
      action: 'update',
      whatsapp: connectionRow(4, 'Financeiro', { status: 'OPENING', updatedAt: later(2) }),
    });
    expect(sessionButtons(view.wrapper, 4)).toEqual(['QR CODE']);

    push({ channel: 'company-2-whatsapp', action: 'delete', whatsappId: 5 });
    expect(columnTexts(view.wrapper, COLUMN.name)).not.toContain('Loja');

    push({
      channel: 'company-2-whatsapp',
      action: 'update',
      whatsapp: connectionRow(7, 'Nova', { status: 'OPENING' }),
    });
    expect(columnTexts(view.wrapper, COLUMN.name).at(-1)).toBe('Nova');
    // Other companies' channels are not ours.
    push({ channel: 'company-3-whatsapp', action: 'delete', whatsappId: 1 });
    expect(columnTexts(view.wrapper, COLUMN.name)).toContain('Atendimento');
    act(() => view.socket.stop());
  });

  it('reads the list again when the socket reconnects: what changed meanwhile shows', async () => {
    let list = rows();
    const api = connectionsApi({ 'GET /whatsapp': () => json(200, list) });
    const view = await openConnections(api);
    online(view);

    act(() => view.server.latest().drop());
    list = rows().map((c) => (c.id === 2 ? { ...c, status: 'CONNECTED' as const, updatedAt: later(5) } : c));
    await waitFor(() => expect(view.server.connections).toHaveLength(2), { timeout: 3000 });
    act(() => view.server.latest().accept());

    await waitFor(() => expect(cellText(view.wrapper, 2, COLUMN.status)).toBe('Conectado'));
    act(() => view.socket.stop());
  });
});

describe('QR code dialog', () => {
  const qrImage = () => document.querySelector<HTMLImageElement>('img[alt="QR Code da conexão Atendimento"]');

  it('draws the QR code, redraws it from session events, and closes itself once CONNECTED', async () => {
    const view = await openConnections();
    const push = online(view);

    click(view.wrapper, 'QR CODE – Atendimento');
    expect(openModal(view.wrapper).findHeader().getElement().textContent).toBe('QR Code de Atendimento');
    await waitFor(() => expect(qrImage()).not.toBeNull());
    expect(qrImage()?.getAttribute('src')).toBe(await qrImageUrl('zapdesk-sim:primeiro'));

    push({
      channel: 'company-2-whatsappSession',
      action: 'update',
      session: connectionRow(1, 'Atendimento', {
        status: 'qrcode',
        qrcode: 'zapdesk-sim:segundo',
        retries: 1,
        isDefault: true,
        updatedAt: later(1),
      }),
    });
    const second = await qrImageUrl('zapdesk-sim:segundo');
    await waitFor(() => expect(qrImage()?.getAttribute('src')).toBe(second));

    push({
      channel: 'company-2-whatsappSession',
      action: 'update',
      session: connectionRow(1, 'Atendimento', { status: 'CONNECTED', isDefault: true, updatedAt: later(2) }),
    });
    await waitFor(() => expect(noOpenModal(view.wrapper)).toBe(true));
    expect(toastTexts(view.wrapper)).toEqual(['Conexão estabelecida!']);
    expect(cellText(view.wrapper, 1, COLUMN.status)).toBe('Conectado');
    act(() => view.socket.stop());
  });

  it("offers 'Simular leitura' for the simulator's QR code, which asks the simulator to scan it", async () => {
    const api = connectionsApi({
      'POST /simulator/1/scan': () =>
        json(200, { message: 'QR code scanned.', whatsapp: connectionRow(1, 'Atendimento', { status: 'qrcode' }) }),
    });
    const { wrapper } = await openConnections(api);

    click(wrapper, 'QR CODE – Atendimento');
    click(openModal(wrapper), 'Simular leitura');
    await waitFor(() => expect(api.calls('POST', '/simulator/1/scan')).toHaveLength(1));
  });

  it('offers no simulated scan for a real WhatsApp QR code', async () => {
    const list = [connectionRow(1, 'Atendimento', { status: 'qrcode', qrcode: '2@AbCdEf,123', isDefault: true })];
    const { wrapper } = await openConnections(connectionsApi({}, { list }), 1);
    click(wrapper, 'QR CODE – Atendimento');
    expect(() => buttonNamed(openModal(wrapper), 'Simular leitura')).toThrow();
  });
});
