import type { PaymentProviderName } from '../../contracts/billing';
import { timingSafeEqual } from 'node:crypto';
import { DomainError } from '../../shared/errors';

/**
 * The payment-provider port (DESIGN §10, §12; decisions D153). The billing service talks only to this;
 * each provider's REST API lives in an adapter beside it (efi-provider.ts), and the local cloud and the
 * tests point the adapters at infra/local/fake-payment-provider.ts.
 */
export interface ChargeRequest {
  /** Our unique reference for the charge (the invoice id and a nonce): Efí's txid. */
  reference: string;
  /** BRL, two decimals. */
  amount: number;
  description: string;
  payer: { name: string; document: string };
}

export interface CreatedCharge {
  chargeId: string;
  amount: number;
  /** PIX: the copy-and-paste code and the QR code's image. */
  qrcode?: { qrcode: string; imagemQrcode?: string };
  /** Card providers: the page the payer opens. */
  url?: string;
  /** The provider's own id of the charge when ours is a reference (Mercado Pago's preference id). */
  providerRef?: string;
}

/** What an adapter needs to find a charge again: our charge id and, where there is one, the provider's. */
export interface ChargeHandle {
  chargeId: string;
  providerRef?: string;
}

export interface ChargeState {
  chargeId: string;
  /** open: waiting; paid: money received; closed: removed or expired, it will never be paid. */
  status: 'open' | 'paid' | 'closed';
  amount: number;
}

/** A verified webhook's payment notices: each names the charge and the provider's id of the event. */
export interface PaymentNotice {
  eventId: string;
  chargeId: string;
}

export interface WebhookRequest {
  headers: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  rawBody: string;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createCharge(request: ChargeRequest): Promise<CreatedCharge>;
  /**
   * Revises a pending charge's amount (a plan's new price), so it always equals its invoice's. A provider
   * that cannot revise an amount (Stripe's Checkout Session) expires the old charge and answers a new one
   * made from `request`, which the billing service then keeps; `null` when the charge was revised in place.
   */
  updateChargeAmount(charge: ChargeHandle, amount: number, request: ChargeRequest): Promise<CreatedCharge | null>;
  /** The provider's own word on a charge: webhooks are only notices, this is what marks an invoice paid. */
  getCharge(charge: ChargeHandle): Promise<ChargeState>;
  /** Checks the webhook's authenticity as the provider defines it; throws Unauthorized otherwise. */
  parseWebhook(request: WebhookRequest): Promise<PaymentNotice[]>;
}

/** BRL as the providers print it: "123.45". */
export const brl = (amount: number): string => amount.toFixed(2);

/** A provider refused or did not answer: 502, nothing of ours written. */
/** Constant-time comparison of two texts (webhook tokens and signatures). */
export const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** A header by name, whatever its case (API Gateway lower-cases them; other callers may not). */
export const header = (headers: Record<string, string | undefined>, name: string): string => {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === wanted && v !== undefined) return v;
  return '';
};

/** Calls a provider's JSON REST API with fetch (no SDKs: decisions D167); a 4xx/5xx is a PaymentProviderError. */
export const restCall = async (
  provider: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<Record<string, unknown>> => {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    throw new PaymentProviderError(`${provider} did not answer (${String(err).slice(0, 100)})`);
  }
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { raw: text.slice(0, 200) };
  }
  if (!res.ok)
    throw new PaymentProviderError(`${provider} answered ${res.status} to ${init.method} ${new URL(url).pathname}`);
  return body;
};

export class PaymentProviderError extends DomainError {
  constructor(message: string) {
    super(502, 'ERR_PAYMENT_PROVIDER', message);
  }
}
