import { fetchJson, IntegrationFailed, type ConverseInput, type ConverseResult } from '../port';

/**
 * Typebot through its chat API (decisions D162): `POST {url}/api/v1/typebots/{slug}/startChat` opens a
 * session (the contact's name and number as prefilled variables) and `POST
 * {url}/api/v1/sessions/{sessionId}/continueChat` sends each answer. The bot's text bubbles are the
 * replies; an answer that expects no more input means the bot is done (the ticket goes to people).
 */
const textOfRich = (nodes: unknown): string => {
  if (!Array.isArray(nodes)) return '';
  return nodes
    .map((n) => {
      if (!n || typeof n !== 'object') return '';
      const o = n as { text?: unknown; children?: unknown; type?: unknown };
      const own = typeof o.text === 'string' ? o.text : '';
      const inner = textOfRich(o.children);
      return o.type === 'p' || o.type === 'paragraph' ? `${own}${inner}` : `${own}${inner}`;
    })
    .join('');
};

const bubbles = (body: unknown): string[] => {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((m: unknown) => {
    const msg = m as { type?: unknown; content?: { markdown?: unknown; richText?: unknown } };
    if (msg.type !== 'text') return [];
    if (typeof msg.content?.markdown === 'string') return msg.content.markdown.trim() ? [msg.content.markdown] : [];
    const rich = Array.isArray(msg.content?.richText)
      ? (msg.content.richText as unknown[]).map((p) => textOfRich([p])).join('\n')
      : '';
    return rich.trim() ? [rich] : [];
  });
};

export const typebotConverse = async (
  target: { url: string; slug: string; timeoutMs: number },
  input: ConverseInput,
): Promise<ConverseResult & { providerSession: string }> => {
  const base = target.url.replace(/\/$/, '');
  const text = input.messages.join('\n');
  if (input.providerSession) {
    const { body } = await fetchJson(
      `${base}/api/v1/sessions/${encodeURIComponent(input.providerSession)}/continueChat`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: { type: 'text', text } }),
        timeoutMs: target.timeoutMs,
      },
    );
    const replies = bubbles(body).map((t) => ({ text: t }));
    const done = !(body as { input?: unknown } | null)?.input;
    return { replies, providerSession: input.providerSession, ...(done ? { end: 'handoff' as const } : {}) };
  }
  const { body } = await fetchJson(`${base}/api/v1/typebots/${encodeURIComponent(target.slug)}/startChat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      // No text (a flow's typebot node opening the bot): the bot speaks first, up to its first question.
      ...(text.trim() ? { message: { type: 'text', text } } : {}),
      prefilledVariables: { name: input.contact.name, number: input.contact.number },
    }),
    timeoutMs: target.timeoutMs,
  });
  const sessionId = (body as { sessionId?: unknown } | null)?.sessionId;
  if (typeof sessionId !== 'string' || sessionId === '') throw new IntegrationFailed('startChat without a sessionId');
  const replies = bubbles(body).map((t) => ({ text: t }));
  const done = !(body as { input?: unknown } | null)?.input;
  return { replies, providerSession: sessionId, ...(done ? { end: 'handoff' as const } : {}) };
};
