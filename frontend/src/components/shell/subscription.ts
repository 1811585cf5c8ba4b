import { isSubscriptionExpired, SUPER_COMPANY_ID, type AuthUser } from '@/api/auth';

/** Core spec §9: the warning appears when fewer than 5 days remain. */
export const SUBSCRIPTION_WARNING_DAYS = 5;

const DAY_MS = 24 * 60 * 60 * 1000;

/** `2026-01-31` or `2026-01-31T…` -> the UTC midnight of that calendar day. */
const calendarDay = (date: string): number => {
  const [y, m, d] = date.slice(0, 10).split('-').map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
};

/** Whole days from today (UTC calendar day, the server's rule) to the due date: 0 on the due date itself. */
export const daysUntilDue = (dueDate: string, now = new Date()): number =>
  Math.round((calendarDay(dueDate) - calendarDay(now.toISOString())) / DAY_MS);

/** dd/MM/yyyy, read from the date itself so no time zone can move it a day. */
export const formatDueDate = (dueDate: string): string => {
  const [y, m, d] = dueDate.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
};

export type SubscriptionStatus =
  { kind: 'active' } | { kind: 'dueSoon'; days: number } | { kind: 'expired'; dueDate: string };

/** Core spec §4: expired after the due date, a warning under 5 days; the super company never sees either. */
export const subscriptionStatus = (company: AuthUser['company'], now = new Date()): SubscriptionStatus => {
  if (company.id === SUPER_COMPANY_ID) return { kind: 'active' };
  if (isSubscriptionExpired(company, now)) return { kind: 'expired', dueDate: company.dueDate };
  const days = daysUntilDue(company.dueDate, now);
  return days < SUBSCRIPTION_WARNING_DAYS ? { kind: 'dueSoon', days } : { kind: 'active' };
};
