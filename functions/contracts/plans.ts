/**
 * Plans on the wire (core spec §3 Plan, §6; administration §6): what GET /plans/list and
 * GET /companies/listPlan/{companyId} answer. Shared by functions/core/plans and frontend/src/api.
 */
/** The plan switches that gate menu items and pages. */
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

/** A plan: its limits, price and flags. */
export interface PlanView extends PlanFlags {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  amount: number;
  isPublic: boolean;
}

/** GET /companies/listPlan/{companyId}. */
export interface CompanyPlanAnswer {
  plan: PlanView;
}
