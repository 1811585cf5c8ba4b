import * as z from 'zod';

/**
 * Plans, invoices and checkout on the wire (core §3 Plan, §4 Subscription, §9; administration §3 Plan,
 * Invoice, Subscription payload, Payment result, §4, §5, §7 "Invoices and checkout"; decisions D151–D154).
 * Shared by functions/core/billing, functions/core/plans and frontend/src/api/billing.ts.
 */

import { CUSTOM_PLAN } from './billing-rules';

export { CUSTOM_PLAN, customPlanPrice, RECURRENCE_MONTHS, type RecurrenceName } from './billing-rules';
import type { RecurrenceName } from './billing-rules';

const flag = z.boolean({ error: 'Deve ser verdadeiro ou falso' }).default(true);
const count = (label: string) =>
  z.coerce
    .number({ error: `${label} é obrigatório` })
    .int(`${label} deve ser um número inteiro`)
    .min(0, `${label} não pode ser negativo`)
    .max(100_000, `${label} é grande demais`);

/** POST /plans (administration §3 Plan; flags default enabled, as in the spec's forms). */
export const createPlanBody = z.object({
  name: z.string({ error: 'Nome é obrigatório' }).trim().min(1, 'Nome é obrigatório').max(50, 'Nome muito longo'),
  users: count('Usuários'),
  connections: count('Conexões'),
  queues: count('Filas'),
  amount: z.coerce
    .number({ error: 'Valor é obrigatório' })
    .min(0, 'Valor não pode ser negativo')
    .max(1_000_000, 'Valor é grande demais')
    .transform((v) => Math.round(v * 100) / 100),
  isPublic: flag,
  useWhatsapp: flag,
  useFacebook: flag,
  useInstagram: flag,
  useCampaigns: flag,
  useSchedules: flag,
  useInternalChat: flag,
  useExternalApi: flag,
  useKanban: flag,
  useOpenAi: flag,
  useIntegrations: flag,
});
export type CreatePlanBody = z.infer<typeof createPlanBody>;

/** PUT /plans/{id}: only the fields sent change (an `id` in the body, as the spec's form sends it, is ignored). */
export const updatePlanBody = createPlanBody
  .extend({
    isPublic: z.boolean().optional(),
    useWhatsapp: z.boolean().optional(),
    useFacebook: z.boolean().optional(),
    useInstagram: z.boolean().optional(),
    useCampaigns: z.boolean().optional(),
    useSchedules: z.boolean().optional(),
    useInternalChat: z.boolean().optional(),
    useExternalApi: z.boolean().optional(),
    useKanban: z.boolean().optional(),
    useOpenAi: z.boolean().optional(),
    useIntegrations: z.boolean().optional(),
  })
  .partial()
  .extend({ id: z.unknown().optional() });
export type UpdatePlanBody = z.infer<typeof updatePlanBody>;

/** The card-payment providers the payment result names, and PIX through Efí. */
export const PAYMENT_PROVIDERS = ['efi', 'stripe', 'asaas', 'mercadopago'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** An invoice (administration §3 Invoice); `status` is stored paid/open, the screen derives its label. */
export interface InvoiceView {
  id: number;
  detail: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
  /** yyyy-mm-dd: the end of the period it pays, the company's due date when it was made. */
  dueDate: string;
  status: 'paid' | 'open';
  /** 'Pago', 'Vencido' or 'Em Aberto' (administration §4), in the company's time zone today. */
  displayStatus: InvoiceDisplayStatus;
  planId: number;
  recurrence: RecurrenceName;
  paidAt?: string;
  createdAt: string;
}
export type InvoiceDisplayStatus = 'Pago' | 'Vencido' | 'Em Aberto';

/** GET /invoices/all. */
export interface InvoicePage {
  invoices: InvoiceView[];
  hasMore: boolean;
  nextCursor?: string;
}

/** The spec's label: 'Pago' when paid; 'Vencido' when due before today and unpaid; otherwise 'Em Aberto'. */
export const invoiceDisplayStatus = (
  invoice: { status: string; dueDate: string },
  today: string,
): InvoiceDisplayStatus => (invoice.status === 'paid' ? 'Pago' : invoice.dueDate < today ? 'Vencido' : 'Em Aberto');

const required = (message: string) => z.string({ error: message }).trim().min(1, message).max(200, 'Muito longo');

/**
 * POST /subscription (administration §3 Subscription payload; §5 checkout rules). Card fields are accepted
 * and ignored: cards are paid on the providers' own pages, never through us (decisions D153). `price` is
 * the screen's figure; the server prices the invoice itself.
 */
export const subscriptionBody = z.object({
  invoiceId: z.coerce.number({ error: 'Fatura é obrigatória' }).int().positive('Fatura é obrigatória'),
  firstName: required('O nome completo é obrigatório'),
  lastName: z.string().trim().max(200).optional(),
  address2: required('Endereço é obrigatório'),
  city: required('Cidade é obrigatória'),
  state: z.string().trim().max(100).optional(),
  zipcode: required('CEP é obrigatório'),
  country: required('País é obrigatório'),
  useAddressForPaymentDetails: z.boolean().optional(),
  nameOnCard: z.string().max(200).optional(),
  cardNumber: z.string().max(40).optional(),
  cvv: z.string().max(10).optional(),
  plan: z.unknown().optional(),
  price: z.coerce.number().min(0).optional(),
  /** Ours (decisions D168): which offered provider charges; PIX (efi) when offered, else the first offered. */
  provider: z.enum(PAYMENT_PROVIDERS, { error: 'Forma de pagamento indisponível' }).optional(),
  users: z.coerce.number().int().min(CUSTOM_PLAN.minUsers, 'Mínimo de 3 usuários').max(1000).optional(),
  connections: z.coerce.number().int().min(CUSTOM_PLAN.minConnections, 'Mínimo de 3 conexões').max(1000).optional(),
});
export type SubscriptionBody = z.infer<typeof subscriptionBody>;

/** The answer of POST /subscription (administration §3 Payment result). */
export interface PaymentResult {
  invoiceId: number;
  /** The PIX charge: `qrcode` is the copy-and-paste code (the QR code's text), `imagemQrcode` its image. */
  qrcode?: { qrcode: string; imagemQrcode?: string };
  stripeURL?: string;
  asaasURL?: string;
  mercadopagoURL?: string;
  /** The amount charged, in BRL, as the providers print it ("123.45"). */
  valorext: string;
}

/** GET /subscription/providers: the providers the checkout offers (decisions D168). */
export interface PaymentProvidersView {
  providers: PaymentProviderName[];
}

/** The answer-field naming each card provider's page in the payment result. */
export const PROVIDER_URL_FIELD = {
  stripe: 'stripeURL',
  asaas: 'asaasURL',
  mercadopago: 'mercadopagoURL',
} as const satisfies Record<Exclude<PaymentProviderName, 'efi'>, keyof PaymentResult>;

/** The `company-{id}-payment` event (administration §7): action CONCLUIDA with the company's new due date. */
export interface PaymentEventPayload {
  action: 'CONCLUIDA';
  company: { id: number; dueDate: string };
  invoiceId: number;
}
