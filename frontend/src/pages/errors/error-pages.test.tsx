import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { shellRoutes } from '@/testing/shell-api';
import { AccessDeniedPage } from './access-denied-page';

const api = () =>
  fakeApi({ 'GET /version': () => json(200, { version: '7.0.0' }), ...shellRoutes(authUser()) }).adapter;

describe('403 page', () => {
  it("says 'Oops! Acesso Negado!' and 'Voltar' goes to /tickets inside the app", async () => {
    const routes = [
      { path: '/dashboard', element: <AccessDeniedPage /> },
      { path: '/tickets', element: <h1>Tickets</h1> },
    ];
    const { router, wrapper } = renderApp({ path: '/dashboard', adapter: api(), routes });

    expect(screen.getByText('Oops! Acesso Negado!')).toBeTruthy();
    const back = wrapper.findButton();
    expect(back?.getElement().textContent).toBe('Voltar');
    expect(back?.getElement().getAttribute('href')).toBe('/tickets');

    act(() => back?.click());

    expect(await screen.findByRole('heading', { name: 'Tickets' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/tickets');
  });
});

describe('404 page', () => {
  it('answers an unknown path and links back to the start', async () => {
    const { router, wrapper } = renderApp({ path: '/no/such/page', adapter: api() });

    expect(await screen.findByText('Página não encontrada')).toBeTruthy();
    act(() => wrapper.findLink()?.click());

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });
});
