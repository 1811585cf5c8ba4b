import { screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '@/api/auth';
import type { CompanyPlan } from '@/api/plans';
import { routes } from '@/App';
import { ROUTE_ACCESS } from '@/route-access';
import { authUser } from '@/testing/auth-fixtures';
import { fakeApi, json } from '@/testing/fake-api';
import { toastTexts } from '@/testing/form-fields';
import { renderApp } from '@/testing/render-app';
import { fullPlan, shellRoutes } from '@/testing/shell-api';

/**
 * Who may open which private route (core spec §2 Settings "Plain users see a no-permission view", §6;
 * administration §6): admin-only and super-only routes answer the no-permission view, plan-gated ones
 * without the flag the spec's error and a redirect to / after 1 s — placeholder or real page alike.
 */
const ADMIN = authUser();
const PLAIN = authUser({ id: 9, name: 'Bruno', profile: 'user' });
const DENIED = 'Oops! Acesso Negado!';
const PLAN_DENIED = 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.';

const open = (path: string, me: AuthUser, plan: CompanyPlan = fullPlan()) => {
  const api = fakeApi({
    ...shellRoutes(me, plan),
    'GET /whatsapp': () => json(200, []),
    'GET /users/': () => json(200, { users: [], hasMore: false }),
  });
  return renderApp({ path, adapter: api.adapter });
};

beforeAll(async () => {
  await Promise.all([
    import('@/components/shell/app-shell'),
    import('@/pages/coming-soon/coming-soon-page'),
    import('@/pages/errors/access-denied-page'),
  ]);
}, 30_000);

describe('admin-only routes', () => {
  it('a plain user on /settings sees the no-permission view, not the placeholder', async () => {
    open('/settings', PLAIN);

    expect(await screen.findByText(DENIED, {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Configurações' })).toBeNull();
  });

  it('an admin on /settings gets the page', async () => {
    open('/settings', ADMIN);

    expect(await screen.findByRole('heading', { name: 'Configurações' }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.queryByText(DENIED)).toBeNull();
  });

  it.each([
    '/queues',
    '/files',
    '/financeiro',
    '/subscription',
    '/phrase-lists',
    '/flowbuilders',
    '/flowbuilder/3',
    '/campaigns',
    '/contact-lists/4/contacts',
    '/messages-api',
    '/prompts',
    '/queue-integration',
  ])('a plain user on %s sees the no-permission view', async (path) => {
    open(path, PLAIN);
    expect(await screen.findByText(DENIED, {}, { timeout: 15_000 })).toBeTruthy();
  });

  it.each(['/companies', '/announcements'])(
    '%s is for the super user: an admin sees the no-permission view',
    async (path) => {
      open(path, ADMIN);
      expect(await screen.findByText(DENIED, {}, { timeout: 15_000 })).toBeTruthy();
    },
  );
});

describe('per-user areas', () => {
  it('the dashboard needs admin or showDashboard; the real-time panel admin or allowRealTime', async () => {
    const first = open('/', PLAIN);
    expect(await screen.findByText(DENIED, {}, { timeout: 15_000 })).toBeTruthy();
    first.unmount();

    const second = open('/', authUser({ id: 9, profile: 'user', showDashboard: 'enabled' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard' }, { timeout: 15_000 })).toBeTruthy();
    second.unmount();

    open('/moments', PLAIN);
    expect(await screen.findByText(DENIED, {}, { timeout: 15_000 })).toBeTruthy();
  });
});

describe('plan-gated routes', () => {
  it('without the flag: the spec’s error, then / after 1 second', async () => {
    const { router, wrapper } = open('/schedules', ADMIN, fullPlan({ useSchedules: false }));

    await waitFor(() => expect(toastTexts(wrapper)).toContain(PLAN_DENIED), { timeout: 15_000 });
    expect(router.state.location.pathname).toBe('/schedules');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 3000 });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  });

  it('an admin-only page of a plan the company lacks redirects an admin too', async () => {
    const { router, wrapper } = open('/prompts', ADMIN, fullPlan({ useOpenAi: false }));

    await waitFor(() => expect(toastTexts(wrapper)).toContain(PLAN_DENIED), { timeout: 15_000 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 3000 });
  });

  it('with the flag the page opens', async () => {
    open('/Kanban', PLAIN);
    expect(await screen.findByRole('heading', { name: 'Kanban' }, { timeout: 15_000 })).toBeTruthy();
  });
});

describe('the rule table', () => {
  it('lists every private route of the app', () => {
    const shell = routes[0]!.children!.find((r) => (r.handle as { shell?: boolean } | undefined)?.shell)!;
    const paths = (shell.children as RouteObject[]).map((r) => (r.index ? '/' : `/${r.path}`));

    expect(paths.filter((path) => !(path in ROUTE_ACCESS))).toEqual([]);
  });
});
