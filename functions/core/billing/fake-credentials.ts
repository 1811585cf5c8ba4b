import type { AsaasCredentials } from './asaas-provider';
import type { EfiCredentials } from './efi-provider';
import type { MercadoPagoCredentials } from './mercadopago-provider';
import type { StripeCredentials } from './stripe-provider';

/**
 * The fixed credentials the adapters use off AWS when the owner set none, and that the local fake provider
 * (infra/local/fake-payment-provider.ts) checks and signs its webhooks with (decisions D153, D167).
 */
export const FAKE_EFI_CREDENTIALS: EfiCredentials = {
  clientId: 'fake-efi-client',
  clientSecret: 'fake-efi-secret',
  pixKey: 'pix@zapdesk.local',
};
export const FAKE_STRIPE_CREDENTIALS: StripeCredentials = {
  secretKey: 'sk_test_fake_zapdesk',
  webhookSecret: 'whsec_fake_zapdesk',
};
export const FAKE_ASAAS_CREDENTIALS: AsaasCredentials = {
  apiKey: '$aact_fake_zapdesk',
  webhookToken: 'fake-asaas-webhook-token',
};
export const FAKE_MERCADOPAGO_CREDENTIALS: MercadoPagoCredentials = {
  accessToken: 'TEST-fake-zapdesk',
  webhookSecret: 'fake-mercadopago-webhook-secret',
};
