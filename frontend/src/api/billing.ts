import type {
  CreatePlanBody,
  InvoicePage,
  InvoiceView,
  PaymentEventPayload,
  PaymentResult,
  SubscriptionBody,
} from '@contracts/billing';
import type { CUSTOM_PLAN as SERVER_CUSTOM_PLAN } from '@contracts/billing-rules';
import type { PlanView } from '@contracts/plans';
import { api } from './transport';

/**
 * Plans (the owner), invoices and checkout (administration §7 "Companies and plans", "Invoices and
 * checkout"; server: functions/http/billing; decisions D151–D154).
 */
export type Plan = PlanView;
export type PlanInput = CreatePlanBody;
export type Invoice = InvoiceView;
export type { InvoicePage, PaymentEventPayload, PaymentResult };
export type SubscriptionInput = Omit<SubscriptionBody, 'plan'> & { plan?: unknown };

/**
 * Custom plan pricing (core §9) as the server applies it (functions/contracts/billing-rules.ts): base 49,
 * +11 per user and +20 per connection above 3. The type check keeps the numbers the server's.
 */
export const CUSTOM_PLAN: typeof SERVER_CUSTOM_PLAN = {
  base: 49,
  perUser: 11,
  perConnection: 20,
  minUsers: 3,
  minConnections: 3,
};
export const customPlanPrice = (users: number, connections: number): number =>
  CUSTOM_PLAN.base +
  CUSTOM_PLAN.perUser * Math.max(0, users - CUSTOM_PLAN.minUsers) +
  CUSTOM_PLAN.perConnection * Math.max(0, connections - CUSTOM_PLAN.minConnections);

interface CallOptions {
  signal?: AbortSignal;
}

const planPath = (id: number) => `/plans/${encodeURIComponent(String(id))}`;

/** GET /plans/all: every plan, public or not (the owner). */
export const listAllPlans = (options: CallOptions = {}): Promise<Plan[]> => api().get<Plan[]>('/plans/all', options);
export const createPlan = (input: PlanInput): Promise<Plan> => api().post<Plan>('/plans', input);
export const updatePlan = (id: number, input: Partial<PlanInput>): Promise<Plan> =>
  api().put<Plan>(planPath(id), input);
export const deletePlan = (id: number): Promise<{ message: string }> => api().delete<{ message: string }>(planPath(id));

/** GET /invoices/all: the company's invoices, newest first. */
export const listInvoices = (
  query: { searchParam?: string; pageNumber?: number; cursor?: string } = {},
  options: CallOptions = {},
): Promise<InvoicePage> =>
  api().get<InvoicePage>('/invoices/all', {
    ...options,
    query: { searchParam: query.searchParam || undefined, pageNumber: query.pageNumber, cursor: query.cursor },
  });

/** POST /subscription: a charge for the invoice; the answer holds the PIX code and provider links. */
export const subscribe = (input: SubscriptionInput): Promise<PaymentResult> =>
  api().post<PaymentResult>('/subscription', input);
