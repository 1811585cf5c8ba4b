import { config } from '../../shared/config';
import { readPlatformSecret } from '../settings/global-settings';
import { efiProvider, type EfiCredentials } from './efi-provider';
import type { PaymentProvider } from './payment-provider';

/**
 * Which providers are on (decisions D153): Efí PIX when the platform owner's Efí credentials are set
 * (global settings efiClientId, efiClientSecret, efiPixKey). Off AWS (the local cloud, the tests) with no
 * credentials set, the adapter talks to the local fake provider with fixed fake credentials.
 */
export const FAKE_EFI_CREDENTIALS: EfiCredentials = {
  clientId: 'fake-efi-client',
  clientSecret: 'fake-efi-secret',
  pixKey: 'pix@zapdesk.local',
};

/** A payment credential in clear (stored sealed, decisions D158). */
const setting = (key: 'efiClientId' | 'efiClientSecret' | 'efiPixKey'): Promise<string> => readPlatformSecret(key);

let cached: { signature: string; provider: PaymentProvider } | undefined;

/** The PIX provider, or null when none is configured. One adapter per credentials (it caches its token). */
export const pixProvider = async (): Promise<PaymentProvider | null> => {
  const stored: EfiCredentials = {
    clientId: await setting('efiClientId'),
    clientSecret: await setting('efiClientSecret'),
    pixKey: await setting('efiPixKey'),
  };
  const configured = stored.clientId !== '' && stored.clientSecret !== '' && stored.pixKey !== '';
  const credentials = configured ? stored : config().STAGE === 'aws' ? null : FAKE_EFI_CREDENTIALS;
  if (!credentials) return null;
  const signature = `${config().EFI_API_URL}|${credentials.clientId}|${credentials.clientSecret}|${credentials.pixKey}`;
  if (cached?.signature !== signature) cached = { signature, provider: efiProvider(credentials) };
  return cached.provider;
};

/** The provider named by a stored charge. */
export const providerNamed = async (name: string): Promise<PaymentProvider | null> =>
  name === 'efi' ? pixProvider() : null;
