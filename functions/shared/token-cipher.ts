import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { secretKey } from './secrets';

/**
 * Meta access tokens at rest (decisions D40): AES-256-GCM under a key derived from the application secret
 * (HKDF purpose `meta-token`, D6). A table export or a stray read shows ciphertext; rotating the app secret
 * makes stored tokens unreadable, and those connections need their Meta login again.
 */
const VERSION = 'v1';

export const encryptToken = async (token: string): Promise<string> => {
  const key = await secretKey('meta-token');
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

export const decryptToken = async (sealed: string): Promise<string> => {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('unreadable Meta token');
  const decipher = createDecipheriv('aes-256-gcm', await secretKey('meta-token'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
};
