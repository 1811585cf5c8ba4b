import * as z from 'zod';
import type { AuthContext } from '../../shared/auth-context';
import { Forbidden, NotFound, ValidationError } from '../../shared/errors';
import { getGlobalSetting, listGlobalSettings, putGlobalSetting } from '../../data/settings-repository';
import { decryptSecret, encryptSecret, isSealed } from '../../shared/token-cipher';

/**
 * Platform settings by key (core spec §3 "Global settings"), written by the platform owner only. The
 * allow-list is the only way a key reaches storage. Secret keys (payment credentials, the AI key) are
 * never returned in clear: reads show them masked. Branding keys are public (the login page needs them
 * before anyone signs in). Key names for the credentials are ours (docs/decisions/D17-settings.md).
 */
const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #0000FF');
const file = z.string().max(300);
const secret = z.string().max(4000);

export const GLOBAL_SETTINGS = {
  userCreation: { schema: z.enum(['enabled', 'disabled']), default: 'enabled', isPublic: false, isSecret: false },
  downloadLimit: {
    schema: z.enum(['32', '64', '128', '256', '512', '1024', '2048'], { error: 'one of 32, 64, …, 2048 (MB)' }),
    default: '64',
    isPublic: false,
    isSecret: false,
  },
  primaryColorLight: { schema: hex, default: '#0000FF', isPublic: true, isSecret: false },
  primaryColorDark: { schema: hex, default: '#39ACE7', isPublic: true, isSecret: false },
  appName: { schema: z.string().trim().max(50), default: 'ZapDesk', isPublic: true, isSecret: false },
  appLogoLight: { schema: file, default: '', isPublic: true, isSecret: false },
  appLogoDark: { schema: file, default: '', isPublic: true, isSecret: false },
  appLogoFavicon: { schema: file, default: '', isPublic: true, isSecret: false },
  openAiKey: { schema: secret, default: '', isPublic: false, isSecret: true },
  efiClientId: { schema: secret, default: '', isPublic: false, isSecret: true },
  efiClientSecret: { schema: secret, default: '', isPublic: false, isSecret: true },
  efiPixKey: { schema: secret, default: '', isPublic: false, isSecret: true },
  mercadoPagoAccessToken: { schema: secret, default: '', isPublic: false, isSecret: true },
  stripeSecretKey: { schema: secret, default: '', isPublic: false, isSecret: true },
  asaasToken: { schema: secret, default: '', isPublic: false, isSecret: true },
  // Card providers' webhook secrets and the offered providers (decisions D167, D168).
  stripeWebhookSecret: { schema: secret, default: '', isPublic: false, isSecret: true },
  asaasWebhookToken: { schema: secret, default: '', isPublic: false, isSecret: true },
  mercadoPagoWebhookSecret: { schema: secret, default: '', isPublic: false, isSecret: true },
  paymentProviders: {
    schema: z
      .string()
      .regex(
        /^((efi|stripe|asaas|mercadopago)(,(efi|stripe|asaas|mercadopago))*)?$/,
        'efi, stripe, asaas, mercadopago',
      ),
    default: 'efi,stripe,asaas,mercadopago',
    isPublic: false,
    isSecret: false,
  },
} as const;

export type GlobalSettingKey = keyof typeof GLOBAL_SETTINGS;
const KEYS = Object.keys(GLOBAL_SETTINGS) as GlobalSettingKey[];

export const globalKeySchema = z.enum(KEYS as [GlobalSettingKey, ...GlobalSettingKey[]], {
  error: 'unknown setting key',
});

export interface SettingView {
  key: GlobalSettingKey;
  value: string;
  /** True when `value` is masked. */
  masked?: true;
}

/** `sk_live_abcdef123456` -> `••••3456`; empty stays empty (so the UI can tell "not set"). */
export const mask = (value: string): string => (value === '' ? '' : `••••${value.slice(-4)}`);

const view = (key: GlobalSettingKey, value: string): SettingView =>
  GLOBAL_SETTINGS[key].isSecret && value !== '' ? { key, value: mask(value), masked: true } : { key, value };

/**
 * Secret keys sealed at rest (AES-256-GCM under the `platform-secret` key, decisions D158): every secret
 * key — the AI key and the payment credentials. A value stored before sealing (plain) is still read as it
 * is and sealed at its next write; services read them in clear through `readPlatformSecret`.
 */
const SEALED: ReadonlySet<GlobalSettingKey> = new Set(KEYS.filter((k) => GLOBAL_SETTINGS[k].isSecret));

const plainOf = async (key: GlobalSettingKey, stored: string): Promise<string> =>
  SEALED.has(key) && isSealed(stored) ? decryptSecret('platform-secret', stored) : stored;

const valueOf = async (key: GlobalSettingKey): Promise<string> => {
  const stored = (await getGlobalSetting(key))?.value;
  return stored === undefined ? GLOBAL_SETTINGS[key].default : plainOf(key, stored);
};

/**
 * The platform's download limit in bytes (the `downloadLimit` setting, MB; decisions D172): the largest
 * media the platform stores — inbound from WhatsApp or uploaded by an attendant.
 */
export const downloadLimitBytes = async (): Promise<number> => {
  const mb = Number(await valueOf('downloadLimit'));
  return (Number.isFinite(mb) && mb > 0 ? mb : Number(GLOBAL_SETTINGS.downloadLimit.default)) * 1024 * 1024;
};

/** A platform secret in clear, for the services that use it (the platform's OpenAI key). */
export const readPlatformSecret = (key: GlobalSettingKey): Promise<string> => valueOf(key);

/** A platform setting's value (or default) for the services, e.g. the offered payment providers. */
export const readPlatformSetting = (key: GlobalSettingKey): Promise<string> => valueOf(key);

/** GET /settings — every key with its value or default, secrets masked (platform owner). */
export const listSettings = async (): Promise<SettingView[]> => {
  const stored = new Map((await listGlobalSettings()).map((s) => [s.key, s.value]));
  return Promise.all(
    KEYS.map(async (key) => {
      const value = stored.get(key);
      return view(key, value === undefined ? GLOBAL_SETTINGS[key].default : await plainOf(key, value));
    }),
  );
};

/** GET /setting/{key} — any signed-in user reads plain keys; secret keys are for the platform owner. */
export const readSetting = async (auth: AuthContext, key: GlobalSettingKey): Promise<SettingView> => {
  if (GLOBAL_SETTINGS[key].isSecret && !auth.super) throw new Forbidden();
  return view(key, await valueOf(key));
};

/** GET /public-settings/{key} — branding only; any other key answers as if it did not exist. */
export const readPublicSetting = async (key: string): Promise<SettingView> => {
  const parsed = globalKeySchema.safeParse(key);
  if (!parsed.success || !GLOBAL_SETTINGS[parsed.data].isPublic)
    throw new NotFound('ERR_NO_SETTING_FOUND', 'Setting not found');
  return view(parsed.data, await valueOf(parsed.data));
};

/** PUT /settings/{key} — the platform owner only (the route is `super`). */
export const writeSetting = async (key: GlobalSettingKey, value: unknown): Promise<SettingView> => {
  const parsed = GLOBAL_SETTINGS[key].schema.safeParse(value);
  if (!parsed.success) {
    throw new ValidationError([{ field: 'body.value', reason: parsed.error.issues[0]?.message ?? 'invalid value' }]);
  }
  // An emptied app name falls back to the default (spec §9: "default app name fallback when emptied").
  const stored = key === 'appName' && parsed.data === '' ? GLOBAL_SETTINGS.appName.default : parsed.data;
  await putGlobalSetting(
    key,
    SEALED.has(key) && stored !== '' ? await encryptSecret('platform-secret', stored) : stored,
  );
  return view(key, stored);
};
