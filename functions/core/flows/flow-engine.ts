import { createHash, randomUUID } from 'node:crypto';
import * as z from 'zod';
import {
  menuHandle,
  nodeDataSchemas,
  type ContentElement,
  type FlowConnection,
  type FlowNode,
  type FlowNodeData,
} from '../../contracts/flows';
import { getContact, type Contact } from '../../data/contact-repository';
import { getFlow, getFlowVersion, type FlowVersion } from '../../data/flow-repository';
import {
  claimFlowStep,
  FLOW_LEASE_MS,
  createFlowRun,
  getFlowRun,
  latestFlowRun,
  listDueFlowRuns,
  saveFlowStep,
  type FlowBotSession,
  type FlowCall,
  type FlowRun,
} from '../../data/flow-run-repository';
import { headMediaObject } from '../../data/media-store';
import { getProviderRef } from '../../data/message-repository';
import { sendQueueMessage } from '../../data/queue-sender';
import { ReadScope } from '../../data/read-scope';
import { getTickCheckpoint, setTickCheckpoint } from '../../data/tick-repository';
import { getTicket, TicketChanged, transitionTicket, type Ticket } from '../../data/ticket-repository';
import { errorFields, logger } from '../../shared/logger';
import { reserveSendSlot, waitForSlot } from '../outbound/send-governor';
import { whatsappMessageId } from '../pipeline/outbound-queue';
import { publishTicketChange } from '../tickets/ticket-events';
import { postBotMessage } from '../tickets/ticket-texts';
import { BOT_CALLING, BOT_WAITING, botCallStep, isBotNode } from './flow-bots';

/**
 * The flow engine (administration §2 Flow builder, §3 Flow document; DESIGN §10; decisions D139): walks a
 * run through one immutable version of a flow, node by node.
 *
 * Each step is: read the run (consistent) → claim the step (conditional write on `step` and a free lease,
 * BEFORE any side effect) → check the ticket (a person took it, or it closed: the run stops), the step
 * budget and the expiry → carry out the node (messages keyed by (run, step, n), each through the send
 * governor, kind 'flow') → write the next state conditional on the claim. A run waits for the customer
 * (menu, question) or for a timer (interval cards and nodes, a governor deferral); a timer is a delayed
 * message on the `flow` queue (SQS delay ≤ 900 s) AND a due-index entry the minute tick reads, so it fires
 * within seconds and still fires after a restart. A run ends cleanly — the ticket goes to its queue's
 * people — at the end of the flow, on the step budget, on expiry, or on a failure (a logged hand-over,
 * never a silent stop). Typebot and openai nodes talk to their provider in steps of their own (flow-bots.ts).
 */
export const FLOW_STEP_BUDGET = 100;
/** A run not moved on for this long (a customer who stopped answering) ends and goes to its queue. */
export const FLOW_IDLE_EXPIRY_MS = 30 * 60_000;
/** Invalid answers to one menu before the run hands over. */
export const FLOW_MENU_ATTEMPTS = 3;
/** Longest wait for a governor slot inside a step; a later slot becomes a timer. */
const SLOT_WAIT_MS = 5_000;
/** SQS's longest delay. */
const MAX_DELAY_SECONDS = 900;
export const FLOW_TICK_NAME = 'flows';
const MAX_CATCH_UP_MINUTES = 24 * 60;

export const FLOW_TEXTS = {
  invalidOption: 'Opção inválida, por favor escolha uma das opções abaixo.',
};

/** The `flow` queue's message: drive a run whose timer is due. */
export const flowTimerMessage = z.object({
  companyId: z.number().int().positive(),
  ticketId: z.number().int().positive(),
  runId: z.string().min(1),
  step: z.number().int().min(0),
});
export type FlowTimerMessage = z.infer<typeof flowTimerMessage>;

export type FlowEvent = { kind: 'start' } | { kind: 'input'; body: string; ulid: string } | { kind: 'timer' };

/**
 * The points of a step where a crash leaves something behind: the step claimed; one of its messages posted;
 * the next state saved (its timer not armed yet). Tests pass `at` to die there (a Lambda killed mid-way), and
 * `claimAt` to come back as SQS does after the visibility timeout: the clock a claim's lease is compared with.
 */
export type FlowPoint = 'claimed' | 'sent' | 'saved';
export interface FlowHooks {
  at?: (point: FlowPoint, run: FlowRun) => void;
  claimAt?: () => Date;
}

// ------------------------------------------------------------------------------------------- the document

/** Versions are immutable: one read per process is enough. */
const versions = new Map<string, Promise<FlowVersion | null>>();
const loadVersion = (companyId: number, flowId: number, version: number): Promise<FlowVersion | null> => {
  const key = `${companyId}:${flowId}:${version}`;
  let hit = versions.get(key);
  if (!hit) {
    if (versions.size > 500) versions.clear();
    hit = getFlowVersion(companyId, flowId, version);
    versions.set(key, hit);
    hit.then(
      (v) => v ?? versions.delete(key),
      () => versions.delete(key),
    );
  }
  return hit;
};

const nextOf = (doc: FlowVersion, nodeId: string, handle?: string): string | null => {
  const edge = doc.connections.find(
    (c: FlowConnection) => c.source === nodeId && (handle === undefined || (c.sourceHandle ?? '') === handle),
  );
  return edge?.target ?? null;
};

// ------------------------------------------------------------------------------------------ the node step

interface Outgoing {
  body: string;
  media?: { key: string; voice?: boolean };
}

/** What carrying out the current node decided. */
interface StepOutcome {
  sends: Outgoing[];
  /** The place after this step (null node: the flow ends there). */
  nodeId: string | null;
  element: number;
  wait?: { kind: 'input' } | { kind: 'timer'; seconds: number };
  end?: string;
  variables?: Record<string, string>;
  attempts?: number;
  lastInput?: string;
  /** The ticket node: move the ticket to this queue. */
  queueId?: number;
  /** A bot node: its session, the call its step made (kept on the run), the pause between its messages. */
  bot?: FlowBotSession | null;
  call?: FlowCall;
  pauseMs?: number;
  /** A bot waiting again: what it has read is `lastInput`, and newer messages are its next answer. */
  keepLastInput?: boolean;
}

/** `{{name}}` → the variable (answers to questions, then the contact's own fields); unknown ones stay empty. */
export const fillVariables = (text: string, variables: Record<string, string>, contact: Contact | null): string => {
  const builtIn: Record<string, string> = contact
    ? {
        name: contact.name,
        nome: contact.name,
        firstName: contact.name.split(/\s+/)[0] ?? '',
        number: contact.number,
        email: contact.email,
      }
    : {};
  return text.replace(
    /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g,
    (_, name: string) => variables[name] ?? builtIn[name] ?? '',
  );
};

/** A number in [0, 100) fixed by the run and the step: a retried step picks the same branch. */
export const seededPercent = (runId: string, step: number): number =>
  createHash('sha256').update(`${runId}:${step}`).digest().readUInt32BE(0) % 100;

const compare = (left: string, operator: FlowNodeData<'condition'>['condition'], right: string): boolean => {
  const l = left.trim().toLowerCase();
  const r = right.trim().toLowerCase();
  const ln = Number(l.replace(',', '.'));
  const rn = Number(r.replace(',', '.'));
  const numeric = l !== '' && r !== '' && Number.isFinite(ln) && Number.isFinite(rn);
  switch (operator) {
    case '==':
      return numeric ? ln === rn : l === r;
    case '!=':
      return numeric ? ln !== rn : l !== r;
    case 'contains':
      return l.includes(r);
    case '>':
      return numeric && ln > rn;
    case '<':
      return numeric && ln < rn;
    case '>=':
      return numeric && ln >= rn;
    case '<=':
      return numeric && ln <= rn;
  }
};

const menuText = (data: FlowNodeData<'menu'>, variables: Record<string, string>, contact: Contact | null): string =>
  [
    fillVariables(data.message, variables, contact).trim(),
    data.arrayOption.map((o) => `*${o.number}* - ${fillVariables(o.value, variables, contact)}`).join('\n'),
  ]
    .filter(Boolean)
    .join('\n\n');

/** The chosen option: its number, or its text (case- and accent-insensitive). */
const chooseOption = (data: FlowNodeData<'menu'>, answer: string) => {
  const a = answer.trim();
  if (/^\d+$/.test(a)) return data.arrayOption.find((o) => o.number === Number(a)) ?? null;
  const norm = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
  return data.arrayOption.find((o) => norm(o.value) === norm(a)) ?? null;
};

const mediaCard = (e: ContentElement): Outgoing | null =>
  typeof e.value === 'string' && e.value
    ? { body: '', media: { key: e.value, ...(e.type === 'audio' && e.record !== false ? { voice: true } : {}) } }
    : null;

/**
 * Carries out `node` at `run.element` for `event`, as a pure decision over the run, the document and the
 * contact (the caller does the writes and the sends).
 */
export const decideStep = (
  run: FlowRun,
  doc: FlowVersion,
  node: FlowNode,
  event: FlowEvent,
  contact: Contact | null,
): StepOutcome => {
  const vars = run.variables;
  const fill = (s: string) => fillVariables(s, vars, contact);
  const after = (handle?: string): Pick<StepOutcome, 'nodeId' | 'element'> => ({
    nodeId: nextOf(doc, node.id, handle),
    element: 0,
  });
  const parsed = nodeDataSchemas[node.type].safeParse(node.data);
  if (!parsed.success) return { sends: [], nodeId: null, element: 0, end: `invalid-node:${node.id}` };
  switch (node.type) {
    case 'start':
      return { sends: [], ...after() };
    case 'message':
      return { sends: [{ body: fill((parsed.data as FlowNodeData<'message'>).label) }], ...after() };
    case 'img':
    case 'video':
      return { sends: [{ body: '', media: { key: (parsed.data as FlowNodeData<'img'>).url } }], ...after() };
    case 'audio': {
      const data = parsed.data as FlowNodeData<'audio'>;
      return {
        sends: [{ body: '', media: { key: data.url, ...(data.record !== false ? { voice: true } : {}) } }],
        ...after(),
      };
    }
    case 'interval':
      return { sends: [], ...after(), wait: { kind: 'timer', seconds: (parsed.data as FlowNodeData<'interval'>).sec } };
    case 'singleBlock': {
      const data = parsed.data as FlowNodeData<'singleBlock'>;
      const cards = data.seq.flatMap((id) => data.elements.find((e) => e.number === id) ?? []);
      const sends: Outgoing[] = [];
      for (let i = run.element; i < cards.length; i += 1) {
        const card = cards[i]!;
        if (card.type === 'interval') {
          // The cards after the pause go out when its timer fires (this node, from the next card).
          return { sends, nodeId: node.id, element: i + 1, wait: { kind: 'timer', seconds: Number(card.value) } };
        }
        if (card.type === 'message') sends.push({ body: fill(String(card.value)) });
        else {
          const media = mediaCard(card);
          if (media) sends.push(media);
        }
      }
      return { sends, ...after() };
    }
    case 'menu': {
      const data = parsed.data as FlowNodeData<'menu'>;
      if (run.element === 0 || event.kind !== 'input') {
        // Ask (or, woken by a timer while asking, keep waiting).
        return run.element === 0
          ? {
              sends: [{ body: menuText(data, vars, contact) }],
              nodeId: node.id,
              element: 1,
              wait: { kind: 'input' },
              attempts: 0,
            }
          : { sends: [], nodeId: node.id, element: 1, wait: { kind: 'input' } };
      }
      const option = chooseOption(data, event.body);
      if (!option) {
        const attempts = run.attempts + 1;
        if (attempts >= FLOW_MENU_ATTEMPTS) {
          return { sends: [], nodeId: null, element: 0, end: 'invalid-answers', lastInput: event.ulid };
        }
        return {
          sends: [{ body: `${FLOW_TEXTS.invalidOption}\n\n${menuText(data, vars, contact)}` }],
          nodeId: node.id,
          element: 1,
          wait: { kind: 'input' },
          attempts,
          lastInput: event.ulid,
        };
      }
      return { sends: [], ...after(menuHandle(option.number)), attempts: 0, lastInput: event.ulid };
    }
    case 'question': {
      const data = parsed.data as FlowNodeData<'question'>;
      if (run.element === 0) {
        return { sends: [{ body: fill(data.message) }], nodeId: node.id, element: 1, wait: { kind: 'input' } };
      }
      if (event.kind !== 'input') return { sends: [], nodeId: node.id, element: 1, wait: { kind: 'input' } };
      return {
        sends: [],
        ...after(),
        variables: { ...vars, [data.answerKey]: event.body.trim().slice(0, 1000) },
        lastInput: event.ulid,
      };
    }
    case 'randomizer': {
      const data = parsed.data as FlowNodeData<'randomizer'>;
      return { sends: [], ...after(seededPercent(run.runId, run.step) < data.percent ? 'a' : 'b') };
    }
    case 'condition': {
      const data = parsed.data as FlowNodeData<'condition'>;
      const value = vars[data.key] ?? fill(`{{${data.key}}}`);
      // Holds: on along the output; does not: the run ends and the ticket goes to its queue (D139).
      return compare(value, data.condition, fill(data.value))
        ? { sends: [], ...after() }
        : { sends: [], nodeId: null, element: 0, end: 'condition-not-met' };
    }
    case 'ticket': {
      const data = parsed.data as FlowNodeData<'ticket'>;
      return { sends: [], ...after(), queueId: data.queueId };
    }
    case 'typebot':
    case 'openai':
      // Entering the bot, or an answer came: the provider is called in a step of its own, on the flow queue
      // (the CALL place, due at once; D173). A new visit to the node opens a new session.
      return {
        sends: [],
        nodeId: node.id,
        element: BOT_CALLING,
        wait: { kind: 'timer', seconds: 0 },
        ...(run.element === 0 ? { bot: null } : {}),
      };
  }
};

// --------------------------------------------------------------------------------------------- the runner

/** The run's step messages' provider id, as ticket-texts' keyed bot messages derive it (`bot:<key>`). */
const stepKey = (run: FlowRun, i: number): string => `flow:${run.runId}:${run.step}:${i}`;

const armTimer = async (run: FlowRun): Promise<void> => {
  const until = run.waitKind === 'timer' ? run.waitUntil : run.expiresAt;
  if (!until) return;
  const seconds = Math.ceil((Date.parse(until) - Date.now()) / 1000);
  if (seconds > MAX_DELAY_SECONDS) return; // the minute tick fires it from the due index
  try {
    await sendQueueMessage(
      'flow',
      { companyId: run.companyId, ticketId: run.ticketId, runId: run.runId, step: run.step },
      { delaySeconds: Math.max(0, seconds) },
    );
  } catch (err) {
    // The due index still holds it: the tick fires it, a little later.
    logger.warn('flow timer not queued', { companyId: run.companyId, runId: run.runId, ...errorFields(err) });
  }
};

/** The run ended: a ticket still waiting for the bot goes to its queue's people (logged and published). */
const handOver = async (scope: ReadScope, run: FlowRun, reason: string): Promise<void> => {
  logger.info('flow run ended', {
    companyId: run.companyId,
    ticketId: run.ticketId,
    runId: run.runId,
    flowId: run.flowId,
    reason,
  });
  const ticket = await getTicket(run.companyId, run.ticketId);
  if (!ticket || ticket.status !== 'pending' || ticket.userId !== null || !ticket.isBot) return;
  const contact = await getContact(run.companyId, ticket.contactId);
  try {
    const after = await transitionTicket(ticket, {
      status: 'pending',
      userId: null,
      queueId: ticket.queueId,
      fields: { isBot: false },
      logs: [{ type: 'chatBot', userId: null, queueId: ticket.queueId }],
    });
    if (contact) await publishTicketChange(scope, ticket, after, contact);
  } catch (err) {
    if (!(err instanceof TicketChanged)) throw err;
  }
};

/** Sends one message of a step through the governor; answers a time to come back at when deferred. */
const send = async (
  scope: ReadScope,
  run: FlowRun,
  ticket: Ticket,
  contact: Contact,
  out: Outgoing,
  key: string,
): Promise<Date | null> => {
  const providerId = whatsappMessageId(`${run.companyId}:${ticket.whatsappId}:${ticket.id}:bot:${key}`);
  // Stored by an earlier attempt of this step: no new slot, the keyed post only re-queues it while unsent.
  const already = (await getProviderRef(run.companyId, ticket.whatsappId, providerId)) !== null;
  if (!already) {
    const slot = await reserveSendSlot({
      companyId: run.companyId,
      whatsappId: ticket.whatsappId,
      kind: 'flow',
      maxWaitMs: SLOT_WAIT_MS,
    });
    if ('deferredUntil' in slot) return slot.deferredUntil;
    await waitForSlot(slot.at);
  }
  let media;
  if (out.media) {
    const head = await headMediaObject(out.media.key).catch(() => null);
    if (!head) {
      logger.warn('flow file missing, card skipped', {
        companyId: run.companyId,
        runId: run.runId,
        key: out.media.key,
      });
      return null;
    }
    media = {
      key: out.media.key,
      mimetype: head.contentType,
      filename: out.media.key.split('/').at(-1) ?? 'arquivo',
      size: head.size,
      ...(out.media.voice ? { voice: true } : {}),
    };
  }
  await postBotMessage(scope, ticket, contact, out.body, key, media);
  return null;
};

/**
 * Moves a run on as far as it can go for one event: step after step until it waits, ends or the budget
 * stops it. Safe to call any number of times for the same event: a step is carried out only by the caller
 * that claimed it, and the claim is only possible while the run is where the caller read it.
 */
export const driveFlowRun = async (
  scope: ReadScope,
  ref: { companyId: number; ticketId: number; runId: string },
  first: FlowEvent,
  hooks: FlowHooks = {},
): Promise<FlowRun | null> => {
  let event = first;
  for (let guard = 0; guard < FLOW_STEP_BUDGET + 2; guard += 1) {
    const run = await getFlowRun(ref.companyId, ref.ticketId, ref.runId);
    if (!run || run.status === 'ended') return run;
    const now = new Date();
    // Only what the run is waiting for moves it: an answer while it asks, a due timer, or its expiry.
    const expired = now.toISOString() >= run.expiresAt;
    if (run.status === 'waiting' && !expired) {
      if (run.waitKind === 'input' && (event.kind !== 'input' || event.ulid <= run.lastInput)) return run;
      if (run.waitKind === 'timer' && (event.kind !== 'timer' || (run.waitUntil ?? '') > now.toISOString())) return run;
    }
    const token = randomUUID();
    if (!(await claimFlowStep(run, token, hooks.claimAt?.() ?? now, FLOW_LEASE_MS))) return run;
    hooks.at?.('claimed', run);
    // A timer that fired: when it was due and when it fired stay on the run (the timers' lag, D175).
    const timerLog =
      run.status === 'waiting' && run.waitKind === 'timer' && run.waitUntil
        ? { timerLog: [...(run.timerLog ?? []).slice(-9), { dueAt: run.waitUntil, firedAt: now.toISOString() }] }
        : {};

    const end = async (reason: string, extra: Partial<FlowRun> = {}): Promise<FlowRun> => {
      const ended: FlowRun = {
        ...run,
        ...extra,
        status: 'ended',
        step: run.step + 1,
        waitKind: null,
        waitUntil: null,
        endReason: reason,
        updatedAt: new Date().toISOString(),
      };
      if (await saveFlowStep(run, ended, token)) await handOver(scope, ended, reason);
      return ended;
    };

    const ticket = await getTicket(run.companyId, run.ticketId);
    // A person took the ticket (or it closed, or it left the bot): the run stops at once, sending nothing.
    if (!ticket || ticket.status !== 'pending' || ticket.userId !== null) return end('ticket-taken');
    if (expired) return end('expired');
    if (run.step >= FLOW_STEP_BUDGET) return end('step-budget');
    const flow = await getFlow(run.companyId, run.flowId);
    const doc = flow ? await loadVersion(run.companyId, run.flowId, run.version) : null;
    const node = doc?.nodes.find((n) => n.id === run.nodeId);
    if (!doc || !node) return end(doc ? 'flow-ended' : 'flow-gone');
    const contact = await getContact(run.companyId, ticket.contactId);

    let outcome: StepOutcome;
    if (isBotNode(node) && run.element === BOT_CALLING) {
      const called = await botCallStep(run, node, ticket, contact, token);
      if (!called) return run; // the claim was lost: the worker that has the step carries it out
      const { result } = called;
      const sends: Outgoing[] = result.replies.map((r) =>
        r.mediaKey ? { body: '', media: { key: r.mediaKey, voice: true } } : { body: r.body },
      );
      const common = { sends, call: called.call, lastInput: result.read, pauseMs: called.pauseMs };
      outcome = result.failed
        ? { ...common, sends: [], nodeId: null, element: 0, end: `integration-failed:${result.failed}` }
        : result.end
          ? { ...common, nodeId: nextOf(doc, node.id), element: 0, bot: null }
          : called.unread
            ? {
                ...common,
                nodeId: node.id,
                element: BOT_CALLING,
                wait: { kind: 'timer', seconds: 0 },
                bot: called.session,
              }
            : {
                ...common,
                nodeId: node.id,
                element: BOT_WAITING,
                wait: { kind: 'input' },
                bot: called.session,
                keepLastInput: true,
              };
    } else outcome = decideStep(run, doc, node, event, contact);
    // The step's messages, each once (keyed by run, step and place), paced by the governor.
    if (contact) {
      for (const [i, out] of outcome.sends.entries()) {
        if (i > 0 && outcome.pauseMs) await new Promise((r) => setTimeout(r, outcome.pauseMs));
        const deferred = await send(scope, run, ticket, contact, out, stepKey(run, i));
        if (deferred) {
          // No slot soon enough: let go of the step and come back when the governor says (same step).
          const held: FlowRun = {
            ...run,
            // A bot node's call is kept: the step comes back to send its replies, not to call again.
            ...(outcome.call ? { call: outcome.call } : {}),
            ...timerLog,
            status: 'waiting',
            waitKind: 'timer',
            waitUntil: deferred.toISOString(),
            expiresAt: new Date(
              Math.max(Date.parse(run.expiresAt), deferred.getTime() + FLOW_IDLE_EXPIRY_MS),
            ).toISOString(),
            updatedAt: new Date().toISOString(),
          };
          if (await saveFlowStep(run, held, token)) await armTimer(held);
          return held;
        }
        hooks.at?.('sent', run);
      }
    }
    let current = ticket;
    if (outcome.queueId !== undefined && outcome.queueId !== ticket.queueId) {
      const queues = await scope.queues(run.companyId);
      if (queues.has(outcome.queueId)) {
        current = await transitionTicket(ticket, {
          status: 'pending',
          userId: null,
          queueId: outcome.queueId,
          logs: [{ type: 'queue', userId: null, queueId: outcome.queueId }],
        });
        if (contact) await publishTicketChange(scope, ticket, current, contact);
      }
    }
    const base = {
      ...timerLog,
      ...(outcome.variables ? { variables: outcome.variables } : {}),
      ...(outcome.attempts !== undefined ? { attempts: outcome.attempts } : {}),
      ...(outcome.lastInput ? { lastInput: outcome.lastInput } : {}),
      ...(outcome.bot !== undefined ? { bot: outcome.bot } : {}),
      ...(outcome.call ? { call: outcome.call } : {}),
    };
    if (outcome.end) return end(outcome.end, base);
    if (outcome.nodeId === null) return end(outcome.queueId !== undefined ? 'handed-to-queue' : 'flow-ended', base);
    const at = new Date();
    const next: FlowRun = {
      ...run,
      ...base,
      nodeId: outcome.nodeId,
      element: outcome.element,
      step: run.step + 1,
      status: outcome.wait ? 'waiting' : 'running',
      waitKind: outcome.wait?.kind ?? null,
      waitUntil:
        outcome.wait?.kind === 'timer' ? new Date(at.getTime() + outcome.wait.seconds * 1000).toISOString() : null,
      expiresAt: new Date(at.getTime() + FLOW_IDLE_EXPIRY_MS).toISOString(),
      updatedAt: at.toISOString(),
    };
    if (next.waitKind === 'input' && !outcome.keepLastInput) {
      // Whatever the customer wrote before this question went out is not its answer.
      const latest = (await getTicket(run.companyId, run.ticketId))?.lastMsgSk?.slice('MSG#'.length) ?? '';
      if (latest > next.lastInput) next.lastInput = latest;
    }
    if (!(await saveFlowStep(run, next, token))) return next;
    hooks.at?.('saved', next);
    if (next.status === 'waiting') {
      await armTimer(next);
      return next;
    }
    event = { kind: 'start' };
  }
  return getFlowRun(ref.companyId, ref.ticketId, ref.runId);
};

// ---------------------------------------------------------------------------------------------- triggers

/**
 * Starts `flowId` on the ticket, for the customer message `trigger` (its ULID is the run's id, so a
 * redelivery finds the run it made), and drives it. The ticket becomes a bot ticket (logged, published).
 * Answers false when the flow is missing, off, or has no saved version.
 */
export const startFlowRun = async (
  scope: ReadScope,
  ticket: Ticket,
  contact: Contact,
  flowId: number,
  trigger: { ulid: string; kind: string },
  hooks: FlowHooks = {},
): Promise<boolean> => {
  const flow = await getFlow(ticket.companyId, flowId);
  if (!flow || !flow.active || flow.version < 1) return false;
  const doc = await loadVersion(ticket.companyId, flowId, flow.version);
  const start = doc?.nodes.find((n) => n.type === 'start');
  if (!doc || !start) return false;
  const at = new Date().toISOString();
  const run = await createFlowRun({
    companyId: ticket.companyId,
    ticketId: ticket.id,
    runId: trigger.ulid,
    flowId,
    version: flow.version,
    whatsappId: ticket.whatsappId,
    status: 'running',
    nodeId: start.id,
    element: 0,
    step: 0,
    waitKind: null,
    waitUntil: null,
    expiresAt: new Date(Date.now() + FLOW_IDLE_EXPIRY_MS).toISOString(),
    variables: {},
    attempts: 0,
    lastInput: trigger.ulid,
    trigger: trigger.kind,
    endReason: null,
    claimToken: null,
    leaseUntil: null,
    createdAt: at,
    updatedAt: at,
  });
  if (run.step === 0 && !ticket.isBot) {
    try {
      const after = await transitionTicket(ticket, {
        status: ticket.status,
        userId: ticket.userId,
        queueId: ticket.queueId,
        fields: { isBot: true },
        logs: [{ type: 'chatBot', userId: null, queueId: ticket.queueId }],
      });
      await publishTicketChange(scope, ticket, after, contact);
    } catch (err) {
      if (!(err instanceof TicketChanged)) throw err;
    }
  }
  await driveFlowRun(scope, run, { kind: 'start' }, hooks);
  return true;
};

/** The ticket's run that is not over, if any. */
export const activeFlowRun = async (companyId: number, ticketId: number): Promise<FlowRun | null> => {
  const run = await latestFlowRun(companyId, ticketId);
  return run && run.status !== 'ended' ? run : null;
};

/** The `flow` queue's consumer: a timer that came due (or an expiry) drives its run. */
export const handleFlowTimer = async (m: FlowTimerMessage): Promise<void> => {
  await driveFlowRun(new ReadScope(), m, { kind: 'timer' });
};

/**
 * The minute tick: runs whose timer or expiry came due (gsi4 `DUE#FLOW#<minute>#<s>`, from the checkpoint
 * − 2 minutes, at most a day back) are driven — their SQS timer normally did it already, and then this
 * finds them moved on and does nothing. Answers how many it drove.
 */
export const runFlowTick = async (now = new Date()): Promise<number> => {
  const current = Math.floor(now.getTime() / 60_000) * 60_000;
  const checkpoint = await getTickCheckpoint(FLOW_TICK_NAME);
  const from = Math.max(
    checkpoint ? Date.parse(`${checkpoint}:00.000Z`) - 2 * 60_000 : current - 2 * 60_000,
    current - MAX_CATCH_UP_MINUTES * 60_000,
  );
  const until = now.toISOString();
  let driven = 0;
  const scope = new ReadScope();
  for (let minute = from; minute <= current; minute += 60_000) {
    for (const due of await listDueFlowRuns(new Date(minute).toISOString().slice(0, 16), until)) {
      try {
        await driveFlowRun(scope, due, { kind: 'timer' });
        driven += 1;
      } catch (err) {
        logger.error('due flow run not driven', { ...due, ...errorFields(err) });
      }
    }
  }
  await setTickCheckpoint(FLOW_TICK_NAME, until.slice(0, 16));
  return driven;
};
