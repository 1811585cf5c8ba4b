import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { secretKey, type KeyPurpose } from './secrets';

/**
 * Meta access tokens at rest (decisions D40): AES-256-GCM under a key derived from the application secret
 * (HKDF purpose `meta-token`, D6). A table export or a stray read shows ciphertext; rotating the app secret
 * makes stored tokens unreadable, and those connections need their Meta login again.
 */
const VERSION = 'v1';

export const encryptToken = (token: string): Promise<string> => sealText('meta-token', token);
export const decryptToken = (sealed: string): Promise<string> => openText('meta-token', sealed);

/**
 * The same sealing for another purpose's key (the platform's secret settings use `platform-secret`,
 * decisions D158): `v1.<iv>.<tag>.<data>`, AES-256-GCM.
 */
export const sealText = async (purpose: KeyPurpose, token: string): Promise<string> => {
  const key = await secretKey(purpose);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    data.toString('base64url'),
  ].join('.');
};

export const isSealed = (value: string): boolean => value.startsWith(`${VERSION}.`) && value.split('.').length === 4;

export const openText = async (purpose: KeyPurpose, sealed: string): Promise<string> => {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error(`unreadable sealed ${purpose}`);
  const decipher = createDecipheriv('aes-256-gcm', await secretKey(purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
};
