import type { CompanyListAnswer, CompanyView, CreateCompanyBody, UpdateCompanyBody } from '../../contracts/companies';
import { SUPER_COMPANY_ID } from '../../shared/auth-context';
import { BadRequest, NotFound, ValidationError } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import {
  getCompany,
  getCompanyUsage,
  listCompanies,
  markCompanyDeleted,
  updateCompany,
  type Company,
  type CompanyChanges,
} from '../../data/company-repository';
import { getPlan, type Plan } from '../../data/plan-repository';
import { createCompanyWithAdmin } from '../../data/signup-repository';
import { armRenewal } from '../../data/invoice-repository';
import { repriceOpenInvoices } from '../billing/billing-service';
import { isCompanyInactive, isSubscriptionExpired } from '../auth/request-context';
import { disconnectCompany } from '../notifier';
import { hashPassword } from '../passwords';
import { fetchPage, type PagingInput } from '../paging';
import { enqueueCompanyPurge } from './company-purge';

/**
 * Companies, managed by the platform owner (administration §2 "Companies and plans", §3 Company, §5, §7;
 * docs/data-model.md §2.1, §3.1). Every route is `super`. A company switched off (`status: false`) or
 * deleted stops at once: its tokens at the next request (D21), its sockets closed now (D157); a deleted one
 * is then purged by a job (D156).
 */
export const COMPANY_PAGE_SIZE = 20;

const notFound = () => new NotFound('ERR_NO_COMPANY_FOUND', 'Company not found');

const toView = async (c: Company, plans: (id: number) => Promise<Plan | null>): Promise<CompanyView> => {
  const [plan, usage] = await Promise.all([plans(c.planId), getCompanyUsage(c.id)]);
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone ?? '',
    document: c.document ?? '',
    status: c.status !== false,
    planId: c.planId,
    plan: plan
      ? {
          id: plan.id,
          name: plan.name,
          amount: plan.amount,
          useExternalApi: plan.useExternalApi !== false,
          useSchedules: plan.useSchedules !== false,
          useCampaigns: plan.useCampaigns !== false,
        }
      : null,
    recurrence: c.recurrence,
    dueDate: c.dueDate,
    createdAt: c.createdAt,
    lastLogin: c.lastLogin ?? null,
    folderSize: usage.folderSize,
    numberFileFolder: usage.numberFileFolder,
    updatedAtFolder: usage.updatedAtFolder,
    numberAttendants: usage.users,
    numberConections: usage.whatsapps,
  };
};

/** One request's plan reads: each plan once (a page of companies shares a handful of plans). */
const requestPlans = () => {
  const seen = new Map<number, Promise<Plan | null>>();
  return (id: number) => {
    let hit = seen.get(id);
    if (!hit) {
      hit = getPlan(id);
      seen.set(id, hit);
    }
    return hit;
  };
};

/** GET /companiesPlan, /companies, /companies/list: a page, by name when searched, else by id. */
export const listCompanyPage = async (
  input: PagingInput & { searchParam?: string | undefined },
): Promise<CompanyListAnswer> => {
  const page = await fetchPage(input, COMPANY_PAGE_SIZE, (cursor) =>
    listCompanies({ search: input.searchParam, limit: COMPANY_PAGE_SIZE, cursor }),
  );
  const plans = requestPlans();
  return {
    companies: await Promise.all(page.items.map((c) => toView(c, plans))),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

const findCompany = async (id: number): Promise<Company> => {
  const c = await getCompany(id);
  if (!c || c.deletedAt) throw notFound();
  return c;
};

/** GET /companies/{id}. */
export const showCompany = async (id: number): Promise<CompanyView> => toView(await findCompany(id), requestPlans());

const requirePlan = async (planId: number): Promise<Plan> => {
  const plan = await getPlan(planId);
  if (!plan) throw new ValidationError([{ field: 'body.planId', reason: 'Plano é obrigatório' }]);
  return plan;
};

const addMonths = (months: number, now = new Date()): string => {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

/**
 * POST /companies: the company, its first admin (the company's e-mail, `passwordDefault`) and the name
 * guard in one transaction — a taken name (409 ERR_COMPANY_NAME_ALREADY_EXISTS) or e-mail
 * (409 ERR_EMAIL_ALREADY_EXISTS) writes nothing. Company settings start at their defaults (read with
 * defaults, nothing to write). Without a due date the company is paid a month ahead.
 */
export const createPlatformCompany = async (body: CreateCompanyBody): Promise<CompanyView> => {
  const plan = await requirePlan(body.planId);
  const { company } = await createCompanyWithAdmin(
    {
      name: body.name,
      email: body.email,
      phone: body.phone ?? '',
      document: body.document ?? '',
      planId: plan.id,
      status: body.status ?? true,
      recurrence: body.recurrence ?? 'MENSAL',
      dueDate: body.dueDate ?? addMonths(1),
    },
    { name: body.name, email: body.email, passwordHash: await hashPassword(body.passwordDefault) },
    { nameGuard: true },
  );
  return toView(company, requestPlans());
};

/**
 * PUT /companies/{id}: name, contact, plan, status, due date, recurrence. Switching a company off closes
 * its sockets at once; its tokens stop at their next request. The platform's own company cannot be
 * switched off (it is never inactive, D21).
 */
export const updatePlatformCompany = async (id: number, body: UpdateCompanyBody): Promise<CompanyView> => {
  const current = await findCompany(id);
  if (body.planId !== undefined && body.planId !== current.planId) await requirePlan(body.planId);
  if (id === SUPER_COMPANY_ID && body.status === false) {
    throw new BadRequest('ERR_VALIDATION', 'The platform company cannot be switched off', [
      { field: 'body.status', reason: 'the platform company is always active' },
    ]);
  }
  const changes: CompanyChanges = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.email !== undefined ? { email: body.email } : {}),
    ...(body.phone !== undefined ? { phone: body.phone } : {}),
    ...(body.document !== undefined ? { document: body.document } : {}),
    ...(body.planId !== undefined ? { planId: body.planId } : {}),
    ...(body.status !== undefined ? { status: body.status } : {}),
    ...(body.recurrence !== undefined ? { recurrence: body.recurrence } : {}),
    ...(body.dueDate !== undefined ? { dueDate: body.dueDate } : {}),
  };
  const saved = await updateCompany(current, changes);
  // Billing (D152): a new due date moves the renewal timer with it; a new plan reprices the open invoices
  // and their pending charges together, so a charge never asks another amount than its invoice.
  if (saved.dueDate !== current.dueDate) await armRenewal(id, saved.dueDate);
  if (saved.planId !== current.planId) await repriceOpenInvoices(id);
  // Switched off, or given a due date already past: its sockets close now (D157).
  if (isCompanyInactive(saved) || isSubscriptionExpired(saved)) await closeSockets(id);
  return toView(saved, requestPlans());
};

const closeSockets = async (companyId: number): Promise<void> => {
  try {
    await disconnectCompany(companyId);
  } catch (err) {
    // The edit stands: every request and every new $connect of the company is refused from now on; a
    // socket left open lives until API Gateway's idle (10 min) or maximum (2 h) limit.
    logger.warn('company sockets not closed', { companyId, ...errorFields(err) });
  }
};

/**
 * DELETE /companies/{id}: `deletedAt` + `status: false` at once (logins, tokens and sockets stop), then the
 * purge job removes its items, media and sessions (D156). The platform's own company cannot be deleted.
 */
export const deletePlatformCompany = async (id: number): Promise<void> => {
  if (id === SUPER_COMPANY_ID) {
    throw new BadRequest('ERR_VALIDATION', 'The platform company cannot be deleted', [
      { field: 'params.id', reason: 'the platform company cannot be deleted' },
    ]);
  }
  const company = await getCompany(id);
  if (!company) throw notFound();
  // Deleting again (after a failure to enqueue the purge) marks nothing more and enqueues the purge again.
  if (!company.deletedAt) await markCompanyDeleted(id);
  await closeSockets(id);
  await enqueueCompanyPurge({ companyId: id });
};
