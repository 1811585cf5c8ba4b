import { EXTERNAL_API } from '../stacks/external-api';

/**
 * The local equivalent of the external messages API's usage plan (decisions D123): API Gateway throttles a
 * usage plan's key with a token bucket of `burstLimit` tokens refilled at `rateLimit` per second, and
 * answers 429 `{"message":"Too Many Requests"}` when it is empty. The local gateway keeps one bucket per
 * caller of an `external` route — its `x-api-key`, else its bearer token, else its address — with the
 * first plan's numbers. (Quotas per day are not enforced locally.)
 */
export interface Throttle {
  rateLimit: number;
  burstLimit: number;
}

export const createUsagePlanThrottle = (
  throttle: Throttle = EXTERNAL_API.usagePlans[0]!.throttle,
  now: () => number = () => Date.now(),
) => {
  const buckets = new Map<string, { tokens: number; at: number }>();
  /** Takes a token for this caller; false when the bucket is empty (the request is throttled). */
  return (caller: string): boolean => {
    const t = now();
    const bucket = buckets.get(caller) ?? { tokens: throttle.burstLimit, at: t };
    bucket.tokens = Math.min(throttle.burstLimit, bucket.tokens + ((t - bucket.at) / 1000) * throttle.rateLimit);
    bucket.at = t;
    buckets.set(caller, bucket);
    if (buckets.size > 10_000) buckets.delete(buckets.keys().next().value!);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  };
};

/** Who a request is for the usage plan: the API key, else the bearer, else the address. */
export const usagePlanCaller = (headers: Record<string, string | string[] | undefined>, ip: string): string => {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return first(headers['x-api-key']) ?? first(headers.authorization) ?? ip;
};
