import { TooManyRequests } from '../shared/errors';
import {
  returnRateLimitSlot,
  takeRateLimitSlot,
  type RateLimit,
  type RateLimitWindow,
} from '../data/rate-limit-repository';

/**
 * Several limits on one call (per IP and per e-mail, D18): one slot is taken in each, together and before
 * the work they guard, so parallel attempts cannot overshoot any of them. When any limit is full the call
 * is refused with 429 and the longest wait. The answer gives the slots back (a successful login does not
 * count against its limits).
 */
export interface RateLimitSubject {
  limit: RateLimit;
  /** An IP address or an e-mail (stored hashed). */
  subject: string;
}

export const takeRateLimitSlots = async (subjects: readonly RateLimitSubject[]): Promise<() => Promise<void>> => {
  const taken = await Promise.all(subjects.map((s) => takeRateLimitSlot(s.limit, s.subject)));
  const refused = taken.flatMap((t) => (t.allowed ? [] : [t.retryAfterSeconds]));
  if (refused.length > 0) throw new TooManyRequests(Math.max(...refused));
  const windows = taken.map((t) => (t as { window: RateLimitWindow }).window);
  return async () => {
    await Promise.all(subjects.map((s, i) => returnRateLimitSlot(s.limit, s.subject, windows[i]!)));
  };
};
