import type { CompanyPlanAnswer, PlanFlags, PlanView } from '@contracts/plans';
import { api } from './transport';

/**
 * Plans (core spec §3 Plan, §6; administration §6): the wire shapes are the server's contract
 * (functions/contracts/plans.ts).
 */
export type { PlanFlags };
/** A company's plan as GET /companies/listPlan/{companyId} answers it: limits, price and the flags. */
export type CompanyPlan = PlanView;

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
  (await api().get<CompanyPlanAnswer>(`/companies/listPlan/${companyId}`, options)).plan;
