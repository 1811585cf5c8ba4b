import { logger } from '../../shared/logger';

/**
 * The one contract of every outside bot (DESIGN §10; decisions D162): a call gets the customer's messages
 * since the last call (a burst, debounced into one) and answers what to send, and whether the bot is done.
 * Each adapter (n8n/webhook, Typebot, Dialogflow, OpenAI) implements `converse`; `callWithRetries` gives
 * every one the same timeout, retries with backoff and failure reporting. A failure after the retries is
 * an `IntegrationFailed`: the caller hands the ticket to people (a customer is never left without one).
 */
export interface BotReply {
  text?: string;
  /** Speech (a voice note) as bytes, with its mime type. */
  audio?: { bytes: Buffer; mimetype: string };
}

export interface ConverseResult {
  replies: BotReply[];
  /** The provider's session to continue next time (typebot's sessionId). */
  providerSession?: string | null;
  /** The bot is done: `handoff` moves the ticket to people, `finished` ends quietly. */
  end?: 'handoff' | 'finished';
}

export interface ConverseInput {
  companyId: number;
  ticketId: number;
  /** An id for this call, the same on every retry of it (the delivery id of a webhook). */
  deliveryId: string;
  /** The customer's new messages, oldest first. */
  messages: string[];
  contact: { name: string; number: string };
  providerSession: string | null;
}

export class IntegrationFailed extends Error {
  constructor(
    readonly reason: string,
    /** 4xx: retrying cannot help. */
    readonly permanent = false,
  ) {
    super(reason);
    this.name = 'IntegrationFailed';
  }
}

export interface CallPolicy {
  timeoutMs: number;
  attempts: number;
  /** Pause before attempt n + 1: base × 2^(n-1), plus jitter. */
  backoffMs: number;
}

export const DEFAULT_CALL_POLICY: CallPolicy = { timeoutMs: 10_000, attempts: 3, backoffMs: 300 };

/** A fetch with the policy's timeout; a non-2xx answer is an IntegrationFailed (4xx permanent). */
export const fetchJson = async (
  url: string,
  init: RequestInit & { timeoutMs: number },
): Promise<{ status: number; body: unknown }> => {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs) });
  } catch (err) {
    const name = err instanceof Error ? err.name : 'unknown';
    throw new IntegrationFailed(name === 'TimeoutError' ? 'timeout' : `unreachable (${name})`);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok)
    throw new IntegrationFailed(`answered ${res.status}`, res.status >= 400 && res.status < 500 && res.status !== 429);
  if (text.trim() === '') return { status: res.status, body: null };
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, body: text };
  }
};

/** Runs `call` under the policy: retried with backoff on a transient failure, reported once on the last. */
export const callWithRetries = async <T>(
  what: { kind: string; companyId: number; ticketId: number },
  policy: CallPolicy,
  call: (attempt: number) => Promise<T>,
): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call(attempt);
    } catch (err) {
      const failure =
        err instanceof IntegrationFailed ? err : new IntegrationFailed(err instanceof Error ? err.message : 'failed');
      if (failure.permanent || attempt >= policy.attempts) {
        logger.warn('integration call failed', { ...what, attempt, reason: failure.reason });
        throw failure;
      }
      const pause = policy.backoffMs * 2 ** (attempt - 1);
      await new Promise((r) => setTimeout(r, pause / 2 + Math.random() * (pause / 2)));
    }
  }
};
