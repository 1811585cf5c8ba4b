import type { PlanFlag } from '../../routes';

/** Every plan flag the spec names (core §3, Plan). */
export const PLAN_FLAGS: readonly PlanFlag[] = [
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
];
