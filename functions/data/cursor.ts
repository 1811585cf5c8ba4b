import { createHmac, timingSafeEqual } from 'node:crypto';
import { BadRequest } from '../shared/errors';
import { secretKey } from '../shared/secrets';

/**
 * Opaque, tamper-checked page cursors. A cursor is the DynamoDB LastEvaluatedKey (plus the scope it
 * belongs to) as base64url JSON, followed by an HMAC-SHA256 tag. A cursor from another company or list,
 * or one edited by hand, fails the check and answers 400 — it can never steer a Query into another
 * tenant's partition.
 */
export type Key = Record<string, string | number>;

const TAG_BYTES = 16;

const sign = (key: Uint8Array, payload: string): Buffer =>
  createHmac('sha256', key).update(payload).digest().subarray(0, TAG_BYTES);

/** `scope` binds a cursor to the list it came from, e.g. `C#42#tags`. */
export const encodeCursor = async (scope: string, lastKey: Key): Promise<string> => {
  const payload = Buffer.from(JSON.stringify({ s: scope, k: lastKey }), 'utf8').toString('base64url');
  const tag = sign(await secretKey('cursor'), payload).toString('base64url');
  return `${payload}.${tag}`;
};

const invalid = (field: string) =>
  new BadRequest('ERR_INVALID_CURSOR', 'Invalid cursor', [
    { field, reason: 'cursor is malformed, tampered or from another list' },
  ]);

export const decodeCursor = async (scope: string, cursor: string, field = 'query.cursor'): Promise<Key> => {
  const [payload, tag, extra] = cursor.split('.');
  if (!payload || !tag || extra !== undefined) throw invalid(field);
  const expected = sign(await secretKey('cursor'), payload);
  const given = Buffer.from(tag, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid(field);
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s?: unknown; k?: unknown };
    if (parsed.s !== scope || typeof parsed.k !== 'object' || parsed.k === null) throw invalid(field);
    return parsed.k as Key;
  } catch {
    throw invalid(field);
  }
};
