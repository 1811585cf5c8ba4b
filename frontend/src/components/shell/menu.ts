import type { AuthUser } from '@/api/auth';
import type { PlanFlags } from '@/api/plans';
import { can, roleWith } from '@/permissions';

/**
 * The side menu as data: which entries a user sees, from the user, the company's plan flags and four facts
 * the shell gathers (core spec §2, §6; administration §2, §6). A pure function, so every rule has a test
 * (menu.test.ts) and the component only draws what this returns. Titles are `menu.<id>` in the i18n files.
 */
export type MenuUser = Pick<AuthUser, 'profile' | 'super' | 'showDashboard' | 'allowRealTime' | 'allowConnections'>;

export interface MenuFacts {
  /** The company's subscription has expired: most entries are hidden (see EXPIRED_ENTRIES). */
  expired: boolean;
  /** At least one help entry exists (GET /helps/list; see useHelpsExist). */
  helpsExist: boolean;
  /** The browser has the local campaigns flag (CAMPAIGNS_FLAG_KEY). */
  campaignsEnabled: boolean;
  /** Some connection is in qrcode, PAIRING, DISCONNECTED, TIMEOUT or OPENING (see useConnectionsNeedAttention). */
  connectionsNeedAttention: boolean;
}

export type MenuLinkId =
  | 'dashboard'
  | 'reports'
  | 'moments'
  | 'tickets'
  | 'quickMessages'
  | 'kanban'
  | 'contacts'
  | 'schedules'
  | 'tags'
  | 'chats'
  | 'helps'
  | 'todolist'
  | 'campaignsList'
  | 'contactLists'
  | 'campaignsConfig'
  | 'phraseLists'
  | 'flowbuilders'
  | 'announcements'
  | 'messagesApi'
  | 'users'
  | 'queues'
  | 'prompts'
  | 'queueIntegration'
  | 'connections'
  | 'allConnections'
  | 'files'
  | 'financeiro'
  | 'settings'
  | 'companies';

export interface MenuLink {
  type: 'link';
  id: MenuLinkId;
  href: string;
  /** Connections: some connection needs attention (an exclamation badge). */
  attention?: boolean;
}

export interface MenuGroup {
  type: 'group';
  id: 'campaigns' | 'flowbuilder';
  /** Where the group's own title leads: its first page. */
  href: string;
  items: MenuLink[];
}

export interface MenuSection {
  type: 'section';
  id: 'management' | 'administration';
  items: (MenuLink | MenuGroup)[];
}

export type MenuEntry = MenuLink | MenuGroup | MenuSection;

/** Each link's route (core §2, administration §2). The spec's casing is kept: /Kanban, /allConnections. */
export const MENU_HREFS: Record<MenuLinkId, string> = {
  dashboard: '/',
  reports: '/reports',
  moments: '/moments',
  tickets: '/tickets',
  quickMessages: '/quick-messages',
  kanban: '/Kanban',
  contacts: '/contacts',
  schedules: '/schedules',
  tags: '/tags',
  chats: '/chats',
  helps: '/helps',
  todolist: '/todolist',
  campaignsList: '/campaigns',
  contactLists: '/contact-lists',
  campaignsConfig: '/campaigns-config',
  phraseLists: '/phrase-lists',
  flowbuilders: '/flowbuilders',
  announcements: '/announcements',
  messagesApi: '/messages-api',
  users: '/users',
  queues: '/queues',
  prompts: '/prompts',
  queueIntegration: '/queue-integration',
  connections: '/connections',
  allConnections: '/allConnections',
  files: '/files',
  financeiro: '/financeiro',
  settings: '/settings',
  companies: '/companies',
};

/**
 * What an expired subscription leaves (docs/decisions/D26-app-shell-side-menu.md): Financeiro, where the invoice is
 * paid (for whoever sees it normally), and the to-do list, which lives in the browser and needs no server.
 */
export const EXPIRED_ENTRIES: readonly MenuLinkId[] = ['financeiro', 'todolist'];

const link = (id: MenuLinkId, extra: Partial<MenuLink> = {}): MenuLink => ({
  type: 'link',
  id,
  href: MENU_HREFS[id],
  ...extra,
});

/** Keeps the entries whose condition holds. */
const when = <T>(...entries: [boolean, T][]): T[] => entries.flatMap(([shown, entry]) => (shown ? [entry] : []));

export function menuFor(user: MenuUser, plan: PlanFlags, facts: MenuFacts): MenuEntry[] {
  // A plain user counts as admin for single areas when their switch is on (core spec §6).
  const dashboard = can(roleWith(user, user.showDashboard), 'dashboard:view');
  const realTime = can(roleWith(user, user.allowRealTime), 'dashboard:view');
  const admin = can(roleWith(user, user.allowConnections), 'drawer-admin-items:view');
  const owner = user.super === true;

  const management = when<MenuLink>(
    [dashboard, link('dashboard')],
    [dashboard, link('reports')],
    [realTime, link('moments')],
  );

  const service = when<MenuLink>(
    [true, link('tickets')],
    [true, link('quickMessages')],
    [plan.useKanban, link('kanban')],
    [true, link('contacts')],
    [plan.useSchedules, link('schedules')],
    [true, link('tags')],
    [plan.useInternalChat, link('chats')],
    [facts.helpsExist, link('helps')],
    [true, link('todolist')],
  );

  const campaigns: MenuGroup = {
    type: 'group',
    id: 'campaigns',
    href: MENU_HREFS.campaignsList,
    items: [link('campaignsList'), link('contactLists'), link('campaignsConfig')],
  };
  const flowbuilder: MenuGroup = {
    type: 'group',
    id: 'flowbuilder',
    href: MENU_HREFS.flowbuilders,
    items: [link('phraseLists'), link('flowbuilders')],
  };

  const administration = when<MenuLink | MenuGroup>(
    [admin && plan.useCampaigns && facts.campaignsEnabled, campaigns],
    [admin, flowbuilder],
    [admin && owner, link('announcements')],
    [admin && plan.useExternalApi, link('messagesApi')],
    [admin, link('users')],
    [admin, link('queues')],
    [admin && plan.useOpenAi, link('prompts')],
    [admin && plan.useIntegrations, link('queueIntegration')],
    [admin, link('connections', facts.connectionsNeedAttention ? { attention: true } : {})],
    [admin && owner, link('allConnections')],
    [admin, link('files')],
    [admin, link('financeiro')],
    [admin, link('settings')],
    [admin && owner, link('companies')],
  );

  const menu = when<MenuEntry>(
    [management.length > 0, { type: 'section', id: 'management', items: management }],
    ...service.map((entry): [boolean, MenuEntry] => [true, entry]),
    [administration.length > 0, { type: 'section', id: 'administration', items: administration }],
  );
  return facts.expired ? keepOnly(menu, EXPIRED_ENTRIES) : menu;
}

/** The menu reduced to the given links; sections and groups left empty disappear. */
function keepOnly(menu: MenuEntry[], ids: readonly MenuLinkId[]): MenuEntry[] {
  return menu.flatMap((entry): MenuEntry[] => {
    if (entry.type === 'link') return ids.includes(entry.id) ? [entry] : [];
    const items = keepOnly(entry.items, ids) as (MenuLink | MenuGroup)[];
    return items.length > 0 ? [{ ...entry, items } as MenuEntry] : [];
  });
}

/** Every link of a menu, in order, groups and sections flattened (tests and the active-link lookup). */
export const linksOf = (menu: MenuEntry[]): MenuLink[] =>
  menu.flatMap((entry) => (entry.type === 'link' ? [entry] : linksOf(entry.items)));
