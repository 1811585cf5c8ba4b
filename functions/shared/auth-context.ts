/**
 * Who is calling, resolved once per request by the handler stack and passed to every service.
 * Issue 3 (accounts) resolves the per-user and plan flags from the stored user and company; the
 * foundation fills what the access token carries.
 */
export interface AuthContext {
  companyId: number;
  userId: number;
  /** Lower-cased: the spec compares profiles case-insensitively. */
  profile: 'admin' | 'user';
  super: boolean;
  /** Per-user flags from the spec (allTicket, allowGroup, ...); absent means the spec's default. */
  userFlags: Partial<Record<UserFlag, boolean>>;
  /** The company plan's use* flags; absent means not yet resolved (treated as enabled). */
  planFlags: Partial<Record<PlanFlag, boolean>>;
  /** The company's due date (yyyy-mm-dd) as resolved for this request; the socket keeps it (D157). */
  dueDate?: string;
}

/** The spec's per-user permission fields (core §6). */
export const USER_FLAGS = [
  'allTicket',
  'allowGroup',
  'allHistoric',
  'allUserChat',
  'userClosePendingTicket',
  'showDashboard',
  'allowRealTime',
  'allowConnections',
] as const;

export type UserFlag = (typeof USER_FLAGS)[number];

/** The super company: its super users run the platform. */
export const SUPER_COMPANY_ID = 1;

/** Every plan flag the spec names (core §3, Plan); a route may be gated by one (functions/routes.ts). */
export const PLAN_FLAGS = [
  'useWhatsapp',
  'useFacebook',
  'useInstagram',
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
] as const;

export type PlanFlag = (typeof PLAN_FLAGS)[number];
