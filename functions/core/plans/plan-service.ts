import type { CompanyPlanAnswer, PlanView } from '../../contracts/plans';
import type { AuthContext } from '../../shared/auth-context';
import type { SameKeys } from '../../shared/same-keys';
import { NotFound } from '../../shared/errors';
import { getCompany } from '../../data/company-repository';
import { getPlan, listPlans, type Plan } from '../../data/plan-repository';

/** A plan as callers see it (the spec's Plan fields): the stored plan without its timestamps. */
const _sameKeys: SameKeys<Omit<Plan, 'createdAt' | 'updatedAt'>, PlanView> = true;

const view = ({ createdAt: _c, updatedAt: _u, ...plan }: Plan): PlanView => plan;

/** GET /plans/list — the plans a visitor may sign up for (public, no token). */
export const listPublicPlans = async (): Promise<PlanView[]> => (await listPlans()).filter((p) => p.isPublic).map(view);

/**
 * GET /companies/listPlan/{companyId} — the company's plan with its use* flags (the menu and the pages
 * gate on them). Callers read their own company's plan; the platform owner reads any; anyone else's id
 * answers 404 like a missing company.
 */
export const companyPlan = async (auth: AuthContext, companyId: number): Promise<CompanyPlanAnswer> => {
  if (companyId !== auth.companyId && !auth.super) throw new NotFound('ERR_NO_COMPANY_FOUND', 'Company not found');
  const company = await getCompany(companyId);
  if (!company) throw new NotFound('ERR_NO_COMPANY_FOUND', 'Company not found');
  const plan = await getPlan(company.planId);
  if (!plan) throw new NotFound('ERR_NO_PLAN_FOUND', 'Plan not found');
  return { plan: view(plan) };
};
