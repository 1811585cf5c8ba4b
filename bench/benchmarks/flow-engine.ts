import { CAMPAIGN_SETTINGS_DEFAULTS } from '../../functions/core/outbound/campaign-settings';
import { driveFlowRun, startFlowRun } from '../../functions/core/flows/flow-engine';
import { createCompanyFlow, saveCompanyFlowDocument } from '../../functions/core/flows/flow-service';
import { putCampaignSettingsItem } from '../../functions/data/campaign-settings-repository';
import { createCompany } from '../../functions/data/company-repository';
import { createConnection, type Connection } from '../../functions/data/connection-repository';
import { createContact } from '../../functions/data/contact-repository';
import { getFlowRun } from '../../functions/data/flow-run-repository';
import { ReadScope } from '../../functions/data/read-scope';
import { createTicket } from '../../functions/data/ticket-repository';
import { newUlid } from '../../functions/data/ulids';
import type { AuthContext } from '../../functions/shared/auth-context';
import type { Benchmark, BenchContext } from '../benchmark';
import { markdownTable, ms, percentile } from '../stats';

/**
 * Flow steps per second through the engine (issue 17 item 11; decisions D139): 1 000 runs started at once
 * on a flow that speaks, asks a question, and answers with the reply (start → message → question → message:
 * five steps and three keyed messages per run, each through the send governor), then the 1 000 answers at
 * once. Every step is the engine's real work against DynamoDB Local: the consistent read, the claim, the
 * governor slot, the keyed message store, the conditional save. The outbound queue is not drained (the
 * benchmark's cloud has no pollers), so sends to the phone are not part of the figure.
 */
const RUNS = 1_000;
const CONNECTIONS = 250;
const GOAL_STEPS_PER_S = 100;

const setUp = async (): Promise<{ companyId: number; flowId: number; connections: Connection[] }> => {
  const company = await createCompany({
    name: 'Bench flows',
    email: `bench-flows-${Date.now()}@bench.local`,
    phone: '',
    document: '',
    planId: 1,
    status: true,
    recurrence: 'MENSAL',
    dueDate: '2099-01-01',
  });
  await putCampaignSettingsItem(company.id, {
    ...CAMPAIGN_SETTINGS_DEFAULTS,
    messageInterval: 0,
    greaterInterval: 0,
    longerIntervalAfter: 0,
  });
  const connections: Connection[] = [];
  for (let i = 0; i < CONNECTIONS; i += 1) {
    connections.push(
      (await createConnection(company.id, { name: `Flows ${i}`, channel: 'whatsapp', status: 'CONNECTED' })).connection,
    );
  }
  const admin: AuthContext = {
    companyId: company.id,
    userId: 1,
    profile: 'admin',
    super: false,
    userFlags: {},
    planFlags: {},
  };
  const flow = await createCompanyFlow(admin, { name: 'Bench' });
  const at = { x: 0, y: 0 };
  await saveCompanyFlowDocument(admin, {
    idFlow: flow.id,
    nodes: [
      { id: '1', type: 'start', position: at, data: {} },
      { id: 'hello', type: 'message', position: at, data: { label: 'Olá {{firstName}}!' } },
      { id: 'ask', type: 'question', position: at, data: { message: 'Qual o seu pedido?', answerKey: 'pedido' } },
      { id: 'done', type: 'message', position: at, data: { label: 'Pedido {{pedido}} anotado.' } },
    ],
    connections: [
      { source: '1', target: 'hello' },
      { source: 'hello', target: 'ask' },
      { source: 'ask', target: 'done' },
    ],
  });
  return { companyId: company.id, flowId: flow.id, connections };
};

export const flowEngine: Benchmark = {
  name: 'flow-engine',
  description: `Flow engine: steps per second with ${RUNS} concurrent runs (start → message → question → message)`,
  goal: `≥ ${GOAL_STEPS_PER_S} steps/s through the engine on the shared 2-core machine`,
  needsCloud: true,
  run: async (ctx: BenchContext) => {
    const { companyId, flowId, connections } = await setUp();
    ctx.log(`flow-engine: ${RUNS} contacts and tickets`);
    const runs = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) => {
        const number = `5511${String(90000000 + i).padStart(9, '0')}`;
        const contact = await createContact(
          companyId,
          { name: `Cliente ${i}`, number, isGroup: false, channel: 'whatsapp', whatsappId: null },
          [`wa#${number}`],
        );
        const ticket = await createTicket(companyId, {
          status: 'pending',
          queueId: null,
          userId: null,
          contactId: contact.id,
          whatsappId: connections[i % CONNECTIONS]!.id,
          channel: 'whatsapp',
          isGroup: false,
          chatId: `${number}@s.whatsapp.net`,
          origin: 'passive',
        });
        return { contact, ticket, runId: newUlid(Date.now()) };
      }),
    );
    const phase = async (what: string, work: (r: (typeof runs)[number]) => Promise<unknown>) => {
      const latencies: number[] = [];
      const started = performance.now();
      await Promise.all(
        runs.map(async (r) => {
          const t0 = performance.now();
          await work(r);
          latencies.push(performance.now() - t0);
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      ctx.log(`flow-engine: ${what} in ${seconds.toFixed(1)} s`);
      return { seconds, latencies };
    };
    const scope = new ReadScope();
    const start = await phase('1 000 starts', (r) =>
      startFlowRun(scope, r.ticket, r.contact, flowId, { ulid: r.runId, kind: 'bench' }),
    );
    const answer = await phase('1 000 answers', (r) =>
      driveFlowRun(
        scope,
        { companyId, ticketId: r.ticket.id, runId: r.runId },
        { kind: 'input', body: `#${r.ticket.id}`, ulid: newUlid(Date.now() + 1000) },
      ),
    );
    const finals = await Promise.all(runs.map((r) => getFlowRun(companyId, r.ticket.id, r.runId)));
    const ended = finals.filter((f) => f?.status === 'ended' && f.endReason === 'flow-ended').length;
    // Steps: start, hello, ask (3 while starting); the answer and the last message (2 after it).
    const row = (name: string, p: { seconds: number; latencies: number[] }, steps: number, sends: number) => [
      name,
      String(steps),
      String(sends),
      p.seconds.toFixed(1),
      (steps / p.seconds).toFixed(0),
      ms(percentile(p.latencies, 50), 0),
      ms(percentile(p.latencies, 99), 0),
    ];
    const startRow = row('1 000 runs start (start → message → question)', start, 3 * RUNS, 2 * RUNS);
    const answerRow = row('1 000 answers (question → message → end)', answer, 2 * RUNS, RUNS);
    const total = (5 * RUNS) / (start.seconds + answer.seconds);
    const goalMet = ended === RUNS && total >= GOAL_STEPS_PER_S;
    return {
      table: markdownTable(
        ['phase', 'steps', 'messages', 'seconds', 'steps/s', 'per-run p50 ms', 'per-run p99 ms'],
        [startRow, answerRow],
        ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
      ),
      goalMet,
      summary: `${total.toFixed(0)} steps/s overall with ${RUNS} concurrent runs; ${ended}/${RUNS} runs ended at the flow's end.`,
      notes:
        `${CONNECTIONS} connections share the runs (four each; every connection has its own send governor, no ` +
        "pacing): with 50 runs racing for one connection's governor item its optimistic retries gave up, so a " +
        "connection's automatic sends are a serial resource and the figure is per-engine, not per-connection. " +
        'Inbound p99 while flows run is not measured by this benchmark yet.',
    };
  },
};
