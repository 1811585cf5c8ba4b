import { Conflict, ServiceUnavailable } from './errors';

/**
 * The one retry-on-conflict policy (decisions D85). Optimistic writes read, decide and write with a
 * condition; when someone else wrote in between, the write fails and the whole read-decide-write runs again
 * — a bounded number of times, with a short jittered pause so two racers do not collide again in step.
 *
 * - `CHANGED_MEANWHILE`: the item changed between our read and our write (a repository's plain `Conflict`,
 *   code ERR_CONFLICT). Domain conflicts with their own code (ERR_OTHER_OPEN_TICKET, ...) are answers, never
 *   retried.
 * - `BUSY`: DynamoDB refused for a moment — a transaction conflict with another transaction on the same
 *   items, or throttling (both a ServiceUnavailable). Hot items (a busy ticket) see this under load.
 */
export interface RetryPolicy {
  attempts: number;
  retryable: (err: unknown) => boolean;
  /** Upper bound of the random pause before attempt `n + 1`, in ms. */
  pauseMs: (attempt: number) => number;
}

export const CHANGED_MEANWHILE: RetryPolicy = {
  attempts: 3,
  retryable: (err) => err instanceof Conflict && err.code === 'ERR_CONFLICT',
  pauseMs: () => 0,
};

export const BUSY: RetryPolicy = {
  attempts: 12,
  retryable: (err) => err instanceof ServiceUnavailable,
  pauseMs: (attempt) => 20 * Math.min(attempt, 6),
};

/** Either of the two: what a read-decide-write over several items usually wants. */
export const CHANGED_OR_BUSY: RetryPolicy = {
  attempts: 8,
  retryable: (err) => CHANGED_MEANWHILE.retryable(err) || BUSY.retryable(err),
  pauseMs: BUSY.pauseMs,
};

/** Runs `work` (given the attempt number, from 1) until it succeeds, fails for good, or the attempts end. */
export const withRetry = async <T>(policy: RetryPolicy, work: (attempt: number) => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work(attempt);
    } catch (err) {
      if (attempt >= policy.attempts || !policy.retryable(err)) throw err;
      const pause = policy.pauseMs(attempt);
      if (pause > 0) await new Promise((r) => setTimeout(r, Math.random() * pause));
    }
  }
};
