import type { AuthUser } from '@/api/auth';
import type { CompanyPlan } from '@/api/plans';
import { json, type Route } from './fake-api';

/** A plan with every feature on (override flags to test gating). */
export const fullPlan = (overrides: Partial<CompanyPlan> = {}): CompanyPlan => ({
  id: 1,
  name: 'Profissional',
  users: 10,
  connections: 3,
  queues: 10,
  amount: 149,
  isPublic: true,
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
  ...overrides,
});

/**
 * What the app shell asks the server around every private page: the signed-in user (after a reload), the
 * company's plan and the version. Spread into a fakeApi table next to the page's own routes.
 */
export const shellRoutes = (me: AuthUser, plan: CompanyPlan = fullPlan()): Record<string, Route> => ({
  'GET /auth/me': () => json(200, me),
  [`GET /companies/listPlan/${me.companyId}`]: () => json(200, { plan }),
  'GET /version': () => json(200, { version: '7.0.0' }),
});
