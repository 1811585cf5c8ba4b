import type { AuthUser, PublicPlan } from '@/api/auth';

/** A signed-in admin of company 2 whose subscription runs until 2999. */
export const authUser = (overrides: Partial<AuthUser> = {}): AuthUser => ({
  id: 5,
  companyId: 2,
  name: 'Ana Souza',
  email: 'ana@example.com',
  profile: 'admin',
  super: false,
  startWork: '00:00',
  endWork: '23:59',
  farewellMessage: '',
  allTicket: 'disable',
  allowGroup: false,
  allHistoric: 'disabled',
  allUserChat: 'disabled',
  userClosePendingTicket: 'enabled',
  showDashboard: 'disabled',
  allowRealTime: 'disabled',
  allowConnections: 'disabled',
  defaultTheme: 'light',
  defaultMenu: 'open',
  whatsappId: null,
  queueIds: [],
  queues: [],
  profileImage: null,
  online: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  company: { id: 2, name: 'Padaria Central', dueDate: '2999-12-31' },
  companieSettings: [],
  ...overrides,
});

const FLAGS = {
  isPublic: true,
  useWhatsapp: true,
  useFacebook: false,
  useInstagram: false,
  useCampaigns: false,
  useSchedules: false,
  useInternalChat: false,
  useExternalApi: false,
  useKanban: false,
  useOpenAi: false,
  useIntegrations: false,
};

export const PLANS: PublicPlan[] = [
  { id: 1, name: 'Básico', users: 3, connections: 1, queues: 3, amount: 49, ...FLAGS },
  { id: 2, name: 'Profissional', users: 10, connections: 3, queues: 10, amount: 149, ...FLAGS },
];
