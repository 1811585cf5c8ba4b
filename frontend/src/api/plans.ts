import { api } from './transport';

/** The plan switches that gate menu items and pages (core spec §3 Plan, §6; administration §6). */
export interface PlanFlags {
  useWhatsapp: boolean;
  useFacebook: boolean;
  useInstagram: boolean;
  useCampaigns: boolean;
  useSchedules: boolean;
  useInternalChat: boolean;
  useExternalApi: boolean;
  useKanban: boolean;
  useOpenAi: boolean;
  useIntegrations: boolean;
}

/** A company's plan as GET /companies/listPlan/{companyId} answers it: limits, price and the flags. */
export interface CompanyPlan extends PlanFlags {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  amount: number;
  isPublic: boolean;
}

/** Every flag off: what the menu assumes until the plan has loaded (or when it cannot be read). */
export const NO_PLAN_FLAGS: PlanFlags = {
  useWhatsapp: false,
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

/**
 * GET /companies/listPlan/{companyId}: the company's plan. Callers read their own company's plan (the
 * platform owner any); the server answers `{plan}`.
 */
export const getCompanyPlan = async (companyId: number, options?: { signal?: AbortSignal }): Promise<CompanyPlan> =>
  (await api().get<{ plan: CompanyPlan }>(`/companies/listPlan/${companyId}`, options)).plan;
