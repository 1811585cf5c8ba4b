import { createHmac } from 'node:crypto';
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
 * Card payments through Stripe Checkout (decisions D167), its REST API with fetch (form-encoded bodies,
 * `Authorization: Bearer <secret key>`):
 * - `POST /v1/checkout/sessions` (mode payment, one BRL line item in cents, `client_reference_id` = our
 *   reference) → `{id: cs_…, url, amount_total, status, payment_status}`: the charge is the session, `url`
 *   the page the payer opens;
 * - `GET /v1/checkout/sessions/{id}`: `payment_status` paid → paid; `status` expired → closed; else open;
 * - a session's amount cannot be revised: `POST /v1/checkout/sessions/{id}/expire` and a new session.
 * Webhooks: `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(webhook secret, "<t>.<raw body>")>`, at most
 * 5 minutes old; the paid events are `checkout.session.completed` with `payment_status: paid` and
 * `checkout.session.async_payment_succeeded` (a delayed method that cleared).
 */
export interface StripeCredentials {
  secretKey: string;
  webhookSecret: string;
}

/** How old a signed webhook may be (Stripe's libraries' default tolerance). */
export const STRIPE_TOLERANCE_SECONDS = 300;

const PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

/** The Stripe-Signature header value for a body (the fake provider signs with this too). */
export const stripeSignature = (secret: string, rawBody: string, t = Math.floor(Date.now() / 1000)): string =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex')}`;

export const stripeProvider = (
  credentials: StripeCredentials,
  base: string,
  returnUrl: string,
  now: () => number = Date.now,
): PaymentProvider => {
  const api = (method: string, path: string, fields?: Record<string, string>) =>
    restCall('Stripe', `${base.replace(/\/$/, '')}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${credentials.secretKey}`,
        ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(fields ? { body: form(fields) } : {}),
    });

  const create = async (request: ChargeRequest): Promise<CreatedCharge> => {
    const session = await api('POST', '/v1/checkout/sessions', {
      mode: 'payment',
      client_reference_id: request.reference,
      'metadata[reference]': request.reference,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'brl',
      'line_items[0][price_data][unit_amount]': String(Math.round(request.amount * 100)),
      'line_items[0][price_data][product_data][name]': request.description.slice(0, 200),
      success_url: returnUrl,
      cancel_url: returnUrl,
    });
    return {
      chargeId: String(session.id),
      amount: Number(session.amount_total ?? 0) / 100,
      ...(typeof session.url === 'string' ? { url: session.url } : {}),
    };
  };

  return {
    name: 'stripe',
    createCharge: create,
    async updateChargeAmount(charge: ChargeHandle, amount: number, request: ChargeRequest) {
      await api('POST', `/v1/checkout/sessions/${encodeURIComponent(charge.chargeId)}/expire`);
      return create({ ...request, amount });
    },
    async getCharge({ chargeId }: ChargeHandle): Promise<ChargeState> {
      const s = await api('GET', `/v1/checkout/sessions/${encodeURIComponent(chargeId)}`);
      const status = s.payment_status === 'paid' ? 'paid' : s.status === 'expired' ? 'closed' : 'open';
      return { chargeId, status, amount: Number(s.amount_total ?? 0) / 100 };
    },
    async parseWebhook(request: WebhookRequest): Promise<PaymentNotice[]> {
      const parts = new Map(
        header(request.headers, 'stripe-signature')
          .split(',')
          .map((p) => p.trim().split('=') as [string, string]),
      );
      const t = Number(parts.get('t'));
      const given = [...header(request.headers, 'stripe-signature').split(',')]
        .map((p) => p.trim())
        .filter((p) => p.startsWith('v1='))
        .map((p) => p.slice(3));
      const expected = createHmac('sha256', credentials.webhookSecret).update(`${t}.${request.rawBody}`).digest('hex');
      const fresh = Number.isFinite(t) && Math.abs(now() / 1000 - t) <= STRIPE_TOLERANCE_SECONDS;
      if (!fresh || !given.some((v) => sameText(v, expected)))
        throw new Unauthorized('ERR_INVALID_SIGNATURE', 'Bad Stripe-Signature');
      let event: { id?: unknown; type?: unknown; data?: { object?: { id?: unknown; payment_status?: unknown } } };
      try {
        event = JSON.parse(request.rawBody || '{}') as typeof event;
      } catch {
        return [];
      }
      const session = event.data?.object;
      if (typeof event.id !== 'string' || typeof session?.id !== 'string' || !PAID_EVENTS.has(String(event.type)))
        return [];
      if (event.type === 'checkout.session.completed' && session.payment_status !== 'paid') return [];
      return [{ eventId: event.id, chargeId: session.id }];
    },
  };
};
