import { matchPath } from 'react-router-dom';
import type { AuthUser } from './api/auth';
import type { PlanFlags } from './api/plans';
import { can, roleOf, roleWith } from './permissions';

/**
 * Who may open each private route (core spec §2, §6; administration §6), whether the route shows its page
 * or still the coming-soon placeholder. The app shell checks it around every private page
 * (RequireRouteAccess), so a page that replaces a COMING_SOON_ROUTES entry keeps its guard without
 * repeating it. Paths are App.tsx's, absolute; a test checks every private route is listed here.
 *
 * - `who`: `admin` — admins and the super user (the spec's "Admin only" list); `super` — the platform
 *   owner; `dashboard` / `realTime` — admins, or a plain user with showDashboard / allowRealTime. Anyone
 *   else gets the no-permission view (the spec's 403 screen).
 * - `plan`: the plan flag the page needs; without it the page says the company may not open it and goes to
 *   / after PLAN_REDIRECT_MS (administration spec §6).
 * - `{}`: open to every signed-in user (pages with rules of their own, like /connections, check them).
 */
export interface RouteAccess {
  who?: 'admin' | 'super' | 'dashboard' | 'realTime';
  plan?: keyof PlanFlags;
}

/** Administration spec §6: a page gated by a plan flag redirects to / after 1 s. */
export const PLAN_REDIRECT_MS = 1000;

const ADMIN: RouteAccess = { who: 'admin' };
const SUPER: RouteAccess = { who: 'super' };
const OPEN: RouteAccess = {};
const CAMPAIGNS: RouteAccess = { who: 'admin', plan: 'useCampaigns' };

export const ROUTE_ACCESS: Readonly<Record<string, RouteAccess>> = {
  '/': { who: 'dashboard' },
  '/reports': { who: 'dashboard' },
  '/moments': { who: 'realTime' },
  '/tickets/:ticketUuid?': OPEN,
  '/quick-messages': OPEN,
  '/contacts': OPEN,
  '/contacts/import': OPEN,
  '/schedules': { plan: 'useSchedules' },
  '/tags': OPEN,
  '/Kanban': { plan: 'useKanban' },
  '/TagsKanban': { plan: 'useKanban' },
  '/chats/:chatUuid?': { plan: 'useInternalChat' },
  '/helps': OPEN,
  '/todolist': OPEN,
  '/campaigns': CAMPAIGNS,
  '/campaigns-config': CAMPAIGNS,
  '/campaign/:campaignId/report': CAMPAIGNS,
  '/contact-lists': CAMPAIGNS,
  '/contact-lists/:contactListId/contacts': CAMPAIGNS,
  '/phrase-lists': ADMIN,
  '/flowbuilders': ADMIN,
  '/flowbuilder/:flowId?': ADMIN,
  '/announcements': SUPER,
  '/messages-api': { who: 'admin', plan: 'useExternalApi' },
  '/users': ADMIN,
  '/queues': ADMIN,
  '/prompts': { who: 'admin', plan: 'useOpenAi' },
  '/queue-integration': { who: 'admin', plan: 'useIntegrations' },
  '/connections': OPEN,
  '/connections/:whatsappId/simulator': OPEN,
  '/allConnections': SUPER,
  '/files': ADMIN,
  '/financeiro': ADMIN,
  '/subscription': ADMIN,
  '/settings': ADMIN,
  '/companies': SUPER,
};

/** The rule of the route `pathname` opens (the first listed pattern it matches), or undefined. */
export const routeAccessOf = (pathname: string): RouteAccess | undefined => {
  const pattern = Object.keys(ROUTE_ACCESS).find((path) => matchPath({ path, end: true }, pathname) !== null);
  return pattern === undefined ? undefined : ROUTE_ACCESS[pattern];
};

export type AccessVerdict = 'allowed' | 'no-permission' | 'plan';

type AccessUser = Pick<AuthUser, 'profile' | 'super' | 'showDashboard' | 'allowRealTime'>;

const mayBe = (user: AccessUser, who: RouteAccess['who']): boolean => {
  switch (who) {
    case undefined:
      return true;
    case 'super':
      return user.super === true;
    case 'admin':
      return roleOf(user) === 'admin' || user.super === true;
    case 'dashboard':
      return can(roleWith(user, user.showDashboard), 'dashboard:view');
    case 'realTime':
      return can(roleWith(user, user.allowRealTime), 'dashboard:view');
  }
};

/** Whether `user` may open a route with `access` in a company with `planFlags`: who first, then the plan. */
export const accessVerdict = (
  access: RouteAccess | undefined,
  user: AccessUser,
  planFlags: PlanFlags,
): AccessVerdict => {
  if (!access) return 'allowed';
  if (!mayBe(user, access.who)) return 'no-permission';
  if (access.plan && !planFlags[access.plan]) return 'plan';
  return 'allowed';
};
