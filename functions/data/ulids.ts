import { createHash } from 'node:crypto';
import { decodeTime, encodeTime, ulid } from 'ulid';

/**
 * ULIDs for sort keys of high-volume children (messages, log entries; docs/data-model.md §1.4): 10
 * characters of time (ms) then 16 of randomness, Crockford base32, so keys sort by time.
 */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A random ULID at the given time. */
export const newUlid = (timeMs: number = Date.now()): string => ulid(timeMs);

/**
 * A deterministic ULID: the time part from `timeMs`, the "random" part from the first 80 bits of
 * sha256(seed). The same (time, seed) always gives the same key, so a retried write rewrites its own item.
 */
export const seededUlid = (timeMs: number, seed: string): string => {
  const digest = createHash('sha256').update(seed).digest();
  let bits = 0n;
  for (let i = 0; i < 10; i += 1) bits = (bits << 8n) | BigInt(digest[i]!);
  let random = '';
  for (let i = 0; i < 16; i += 1) {
    random = CROCKFORD[Number(bits & 31n)]! + random;
    bits >>= 5n;
  }
  return encodeTime(timeMs, 10) + random;
};

/** The time (ms) a ULID carries. */
export const ulidTime = (id: string): number => decodeTime(id);
