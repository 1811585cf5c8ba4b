import type { PromptVoice } from '../../contracts/integrations';
import { PROMPT_VOICES } from '../../contracts/integrations';
import { listTicketMessagesPage, type StoredMessage } from '../../data/message-repository';
import { config } from '../../shared/config';
import { answerOf } from '../pipeline/message-content';
import { callWithRetries, DEFAULT_CALL_POLICY, type BotReply, type CallPolicy, type ConverseResult } from './port';
import { assistantAnswer } from './providers/openai';
import { typebotConverse } from './providers/typebot';

/**
 * One turn of a Typebot or of the AI assistant, shared by the queue integrations' runner (decisions D162–D164)
 * and the flow engine's typebot and openai nodes (D173): the same keywords, restart, expiry and unknown-answer
 * rules for Typebot, the same context and handoff phrase for the assistant, under the port's one call policy
 * (timeout, three attempts with backoff). A failure after the retries is the port's `IntegrationFailed`.
 */
export interface TypebotSettings {
  url: string;
  slug: string;
  keywordFinish?: string | null | undefined;
  keywordRestart?: string | null | undefined;
  restartMessage?: string | null | undefined;
  unknownMessage?: string | null | undefined;
}

/** The port's policy with the configured timeout (INTEGRATION_TIMEOUT_MS). */
export const botCallPolicy = (): CallPolicy => ({ ...DEFAULT_CALL_POLICY, timeoutMs: config().INTEGRATION_TIMEOUT_MS });

/**
 * One Typebot turn: the finish keyword ends the bot without a call; the restart keyword (or a session idle past
 * its expiry) opens a new session (the restart message first); a still-asking bot that answered nothing says
 * the unknown-answer message.
 */
export const typebotTurn = async (
  what: { kind: string; companyId: number; ticketId: number },
  settings: TypebotSettings,
  input: {
    deliveryId: string;
    messages: string[];
    contact: { name: string; number: string };
    session: string | null;
    expired: boolean;
  },
): Promise<ConverseResult> => {
  const text = input.messages.join('\n').trim().toLowerCase();
  if (settings.keywordFinish && text === settings.keywordFinish.toLowerCase()) return { replies: [], end: 'handoff' };
  const restart = !!settings.keywordRestart && text === settings.keywordRestart.toLowerCase();
  const providerSession = restart || input.expired ? null : input.session;
  const policy = botCallPolicy();
  const result = await callWithRetries(what, policy, () =>
    typebotConverse(
      { url: settings.url, slug: settings.slug, timeoutMs: policy.timeoutMs },
      {
        companyId: what.companyId,
        ticketId: what.ticketId,
        deliveryId: input.deliveryId,
        messages: input.messages,
        contact: input.contact,
        providerSession,
      },
    ),
  );
  const replies: BotReply[] = [
    ...(restart && settings.restartMessage ? [{ text: settings.restartMessage }] : []),
    ...result.replies,
  ];
  if (replies.length === 0 && !result.end && settings.unknownMessage) replies.push({ text: settings.unknownMessage });
  return { ...result, replies };
};

export interface AssistantTurnSettings {
  apiKey: string;
  prompt: string;
  voice: PromptVoice;
  maxTokens: number;
  temperature: number;
}

/** A voice the provider knows, or text. */
export const voiceOf = (voice: string | null | undefined): PromptVoice =>
  (PROMPT_VOICES as readonly string[]).includes(voice ?? '') ? (voice as PromptVoice) : 'texto';

/** One assistant turn over the conversation so far (`recent`, oldest first); `handoff` when it asks for a person. */
export const assistantTurn = async (
  what: { kind: string; companyId: number; ticketId: number },
  settings: AssistantTurnSettings,
  recent: readonly StoredMessage[],
  contactName: string,
): Promise<ConverseResult> => {
  const policy = botCallPolicy();
  const answer = await callWithRetries(what, policy, () =>
    assistantAnswer(
      settings,
      recent.map((m) => ({ fromMe: m.fromMe, body: answerOf(m) })).filter((m) => m.body.trim() !== ''),
      contactName,
      policy.timeoutMs,
    ),
  );
  return { replies: answer.replies, ...(answer.handoff ? { end: 'handoff' as const } : {}) };
};

/**
 * The ticket's conversation up to `until` (oldest first, private and deleted ones left out): the customer's
 * messages after `since` (what the bot has not read yet) and the last `context` messages of both sides.
 */
export const readConversation = async (
  ticket: { companyId: number; id: number },
  since: string,
  until: string,
  context: number,
): Promise<{ fresh: StoredMessage[]; recent: StoredMessage[] }> => {
  const page = await listTicketMessagesPage(ticket.companyId, ticket.id, { limit: Math.max(20, context + 10) });
  const upTo = page.items.filter((m) => m.ulid <= until && !m.isPrivate && !m.isDeleted).reverse();
  return {
    fresh: upTo.filter((m) => !m.fromMe && m.ulid > since),
    recent: context > 0 ? upTo.slice(-context) : [],
  };
};
