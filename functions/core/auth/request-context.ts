import { PLAN_FLAGS, SUPER_COMPANY_ID, USER_FLAGS, type AuthContext, type UserFlag } from '../../shared/auth-context';
import type { VerifiedAccessToken } from '../access-token';
import { Forbidden } from '../../shared/errors';
import { getPlan, type Plan } from '../../data/plan-repository';
import { getUserAndCompany, type SessionUser } from '../../data/session-repository';
import type { Company } from '../../data/company-repository';

/**
 * Who is calling, resolved once per authenticated request (issue 3, item 2): one strongly consistent
 * BatchGet of the user and the company, and the plan from a 60 s per-container cache (plans change rarely).
 * The user and company are not cached: a login elsewhere must end this session at once, and a paid invoice
 * must lift the expiry at once.
 */
export const PLAN_CACHE_MS = 60_000;

/** The spec's "now is before the dueDate", by calendar day (UTC): the due date itself is still usable. */
export const isSubscriptionExpired = (company: Pick<Company, 'id' | 'dueDate'>, now = new Date()): boolean =>
  company.id !== SUPER_COMPANY_ID && company.dueDate.slice(0, 10) < now.toISOString().slice(0, 10);

/**
 * A company switched off by the platform owner (`status: false`; deleted companies too) can neither log
 * in, refresh, nor use a token it still holds (D21). Company 1 is never inactive, like it never expires.
 */
export const isCompanyInactive = (company: Pick<Company, 'id' | 'status'>): boolean =>
  company.id !== SUPER_COMPANY_ID && company.status === false;

const on = (v: unknown): boolean => v === true || v === 'enabled' || v === 'enable';

/** The stored flags ('enabled' / 'enable' / true) as booleans. */
export const userFlagsOf = (user: Partial<Record<UserFlag, unknown>>): AuthContext['userFlags'] =>
  Object.fromEntries(USER_FLAGS.filter((f) => user[f] !== undefined).map((f) => [f, on(user[f])]));

export const planFlagsOf = (plan: Plan | null): AuthContext['planFlags'] =>
  plan ? Object.fromEntries(PLAN_FLAGS.map((f) => [f, plan[f] !== false])) : {};

const plans = new Map<number, { plan: Promise<Plan | null>; at: number }>();

const cachedPlan = (planId: number, now = Date.now()): Promise<Plan | null> => {
  const hit = plans.get(planId);
  if (hit && now - hit.at < PLAN_CACHE_MS) return hit.plan;
  const plan = getPlan(planId);
  plans.set(planId, { plan, at: now });
  plan.catch(() => plans.delete(planId));
  return plan;
};

const sessionExpired = () => new Forbidden('ERR_SESSION_EXPIRED', 'Session expired');

/**
 * A token is only as good as its session: the user must exist and the token's `sid` must be the user's
 * current session (none for none). A kicked or logged-out session answers 403 ERR_SESSION_EXPIRED, so the
 * client refreshes once and the refresh's 401 ends it (D9, D18).
 */
export const checkSession = (claims: Pick<VerifiedAccessToken, 'sessionId'>, user: SessionUser | null): void => {
  if (!user || (claims.sessionId ?? null) !== (user.sessionId ?? null)) throw sessionExpired();
};

export const resolveAuthContext = async (
  claims: VerifiedAccessToken,
  route: { allowExpired?: boolean },
): Promise<AuthContext> => {
  const { user, company } = await getUserAndCompany(claims.companyId, claims.userId);
  checkSession(claims, user);
  if (!company) throw sessionExpired();
  if (isCompanyInactive(company)) throw new Forbidden('ERR_COMPANY_INACTIVE', 'The company is inactive');
  if (!route.allowExpired && isSubscriptionExpired(company)) {
    throw new Forbidden('ERR_SUBSCRIPTION_EXPIRED', `Subscription expired on ${company.dueDate}`, {
      dueDate: company.dueDate,
    });
  }
  const plan = await cachedPlan(company.planId);
  return {
    companyId: company.id,
    userId: user!.id,
    profile: String(user!.profile).toLowerCase() === 'admin' ? 'admin' : 'user',
    super: user!.super === true,
    userFlags: userFlagsOf(user!),
    planFlags: planFlagsOf(plan),
    dueDate: company.dueDate,
  };
};
