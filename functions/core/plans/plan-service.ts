import type { CompanyPlanAnswer, PlanView } from '../../contracts/plans';
import type { AuthContext } from '../../shared/auth-context';
import type { SameKeys } from '../../shared/same-keys';
import type { CreatePlanBody, UpdatePlanBody } from '../../contracts/billing';
import { Conflict, NotFound } from '../../shared/errors';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';
import { getCompany } from '../../data/company-repository';
import {
  companiesOnPlan,
  createPlanNamed,
  deletePlanItem,
  getPlan,
  listPlans,
  planNotFound,
  updatePlanItem,
  type Plan,
  type PlanInput,
} from '../../data/plan-repository';
import { repriceOpenInvoices } from '../billing/billing-service';

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

/** GET /plans/all — every plan, public or not (the platform owner's list). */
export const listAllPlans = async (): Promise<PlanView[]> => (await listPlans()).map(view);

/** POST /plans — a unique name (409 'Não foi possível realizar a operação' when taken; decisions D151). */
export const createPlatformPlan = async (input: CreatePlanBody): Promise<PlanView> =>
  view(await createPlanNamed(input));

/**
 * PUT /plans/{id} — only the fields sent change. A new amount reprices every open invoice of the
 * companies on the plan and their pending charges together (DESIGN §12; decisions D152).
 */
export const updatePlatformPlan = async (id: number, input: UpdatePlanBody): Promise<PlanView> => {
  const { id: _ignored, ...changes } = input;
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<PlanInput>;
  const updated = await withRetry(CHANGED_MEANWHILE, async () => {
    const before = await getPlan(id, { consistent: true });
    if (!before) throw planNotFound();
    return Object.keys(defined).length === 0 ? before : updatePlanItem(before, defined);
  });
  if (defined.amount !== undefined) {
    for (const companyId of await companiesOnPlan(id)) await repriceOpenInvoices(companyId);
  }
  return view(updated);
};

/** DELETE /plans/{id} — refused (409) while a company is on it (decisions D151). */
export const deletePlatformPlan = async (id: number): Promise<void> => {
  const plan = await getPlan(id, { consistent: true });
  if (!plan) throw planNotFound();
  if ((await companiesOnPlan(id, 1)).length > 0) {
    throw new Conflict('ERR_PLAN_IN_USE', 'Não foi possível realizar a operação', { hint: 'plan in use' });
  }
  await deletePlanItem(plan);
};
