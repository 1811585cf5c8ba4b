import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, fakeApi, json, sequence } from '@/testing/fake-api';
import { renderApp, TEST_CONFIG } from '@/testing/render-app';

/** The text of the status page's key-value pair labelled `label`. */
const valueOf = (wrapper: ReturnType<typeof renderApp>['wrapper'], label: string): string | null | undefined =>
  wrapper
    .findKeyValuePairs()
    ?.findItems()
    .find((item) => item.findLabel()?.getElement().textContent === label)
    ?.findValue()
    ?.getElement().textContent;

describe('status page', () => {
  it('shows the product, the version from GET /version and the configured URLs', async () => {
    const version = deferred();
    const api = fakeApi({ 'GET /version': version.route });
    const { wrapper } = renderApp({ path: '/status', adapter: api.adapter });

    expect(await screen.findByRole('heading', { name: 'Status do sistema' })).toBeTruthy();
    expect(valueOf(wrapper, 'Versão')).toBe('Carregando versão');
    version.answer(json(200, { version: '7.0.0' }));
    await waitFor(() => expect(valueOf(wrapper, 'Versão')).toBe('7.0.0'));
    expect(valueOf(wrapper, 'Produto')).toBe('ZapDesk');
    expect(valueOf(wrapper, 'Ambiente')).toBe('test');
    expect(valueOf(wrapper, 'Endereço da API')).toBe(TEST_CONFIG.apiBase);
    expect(valueOf(wrapper, 'Endereço do WebSocket')).toBe(TEST_CONFIG.wsUrl);
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /version']);
  });

  it('shows the error and a retry that loads the version', async () => {
    const api = fakeApi({
      'GET /version': sequence(
        json(503, { error: 'ERR_SERVICE_UNAVAILABLE', message: 'Service temporarily unavailable, try again' }),
        json(200, { version: '7.0.0' }),
      ),
    });
    const { wrapper } = renderApp({ path: '/status', adapter: api.adapter });

    await waitFor(() => expect(wrapper.findAlert()).toBeTruthy());
    const alert = wrapper.findAlert();
    expect(alert?.findHeader()?.getElement().textContent).toBe('Não foi possível obter a versão do sistema');
    expect(alert?.findContent().getElement().textContent).toBe(
      'Serviço temporariamente indisponível. Tente novamente em instantes.',
    );
    expect(valueOf(wrapper, 'Versão')).toBe('Não foi possível obter a versão do sistema');

    act(() => alert?.findActionSlot()?.findButton()?.click());

    await waitFor(() => expect(valueOf(wrapper, 'Versão')).toBe('7.0.0'));
    expect(wrapper.findAlert()).toBeNull();
  });

  it('shows the live WebSocket state and reads the version again after a reconnect', async () => {
    const api = fakeApi({ 'GET /version': sequence(json(200, { version: '7.0.0' }), json(200, { version: '7.0.1' })) });
    const { wrapper, socket, server } = renderApp({ path: '/status', adapter: api.adapter });
    await waitFor(() => expect(valueOf(wrapper, 'Versão')).toBe('7.0.0'));
    expect(valueOf(wrapper, 'Conexão em tempo real')).toBe('Desconectado (sem sessão)');

    act(() => socket.start());
    expect(server.latest().url).toBe(`${TEST_CONFIG.wsUrl}?token=token-1`);
    expect(valueOf(wrapper, 'Conexão em tempo real')).toBe('Conectando');
    act(() => server.latest().accept());
    expect(valueOf(wrapper, 'Conexão em tempo real')).toBe('Conectado');

    act(() => server.latest().drop());
    expect(valueOf(wrapper, 'Conexão em tempo real')).toBe('Reconectando');
    await waitFor(() => expect(server.connections).toHaveLength(2), { timeout: 3000 });
    act(() => server.latest().accept());

    expect(valueOf(wrapper, 'Conexão em tempo real')).toBe('Conectado');
    await waitFor(() => expect(valueOf(wrapper, 'Versão')).toBe('7.0.1'));
    act(() => socket.stop());
  });

  it('stays reachable for a signed-in user, on its own page outside the app shell', async () => {
    const api = fakeApi({ 'GET /version': () => json(200, { version: '7.0.0' }) });
    const { router, wrapper } = renderApp({ path: '/status', adapter: api.adapter, token: 'token-1' });
    expect(await screen.findByRole('heading', { name: 'Status do sistema' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/status');
    expect(wrapper.findSideNavigation()).toBeNull();
  });
});
