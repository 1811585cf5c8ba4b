import { Unauthorized } from '../../shared/errors';
import {
  header,
  restCall,
  sameText,
  type ChargeHandle,
  type ChargeRequest,
  type ChargeState,
  type CreatedCharge,
  type PaymentNotice,
  type PaymentProvider,
  type WebhookRequest,
} from './payment-provider';

/**
 * Card (and boleto / PIX) payments through Asaas (decisions D167), its v3 REST API with fetch
 * (`access_token: <API key>` header, JSON bodies):
 * - `POST /v3/customers` `{name, cpfCnpj}` → `{id: cus_…}`, then `POST /v3/payments` `{customer,
 *   billingType: UNDEFINED, value, dueDate, description, externalReference}` → `{id: pay_…, invoiceUrl,
 *   value, status: PENDING}`: `invoiceUrl` is the page the payer opens (the payer picks card, boleto or PIX);
 * - `PUT /v3/payments/{id}` `{value}` revises a pending payment's amount in place;
 * - `GET /v3/payments/{id}`: RECEIVED, CONFIRMED, RECEIVED_IN_CASH → paid; REFUNDED or `deleted` → closed.
 * Webhooks carry the token configured in Asaas' webhook settings in the `asaas-access-token` header; the
 * paid events are PAYMENT_RECEIVED and PAYMENT_CONFIRMED, the event's `id` (evt_…) is the idempotency key.
 */
export interface AsaasCredentials {
  apiKey: string;
  webhookToken: string;
}

const PAID_EVENTS = new Set(['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED']);
const PAID = new Set(['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH']);
const CLOSED = new Set(['REFUNDED', 'REFUND_REQUESTED', 'CHARGEBACK_REQUESTED']);

export const asaasProvider = (credentials: AsaasCredentials, base: string, now: () => Date = () => new Date()) => {
  const api = (method: string, path: string, body?: unknown) =>
    restCall('Asaas', `${base.replace(/\/$/, '')}${path}`, {
      method,
      headers: {
        access_token: credentials.apiKey,
        'content-type': 'application/json',
        'user-agent': 'ZapDesk',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const provider: PaymentProvider = {
    name: 'asaas',
    async createCharge(request: ChargeRequest): Promise<CreatedCharge> {
      const customer = await api('POST', '/v3/customers', {
        name: request.payer.name.slice(0, 200) || 'Cliente',
        cpfCnpj: request.payer.document.replace(/\D/g, ''),
        externalReference: request.reference,
      });
      // Due in three days, like the PIX charge's expiry; an overdue payment can still be paid on its page.
      const dueDate = new Date(now().getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
      const payment = await api('POST', '/v3/payments', {
        customer: customer.id,
        billingType: 'UNDEFINED',
        value: request.amount,
        dueDate,
        description: request.description.slice(0, 500),
        externalReference: request.reference,
      });
      return {
        chargeId: String(payment.id),
        amount: Number(payment.value ?? 0),
        ...(typeof payment.invoiceUrl === 'string' ? { url: payment.invoiceUrl } : {}),
      };
    },
    async updateChargeAmount(charge: ChargeHandle, amount: number) {
      await api('PUT', `/v3/payments/${encodeURIComponent(charge.chargeId)}`, { value: amount });
      return null;
    },
    async getCharge({ chargeId }: ChargeHandle): Promise<ChargeState> {
      const p = await api('GET', `/v3/payments/${encodeURIComponent(chargeId)}`);
      const status = String(p.status);
      return {
        chargeId,
        status: PAID.has(status) ? 'paid' : p.deleted === true || CLOSED.has(status) ? 'closed' : 'open',
        amount: Number(p.value ?? 0),
      };
    },
    async parseWebhook(request: WebhookRequest): Promise<PaymentNotice[]> {
      const token = header(request.headers, 'asaas-access-token');
      if (!token || !sameText(token, credentials.webhookToken))
        throw new Unauthorized('ERR_INVALID_SIGNATURE', 'Bad asaas-access-token');
      let event: { id?: unknown; event?: unknown; payment?: { id?: unknown } };
      try {
        event = JSON.parse(request.rawBody || '{}') as typeof event;
      } catch {
        return [];
      }
      if (typeof event.id !== 'string' || typeof event.payment?.id !== 'string') return [];
      if (!PAID_EVENTS.has(String(event.event))) return [];
      return [{ eventId: event.id, chargeId: event.payment.id }];
    },
  };
  return provider;
};
