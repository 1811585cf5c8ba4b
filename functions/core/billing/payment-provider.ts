import type { PaymentProviderName } from '../../contracts/billing';
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
  /** Revises a pending charge's amount (a plan's new price), so it always equals its invoice's. */
  updateChargeAmount(chargeId: string, amount: number): Promise<void>;
  /** The provider's own word on a charge: webhooks are only notices, this is what marks an invoice paid. */
  getCharge(chargeId: string): Promise<ChargeState>;
  /** Checks the webhook's authenticity as the provider defines it; throws Unauthorized otherwise. */
  parseWebhook(request: WebhookRequest): Promise<PaymentNotice[]>;
}

/** BRL as the providers print it: "123.45". */
export const brl = (amount: number): string => amount.toFixed(2);

/** A provider refused or did not answer: 502, nothing of ours written. */
export class PaymentProviderError extends DomainError {
  constructor(message: string) {
    super(502, 'ERR_PAYMENT_PROVIDER', message);
  }
}
