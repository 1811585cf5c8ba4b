import { createHmac } from 'node:crypto';
import { fetchJson, IntegrationFailed, type ConverseInput, type ConverseResult } from '../port';

/**
 * n8n and plain webhooks (decisions D162): the customer's messages are POSTed as JSON, signed with
 * HMAC-SHA256 under the integration's secret over `<timestamp>.<deliveryId>.<body>`; the headers carry the
 * delivery id (the same on every retry, so the receiver can drop a duplicate), the timestamp (the receiver
 * refuses old ones) and the signature. The answer's body is the reply: a text, `{reply|text|message|output}`,
 * `{replies: [...]}` or a list of those; `{handoff: true}` hands the ticket to people, `{end: true}` ends.
 */
export const SIGNATURE_HEADER = 'x-zapdesk-signature';
export const DELIVERY_HEADER = 'x-zapdesk-delivery';
export const TIMESTAMP_HEADER = 'x-zapdesk-timestamp';

export const webhookSignature = (secret: string, timestamp: string, deliveryId: string, body: string): string =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${deliveryId}.${body}`).digest('hex')}`;

const textsOf = (v: unknown): string[] => {
  if (typeof v === 'string') return v.trim() === '' ? [] : [v];
  if (Array.isArray(v)) return v.flatMap(textsOf);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (o.replies !== undefined) return textsOf(o.replies);
    for (const k of ['reply', 'text', 'message', 'output']) if (o[k] !== undefined) return textsOf(o[k]);
  }
  return [];
};

const flag = (v: unknown, k: string): boolean =>
  Array.isArray(v)
    ? v.some((x) => flag(x, k))
    : !!v && typeof v === 'object' && (v as Record<string, unknown>)[k] === true;

export const webhookConverse = async (
  target: { url: string; secret: string; type: 'n8n' | 'webhook'; timeoutMs: number },
  input: ConverseInput,
): Promise<ConverseResult> => {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const body = JSON.stringify({
    deliveryId: input.deliveryId,
    timestamp,
    type: target.type,
    companyId: input.companyId,
    ticketId: input.ticketId,
    contact: input.contact,
    messages: input.messages,
    message: input.messages.join('\n'),
  });
  const { body: answer } = await fetchJson(target.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [DELIVERY_HEADER]: input.deliveryId,
      [TIMESTAMP_HEADER]: timestamp,
      [SIGNATURE_HEADER]: webhookSignature(target.secret, timestamp, input.deliveryId, body),
    },
    body,
    timeoutMs: target.timeoutMs,
  });
  const replies = textsOf(answer).map((text) => ({ text }));
  const end = flag(answer, 'handoff') ? 'handoff' : flag(answer, 'end') ? 'finished' : undefined;
  if (replies.length === 0 && !end) throw new IntegrationFailed('answered without a reply');
  return { replies, ...(end ? { end } : {}) };
};
