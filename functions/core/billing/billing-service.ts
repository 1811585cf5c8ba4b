import { randomBytes } from 'node:crypto';
import {
  customPlanPrice,
  invoiceDisplayStatus,
  RECURRENCE_MONTHS,
  type InvoicePage,
  type InvoiceView,
  PROVIDER_URL_FIELD,
  type PaymentProviderName,
  type PaymentProvidersView,
  type PaymentResult,
  type SubscriptionBody,
} from '../../contracts/billing';
import type { AuthContext } from '../../shared/auth-context';
import { BadRequest, Conflict } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { CHANGED_MEANWHILE, withRetry } from '../../shared/retry';
import { getCompany, type Company, type Recurrence } from '../../data/company-repository';
import {
  attachCharge,
  claimPaymentEvent,
  closeCharge,
  createPeriodInvoice,
  dueRenewals,
  getCharge,
  getInvoice,
  invoiceAlreadyPaid,
  invoiceNotFound,
  listInvoicePage,
  listOpenCharges,
  listOpenInvoices,
  markInvoicePaid,
  RENEWAL_LEAD_DAYS,
  releasePaymentEvent,
  repriceInvoice,
  type Charge,
  type Invoice,
} from '../../data/invoice-repository';
import { getPlan, type Plan } from '../../data/plan-repository';
import { ReadScope } from '../../data/read-scope';
import { fetchPage, type PagingInput } from '../paging';
import { publish, everyone } from '../notifier';
import { companyTimeZone } from '../settings/company-settings';
import { todayIn } from '../tags/kanban-service';
import {
  PaymentProviderError,
  type ChargeRequest,
  type CreatedCharge,
  type PaymentProvider,
  type WebhookRequest,
} from './payment-provider';
import { offeredProviders, providerNamed } from './providers';

/**
 * Invoices, checkout and payment (DESIGN §12; administration §2 "Invoices and subscription", §4; decisions
 * D152, D153). One state machine: an invoice is made `open` for a period by the renewal timer, gets a charge
 * at the checkout (its amount always the invoice's), and becomes `paid` only in markInvoicePaid's
 * transaction, which also moves the company's due date by its recurrence — whether a webhook or the
 * reconcile job saw the payment first.
 */
export const INVOICE_PAGE_SIZE = 20;

/** yyyy-mm-dd plus whole months, the day clamped to the month's end (31 Jan + 1 month = 28/29 Feb). */
export const addMonths = (day: string, months: number): string => {
  const [y, m, d] = day.slice(0, 10).split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
};

export const nextDueDate = (dueDate: string, recurrence: Recurrence): string =>
  addMonths(dueDate, RECURRENCE_MONTHS[recurrence] ?? 1);

/** The invoice's price: the plan's monthly amount times the months the recurrence pays. */
export const periodValue = (amount: number, recurrence: Recurrence): number =>
  Math.round(amount * (RECURRENCE_MONTHS[recurrence] ?? 1) * 100) / 100;

const planDetail = (plan: Plan) => `${plan.name}`;

const toView = (invoice: Invoice, today: string): InvoiceView => ({
  id: invoice.id,
  detail: invoice.detail,
  users: invoice.users,
  connections: invoice.connections,
  queues: invoice.queues,
  value: invoice.value,
  dueDate: invoice.dueDate,
  status: invoice.status,
  displayStatus: invoiceDisplayStatus(invoice, today),
  planId: invoice.planId,
  recurrence: invoice.recurrence,
  ...(invoice.paidAt ? { paidAt: invoice.paidAt } : {}),
  createdAt: invoice.createdAt,
});

const todayOf = async (companyId: number, now = new Date()): Promise<string> =>
  todayIn(await companyTimeZone(new ReadScope(), companyId), now);

/** GET /invoices/all — the caller's company's invoices, newest first, with the spec's display status. */
export const listInvoices = async (auth: AuthContext, paging: PagingInput): Promise<InvoicePage> => {
  const page = await fetchPage(paging, INVOICE_PAGE_SIZE, (cursor) =>
    listInvoicePage(auth.companyId, INVOICE_PAGE_SIZE, cursor),
  );
  const today = await todayOf(auth.companyId);
  return {
    invoices: page.items.map((i) => toView(i, today)),
    hasMore: page.hasMore,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
};

/**
 * The renewal timer of one company came due: the invoice for the period ending on its due date, at the
 * plan's value now — once per (company, period). Skipped (left armed) when the company's own "today" has
 * not reached dueDate − 10 days yet (its zone is behind UTC).
 */
export const invoiceForPeriod = async (companyId: number, now = new Date()): Promise<Invoice | null> => {
  const c = await getCompany(companyId);
  if (!c || c.status === false || c.id === 1) return null;
  const plan = await getPlan(c.planId);
  if (!plan) return null;
  // The company's own "today" (its zone may still be on the day before the UTC bucket's day).
  if ((await todayOf(c.id, now)) < addMonthsDays(c.dueDate, -RENEWAL_LEAD_DAYS)) return null;
  const recurrence = (c.recurrence in RECURRENCE_MONTHS ? c.recurrence : 'MENSAL') as Recurrence;
  return createPeriodInvoice(c, {
    detail: planDetail(plan),
    users: plan.users,
    connections: plan.connections,
    queues: plan.queues,
    value: periodValue(plan.amount, recurrence),
    planId: plan.id,
    recurrence,
  }).catch((err: unknown) => {
    // The due date moved meanwhile (a payment): the payment re-armed the timer for the next period.
    if (err instanceof Conflict) return null;
    throw err;
  });
};

const addMonthsDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day.slice(0, 10)}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);

const previousDay = (day: string): string =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * The billing tick's invoice half: today's and yesterday's UTC day buckets of the renewal timers (a timer
 * is armed into today's bucket when its day has passed, so two days cover a missed tick at midnight).
 */
export const runInvoiceTick = async (now = new Date()): Promise<number> => {
  const today = now.toISOString().slice(0, 10);
  const ids = [...new Set([...(await dueRenewals(previousDay(today))), ...(await dueRenewals(today))])];
  let made = 0;
  for (const id of ids) {
    try {
      if (await invoiceForPeriod(id, now)) made += 1;
    } catch (err) {
      logger.error('invoice for period failed', { companyId: id, error: String(err) });
    }
  }
  return made;
};

const chargeReference = (invoiceId: number): string =>
  `zd${String(invoiceId).padStart(10, '0')}${randomBytes(10).toString('hex')}`.slice(0, 35);

/** GET /subscription/providers — what the checkout offers (decisions D168). */
export const listOfferedProviders = async (): Promise<PaymentProvidersView> => ({
  providers: await offeredProviders(),
});

/** The provider a checkout uses: the one asked for when offered, else PIX when offered, else the first. */
const checkoutProvider = async (asked: PaymentProviderName | undefined): Promise<PaymentProvider> => {
  const offered = await offeredProviders();
  if (offered.length === 0) throw new BadRequest('ERR_NO_PAYMENT_PROVIDER', 'No payment provider is configured');
  if (asked && !offered.includes(asked)) {
    throw new BadRequest('ERR_VALIDATION', 'Forma de pagamento indisponível', [
      { field: 'body.provider', reason: 'Forma de pagamento indisponível' },
    ]);
  }
  const name = asked ?? (offered.includes('efi') ? 'efi' : offered[0]!);
  const provider = await providerNamed(name);
  if (!provider) throw new BadRequest('ERR_NO_PAYMENT_PROVIDER', 'No payment provider is configured');
  return provider;
};

const chargeRequest = (invoice: Invoice, amount: number, payer: ChargeRequest['payer']): ChargeRequest => ({
  reference: chargeReference(invoice.id),
  amount,
  description: `Fatura ${invoice.id}`,
  payer,
});

/** What the invoice keeps of a charge (the payer's page or PIX code, and the provider's own id). */
const paymentOf = (provider: PaymentProviderName, charge: CreatedCharge, amount: number) => ({
  provider,
  chargeId: charge.chargeId,
  amount,
  ...(charge.qrcode ? { qrcode: charge.qrcode } : {}),
  ...(charge.url ? { url: charge.url } : {}),
  ...(charge.providerRef ? { providerRef: charge.providerRef } : {}),
  createdAt: new Date().toISOString(),
});

/**
 * POST /subscription (administration §7): a charge (PIX, or a card provider's page: decisions D168) for
 * one of the caller's open invoices. With the
 * Personalizar counters (users, connections, not below 3) different from the invoice's, the invoice takes
 * the custom plan price (core §9) first. The charge is made for the invoice's value and attached to it
 * with the previous charge replaced, in one transaction; a provider failure writes nothing.
 */
export const subscribe = async (auth: AuthContext, body: SubscriptionBody): Promise<PaymentResult> => {
  const invoice = await getInvoice(auth.companyId, body.invoiceId);
  if (!invoice) throw invoiceNotFound();
  if (invoice.status === 'paid') throw invoiceAlreadyPaid();
  const users = body.users ?? invoice.users;
  const connections = body.connections ?? invoice.connections;
  const custom = invoice.custom === true || users !== invoice.users || connections !== invoice.connections;
  const value =
    custom && (users !== invoice.users || connections !== invoice.connections)
      ? customPlanPrice(users, connections)
      : invoice.value;
  const provider = await checkoutProvider(body.provider);
  const charge = await provider.createCharge(
    chargeRequest(invoice, value, { name: `${body.firstName} ${body.lastName ?? ''}`.trim(), document: body.zipcode }),
  );
  if (Math.round(charge.amount * 100) !== Math.round(value * 100)) {
    throw new PaymentProviderError('The provider charged another amount');
  }
  await attachCharge(invoice, { value, users, connections, custom }, paymentOf(provider.name, charge, value));
  return {
    invoiceId: invoice.id,
    ...(charge.qrcode ? { qrcode: charge.qrcode } : {}),
    ...(provider.name !== 'efi' && charge.url ? { [PROVIDER_URL_FIELD[provider.name]]: charge.url } : {}),
    valorext: value.toFixed(2),
  };
};

/**
 * A charge the provider says is paid: the invoice paid, the due date moved by the company's recurrence
 * from its current due date, `company-{id}-payment` CONCLUIDA with the new due date. Idempotent: an
 * invoice already paid changes nothing (returns false). The paid amount must be the invoice's.
 */
export const settleCharge = async (charge: Charge, provider: PaymentProvider): Promise<boolean> => {
  const state = await provider.getCharge(charge);
  if (state.status === 'closed') {
    await closeCharge(charge, 'replaced');
    return false;
  }
  if (state.status !== 'paid') return false;
  return withRetry(CHANGED_MEANWHILE, async () => {
    const invoice = await getInvoice(charge.companyId, charge.invoiceId);
    if (!invoice) return false;
    if (invoice.status === 'paid') {
      await closeCharge(charge, 'paid');
      return false;
    }
    if (Math.round(state.amount * 100) !== Math.round(invoice.value * 100)) {
      logger.error('paid amount differs from the invoice', { invoiceId: invoice.id, chargeId: charge.chargeId });
      return false;
    }
    const c = (await getCompany(charge.companyId)) as Company | null;
    if (!c) return false;
    const recurrence = (c.recurrence in RECURRENCE_MONTHS ? c.recurrence : 'MENSAL') as Recurrence;
    const dueDate = nextDueDate(c.dueDate, recurrence);
    const changed = await markInvoicePaid(invoice, c, dueDate, charge);
    if (changed) {
      await publish(
        c.id,
        { channel: 'payment', action: 'CONCLUIDA', company: { id: c.id, dueDate }, invoiceId: invoice.id },
        everyone,
      );
    }
    return changed;
  });
};

/**
 * A provider's webhook (public route): verified by the adapter (400/401 otherwise, nothing written), each
 * notice claimed once by the provider's event id, then the charge settled from the provider's own answer
 * (a forged or stale body cannot mark anything paid). Unknown charges are acknowledged and ignored.
 */
export const handlePaymentWebhook = async (
  providerName: string,
  request: WebhookRequest,
): Promise<{ handled: number }> => {
  const provider = await providerNamed(providerName);
  if (!provider) throw new BadRequest('ERR_NO_PAYMENT_PROVIDER', 'Unknown payment provider');
  const notices = await provider.parseWebhook(request);
  let handled = 0;
  for (const notice of notices) {
    const charge = await getCharge(provider.name, notice.chargeId);
    if (!charge) continue;
    if (!(await claimPaymentEvent(provider.name, notice.eventId, notice))) continue;
    try {
      if (await settleCharge(charge, provider)) handled += 1;
    } catch (err) {
      await releasePaymentEvent(provider.name, notice.eventId);
      throw err;
    }
  }
  return { handled };
};

/** The reconcile job: every open charge asked of its provider, so a dropped webhook still pays the invoice. */
export const runReconcile = async (): Promise<number> => {
  let settled = 0;
  for (const charge of await listOpenCharges()) {
    try {
      const provider = await providerNamed(charge.provider);
      if (provider && (await settleCharge(charge, provider))) settled += 1;
    } catch (err) {
      logger.warn('reconcile of a charge failed', { chargeId: charge.chargeId, error: String(err) });
    }
  }
  return settled;
};

/**
 * A company's open invoices at its plan's current value, and their pending charges with them (called when
 * a plan's amount changes and, at merge, by the company update when a company's plan changes). The
 * provider's charge is revised first; if that fails the charge is dropped from the invoice (the next
 * checkout makes a new one), so no charge ever asks another amount than its invoice.
 */
export const repriceOpenInvoices = async (companyId: number): Promise<number> => {
  const c = await getCompany(companyId);
  if (!c) return 0;
  const plan = await getPlan(c.planId);
  if (!plan) return 0;
  let changed = 0;
  for (const open of await listOpenInvoices(companyId)) {
    if (open.custom) continue;
    const recurrence = (open.recurrence in RECURRENCE_MONTHS ? open.recurrence : 'MENSAL') as Recurrence;
    const value = periodValue(plan.amount, recurrence);
    const fields = {
      value,
      planId: plan.id,
      detail: planDetail(plan),
      users: plan.users,
      connections: plan.connections,
      queues: plan.queues,
    };
    if (open.value === value && open.planId === plan.id) continue;
    await withRetry(CHANGED_MEANWHILE, async () => {
      const invoice = await getInvoice(companyId, open.id);
      if (!invoice || invoice.status !== 'open') return;
      if (invoice.payment) {
        const payment = invoice.payment;
        const provider = await providerNamed(payment.provider);
        try {
          if (!provider) throw new PaymentProviderError('provider off');
          const replacement = await provider.updateChargeAmount(
            payment,
            value,
            chargeRequest(invoice, value, { name: `Fatura ${invoice.id}`, document: '' }),
          );
          if (replacement) {
            // The provider could not revise it (Stripe): the old charge expired, the new one is kept with
            // the invoice's new price in one transaction (the old charge's record marked replaced).
            if (Math.round(replacement.amount * 100) !== Math.round(value * 100)) {
              throw new PaymentProviderError('The provider charged another amount');
            }
            await attachCharge(
              { ...invoice, ...fields },
              { value, users: plan.users, connections: plan.connections, custom: false },
              paymentOf(payment.provider, replacement, value),
            );
            changed += 1;
            return;
          }
        } catch (err) {
          // Paid meanwhile (the revision was refused because of it): settle it, never drop a paid charge.
          const paid = provider ? await provider.getCharge(payment).catch(() => null) : null;
          if (provider && paid?.status === 'paid') {
            await settleCharge({ ...payment, companyId, invoiceId: invoice.id, status: 'open' }, provider);
            return;
          }
          logger.warn('charge revision failed; the charge is dropped', { invoiceId: invoice.id, error: String(err) });
          await closeCharge(payment, 'replaced');
          const { payment: _p, ...rest } = invoice;
          await repriceInvoice(rest as Invoice, fields);
          changed += 1;
          return;
        }
      }
      await repriceInvoice(invoice, fields);
      changed += 1;
    });
  }
  return changed;
};
