import * as z from 'zod';
import type { Connection } from '../../data/connection-repository';
import { getContact, type Contact } from '../../data/contact-repository';
import {
  advanceIntegrationSession,
  claimIntegrationCall,
  endIntegrationSession,
  finishIntegrationCall,
  getIntegration,
  getIntegrationSession,
  getPrompt,
  noteIntegrationMessage,
  resetIntegrationSession,
  type IntegrationSession,
  type Prompt,
  type QueueIntegration,
} from '../../data/integration-repository';
import { putMediaObject } from '../../data/media-store';
import { getProviderRef, type StoredMessage } from '../../data/message-repository';
import { sendQueueMessage } from '../../data/queue-sender';
import { ReadScope } from '../../data/read-scope';
import { getTicket, TicketChanged, transitionTicket, type Ticket } from '../../data/ticket-repository';
import { config } from '../../shared/config';
import { errorFields, logger } from '../../shared/logger';
import { startFlowRun } from '../flows/flow-engine';
import { reserveSendSlot, waitForSlot } from '../outbound/send-governor';
import { answerOf } from '../pipeline/message-content';
import { whatsappMessageId } from '../pipeline/outbound-queue';
import { publishTicketChange } from '../tickets/ticket-events';
import { postBotMessage } from '../tickets/ticket-texts';
import { assistantTurn, botCallPolicy, readConversation, typebotTurn } from '../integrations/bot-turns';
import { openIntegrationSecrets } from '../integrations/integration-service';
import {
  callWithRetries,
  IntegrationFailed,
  type BotReply,
  type ConverseInput,
  type ConverseResult,
} from '../integrations/port';
import { openPromptKey } from '../integrations/prompt-service';
import { dialogflowDetectIntent, parseServiceAccount } from '../integrations/providers/dialogflow';
import { webhookConverse } from '../integrations/providers/webhook';

/**
 * The integrations at work on a ticket (DESIGN §10; decisions D162–D165). Which bot answers a pending ticket
 * no person has: the one already answering it (`useIntegration`, the ticket's `integrationId`/`promptId`);
 * else, on the message that opened the ticket, the connection's AI prompt (`promptId`), else the
 * connection's integration (`integrationId`); else the integration of the ticket's queue; a chatbot option
 * of kind integration starts one too (`startIntegration`).
 *
 * A customer message does not call the bot at once: it moves the ticket's session's `latest` forward and
 * queues a call on the `integration` queue, delayed by the debounce. When the delay ends only the call of
 * the newest message goes on (a burst of messages makes one call, with all of them); it claims
 * `INTCALL#<ulid>` with a lease before calling, so a redelivery or a second worker never calls twice, and
 * a worker that died mid-call is taken over when the lease ends (its sends are keyed, so none repeats).
 * A person taking the ticket ends the session: a call finds the ticket taken and does nothing.
 * A bot that fails (timeout, 5xx, slow beyond the timeout, after retries with backoff) or asks for a person
 * ends the session and leaves the ticket pending in a human queue — never a customer without anyone.
 */
export const INTEGRATION_CALL_LEASE_MS = 60_000;
export const integrationCallMessage = z.object({
  companyId: z.number().int().positive(),
  ticketId: z.number().int().positive(),
  ulid: z.string().min(1),
});
export type IntegrationCallMessage = z.infer<typeof integrationCallMessage>;

type Source = { kind: 'integration'; integration: QueueIntegration } | { kind: 'prompt'; prompt: Prompt };
const sourceKey = (s: Source): string =>
  s.kind === 'integration' ? `integration:${s.integration.id}` : `prompt:${s.prompt.id}`;

const resolveSource = async (companyId: number, key: string): Promise<Source | null> => {
  const [kind, id] = key.split(':');
  if (kind === 'integration') {
    const integration = await getIntegration(companyId, Number(id));
    return integration ? { kind, integration } : null;
  }
  const prompt = await getPrompt(companyId, Number(id));
  return prompt ? { kind: 'prompt', prompt } : null;
};

/** Sets the ticket as answered by the bot (`useIntegration`, which one, `isBot`), logged and published. */
const engage = async (scope: ReadScope, ticket: Ticket, contact: Contact, source: Source): Promise<void> => {
  try {
    const after = await transitionTicket(ticket, {
      status: ticket.status,
      userId: ticket.userId,
      queueId: ticket.queueId,
      fields: {
        isBot: true,
        useIntegration: true,
        integrationId: source.kind === 'integration' ? source.integration.id : null,
        promptId: source.kind === 'prompt' ? source.prompt.id : null,
      },
      logs: [{ type: 'chatBot', userId: null, queueId: ticket.queueId }],
    });
    await publishTicketChange(scope, ticket, after, contact);
  } catch (err) {
    if (!(err instanceof TicketChanged)) throw err;
  }
};

/** Notes the message on the session and queues its (debounced) call. */
const queueCall = async (ticket: Ticket, source: Source, trigger: StoredMessage): Promise<void> => {
  // A session starts reading just before its first message.
  const since = trigger.ulid.slice(0, -1);
  let session = await noteIntegrationMessage(ticket.companyId, ticket.id, sourceKey(source), trigger.ulid, since);
  if (session.status === 'ended' || session.source !== sourceKey(source)) {
    await resetIntegrationSession(session, sourceKey(source));
    session = { ...session, source: sourceKey(source), status: 'active' };
  }
  await sendQueueMessage(
    'integration',
    { companyId: ticket.companyId, ticketId: ticket.id, ulid: trigger.ulid },
    { delaySeconds: config().INTEGRATION_DEBOUNCE_SECONDS },
  );
};

/**
 * Starts `source` on the ticket for `trigger`; a flowbuilder integration hands the ticket to its flow
 * through the flow engine's own trigger instead. Answers whether something took the message.
 */
const start = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  source: Source,
  trigger: StoredMessage,
): Promise<boolean> => {
  if (source.kind === 'integration' && source.integration.type === 'flowbuilder') {
    const flowId = source.integration.flowId;
    return flowId !== null
      ? startFlowRun(scope, ticket, contact, flowId, {
          ulid: trigger.ulid,
          kind: `integration:${source.integration.id}`,
        })
      : false;
  }
  if (!ticket.useIntegration) await engage(scope, ticket, contact, source);
  await queueCall(ticket, source, trigger);
  return true;
};

/** A chatbot option of kind integration chose `integrationId` (decisions D162): it answers from now on. */
export const startIntegration = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  integrationId: number,
  trigger: StoredMessage,
): Promise<boolean> => {
  const integration = await getIntegration(ticket.companyId, integrationId);
  if (!integration) return false;
  const fresh = (await getTicket(ticket.companyId, ticket.id)) ?? ticket;
  if (fresh.status !== 'pending' || fresh.userId !== null) return false;
  return start(scope, fresh, contact, { kind: 'integration', integration }, trigger);
};

/**
 * The inbound pipeline's hook, on a customer message of a pending ticket no person has (after flows,
 * before the greeting and the chatbot). Answers whether an integration or the AI assistant has it.
 */
export const answerWithIntegration = async (
  scope: ReadScope,
  connection: Connection,
  ticket: Ticket,
  contact: Contact,
  trigger: StoredMessage,
  isNew: boolean,
  queueIntegrationId: number | null,
): Promise<boolean> => {
  if (ticket.status !== 'pending' || ticket.userId !== null || ticket.isGroup) return false;
  const { companyId } = ticket;
  if (ticket.useIntegration && (ticket.integrationId || ticket.promptId)) {
    const key = ticket.promptId ? `prompt:${ticket.promptId}` : `integration:${ticket.integrationId}`;
    const session = await getIntegrationSession(companyId, ticket.id);
    // The session ended (handed over): the ticket waits for people; the bot does not come back.
    if (session?.status === 'ended' && session.source === key) return false;
    const source = await resolveSource(companyId, key);
    if (!source) return false;
    await queueCall(ticket, source, trigger);
    return true;
  }
  if (ticket.useIntegration) return false;
  const session = await getIntegrationSession(companyId, ticket.id);
  if (session?.status === 'ended') return false; // this ticket's bot handed over already
  if (isNew && connection.promptId) {
    const prompt = await getPrompt(companyId, connection.promptId);
    if (prompt) return start(scope, ticket, contact, { kind: 'prompt', prompt }, trigger);
  }
  const integrationId = (isNew ? connection.integrationId : null) ?? queueIntegrationId;
  if (integrationId) {
    const integration = await getIntegration(companyId, integrationId);
    if (integration) return start(scope, ticket, contact, { kind: 'integration', integration }, trigger);
  }
  return false;
};

// ------------------------------------------------------------------------------------------- the call

/** The bot is done or failed: the session ends and the ticket waits for people (in `queueId` if given). */
const handOver = async (ticket: Ticket, reason: string, queueId?: number): Promise<void> => {
  logger.info('integration handed over', { companyId: ticket.companyId, ticketId: ticket.id, reason });
  const scope = new ReadScope();
  const current = await getTicket(ticket.companyId, ticket.id);
  if (!current || current.status !== 'pending' || current.userId !== null) {
    await endIntegrationSession(ticket.companyId, ticket.id, reason);
    return;
  }
  const contact = await getContact(current.companyId, current.contactId);
  const target =
    queueId !== undefined && (await scope.queues(current.companyId)).has(queueId) ? queueId : current.queueId;
  try {
    const after = await transitionTicket(current, {
      status: 'pending',
      userId: null,
      queueId: target,
      fields: { isBot: false, useIntegration: false },
      logs: [
        { type: 'chatBot', userId: null, queueId: current.queueId },
        ...(target !== current.queueId ? [{ type: 'queue' as const, userId: null, queueId: target }] : []),
      ],
    });
    if (contact) await publishTicketChange(scope, current, after, contact);
  } catch (err) {
    if (!(err instanceof TicketChanged)) throw err;
  }
  // Last, so whoever sees the session ended sees the ticket with people already.
  await endIntegrationSession(ticket.companyId, ticket.id, reason);
};

const converse = async (
  source: Source,
  session: IntegrationSession,
  input: ConverseInput,
  recent: StoredMessage[],
): Promise<ConverseResult> => {
  const what = { kind: source.kind, companyId: input.companyId, ticketId: input.ticketId };
  const policy = botCallPolicy();
  if (source.kind === 'prompt') {
    const p = source.prompt;
    const apiKey = await openPromptKey(p);
    return assistantTurn(
      what,
      { apiKey, prompt: p.prompt, voice: p.voice, maxTokens: p.maxTokens, temperature: p.temperature },
      recent,
      input.contact.name,
    );
  }
  const i = source.integration;
  switch (i.type) {
    case 'n8n':
    case 'webhook': {
      const { webhookSecret } = await openIntegrationSecrets(i);
      return callWithRetries(what, policy, () =>
        webhookConverse(
          {
            url: i.urlN8N ?? '',
            secret: webhookSecret ?? '',
            type: i.type as 'n8n' | 'webhook',
            timeoutMs: policy.timeoutMs,
          },
          input,
        ),
      );
    }
    case 'typebot':
      return typebotTurn(
        what,
        {
          url: i.urlN8N ?? '',
          slug: i.typebotSlug ?? '',
          keywordFinish: i.typebotKeywordFinish,
          keywordRestart: i.typebotKeywordRestart,
          restartMessage: i.typebotRestartMessage,
          unknownMessage: i.typebotUnknownMessage,
        },
        {
          deliveryId: input.deliveryId,
          messages: input.messages,
          contact: input.contact,
          session: input.providerSession,
          expired:
            session.expiresAt !== null &&
            session.providerSession !== null &&
            session.expiresAt < new Date().toISOString(),
        },
      );
    case 'dialogflow': {
      const { privateKey } = await openIntegrationSecrets(i);
      const account = parseServiceAccount(i.jsonPublic ?? '');
      if (!account || !privateKey) throw new IntegrationFailed('the service account is incomplete', true);
      const texts = await callWithRetries(what, policy, () =>
        dialogflowDetectIntent(
          { clientEmail: account.clientEmail, privateKey },
          {
            projectName: i.projectName ?? '',
            language: i.language ?? 'pt-BR',
            sessionId: `${input.companyId}-${input.ticketId}`,
          },
          input.messages.join('\n'),
        ),
      );
      if (texts.length === 0) throw new IntegrationFailed('the agent answered nothing');
      return { replies: texts.map((text) => ({ text })) };
    }
    case 'flowbuilder':
      throw new IntegrationFailed('a flowbuilder integration runs as a flow', true);
  }
};

/** One reply out through the governor, keyed so a retried call never sends it twice. */
const sendReply = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  reply: BotReply,
  key: string,
): Promise<void> => {
  const providerId = whatsappMessageId(`${ticket.companyId}:${ticket.whatsappId}:${ticket.id}:bot:${key}`);
  if ((await getProviderRef(ticket.companyId, ticket.whatsappId, providerId)) !== null) {
    await postBotMessage(scope, ticket, contact, reply.text ?? '', key); // re-queues it while unsent
    return;
  }
  const slot = await reserveSendSlot({
    companyId: ticket.companyId,
    whatsappId: ticket.whatsappId,
    kind: 'bot',
    maxWaitMs: 5_000,
  });
  // No slot soon: the call's message comes back (its lease lets the retry in; the sends are keyed).
  if ('deferredUntil' in slot) throw new Error('send governor deferred the bot reply');
  await waitForSlot(slot.at);
  if (reply.audio) {
    const mediaKey = `c/${ticket.companyId}/tickets/${ticket.id}/bot-${key.replace(/[^\w-]/g, '_')}.ogg`;
    await putMediaObject(mediaKey, reply.audio.bytes, reply.audio.mimetype);
    await postBotMessage(scope, ticket, contact, '', key, {
      key: mediaKey,
      mimetype: reply.audio.mimetype,
      filename: 'audio.ogg',
      size: reply.audio.bytes.byteLength,
      voice: true,
    });
    return;
  }
  await postBotMessage(scope, ticket, contact, reply.text ?? '', key);
};

/** The `integration` queue's consumer: the debounced call of a burst that ended with message `ulid`. */
export const handleIntegrationCall = async (m: IntegrationCallMessage): Promise<void> => {
  const { companyId, ticketId, ulid } = m;
  const session = await getIntegrationSession(companyId, ticketId);
  // A newer message's call will read this one too; an ended session calls no more.
  if (!session || session.status === 'ended' || session.latest !== ulid || session.lastRead >= ulid) return;
  const ticket = await getTicket(companyId, ticketId);
  if (!ticket || ticket.status !== 'pending' || ticket.userId !== null) {
    await endIntegrationSession(companyId, ticketId, 'ticket-taken');
    return;
  }
  if (!(await claimIntegrationCall(companyId, ticketId, ulid, INTEGRATION_CALL_LEASE_MS))) return;
  const source = await resolveSource(companyId, session.source);
  const contact = await getContact(companyId, ticket.contactId);
  if (!source || !contact) {
    await handOver(ticket, 'integration-gone');
    await finishIntegrationCall(companyId, ticketId, ulid);
    return;
  }
  const context = source.kind === 'prompt' ? source.prompt.maxMessages : 0;
  const { fresh, recent } = await readConversation(ticket, session.lastRead, ulid, context);
  const messages = fresh.map(answerOf).filter((s) => s.trim() !== '');
  let result: ConverseResult;
  try {
    result = await converse(
      source,
      session,
      {
        companyId,
        ticketId,
        deliveryId: `${companyId}-${ticketId}-${ulid}`,
        messages: messages.length > 0 ? messages : [''],
        contact: { name: contact.name, number: contact.number },
        providerSession: session.providerSession,
      },
      recent,
    );
  } catch (err) {
    const reason = err instanceof IntegrationFailed ? err.reason : 'failed';
    if (!(err instanceof IntegrationFailed))
      logger.error('integration call broke', { companyId, ticketId, ...errorFields(err) });
    await handOver(ticket, `integration-failed:${reason}`);
    await finishIntegrationCall(companyId, ticketId, ulid);
    return;
  }
  // A person may have taken the ticket while the bot thought: then nothing goes out.
  const now = await getTicket(companyId, ticketId);
  if (!now || now.status !== 'pending' || now.userId !== null) {
    await endIntegrationSession(companyId, ticketId, 'ticket-taken');
    await finishIntegrationCall(companyId, ticketId, ulid);
    return;
  }
  const scope = new ReadScope();
  const delayMs =
    source.kind === 'integration' && source.integration.type === 'typebot'
      ? (source.integration.typebotDelayMessage ?? 0)
      : 0;
  for (const [i, reply] of result.replies.entries()) {
    if (i > 0 && delayMs > 0) await new Promise((r) => setTimeout(r, Math.min(delayMs, 5_000)));
    await sendReply(scope, now, contact, reply, `int:${ulid}:${i}`);
  }
  const expires =
    source.kind === 'integration' && source.integration.type === 'typebot'
      ? new Date(Date.now() + (source.integration.typebotExpires ?? 1) * 60_000).toISOString()
      : null;
  await advanceIntegrationSession(companyId, ticketId, {
    lastRead: ulid,
    ...(result.providerSession !== undefined ? { providerSession: result.providerSession } : {}),
    expiresAt: expires,
  });
  if (result.end) {
    const queueId = source.kind === 'prompt' ? source.prompt.queueId : undefined;
    await handOver(now, result.end === 'handoff' ? 'handoff' : 'finished', queueId);
  }
  await finishIntegrationCall(companyId, ticketId, ulid);
};
