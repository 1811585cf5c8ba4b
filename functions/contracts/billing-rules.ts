/**
 * The billing rules the server and the browser both apply (no zod here, so the screens import them without
 * the validation library; decisions D152, D154).
 */
/** The recurrences and the months each adds to the due date (core §9, administration §4). */
export const RECURRENCE_MONTHS = { MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 } as const;
export type RecurrenceName = keyof typeof RECURRENCE_MONTHS;

/** Custom plan pricing (core §9, administration §9): base 49 BRL a month, +11 per extra user, +20 per extra connection. */
export const CUSTOM_PLAN = { base: 49, perUser: 11, perConnection: 20, minUsers: 3, minConnections: 3 } as const;

/** The custom plan's monthly price for counters that cannot go below 3. */
export const customPlanPrice = (users: number, connections: number): number =>
  CUSTOM_PLAN.base +
  CUSTOM_PLAN.perUser * Math.max(0, users - CUSTOM_PLAN.minUsers) +
  CUSTOM_PLAN.perConnection * Math.max(0, connections - CUSTOM_PLAN.minConnections);
