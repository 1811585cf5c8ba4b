import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { driveFlowRun } from '../../functions/core/flows/flow-engine';
import { BOT_CALLING } from '../../functions/core/flows/flow-bots';
import { putCampaignSettingsItem } from '../../functions/data/campaign-settings-repository';
import type { Connection } from '../../functions/data/connection-repository';
import { getFlow, getFlowVersion } from '../../functions/data/flow-repository';
import { createFlowRun, getFlowRun, type FlowCall, type FlowRun } from '../../functions/data/flow-run-repository';
import { listTicketMessages } from '../../functions/data/message-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { ReadScope } from '../../functions/data/read-scope';
import { getTicket } from '../../functions/data/ticket-repository';
import { newUlid } from '../../functions/data/ulids';
import { SECRET_MASK } from '../../functions/contracts/integrations';
import { someConnection, waitFor } from '../helpers/connections';
import { api } from '../helpers/fixtures';
import { fakeIntegrations } from '../../infra/local/fake-integrations';
import { fakeOpenAi, FAKE_HANDOFF_PHRASE } from '../../infra/local/fake-openai';
import { freshCompany, type TestCompany } from '../helpers/fixtures';
import { chain, flowWorld, node, phone, sentBy } from '../helpers/flow-world';

/**
 * The flow engine's typebot and openai nodes (issue 17 items 2, 9; decisions D173) against the local fakes
 * (test/helpers/fake-integrations.ts, fake-openai.ts): a conversation inside the run until the bot ends and
 * the run follows the node's output; each provider call made once per (run, step), also when a step is
 * delivered again or taken over after a crash; a failing provider ends the run and hands the ticket to its
 * queue.
 */
let t: TestCompany;
let connection: Connection;
let sales: number;
const { save, newFlow, flowWithPhrase, say, flowSent, runEnded, customerTicket } = flowWorld(
  () => t,
  () => connection,
);
const fakes = () => fakeIntegrations(inject('fakeIntegrationsUrl'));
const openAi = () => fakeOpenAi(inject('fakeOpenAiUrl'));

beforeAll(async () => {
  t = await freshCompany();
  sales = (await createQueue(t.company.id, { name: 'Vendas', color: `#${randomUUID().slice(0, 6)}` })).id;
  connection = await someConnection(t.company.id, { status: 'CONNECTED' });
  await putCampaignSettingsItem(t.company.id, { messageInterval: 0, greaterInterval: 0, longerIntervalAfter: 0 });
});

const tag = () => randomUUID().slice(0, 8);
/** A typebot node on the fake; `mode` scripts it (ok, 5xx, timeout), the tag keeps this test's calls apart. */
const typebotNode = (id: string, mode: string, extra: Record<string, unknown> = {}) =>
  node(id, 'typebot', {
    name: 'Bot',
    urlN8N: `${inject('fakeIntegrationsUrl')}/typebot/${mode}`,
    typebotSlug: 'vendas',
    typebotDelayMessage: 0,
    ...extra,
  });
const openaiNode = (id: string, apiKey: string) =>
  node(id, 'openai', {
    name: 'Assistente',
    apiKey,
    prompt: 'Você é o assistente da loja. Responda com educação e em poucas palavras.',
    voice: 'texto',
    maxTokens: 80,
    temperature: 0.5,
    maxMessages: 4,
  });
const typebotCalls = async (mode: string) =>
  (await fakes().deliveries()).filter((d) => d.path.startsWith(`/typebot/${mode}/`));
const chatsWith = async (apiKey: string) => (await openAi().chats()).filter((c) => c.apiKey === apiKey);

describe('a typebot node', () => {
  it('talks through the run until the bot ends, then follows its output; each call once', async () => {
    const mode = `ok-${tag()}`;
    const { phrase } = await flowWithPhrase(
      [node('1', 'start'), typebotNode('tb', mode), node('after', 'message', { label: 'Depois do bot' })],
      chain('1', 'tb', 'after'),
    );
    const number = phone();
    const ticketId = await say(number, phrase);
    await flowSent(ticketId, 1, 'the greeting of the bot');
    await say(number, 'quero um plano');
    await flowSent(ticketId, 2, 'the answer of the bot');
    await say(number, 'tchau');
    const sent = await flowSent(ticketId, 4, 'the bot ended and the flow went on');
    expect(sent.map((m) => m.body)).toEqual([
      'Olá, eu sou o Typebot!',
      'Typebot: quero um plano',
      'Até logo!',
      'Depois do bot',
    ]);
    expect((await runEnded(ticketId))!.endReason).toBe('flow-ended');
    const calls = await typebotCalls(mode);
    expect(calls.map((c) => c.kind)).toEqual(['typebot-start', 'typebot-continue', 'typebot-continue']);
    // The bot opened without a message of its own (it speaks first) and with the contact prefilled.
    expect(calls[0]!.body).toMatchObject({ prefilledVariables: { name: 'Maria Souza', number } });
    expect(calls[0]!.body).not.toHaveProperty('message');
    expect(calls.slice(1).map((c) => (c.body as { message: { text: string } }).message.text)).toEqual([
      'quero um plano',
      'tchau',
    ]);
  });

  it('its finish keyword ends the bot without a call and the flow goes on', async () => {
    const mode = `ok-${tag()}`;
    const { phrase } = await flowWithPhrase(
      [
        node('1', 'start'),
        typebotNode('tb', mode, { typebotKeywordFinish: 'sair' }),
        node('after', 'message', { label: 'Você saiu do bot' }),
      ],
      chain('1', 'tb', 'after'),
    );
    const number = phone();
    const ticketId = await say(number, phrase);
    await flowSent(ticketId, 1);
    await say(number, 'SAIR');
    const sent = await flowSent(ticketId, 2, 'the message after the bot');
    expect(sent.map((m) => m.body)).toEqual(['Olá, eu sou o Typebot!', 'Você saiu do bot']);
    expect((await typebotCalls(mode)).map((c) => c.kind)).toEqual(['typebot-start']);
  });

  it('a Typebot answering 500 ends the run and the ticket waits in its queue for people', async () => {
    const mode = `5xx-${tag()}`;
    const { phrase } = await flowWithPhrase(
      [node('1', 'start'), node('q', 'ticket', { queueId: sales }), typebotNode('tb', mode)],
      chain('1', 'q', 'tb'),
    );
    const ticketId = await say(phone(), phrase);
    const run = await runEnded(ticketId);
    expect(run!.endReason).toBe('integration-failed:answered 500');
    const ticket = await waitFor(
      () => getTicket(t.company.id, ticketId),
      (tk) => tk?.isBot === false,
      { what: 'handed over' },
    );
    expect(ticket).toMatchObject({ status: 'pending', userId: null, queueId: sales });
    expect(sentBy(await listTicketMessages(t.company.id, ticketId))).toEqual([]);
    // Three attempts of one call (the port's retries), no more.
    expect((await typebotCalls(mode)).length).toBe(3);
  });
});

describe('an openai node', () => {
  it('answers with the conversation as context until the handoff phrase, then follows its output', async () => {
    const apiKey = `sk-flow-${tag()}`;
    const { phrase } = await flowWithPhrase(
      [node('1', 'start'), openaiNode('ai', apiKey), node('end', 'message', { label: 'Um atendente já vem' })],
      chain('1', 'ai', 'end'),
    );
    const number = phone();
    const ticketId = await say(number, phrase);
    await flowSent(ticketId, 1, 'the first answer');
    await say(number, 'e o preço?');
    await flowSent(ticketId, 2, 'the second answer');
    await say(number, 'quero falar com um atendente');
    const sent = await flowSent(ticketId, 3, 'the message after the assistant');
    expect(sent.map((m) => m.body)).toEqual([`Assistente: ${phrase}`, 'Assistente: e o preço?', 'Um atendente já vem']);
    expect(sent.map((m) => m.body).join()).not.toContain(FAKE_HANDOFF_PHRASE);
    expect((await runEnded(ticketId))!.endReason).toBe('flow-ended');
    const chats = await chatsWith(apiKey);
    expect(chats).toHaveLength(3);
    expect(chats[0]).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 80, temperature: 0.5 });
    expect(chats[0]!.messages[0]!.content).toContain('Você é o assistente da loja.');
    // The second call's context: the conversation so far, customer = user, ours = assistant.
    expect(chats[1]!.messages.slice(1)).toEqual([
      { role: 'user', content: phrase },
      { role: 'assistant', content: `Assistente: ${phrase}` },
      { role: 'user', content: 'e o preço?' },
    ]);
    // maxMessages 4: the third call sees only the last four.
    expect(chats[2]!.messages.slice(1)).toHaveLength(4);
  });

  it('keeps its API key sealed at rest and masked in every answer; the mask sent back keeps the key', async () => {
    const apiKey = `sk-sealed-${tag()}`;
    const flow = await newFlow();
    const doc = [node('1', 'start'), openaiNode('ai', apiKey)];
    const saved = await save(flow.id, doc, chain('1', 'ai'));
    const savedNodes = (saved as unknown as { flow: { flow: { nodes: { id: string; data: { apiKey?: string } }[] } } })
      .flow.flow.nodes;
    expect(savedNodes.find((n) => n.id === 'ai')!.data.apiKey).toBe(SECRET_MASK);
    const read = await api(t.adminToken).get(`/flowbuilder/flow/${flow.id}`);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).not.toContain(apiKey);
    const stored = async () => {
      const f = await getFlow(t.company.id, flow.id);
      const v = await getFlowVersion(t.company.id, flow.id, f!.version);
      return (v!.nodes.find((n) => n.id === 'ai')!.data as { apiKey: string }).apiKey;
    };
    const sealed = await stored();
    expect(sealed).not.toContain(apiKey);
    // The editor saves the node as it read it (the mask): the key stays, still sealed.
    await save(flow.id, [node('1', 'start'), openaiNode('ai', SECRET_MASK)], chain('1', 'ai'));
    expect(await stored()).toBe(sealed);
    // A new openai node that sends only the mask has no key to keep.
    const refused = await api(t.adminToken).post('/flowbuilder/flow', {
      idFlow: flow.id,
      nodes: [node('1', 'start'), openaiNode('other', SECRET_MASK)],
      connections: chain('1', 'other'),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('body.nodes.1.data.apiKey');
    expect(await stored()).toBe(sealed);
  });

  it('a provider that never answers in time ends the run and hands the ticket over', async () => {
    const apiKey = `sk-timeout-${tag()}`;
    const { phrase } = await flowWithPhrase([node('1', 'start'), openaiNode('ai', apiKey)], chain('1', 'ai'));
    const ticketId = await waitForTicket(phrase);
    const run = await waitFor(
      () => getFlowRun(t.company.id, ticketId.id, ticketId.runId),
      (r) => r?.status === 'ended',
      { what: 'the run ended', timeoutMs: 40_000 },
    );
    expect(run!.endReason).toBe('integration-failed:timeout');
    const ticket = await waitFor(
      () => getTicket(t.company.id, ticketId.id),
      (tk) => tk?.isBot === false,
      { what: 'handed over' },
    );
    expect(ticket).toMatchObject({ status: 'pending', userId: null });
    expect(sentBy(await listTicketMessages(t.company.id, ticketId.id))).toEqual([]);
  });
});

/** The customer writes the phrase; answers the ticket and its run (the run's id is the message's ULID). */
const waitForTicket = async (phrase: string): Promise<{ id: number; runId: string }> => {
  const ticketId = await say(phone(), phrase);
  const messages = await listTicketMessages(t.company.id, ticketId);
  return { id: ticketId, runId: messages.find((m) => !m.fromMe)!.ulid };
};

// -------------------------------------------------------------------------------- one call per (run, step)

/** A run stored at a bot node's CALL place, due now — as the engine leaves it before the call. */
const runAtCall = async (flowId: number, nodeId: string, call?: FlowCall): Promise<FlowRun> => {
  const { ticket } = await customerTicket('Cliente Direto');
  const at = new Date();
  const runId = newUlid(at.getTime() - 1000);
  return createFlowRun({
    companyId: t.company.id,
    ticketId: ticket.id,
    runId,
    flowId,
    version: 1,
    whatsappId: connection.id,
    status: 'waiting',
    nodeId,
    element: BOT_CALLING,
    step: 3,
    waitKind: 'timer',
    waitUntil: new Date(at.getTime() - 500).toISOString(),
    expiresAt: new Date(at.getTime() + 600_000).toISOString(),
    variables: {},
    attempts: 0,
    lastInput: runId,
    trigger: 'test',
    endReason: null,
    claimToken: null,
    leaseUntil: null,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    bot: null,
    ...(call ? { call } : {}),
  });
};

describe('a bot node, step by step', () => {
  it('its CALL step delivered three times at once calls Typebot once and sends once', async () => {
    const mode = `ok-${tag()}`;
    const flow = await newFlow();
    await save(flow.id, [node('1', 'start'), typebotNode('tb', mode)], chain('1', 'tb'));
    const run = await runAtCall(flow.id, 'tb');
    const scope = new ReadScope();
    await Promise.all([1, 2, 3].map(() => driveFlowRun(scope, run, { kind: 'timer' })));
    await Promise.all([1, 2, 3].map(() => driveFlowRun(scope, run, { kind: 'timer' })));
    const after = await getFlowRun(t.company.id, run.ticketId, run.runId);
    expect(after).toMatchObject({ status: 'waiting', waitKind: 'input', step: 4 });
    expect((await typebotCalls(mode)).map((c) => c.kind)).toEqual(['typebot-start']);
    expect(sentBy(await listTicketMessages(t.company.id, run.ticketId)).map((m) => m.body)).toEqual([
      'Olá, eu sou o Typebot!',
    ]);
  });

  it('a step taken over after the call sends the kept answer and does not call again', async () => {
    const apiKey = `sk-flow-${tag()}`;
    const flow = await newFlow();
    await save(flow.id, [node('1', 'start'), openaiNode('ai', apiKey)], chain('1', 'ai'));
    // The worker died after keeping the call's answer, before sending it.
    const run = await runAtCall(flow.id, 'ai', {
      step: 3,
      result: { replies: [{ body: 'Resposta guardada' }], end: null, session: null, read: '' },
    });
    await driveFlowRun(new ReadScope(), run, { kind: 'timer' });
    expect(sentBy(await listTicketMessages(t.company.id, run.ticketId)).map((m) => m.body)).toEqual([
      'Resposta guardada',
    ]);
    expect(await chatsWith(apiKey)).toEqual([]);
    expect(await getFlowRun(t.company.id, run.ticketId, run.runId)).toMatchObject({
      status: 'waiting',
      waitKind: 'input',
    });
  });

  it('a step taken over during the call (its fate unknown) hands over rather than call twice', async () => {
    const apiKey = `sk-flow-${tag()}`;
    const flow = await newFlow();
    await save(flow.id, [node('1', 'start'), openaiNode('ai', apiKey)], chain('1', 'ai'));
    const run = await runAtCall(flow.id, 'ai', { step: 3, result: null });
    await driveFlowRun(new ReadScope(), run, { kind: 'timer' });
    expect(await getFlowRun(t.company.id, run.ticketId, run.runId)).toMatchObject({
      status: 'ended',
      endReason: 'integration-failed:interrupted',
    });
    expect(await chatsWith(apiKey)).toEqual([]);
    expect(sentBy(await listTicketMessages(t.company.id, run.ticketId))).toEqual([]);
  });
});
