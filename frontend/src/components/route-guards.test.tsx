import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { session } from '@/api/session';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { PrivateRoute, PublicRoute } from './route-guards';

const api = () =>
  fakeApi({ 'GET /version': () => json(200, { version: '7.0.0' }), ...shellRoutes(authUser()) }).adapter;

describe('private routing', () => {
  it('sends an unauthenticated visitor of a private route to /login', async () => {
    const { router } = renderApp({ path: '/', adapter: api(), token: null });

    expect(await screen.findByRole('heading', { name: 'Entrar' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it.each(['/login', '/signup', '/forgetpsw'])(
    'sends a logged-in visitor of %s to / (the start page)',
    async (path) => {
      const { router } = renderApp({ path, adapter: api(), token: 'token-1' });

      expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/');
      expect(screen.queryByRole('heading', { name: 'Entrar' })).toBeNull();
    },
  );

  it('keeps /status reachable without a session', async () => {
    const { router } = renderApp({ path: '/status', adapter: api(), token: null });

    expect(await screen.findByRole('heading', { name: 'Status do sistema' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/status');
  });

  it('leaves a private page for /login as soon as the session ends (a 401 or a logout)', async () => {
    const routes = [
      { Component: PrivateRoute, children: [{ path: '/tickets', element: <h1>Tickets</h1> }] },
      { Component: PublicRoute, children: [{ path: '/login', element: <h1>Login</h1> }] },
    ];
    const { router } = renderApp({ path: '/tickets', adapter: api(), routes, token: 'token-1' });
    expect(await screen.findByRole('heading', { name: 'Tickets' })).toBeTruthy();

    act(() => session.end());

    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });
});
