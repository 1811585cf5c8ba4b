import type { FlowNode, FlowNodeData } from '../../contracts/flows';
import { nodeDataSchemas } from '../../contracts/flows';
import type { Contact } from '../../data/contact-repository';
import {
  claimFlowCall,
  saveFlowCallResult,
  type FlowCall,
  type FlowCallResult,
  type FlowRun,
} from '../../data/flow-run-repository';
import { putMediaObject } from '../../data/media-store';
import type { Ticket } from '../../data/ticket-repository';
import { errorFields, logger } from '../../shared/logger';
import { assistantTurn, readConversation, typebotTurn, voiceOf } from '../integrations/bot-turns';
import { IntegrationFailed, type ConverseResult } from '../integrations/port';
import { answerOf } from '../pipeline/message-content';
import { openKey } from './flow-secrets';

/**
 * The flow engine's typebot and openai nodes (administration §3 Flow document, §5; decisions D173). A bot node
 * is a conversation inside the run: entering it, or an answer of the customer while it waits, moves the run to
 * the node's CALL place behind a timer due at once, so the provider is called by the `flow` queue's consumer
 * (never inside the inbound pipeline) in a step of its own. That step claims the call by (run, step) on the run
 * item before calling — a redelivered timer, a second worker or a step taken over after a crash finds it
 * claimed and reuses the kept result, or, when the earlier call's fate is unknown (the worker died during it),
 * ends the run and hands over rather than call twice. Replies go out as the step's keyed messages through the
 * governor; the bot waits for the next answer (input) until it ends — typebot asking no more, its finish
 * keyword, or the assistant's handoff phrase — and then the run follows the node's output. A failure (timeout,
 * 5xx after the port's retries) ends the run and hands the ticket to its queue.
 */
export const BOT_NODE_TYPES = ['typebot', 'openai'] as const;
export const isBotNode = (node: FlowNode): boolean => (BOT_NODE_TYPES as readonly string[]).includes(node.type);
/** The node's places: entering (0), waiting for an answer (1), calling the provider (2). */
export const BOT_WAITING = 1;
export const BOT_CALLING = 2;
/** The step's lease while it calls: the port's three attempts with their timeouts and backoff fit in it. */
export const BOT_CALL_LEASE_MS = 120_000;
/** Longest pause between a typebot's messages (typebotDelayMessage; D163). */
const MAX_TYPEBOT_DELAY_MS = 5_000;
/** Context of the openai node when it sets none (administration §9: max messages 10). */
const DEFAULT_MAX_MESSAGES = 10;

export interface BotStepResult {
  call: FlowCall;
  result: FlowCallResult;
  /** The bot's session after the call (typebot), kept on the run. */
  session: { session: string | null; expiresAt: string | null } | null;
  /** A customer message came in while the bot was thinking: call again at once instead of waiting. */
  unread: boolean;
  pauseMs: number;
}

const mediaKeyOf = (run: FlowRun, i: number) =>
  `c/${run.companyId}/tickets/${run.ticketId}/flow-${run.runId}-${run.step}-${i}.ogg`;

const keep = async (run: FlowRun, result: ConverseResult, read: string): Promise<FlowCallResult> => {
  const replies: FlowCallResult['replies'] = [];
  for (const [i, reply] of result.replies.entries()) {
    if (reply.audio) {
      // Stored before the result is kept: a step taken over sends the same file.
      const key = mediaKeyOf(run, i);
      await putMediaObject(key, reply.audio.bytes, reply.audio.mimetype);
      replies.push({ body: '', mediaKey: key });
    } else if (reply.text?.trim()) replies.push({ body: reply.text });
  }
  return { replies, end: result.end ?? null, session: result.providerSession ?? null, read };
};

/**
 * The CALL step of a bot node (the run's step is claimed by `token`). Answers null when the step's claim
 * was lost meanwhile (another worker has the step: this one stops without a side effect).
 */
export const botCallStep = async (
  run: FlowRun,
  node: FlowNode,
  ticket: Ticket,
  contact: Contact | null,
  token: string,
): Promise<BotStepResult | null> => {
  const now = new Date();
  const typebot = node.type === 'typebot' ? (node.data as FlowNodeData<'typebot'>) : null;
  const openai = node.type === 'openai' ? (node.data as FlowNodeData<'openai'>) : null;
  const pauseMs = typebot ? Math.min(typebot.typebotDelayMessage ?? 1000, MAX_TYPEBOT_DELAY_MS) : 0;
  const session = (s: string | null) =>
    typebot
      ? { session: s, expiresAt: new Date(now.getTime() + (typebot.typebotExpires ?? 1) * 60_000).toISOString() }
      : null;

  const earlier = run.call?.step === run.step ? run.call : null;
  if (earlier) {
    // Taken over (or a deferred send): the call was made by an earlier attempt of this step.
    const result = earlier.result ?? {
      replies: [],
      end: null,
      session: null,
      read: run.lastInput,
      failed: 'interrupted',
    };
    return {
      call: { step: run.step, result },
      result,
      session: session(result.session ?? run.bot?.session ?? null),
      unread: false,
      pauseMs,
    };
  }
  const parsed = nodeDataSchemas[node.type].safeParse(node.data);
  const what = { kind: `flow-${node.type}`, companyId: run.companyId, ticketId: run.ticketId };
  const context = openai ? (openai.maxMessages ?? DEFAULT_MAX_MESSAGES) : 0;
  const { fresh, recent } = await readConversation(ticket, run.lastInput, '\uffff', context);
  const read = fresh.at(-1)?.ulid ?? run.lastInput;
  let outcome: ConverseResult;
  if (openai && recent.at(-1)?.fromMe !== false) {
    // Nothing of the customer's to answer yet (the flow spoke last): the assistant waits for them.
    outcome = { replies: [] };
  } else {
    if (!(await claimFlowCall(run, token, new Date(now.getTime() + BOT_CALL_LEASE_MS)))) return null;
    try {
      if (!parsed.success) throw new IntegrationFailed(`invalid-node:${node.id}`, true);
      if (typebot) {
        outcome = await typebotTurn(
          what,
          {
            url: typebot.urlN8N,
            slug: typebot.typebotSlug,
            keywordFinish: typebot.typebotKeywordFinish,
            keywordRestart: typebot.typebotKeywordRestart,
            restartMessage: typebot.typebotRestartMessage,
            unknownMessage: typebot.typebotUnknownMessage,
          },
          {
            deliveryId: `${run.companyId}-${run.ticketId}-${run.runId}-${run.step}`,
            messages: fresh.map(answerOf).filter((s) => s.trim() !== ''),
            contact: { name: contact?.name ?? '', number: contact?.number ?? '' },
            session: run.bot?.session ?? null,
            expired: !!run.bot?.session && !!run.bot.expiresAt && run.bot.expiresAt < now.toISOString(),
          },
        );
      } else {
        const data = openai!;
        outcome = await assistantTurn(
          what,
          {
            apiKey: await openKey(data.apiKey),
            prompt: data.prompt,
            voice: voiceOf(data.voice),
            maxTokens: data.maxTokens ?? 100,
            temperature: data.temperature ?? 1,
          },
          recent,
          contact?.name ?? '',
        );
      }
    } catch (err) {
      const reason = err instanceof IntegrationFailed ? err.reason : 'failed';
      if (!(err instanceof IntegrationFailed))
        logger.error('flow bot call broke', { ...what, runId: run.runId, ...errorFields(err) });
      const failed: FlowCallResult = { replies: [], end: null, session: null, read, failed: reason };
      if (!(await saveFlowCallResult(run, token, failed))) return null;
      return { call: { step: run.step, result: failed }, result: failed, session: null, unread: false, pauseMs };
    }
  }
  const result = await keep(run, outcome, read);
  if (!(await saveFlowCallResult(run, token, result))) return null;
  const after = await readConversation(ticket, read, '\uffff', 0);
  return {
    call: { step: run.step, result },
    result,
    session: session(result.session ?? run.bot?.session ?? null),
    unread: after.fresh.length > 0,
    pauseMs,
  };
};
