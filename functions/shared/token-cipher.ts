import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { secretKey, type KeyPurpose } from './secrets';

/**
 * Secrets at rest: AES-256-GCM under a key derived from the application secret (HKDF, one purpose per kind
 * of secret, D6). Meta access tokens (decisions D40) use purpose `meta-token`; the queue integrations' and AI
 * prompts' keys (service-account private keys, API keys; decisions D162) use `integration-secret`; the
 * platform's secret settings (the AI key, decisions D158) use `platform-secret`. A table
 * export or a stray read shows ciphertext; rotating the app secret makes stored values unreadable.
 */
const VERSION = 'v1';

export const encryptSecret = async (purpose: KeyPurpose, value: string): Promise<string> => {
  const key = await secretKey(purpose);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    data.toString('base64url'),
  ].join('.');
};

/** Whether a stored value is sealed by `encryptSecret` (a setting written before it was sealed is not). */
export const isSealed = (value: string): boolean => value.startsWith(`${VERSION}.`) && value.split('.').length === 4;

export const decryptSecret = async (purpose: KeyPurpose, sealed: string): Promise<string> => {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error(`unreadable ${purpose}`);
  const decipher = createDecipheriv('aes-256-gcm', await secretKey(purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
};

export const encryptToken = (token: string): Promise<string> => encryptSecret('meta-token', token);
export const decryptToken = (sealed: string): Promise<string> => decryptSecret('meta-token', sealed);
