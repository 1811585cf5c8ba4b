import { createHmac } from 'node:crypto';
import { Unauthorized } from '../../shared/errors';
import {
  header,
  PaymentProviderError,
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
 * Payments through Mercado Pago Checkout Pro (decisions D167), its REST API with fetch
 * (`Authorization: Bearer <access token>`, JSON bodies):
 * - `POST /checkout/preferences` `{items: [{title, quantity: 1, currency_id: BRL, unit_price}],
 *   external_reference, notification_url}` → `{id, init_point}`: `init_point` is the page the payer opens.
 *   Our charge id is the `external_reference` (a payment names it; it never names the preference), the
 *   preference id is kept as the charge's `providerRef`;
 * - `PUT /checkout/preferences/{id}` `{items}` revises the amount in place;
 * - `GET /v1/payments/search?external_reference=…`: an `approved` payment → paid.
 * Webhooks (`type: payment`) only name a payment id (`data.id`, also in the query string); they are signed
 * `x-signature: ts=<ts>,v1=<hex HMAC-SHA256(secret, "id:<data.id>;request-id:<x-request-id>;ts:<ts>;")>`.
 * We verify, then read `GET /v1/payments/{id}` to learn whether it is approved and which charge it pays.
 */
export interface MercadoPagoCredentials {
  accessToken: string;
  webhookSecret: string;
}

/** The x-signature header value for a notification (the fake provider signs with this too). */
export const mercadoPagoSignature = (secret: string, dataId: string, requestId: string, ts: string): string =>
  `ts=${ts},v1=${createHmac('sha256', secret).update(`id:${dataId};request-id:${requestId};ts:${ts};`).digest('hex')}`;

export const mercadoPagoProvider = (
  credentials: MercadoPagoCredentials,
  base: string,
  notificationUrl: string | undefined,
): PaymentProvider => {
  const api = (method: string, path: string, body?: unknown) =>
    restCall('Mercado Pago', `${base.replace(/\/$/, '')}${path}`, {
      method,
      headers: { authorization: `Bearer ${credentials.accessToken}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const items = (request: ChargeRequest, amount: number) => [
    {
      id: request.reference,
      title: request.description.slice(0, 250),
      quantity: 1,
      currency_id: 'BRL',
      unit_price: amount,
    },
  ];

  return {
    name: 'mercadopago',
    async createCharge(request: ChargeRequest): Promise<CreatedCharge> {
      const preference = await api('POST', '/checkout/preferences', {
        items: items(request, request.amount),
        external_reference: request.reference,
        ...(notificationUrl ? { notification_url: notificationUrl } : {}),
      });
      const [item] = (preference.items as { unit_price?: number }[] | undefined) ?? [];
      return {
        chargeId: request.reference,
        providerRef: String(preference.id),
        amount: Number(item?.unit_price ?? 0),
        ...(typeof preference.init_point === 'string' ? { url: preference.init_point } : {}),
      };
    },
    async updateChargeAmount(charge: ChargeHandle, amount: number, request: ChargeRequest) {
      if (!charge.providerRef) throw new PaymentProviderError('Unknown Mercado Pago preference');
      await api('PUT', `/checkout/preferences/${encodeURIComponent(charge.providerRef)}`, {
        items: items({ ...request, reference: charge.chargeId }, amount),
      });
      return null;
    },
    async getCharge({ chargeId }: ChargeHandle): Promise<ChargeState> {
      const found = await api(
        'GET',
        `/v1/payments/search?external_reference=${encodeURIComponent(chargeId)}&sort=date_created&criteria=desc`,
      );
      const results = (found.results as { status?: string; transaction_amount?: number }[] | undefined) ?? [];
      const approved = results.find((p) => p.status === 'approved');
      return approved
        ? { chargeId, status: 'paid', amount: Number(approved.transaction_amount ?? 0) }
        : { chargeId, status: 'open', amount: 0 };
    },
    async parseWebhook(request: WebhookRequest): Promise<PaymentNotice[]> {
      let body: { id?: unknown; type?: unknown; data?: { id?: unknown } } = {};
      try {
        body = JSON.parse(request.rawBody || '{}') as typeof body;
      } catch {
        body = {};
      }
      const rawId = request.query['data.id'] ?? (body.data?.id === undefined ? '' : String(body.data.id));
      // Mercado Pago signs an alphanumeric id in lower case.
      const dataId = /[a-zA-Z]/.test(rawId) ? rawId.toLowerCase() : rawId;
      const requestId = header(request.headers, 'x-request-id');
      const parts = new Map(
        header(request.headers, 'x-signature')
          .split(',')
          .map((p) => p.trim().split('=') as [string, string]),
      );
      const ts = parts.get('ts') ?? '';
      const expected = mercadoPagoSignature(credentials.webhookSecret, dataId, requestId, ts).split('v1=')[1]!;
      if (!dataId || !ts || !sameText(parts.get('v1') ?? '', expected))
        throw new Unauthorized('ERR_INVALID_SIGNATURE', 'Bad x-signature');
      const type = request.query.type ?? request.query.topic ?? String(body.type ?? '');
      if (type !== 'payment') return [];
      const payment = await api('GET', `/v1/payments/${encodeURIComponent(dataId)}`);
      if (payment.status !== 'approved' || typeof payment.external_reference !== 'string') return [];
      const eventId = body.id === undefined ? `${dataId}:${requestId}` : String(body.id);
      return [{ eventId, chargeId: payment.external_reference }];
    },
  };
};
