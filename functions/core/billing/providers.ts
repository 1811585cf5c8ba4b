import { PAYMENT_PROVIDERS, type PaymentProviderName } from '../../contracts/billing';
import { config } from '../../shared/config';
import { readPlatformSecret, readPlatformSetting } from '../settings/global-settings';
import { readEfiCertificate } from '../settings/payment-certificate';
import { asaasProvider, type AsaasCredentials } from './asaas-provider';
import { efiProvider, type EfiCredentials } from './efi-provider';
import { mercadoPagoProvider, type MercadoPagoCredentials } from './mercadopago-provider';
import {
  FAKE_ASAAS_CREDENTIALS,
  FAKE_EFI_CREDENTIALS,
  FAKE_MERCADOPAGO_CREDENTIALS,
  FAKE_STRIPE_CREDENTIALS,
} from './fake-credentials';
import type { PaymentProvider } from './payment-provider';
import { stripeProvider, type StripeCredentials } from './stripe-provider';

/**
 * Which providers are on (decisions D153, D168). A provider is offered at the checkout when the owner's
 * `paymentProviders` setting lists it (all four by default) and its credentials are set: Efí's client id,
 * secret and PIX key (without the uploaded certificate its checkout answers ERR_EFI_CERTIFICATE_MISSING);
 * Stripe's secret key and webhook secret; Asaas' API key and webhook token; Mercado Pago's access token and
 * webhook secret. Off AWS (the local cloud, the tests) a provider whose credentials are not all set talks
 * to the local fake provider with the fixed fake credentials (fake-credentials.ts), which the fake checks
 * and signs with.
 */
type SecretKey = Parameters<typeof readPlatformSecret>[0];

/** The stored credentials when every one is set; the fake's off AWS; null in AWS when any is missing. */
const credentialsOf = async <T extends object>(keys: Record<keyof T, SecretKey>, fake: T): Promise<T | null> => {
  const entries = await Promise.all(
    Object.entries(keys).map(async ([field, key]) => [field, await readPlatformSecret(key as SecretKey)] as const),
  );
  if (entries.every(([, v]) => v !== '')) return Object.fromEntries(entries) as T;
  return config().STAGE === 'aws' ? null : fake;
};

/** One adapter per provider and credentials (Efí's caches its OAuth token). */
const cache = new Map<string, { signature: string; provider: PaymentProvider }>();
const cached = (name: string, signature: string, make: () => PaymentProvider): PaymentProvider => {
  const hit = cache.get(name);
  if (hit?.signature === signature) return hit.provider;
  const provider = make();
  cache.set(name, { signature, provider });
  return provider;
};

const publicBase = (): string | undefined => config().PAYMENT_WEBHOOK_BASE_URL?.replace(/\/$/, '');

/** Where a card provider sends the payer back: the app's invoices (the API base without `/api`). */
const returnUrl = (): string =>
  config().PAYMENT_RETURN_URL ?? `${(publicBase() ?? 'http://localhost').replace(/\/api$/, '')}/financeiro`;

const build: Record<PaymentProviderName, () => Promise<PaymentProvider | null>> = {
  efi: async () => {
    const credentials = await credentialsOf<Omit<EfiCredentials, 'certificate'>>(
      { clientId: 'efiClientId', clientSecret: 'efiClientSecret', pixKey: 'efiPixKey' },
      FAKE_EFI_CREDENTIALS,
    );
    if (!credentials) return null;
    const certificate = await readEfiCertificate();
    const base = config().EFI_API_URL;
    const signature = `${base}|${credentials.clientId}|${credentials.clientSecret}|${credentials.pixKey}|${certificate?.uploadedAt ?? ''}`;
    return cached('efi', signature, () =>
      efiProvider({ ...credentials, ...(certificate ? { certificate: certificate.pfx } : {}) }, base),
    );
  },
  stripe: async () => {
    const credentials = await credentialsOf<StripeCredentials>(
      { secretKey: 'stripeSecretKey', webhookSecret: 'stripeWebhookSecret' },
      FAKE_STRIPE_CREDENTIALS,
    );
    if (!credentials) return null;
    const base = config().STRIPE_API_URL;
    return cached('stripe', `${base}|${credentials.secretKey}|${credentials.webhookSecret}`, () =>
      stripeProvider(credentials, base, returnUrl()),
    );
  },
  asaas: async () => {
    const credentials = await credentialsOf<AsaasCredentials>(
      { apiKey: 'asaasToken', webhookToken: 'asaasWebhookToken' },
      FAKE_ASAAS_CREDENTIALS,
    );
    if (!credentials) return null;
    const base = config().ASAAS_API_URL;
    return cached('asaas', `${base}|${credentials.apiKey}|${credentials.webhookToken}`, () =>
      asaasProvider(credentials, base),
    );
  },
  mercadopago: async () => {
    const credentials = await credentialsOf<MercadoPagoCredentials>(
      { accessToken: 'mercadoPagoAccessToken', webhookSecret: 'mercadoPagoWebhookSecret' },
      FAKE_MERCADOPAGO_CREDENTIALS,
    );
    if (!credentials) return null;
    const base = config().MERCADOPAGO_API_URL;
    const hook = publicBase() ? `${publicBase()}/webhooks/mercadopago` : undefined;
    return cached('mercadopago', `${base}|${credentials.accessToken}|${credentials.webhookSecret}|${hook}`, () =>
      mercadoPagoProvider(credentials, base, hook),
    );
  },
};

const isProviderName = (name: string): name is PaymentProviderName =>
  (PAYMENT_PROVIDERS as readonly string[]).includes(name);

/**
 * The provider named by a stored charge or a webhook route, whatever the `paymentProviders` choice: a
 * charge made before the owner switched a provider off is still read, reconciled and paid.
 */
export const providerNamed = async (name: string): Promise<PaymentProvider | null> =>
  isProviderName(name) ? build[name]() : null;

/** The providers the checkout offers, in the owner's order (decisions D168). */
export const offeredProviders = async (): Promise<PaymentProviderName[]> => {
  const chosen = (await readPlatformSetting('paymentProviders')).split(',').filter(isProviderName);
  const on = await Promise.all(chosen.map(async (name) => ((await build[name]()) ? name : null)));
  return on.filter((n): n is PaymentProviderName => n !== null);
};

/** The PIX provider, or null when none is configured. */
export const pixProvider = (): Promise<PaymentProvider | null> => build.efi();
