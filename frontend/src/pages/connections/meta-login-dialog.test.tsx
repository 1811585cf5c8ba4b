import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Connection } from '@/api/connections';
import type { RuntimeConfig } from '@/config';
import { buttonNamed, click, openModal } from '@/pages/users/test-kit';
import { connectionRow } from '@/testing/connection-fixtures';
import { fakeApi, json, type Route } from '@/testing/fake-api';
import { renderApp, TEST_CONFIG } from '@/testing/render-app';
import { MetaLoginDialog, POPUP_POLL_MS } from './meta-login-dialog';

type Wrapper = ReturnType<typeof renderApp>['wrapper'];

const WITH_APP: RuntimeConfig = { ...TEST_CONFIG, metaAppId: '1234567890' };
const USER_TOKEN = 'EAAGm0PX4ZCpsBAKZBZCzq1ZA9ZBQ2ZCi3Hh7Z';
const CONTINUE = 'Continuar com o Facebook';

/**
 * A stand-in for the login popup: its address cannot be read while it is "on facebook.com" (the browser
 * throws a SecurityError), then reads `next()` — built from the URL the page opened, so it can echo the
 * state back.
 */
class FakePopup {
  closed = false;
  readonly reads: string[] = [];
  constructor(
    readonly openedUrl: URL,
    private readonly answers: (string | 'cross-origin')[],
  ) {}
  get location() {
    const answer = this.answers[Math.min(this.reads.length, this.answers.length - 1)] ?? 'cross-origin';
    this.reads.push(answer);
    if (answer === 'cross-origin') throw new DOMException('Blocked a frame with origin', 'SecurityError');
    return { href: answer };
  }
  close() {
    this.closed = true;
  }
}

const redirect = (hash: string) => `${window.location.origin}/meta-login.html${hash}`;

/** window.open answering a FakePopup whose addresses `answers` computes from the state of the opened URL. */
const fakeWindowOpen = (answers: (state: string) => (string | 'cross-origin')[]) => {
  const popups: FakePopup[] = [];
  const open = vi.spyOn(window, 'open').mockImplementation((url) => {
    const opened = new URL(String(url));
    const popup = new FakePopup(opened, answers(opened.searchParams.get('state') ?? ''));
    popups.push(popup);
    return popup as unknown as Window;
  });
  return { open, popups };
};

/** The dialog alone, as the page opens it. */
const openDialog = async ({
  addInstagram = false,
  config = WITH_APP,
  routes = {},
}: {
  addInstagram?: boolean;
  config?: RuntimeConfig;
  routes?: Record<string, Route>;
}) => {
  const api = fakeApi(routes);
  const onConnected = vi.fn<(connection: Connection) => void>();
  const view = renderApp({
    path: '/',
    adapter: api.adapter,
    config,
    routes: [
      {
        path: '/',
        element: <MetaLoginDialog addInstagram={addInstagram} onConnected={onConnected} onDismiss={() => undefined} />,
      },
    ],
  });
  await screen.findByText(CONTINUE, {}, { timeout: 15_000 });
  const posts = () => api.requests.filter((r) => r.method === 'POST' && r.path === '/facebook');
  return { ...view, api, onConnected, posts };
};

/** One look at the popup. */
const tick = () => act(() => vi.advanceTimersByTime(POPUP_POLL_MS));

const alerts = (wrapper: Wrapper) =>
  openModal(wrapper)
    .findContent()
    .findAllAlerts()
    .map((a) => a.findContent().getElement().textContent);

beforeEach(() => {
  // Only the popup's polling runs on a fake clock; React and the fake API keep the real one.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('Facebook / Instagram login dialog', () => {
  it('without a Meta app in the config, offers the login disabled and says why', async () => {
    const { open } = fakeWindowOpen(() => []);
    const { wrapper } = await openDialog({ config: TEST_CONFIG });

    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Conectar Facebook');
    expect(buttonNamed(openModal(wrapper), CONTINUE).isDisabled()).toBe(true);
    expect(alerts(wrapper)).toEqual([
      'O app da Meta não está configurado neste ambiente (veja "Deploy to AWS" no README; execuções locais não têm um).',
    ]);
    click(openModal(wrapper), CONTINUE);
    expect(open).not.toHaveBeenCalled();
  });

  it("opens Facebook's dialog in a popup, waits while it is on facebook.com, and posts the redirect's token once", async () => {
    const { open, popups } = fakeWindowOpen((state) => [
      'cross-origin',
      redirect(`#access_token=${USER_TOKEN}&data_access_expiration_time=1760000000&expires_in=5183&state=${state}`),
    ]);
    const { wrapper, posts, onConnected } = await openDialog({
      addInstagram: true,
      routes: {
        'POST /facebook': () =>
          json(200, {
            created: [
              connectionRow(21, 'Padaria Central', { channel: 'facebook' }),
              connectionRow(22, 'padaria.central', { channel: 'instagram' }),
            ],
            updated: [connectionRow(6, 'Padaria Filial', { channel: 'facebook' })],
            skipped: [
              { channel: 'facebook', externalId: '1029384756', name: 'Outra Loja', reason: 'connected-elsewhere' },
            ],
          }),
      },
    });
    expect(openModal(wrapper).findHeader().getElement().textContent).toBe('Conectar Instagram');
    expect(openModal(wrapper).findContent().getElement().textContent).toContain(
      'cada conta comercial do Instagram ligada a ela vira uma conexão do Instagram',
    );

    click(openModal(wrapper), CONTINUE);
    expect(open).toHaveBeenCalledTimes(1);
    expect(open.mock.calls[0]?.slice(1)).toEqual(['zapdesk-meta-login', 'popup,width=600,height=720']);
    const opened = popups[0]!.openedUrl;
    expect(`${opened.origin}${opened.pathname}`).toBe('https://www.facebook.com/v21.0/dialog/oauth');
    expect(opened.searchParams.get('client_id')).toBe('1234567890');
    expect(opened.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/meta-login.html`);
    expect(opened.searchParams.get('scope')).toContain('instagram_manage_messages');
    const status = () => openModal(wrapper).findContent().findStatusIndicator()?.getElement().textContent;
    expect(status()).toBe('Conclua o login na janela do Facebook…');

    tick(); // on facebook.com: unreadable, keep waiting
    expect(popups[0]!.reads).toEqual(['cross-origin']);
    expect(popups[0]!.closed).toBe(false);
    expect(posts()).toHaveLength(0);

    tick(); // back on our redirect page
    expect(popups[0]!.closed).toBe(true);
    await screen.findByText('Conexões criadas');
    expect(posts().map((r) => r.body)).toEqual([
      { facebookUserId: 'me', facebookUserToken: USER_TOKEN, addInstagram: true },
    ]);

    const content = openModal(wrapper).findContent().getElement();
    const section = (name: string) => content.querySelector(`section[aria-label="${name}"]`)?.textContent ?? '';
    expect(section('Conexões criadas')).toContain('Padaria Central');
    expect(section('Conexões criadas')).toContain('padaria.central');
    expect(section('Conexões atualizadas')).toContain('Padaria Filial');
    expect(section('Não conectadas')).toContain('Outra Loja');
    expect(section('Não conectadas')).toContain('já está conectada em outra empresa');
    expect(onConnected.mock.calls.map(([c]) => c.id)).toEqual([21, 22, 6]);

    tick(); // polling stopped: the popup is not read again, nothing is posted twice
    expect(popups[0]!.reads).toHaveLength(2);
    expect(posts()).toHaveLength(1);
    expect(buttonNamed(openModal(wrapper), 'Fechar')).toBeTruthy();
  });

  it('says the login was cancelled when the user closes the popup, and posts nothing', async () => {
    const { popups } = fakeWindowOpen(() => ['cross-origin']);
    const { wrapper, posts } = await openDialog({});
    click(openModal(wrapper), CONTINUE);
    tick();
    act(() => popups[0]!.close());
    tick();

    expect(alerts(wrapper)).toEqual(['Login cancelado: a janela do Facebook foi fechada antes de concluir.']);
    expect(buttonNamed(openModal(wrapper), CONTINUE).isDisabled()).toBe(false);
    expect(posts()).toHaveLength(0);
  });

  it('says so when Facebook answers that the user refused, and posts nothing', async () => {
    fakeWindowOpen((state) => [
      redirect(`?error=access_denied&error_code=200&error_reason=user_denied&state=${state}#_=_`),
    ]);
    const { wrapper, posts } = await openDialog({});
    click(openModal(wrapper), CONTINUE);
    tick();

    expect(alerts(wrapper)).toEqual(['O login com o Facebook foi cancelado ou as permissões foram recusadas.']);
    expect(posts()).toHaveLength(0);
  });

  it('asks to allow pop-ups when the browser blocks the window', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { wrapper, posts } = await openDialog({});
    click(openModal(wrapper), CONTINUE);

    expect(open).toHaveBeenCalledTimes(1);
    expect(alerts(wrapper)).toEqual([
      'O navegador bloqueou a janela de login. Permita pop-ups para este site e tente de novo.',
    ]);
    expect(posts()).toHaveLength(0);
  });

  it("shows Meta's refusal with a retry that logs in again", async () => {
    const { open } = fakeWindowOpen((state) => [redirect(`#access_token=${USER_TOKEN}&state=${state}`)]);
    const { wrapper, onConnected } = await openDialog({
      routes: {
        'POST /facebook': () =>
          json(400, {
            error: 'ERR_META_GRAPH',
            message: 'Error validating access token: Session has expired',
            details: { graphStatus: 400, graphMessage: 'Error validating access token: Session has expired' },
          }),
      },
    });
    click(openModal(wrapper), CONTINUE);
    tick();

    await screen.findByText('A Meta recusou o pedido: Error validating access token: Session has expired');
    expect(openModal(wrapper).findContent().findAlert()?.findHeader()?.getElement().textContent).toBe(
      'Não foi possível conectar',
    );
    expect(onConnected).not.toHaveBeenCalled();
    click(openModal(wrapper), 'Tentar novamente');
    expect(open).toHaveBeenCalledTimes(2);
  });

  it('closes the popup and stops looking at it when the dialog goes away', async () => {
    const { popups } = fakeWindowOpen(() => ['cross-origin']);
    const view = await openDialog({});
    click(openModal(view.wrapper), CONTINUE);
    tick();
    view.unmount();

    expect(popups[0]!.closed).toBe(true);
    tick();
    expect(popups[0]!.reads).toHaveLength(1);
  });
});
