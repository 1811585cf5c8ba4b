import { beforeAll, describe, expect, it } from 'vitest';
import { menuHandle } from '../../functions/contracts/flows';
import {
  driveFlowRun,
  startFlowRun,
  type FlowEvent,
  type FlowHooks,
  type FlowPoint,
} from '../../functions/core/flows/flow-engine';
import { putCampaignSettingsItem } from '../../functions/data/campaign-settings-repository';
import type { Connection } from '../../functions/data/connection-repository';
import { createContact, type Contact } from '../../functions/data/contact-repository';
import { FLOW_LEASE_MS, getFlowRun, listDueFlowRuns, type FlowRun } from '../../functions/data/flow-run-repository';
import { listTicketMessages } from '../../functions/data/message-repository';
import { ReadScope } from '../../functions/data/read-scope';
import { createTicket, type Ticket } from '../../functions/data/ticket-repository';
import { newUlid } from '../../functions/data/ulids';
import { someConnection, waitFor } from '../helpers/connections';
import { freshCompany, type TestCompany } from '../helpers/fixtures';
import { edge, flowWorld, node, phone, sentBy } from '../helpers/flow-world';

/**
 * The flow engine under crashes (issue 17 item 9; DESIGN §10; decisions D139): 200 runs of a flow with two
 * pauses and a menu, each run's job killed once at a random step and point — right after the step's claim,
 * after one of its messages was posted, or after its next state was saved but before its timer was armed —
 * and delivered again as SQS does after the visibility timeout (the claim's lease is over for it). The test
 * is also the customer (menu answers, some invalid, some messages written during a pause) and the minute
 * tick, run every 250 ms over the due index, beside the local cloud's own `flow` queue consumer firing the
 * same timers: whoever comes second finds the step taken. Every run must send exactly its messages, once
 * each, and each pause must fire within 5 s of its due time — the due and fired times the run stores for
 * each timer (D175), so the bound is about the timers, not about how long a loaded machine takes to send.
 */
let t: TestCompany;
const connections: Connection[] = [];
const { newFlow, save } = flowWorld(
  () => t,
  () => connections[0]!,
);

const RUNS = 200;
const PARALLEL = 20;
const PAUSE_S = 1;
const POINTS: FlowPoint[] = ['claimed', 'sent', 'saved'];
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await freshCompany();
  // One connection per customer at a time (each has its own send governor); no pacing (the governor has its
  // own tests).
  for (let i = 0; i < PARALLEL; i += 1) connections.push(await someConnection(t.company.id, { status: 'CONNECTED' }));
  await putCampaignSettingsItem(t.company.id, { messageInterval: 0, greaterInterval: 0, longerIntervalAfter: 0 });
});

/** start → Olá → pause → menu (1 Vendas, 2 Suporte) → Vendas!/Suporte! → content [Um, pause, Dois] → end. */
const flowDocument = () => ({
  nodes: [
    node('1', 'start'),
    node('hello', 'message', { label: 'Olá' }),
    node('wait', 'interval', { sec: PAUSE_S }),
    node('menu', 'menu', {
      message: 'Escolha',
      arrayOption: [
        { number: 1, value: 'Vendas' },
        { number: 2, value: 'Suporte' },
      ],
    }),
    node('sales', 'message', { label: 'Vendas!' }),
    node('support', 'message', { label: 'Suporte!' }),
    node('content', 'singleBlock', {
      seq: ['message1', 'interval2', 'message3'],
      elements: [
        { number: 'message1', type: 'message', value: 'Um' },
        { number: 'interval2', type: 'interval', value: PAUSE_S },
        { number: 'message3', type: 'message', value: 'Dois' },
      ],
    }),
  ],
  connections: [
    edge('1', 'hello'),
    edge('hello', 'wait'),
    edge('wait', 'menu'),
    edge('menu', 'sales', menuHandle(1)),
    edge('menu', 'support', menuHandle(2)),
    edge('sales', 'content'),
    edge('support', 'content'),
  ],
});
const MENU = 'Escolha\n\n*1* - Vendas\n*2* - Suporte';
const INVALID = `Opção inválida, por favor escolha uma das opções abaixo.\n\n${MENU}`;

interface Plan {
  ticket: Ticket;
  contact: Contact;
  runId: string;
  /** The step at which this run's job dies, and where. */
  crashStep: number;
  crashPoint: FlowPoint;
  crashed: boolean;
  expected: string[];
}

const newPlan = async (i: number): Promise<Plan> => {
  const connection = connections[i % connections.length]!;
  const number = phone();
  const contact = await createContact(
    t.company.id,
    { name: `Cliente ${i}`, number, isGroup: false, channel: 'whatsapp', whatsappId: null },
    [`wa#${number}`],
  );
  const ticket = await createTicket(t.company.id, {
    status: 'pending',
    queueId: null,
    userId: null,
    contactId: contact.id,
    whatsappId: connection.id,
    channel: 'whatsapp',
    isGroup: false,
    chatId: `${number}@s.whatsapp.net`,
    origin: 'passive',
  });
  // Steps: 0 start, 1 Olá, 2 pause, 3 menu, (4 answer), then the branch and the content's two halves.
  return {
    ticket,
    contact,
    runId: newUlid(Date.now()),
    crashStep: Math.floor(Math.random() * 8),
    crashPoint: pick(POINTS),
    crashed: false,
    expected: [],
  };
};

/** The job's hooks for this run: die once at the planned step and point. */
const hooksOf = (plan: Plan): FlowHooks => ({
  at: (point: FlowPoint, run: FlowRun) => {
    const step = point === 'saved' ? run.step - 1 : run.step;
    if (!plan.crashed && step === plan.crashStep && point === plan.crashPoint) {
      plan.crashed = true;
      throw new Error(`injected crash at ${point} of step ${step}`);
    }
  },
});
/** The redelivery after the visibility timeout: the dead job's claim has expired for it. */
const redelivery: FlowHooks = { claimAt: () => new Date(Date.now() + FLOW_LEASE_MS + 1_000) };

/** One delivery of `event` to the run by a job that may die; a dead one is delivered again. */
const deliver = async (plan: Plan, event: FlowEvent): Promise<void> => {
  const ref = { companyId: t.company.id, ticketId: plan.ticket.id, runId: plan.runId };
  try {
    await driveFlowRun(new ReadScope(), ref, event, hooksOf(plan));
  } catch (err) {
    expect((err as Error).message).toMatch(/^injected crash/);
    await driveFlowRun(new ReadScope(), ref, event, redelivery);
  }
};

const startRun = async (plan: Plan, flowId: number): Promise<void> => {
  const trigger = { ulid: plan.runId, kind: 'chaos' };
  try {
    await startFlowRun(new ReadScope(), plan.ticket, plan.contact, flowId, trigger, hooksOf(plan));
  } catch (err) {
    expect((err as Error).message).toMatch(/^injected crash/);
    await startFlowRun(new ReadScope(), plan.ticket, plan.contact, flowId, trigger, redelivery);
  }
};

/** The customer: answers the menu (an invalid answer first, now and then) and sometimes writes during a pause. */
const customer = async (plan: Plan, flowId: number): Promise<void> => {
  await startRun(plan, flowId);
  plan.expected.push('Olá', MENU);
  const invalidFirst = Math.random() < 0.25;
  const choice = pick([1, 2]);
  let answered = false;
  let invalidSent = false;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const seenAt = Date.now() - 1;
    const run = await getFlowRun(t.company.id, plan.ticket.id, plan.runId);
    if (!run || run.status === 'ended') return;
    if (Date.now() > deadline) throw new Error(`run ${plan.runId} stuck at ${run.nodeId}/${run.element}`);
    if (run.status === 'waiting' && run.waitKind === 'input' && run.nodeId === 'menu') {
      const body = invalidFirst && !invalidSent ? 'talvez' : String(choice);
      if (body === 'talvez') {
        invalidSent = true;
        plan.expected.push(INVALID);
      } else if (!answered) {
        answered = true;
        plan.expected.push(choice === 1 ? 'Vendas!' : 'Suporte!', 'Um', 'Dois');
      }
      await deliver(plan, { kind: 'input', body, ulid: newUlid(Date.now() + 5) });
    } else if (
      run.status === 'waiting' &&
      run.waitKind === 'timer' &&
      Date.parse(run.waitUntil ?? '') > seenAt &&
      Math.random() < 0.2
    ) {
      // Written during a pause, before it was due (so before whatever follows it went out): the run ignores
      // it, and the pause still ends once.
      await deliver(plan, { kind: 'input', body: 'oi?', ulid: newUlid(seenAt) });
    }
    await pause(150);
  }
};

/** The test's minute tick, every 250 ms: drives what the due index says is due, by jobs that may die. */
const ticking = (plans: Map<string, Plan>) => {
  let on = true;
  const loop = (async () => {
    while (on) {
      const now = new Date();
      const minutes = [new Date(now.getTime() - 60_000), now].map((d) => d.toISOString().slice(0, 16));
      const due = (await Promise.all(minutes.map((m) => listDueFlowRuns(m, now.toISOString())))).flat();
      await Promise.all(
        due.flatMap((d) => {
          const plan = plans.get(d.runId);
          return plan ? [deliver(plan, { kind: 'timer' })] : [];
        }),
      );
      await pause(250);
    }
  })();
  return async () => {
    on = false;
    await loop;
  };
};

describe('200 flow runs whose jobs are killed at random steps', () => {
  it('every run sends each of its messages exactly once, and every pause ends within 5 s of due', async () => {
    const flow = await newFlow();
    const doc = flowDocument();
    await save(flow.id, doc.nodes, doc.connections);
    const plans = new Map<string, Plan>();
    const all: Plan[] = [];
    const stopTicking = ticking(plans);
    try {
      let next = 0;
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          while (next < RUNS) {
            const plan = await newPlan(next++);
            plans.set(plan.runId, plan);
            all.push(plan);
            await customer(plan, flow.id);
          }
        }),
      );
    } finally {
      await stopTicking();
    }

    const crashes = all.filter((p) => p.crashed);
    // Most plans hit a step that exists with its point; each point was hit many times.
    expect(crashes.length).toBeGreaterThan(RUNS / 2);
    for (const point of POINTS) expect(crashes.filter((p) => p.crashPoint === point).length).toBeGreaterThan(RUNS / 20);

    const lags: number[] = [];
    for (const plan of all) {
      const run = await waitFor(
        () => getFlowRun(t.company.id, plan.ticket.id, plan.runId),
        (r) => r?.status === 'ended',
        { what: `run ${plan.runId} ended` },
      );
      expect(run!.endReason, plan.runId).toBe('flow-ended');
      const sent = sentBy(await listTicketMessages(t.company.id, plan.ticket.id));
      // 0 lost, 0 duplicated: exactly the run's messages, in order, once each.
      expect(
        sent.map((m) => m.body),
        `run ${plan.runId} (crash at ${plan.crashPoint} of step ${plan.crashStep})`,
      ).toEqual(plan.expected);
      // Each pause: when it was due and when its timer fired, as the run stored them.
      expect(run!.timerLog?.length, plan.runId).toBeGreaterThanOrEqual(2);
      for (const timer of run!.timerLog ?? []) lags.push(Date.parse(timer.firedAt) - Date.parse(timer.dueAt));
    }
    // Never early, and within 5 s of due.
    expect(Math.min(...lags)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...lags)).toBeLessThanOrEqual(5_000);
  }, 420_000);
});
