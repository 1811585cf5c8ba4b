import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Meta signs every webhook POST with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body, keyed
 * with the app secret>`. The check runs on the exact bytes received (a re-serialised JSON would differ)
 * and compares in constant time; anything missing or malformed is simply "not signed by Meta".
 */
export const metaSignature = (rawBody: Buffer, appSecret: string): string =>
  `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;

export const isValidMetaSignature = (rawBody: Buffer, header: string | undefined, appSecret: string): boolean => {
  if (!header || !/^sha256=[0-9a-fA-F]{64}$/.test(header.trim())) return false;
  const expected = Buffer.from(metaSignature(rawBody, appSecret).slice('sha256='.length), 'hex');
  const given = Buffer.from(header.trim().slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/**
 * GET verification handshake: Meta sends `hub.mode=subscribe`, our `hub.verify_token` and a `hub.challenge`
 * to echo. Answers the challenge to echo, or null when the request is not that handshake with our token.
 */
export const verificationChallenge = (
  query: Record<string, string | undefined>,
  verifyToken: string,
): string | null => {
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (query['hub.mode'] !== 'subscribe' || token === undefined || challenge === undefined) return null;
  const a = Buffer.from(token, 'utf8');
  const b = Buffer.from(verifyToken, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b) ? challenge : null;
};
