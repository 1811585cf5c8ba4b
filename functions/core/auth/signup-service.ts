import { Forbidden, TooManyRequests, ValidationError } from '../../shared/errors';
import { hashPassword } from '../passwords';
import { GLOBAL_SETTINGS } from '../settings/global-settings';
import { getPlan } from '../../data/plan-repository';
import { takeRateLimitSlot, type RateLimit } from '../../data/rate-limit-repository';
import { getGlobalSetting } from '../../data/settings-repository';
import { createCompanyWithAdmin } from '../../data/signup-repository';

/**
 * POST /auth/signup (core spec §7): a new company on a chosen public plan, with its admin user. The
 * company starts with a free trial of TRIAL_DAYS (docs/decisions/D19-sign-up.md), monthly recurrence.
 */
export const TRIAL_DAYS = 7;

/** Sign-ups per IP: generous for an office, tight for a script creating tenants. */
export const SIGNUP_LIMIT = { scope: 'signup-ip', max: 10, windowSeconds: 60 * 60 } as const satisfies RateLimit;

export interface SignupInput {
  name: string;
  companyName: string;
  email: string;
  password: string;
  phone: string;
  planId: number;
  sourceIp: string;
}

const addDays = (days: number, now = new Date()): string =>
  new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);

export const signup = async (input: SignupInput): Promise<{ companyId: number; userId: number; dueDate: string }> => {
  const creation = (await getGlobalSetting('userCreation'))?.value ?? GLOBAL_SETTINGS.userCreation.default;
  if (creation === 'disabled')
    throw new Forbidden('ERR_USER_CREATION_DISABLED', 'Sign-up is disabled by the administrator');
  const plan = await getPlan(input.planId);
  if (!plan || !plan.isPublic) throw new ValidationError([{ field: 'body.planId', reason: 'not an available plan' }]);
  const slot = await takeRateLimitSlot(SIGNUP_LIMIT, input.sourceIp);
  if (!slot.allowed) throw new TooManyRequests(slot.retryAfterSeconds);

  const dueDate = addDays(TRIAL_DAYS);
  const { company, admin } = await createCompanyWithAdmin(
    {
      name: input.companyName,
      email: input.email,
      phone: input.phone,
      document: '',
      planId: plan.id,
      status: true,
      recurrence: 'MENSAL',
      dueDate,
    },
    { name: input.name, email: input.email, passwordHash: await hashPassword(input.password) },
  );
  return { companyId: company.id, userId: admin.id, dueDate };
};
