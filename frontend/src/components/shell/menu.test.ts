import { describe, expect, it } from 'vitest';
import { NO_PLAN_FLAGS, type PlanFlags } from '@/api/plans';
import { linksOf, menuFor, type MenuFacts, type MenuLinkId, type MenuUser } from './menu';

const ALL_FLAGS: PlanFlags = {
  useWhatsapp: true,
  useFacebook: true,
  useInstagram: true,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
};

const FACTS: MenuFacts = {
  expired: false,
  helpsExist: false,
  campaignsEnabled: false,
  connectionsNeedAttention: false,
};

const admin: MenuUser = {
  profile: 'admin',
  super: false,
  showDashboard: 'disabled',
  allowRealTime: 'disabled',
  allowConnections: 'disabled',
};
const plainUser: MenuUser = { ...admin, profile: 'user' };
const owner: MenuUser = { ...admin, super: true };

const ids = (user: MenuUser, plan: PlanFlags = ALL_FLAGS, facts: Partial<MenuFacts> = {}): MenuLinkId[] =>
  linksOf(menuFor(user, plan, { ...FACTS, ...facts })).map((l) => l.id);

const SERVICE: MenuLinkId[] = [
  'tickets',
  'quickMessages',
  'kanban',
  'contacts',
  'schedules',
  'tags',
  'chats',
  'todolist',
];
const ADMIN_BLOCK: MenuLinkId[] = [
  'phraseLists',
  'flowbuilders',
  'messagesApi',
  'users',
  'queues',
  'prompts',
  'queueIntegration',
  'connections',
  'files',
  'financeiro',
  'settings',
];

describe('menuFor: who sees what', () => {
  it('gives an admin the management block, the service links and the administration block, in order', () => {
    expect(ids(admin)).toEqual(['dashboard', 'reports', 'moments', ...SERVICE, ...ADMIN_BLOCK]);
    expect(menuFor(admin, ALL_FLAGS, FACTS).map((e) => (e.type === 'link' ? e.id : `${e.type}:${e.id}`))).toEqual([
      'section:management',
      ...SERVICE,
      'section:administration',
    ]);
  });

  it('gives a plain user without switches only the service links (no management, no administration)', () => {
    expect(ids(plainUser)).toEqual(SERVICE);
    expect(menuFor(plainUser, ALL_FLAGS, FACTS).some((e) => e.type === 'section')).toBe(false);
  });

  it('treats the profile case-insensitively', () => {
    expect(ids({ ...admin, profile: 'ADMIN' as MenuUser['profile'] })).toEqual(ids(admin));
  });

  it.each<[string, Partial<MenuUser>, MenuLinkId[]]>([
    ['showDashboard: dashboard and reports', { showDashboard: 'enabled' }, ['dashboard', 'reports', ...SERVICE]],
    ['allowRealTime: the real-time panel', { allowRealTime: 'enabled' }, ['moments', ...SERVICE]],
    ['allowConnections: the administration block', { allowConnections: 'enabled' }, [...SERVICE, ...ADMIN_BLOCK]],
    [
      'all three switches: everything an admin sees',
      { showDashboard: 'enabled', allowRealTime: 'enabled', allowConnections: 'enabled' },
      ['dashboard', 'reports', 'moments', ...SERVICE, ...ADMIN_BLOCK],
    ],
  ])('a plain user with %s', (_name, switches, expected) => {
    expect(ids({ ...plainUser, ...switches })).toEqual(expected);
  });

  it('gives the platform owner the super-only entries in the administration block', () => {
    const links = ids(owner);
    expect(links).toEqual([
      'dashboard',
      'reports',
      'moments',
      ...SERVICE,
      'phraseLists',
      'flowbuilders',
      'announcements',
      'messagesApi',
      'users',
      'queues',
      'prompts',
      'queueIntegration',
      'connections',
      'allConnections',
      'files',
      'financeiro',
      'settings',
      'companies',
    ]);
    for (const superOnly of ['announcements', 'allConnections', 'companies'] as const) {
      expect(ids(admin)).not.toContain(superOnly);
    }
  });

  it('gives every link its spec route', () => {
    const hrefs = Object.fromEntries(
      linksOf(menuFor(owner, ALL_FLAGS, { ...FACTS, helpsExist: true, campaignsEnabled: true })).map((l) => [
        l.id,
        l.href,
      ]),
    );
    expect(hrefs).toEqual({
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
    });
  });
});

describe('menuFor: plan flags', () => {
  it.each<[keyof PlanFlags, MenuLinkId[]]>([
    ['useKanban', ['kanban']],
    ['useSchedules', ['schedules']],
    ['useInternalChat', ['chats']],
    ['useOpenAi', ['prompts']],
    ['useIntegrations', ['queueIntegration']],
    ['useExternalApi', ['messagesApi']],
    ['useCampaigns', ['campaignsList', 'contactLists', 'campaignsConfig']],
    ['useWhatsapp', []],
    ['useFacebook', []],
    ['useInstagram', []],
  ])('%s off hides %j and nothing else', (flag, hidden) => {
    const facts = { campaignsEnabled: true };
    const withFlag = ids(owner, ALL_FLAGS, facts);
    const without = ids(owner, { ...ALL_FLAGS, [flag]: false }, facts);
    expect(withFlag.filter((id) => !without.includes(id))).toEqual(hidden);
    expect(without.every((id) => withFlag.includes(id))).toBe(true);
  });

  it('shows no plan-gated entry while the plan is unknown (every flag off)', () => {
    expect(ids(admin, NO_PLAN_FLAGS, { campaignsEnabled: true })).toEqual([
      'dashboard',
      'reports',
      'moments',
      'tickets',
      'quickMessages',
      'contacts',
      'tags',
      'todolist',
      'phraseLists',
      'flowbuilders',
      'users',
      'queues',
      'connections',
      'files',
      'financeiro',
      'settings',
    ]);
  });
});

describe('menuFor: the shell facts', () => {
  it('shows campaigns only with the local flag AND the plan flag, to those who see the administration block', () => {
    const campaignLinks: MenuLinkId[] = ['campaignsList', 'contactLists', 'campaignsConfig'];
    expect(ids(admin, ALL_FLAGS, { campaignsEnabled: false })).not.toContain('campaignsList');
    expect(ids(admin, { ...ALL_FLAGS, useCampaigns: false }, { campaignsEnabled: true })).not.toContain(
      'campaignsList',
    );
    expect(ids(plainUser, ALL_FLAGS, { campaignsEnabled: true })).not.toContain('campaignsList');
    expect(ids(admin, ALL_FLAGS, { campaignsEnabled: true }).filter((id) => campaignLinks.includes(id))).toEqual(
      campaignLinks,
    );
    const administration = menuFor(admin, ALL_FLAGS, { ...FACTS, campaignsEnabled: true }).at(-1);
    expect(administration?.type === 'section' && administration.items[0]).toMatchObject({
      type: 'group',
      id: 'campaigns',
      href: '/campaigns',
    });
  });

  it('shows help only when at least one help entry exists, to everyone', () => {
    expect(ids(plainUser)).not.toContain('helps');
    expect(ids(plainUser, ALL_FLAGS, { helpsExist: true })).toEqual([
      'tickets',
      'quickMessages',
      'kanban',
      'contacts',
      'schedules',
      'tags',
      'chats',
      'helps',
      'todolist',
    ]);
  });

  it('puts the attention badge on Connections only when a connection needs it', () => {
    const connections = (need: boolean) =>
      linksOf(menuFor(admin, ALL_FLAGS, { ...FACTS, connectionsNeedAttention: need })).find(
        (l) => l.id === 'connections',
      );
    expect(connections(false)).toEqual({ type: 'link', id: 'connections', href: '/connections' });
    expect(connections(true)).toEqual({ type: 'link', id: 'connections', href: '/connections', attention: true });
    expect(
      linksOf(menuFor(admin, ALL_FLAGS, { ...FACTS, connectionsNeedAttention: true })).filter((l) => l.attention),
    ).toHaveLength(1);
  });

  it.each<[string, MenuUser, MenuLinkId[]]>([
    ['an admin', admin, ['todolist', 'financeiro']],
    ['the platform owner', owner, ['todolist', 'financeiro']],
    ['a plain user', plainUser, ['todolist']],
    ['a plain user with allowConnections', { ...plainUser, allowConnections: 'enabled' }, ['todolist', 'financeiro']],
  ])(
    'keeps only the to-do list and Financeiro (if seen at all) for %s when the subscription has expired',
    (_n, user, expected) => {
      const facts = { expired: true, helpsExist: true, campaignsEnabled: true, connectionsNeedAttention: true };
      expect(ids(user, ALL_FLAGS, facts)).toEqual(expected);
    },
  );

  it('drops sections left empty by the expiry', () => {
    const menu = menuFor(admin, ALL_FLAGS, { ...FACTS, expired: true });
    expect(menu).toEqual([
      { type: 'link', id: 'todolist', href: '/todolist' },
      { type: 'section', id: 'administration', items: [{ type: 'link', id: 'financeiro', href: '/financeiro' }] },
    ]);
  });
});
