import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FlowView } from '../../functions/contracts/flows';
import { activeFlowRun, driveFlowRun, runFlowTick, startFlowRun } from '../../functions/core/flows/flow-engine';
import { putCampaignSettingsItem } from '../../functions/data/campaign-settings-repository';
import { getConnection, type Connection } from '../../functions/data/connection-repository';
import type { SimulatorReceivedPage } from '../../functions/contracts/simulator';
import { createContact, type Contact } from '../../functions/data/contact-repository';
import { createFlowRun, getFlowRun, latestFlowRun } from '../../functions/data/flow-run-repository';
import { getFlow } from '../../functions/data/flow-repository';
import { getMediaObject, putMediaObject } from '../../functions/data/media-store';
import { getProviderRef, listTicketMessages } from '../../functions/data/message-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { ReadScope } from '../../functions/data/read-scope';
import { createTicket, getTicket, listTicketLog, type Ticket } from '../../functions/data/ticket-repository';
import { newUlid } from '../../functions/data/ulids';
import { someConnection, waitFor, waitForConnection } from '../helpers/connections';
import { chain, configSettles, edge, flowWorld, node, phone, sentBy } from '../helpers/flow-world';
import { api, freshCompany, TINY_PNG, type TestCompany } from '../helpers/fixtures';

/**
 * Flows (issue 17 items 1, 2, 5, 9; decisions D138–D141): the list and document calls, phrase campaigns,
 * and the engine through the real inbound pipeline (a customer's messages on the inbound queue, the flow's
 * timers on the flow queue), with each exactly-once rule checked on what the ticket holds.
 */
let t: TestCompany;
let connection: Connection;
let sales: number;

beforeAll(async () => {
  t = await freshCompany();
  sales = (await createQueue(t.company.id, { name: 'Vendas', color: `#${randomUUID().slice(0, 6)}` })).id;
  connection = await someConnection(t.company.id, { status: 'CONNECTED' });
  // No pacing between a flow's messages in these tests (the governor's arithmetic has its own tests).
  await putCampaignSettingsItem(t.company.id, { messageInterval: 0, greaterInterval: 0, longerIntervalAfter: 0 });
});

const admin = () => api(t.adminToken);
const { newFlow, save, flowWithPhrase, say, flowSent, runEnded } = flowWorld(
  () => t,
  () => connection,
);

// ---------------------------------------------------------------------------------------- HTTP surface

describe('flows: list, name, document, versions', () => {
  it('creates, finds, renames, switches off, duplicates (document and files) and deletes a flow', async () => {
    const flow = await newFlow('Atendimento inicial');
    expect(flow).toMatchObject({ name: 'Atendimento inicial', active: true, version: 0 });

    const empty = await admin().get(`/flowbuilder/flow/${flow.id}`);
    expect(empty.status).toBe(200);
    expect(empty.body.flow.flow).toBeNull();

    const key = `c/${t.company.id}/flows/${flow.id}/${randomUUID()}.png`;
    await putMediaObject(key, TINY_PNG, 'image/png');
    await save(flow.id, [node('1', 'start'), node('img1', 'img', { url: key })], chain('1', 'img1'));

    const found = await admin().get('/flowbuilder', { searchParam: 'ATEND' });
    expect(found.body.flows.map((f: FlowView) => f.id)).toContain(flow.id);

    const renamed = await admin().put('/flowbuilder', { flowId: flow.id, name: 'Boas-vindas', active: false });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Boas-vindas', active: false, version: 1 });

    const copy = await admin().post('/flowbuilder/duplicate', { flowId: flow.id });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    expect(copy.body).toMatchObject({ name: 'Boas-vindas (cópia)', active: false, version: 1 });
    const copied = await admin().get(`/flowbuilder/flow/${copy.body.id}`);
    const copiedKey = copied.body.flow.flow.nodes[1].data.url as string;
    expect(copiedKey.startsWith(`c/${t.company.id}/flows/${copy.body.id}/`)).toBe(true);
    expect(await getMediaObject(copiedKey)).toEqual(TINY_PNG);

    const removed = await admin().delete(`/flowbuilder/${flow.id}`);
    expect(removed.status).toBe(200);
    expect((await admin().get(`/flowbuilder/${flow.id}`)).status).toBe(404);
    // The copy keeps its own file.
    expect(await getMediaObject(copiedKey)).toEqual(TINY_PNG);
  });

  it('refuses a bad document with the node and the reason, and writes nothing', async () => {
    const flow = await newFlow();
    await save(flow.id, [node('1', 'start'), node('m', 'message', { label: 'Oi' })], chain('1', 'm'));
    const bad = await admin().post('/flowbuilder/flow', {
      idFlow: flow.id,
      nodes: [
        node('1', 'start'),
        node('2', 'start'),
        node('menu', 'menu', { message: 'Escolha', arrayOption: [{ number: 1, value: 'Sim' }] }),
        node('wait', 'interval', { sec: 0 }),
        node('card', 'singleBlock', {
          seq: ['message1'],
          elements: [{ number: 'message1', type: 'message', value: '  ' }],
        }),
        node('q', 'ticket', { queueId: 999_999 }),
      ],
      connections: [edge('1', 'menu'), edge('menu', 'wait', 'a7'), edge('wait', '1')],
    });
    expect(bad.status).toBe(400);
    const reasons = (bad.body.fields as { field: string; reason: string }[]).map((f) => f.reason);
    expect(reasons).toEqual(
      expect.arrayContaining([
        'the flow has more than one start node',
        "node menu (menu): no output 'a7' (outputs: a1)",
        'node wait (interval): Adicione o valor de intervalo',
        'node card (singleBlock): Campos de mensagem vazio!',
        'node 1 (start): has no input',
        'node q (ticket): Adicione uma fila',
      ]),
    );
    expect((await getFlow(t.company.id, flow.id))!.version).toBe(1);
  });
});

describe('flows of another company', () => {
  it('the routes that take an id in the body answer 404, as for an id that never existed, and change nothing', async () => {
    const flow = await newFlow('Só desta empresa');
    await save(flow.id, [node('1', 'start')], []);
    const campaign = await admin().post('/flowcampaign', { name: 'Minha', flowId: flow.id, phrase: 'minha frase' });
    const other = await freshCompany();
    const intruder = api(other.adminToken);
    const doc = { nodes: [node('1', 'start')], connections: [] };
    const calls = [
      (id: number) => intruder.put('/flowbuilder', { flowId: id, name: 'Roubado' }),
      (id: number) => intruder.post('/flowbuilder/duplicate', { flowId: id }),
      (id: number) => intruder.post('/flowbuilder/flow', { idFlow: id, ...doc }),
    ];
    for (const call of calls) {
      const [foreign, missing] = [await call(flow.id), await call(999_999_999)];
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(missing.body);
    }
    const edit = await intruder.put('/flowcampaign', {
      id: campaign.body.id,
      name: 'Roubada',
      flowId: flow.id,
      phrase: 'x',
    });
    expect(edit.status).toBe(400); // the flow is not theirs: refused before the campaign is even looked up
    expect(await getFlow(t.company.id, flow.id)).toMatchObject({ name: 'Só desta empresa', version: 1 });
    expect((await admin().get(`/flowcampaign/${campaign.body.id}`)).body.details.name).toBe('Minha');
  });
});

describe('phrase campaigns', () => {
  it('create (active), list as `flow`, detail as `details`, edit with status, delete', async () => {
    const flow = await newFlow();
    const created = await admin().post('/flowcampaign', {
      name: 'Promo',
      flowId: flow.id,
      whatsappId: connection.id,
      phrase: 'Quero a promoção',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: 'Promo', status: true, flowId: flow.id, whatsappId: connection.id });
    const id = created.body.id as number;

    const list = await api(t.attendantToken).get('/flowcampaign');
    expect(list.body.flow.map((c: { id: number }) => c.id)).toContain(id);
    expect((await admin().get(`/flowcampaign/${id}`)).body.details).toMatchObject({ phrase: 'Quero a promoção' });

    const edited = await admin().put('/flowcampaign', {
      id,
      name: 'Promo 2',
      flowId: flow.id,
      whatsappId: null,
      phrase: 'promo',
      status: false,
    });
    expect(edited.body).toMatchObject({ name: 'Promo 2', status: false, whatsappId: null });

    const bad = await admin().post('/flowcampaign', { name: 'X', flowId: 999_999, phrase: '' });
    expect(bad.status).toBe(400);
    expect((await admin().get('/flowcampaign')).body.flow).toHaveLength(list.body.flow.length);

    expect((await admin().delete(`/flowcampaign/${id}`)).status).toBe(200);
    expect((await admin().get(`/flowcampaign/${id}`)).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------- engine

describe('the flow engine through the inbound pipeline', () => {
  it('walks every node kind: message, content with a pause and an image, question, condition, randomizer, menu (re-prompt), ticket', async () => {
    const flow = await newFlow();
    const image = `c/${t.company.id}/flows/${flow.id}/${randomUUID()}.png`;
    const voice = `c/${t.company.id}/flows/${flow.id}/${randomUUID()}.ogg`;
    await putMediaObject(image, TINY_PNG, 'image/png');
    await putMediaObject(voice, Buffer.from('OggS\0\x02fake voice'), 'audio/ogg');
    const nodes = [
      node('1', 'start'),
      node('hello', 'message', { label: 'Olá {{firstName}}!' }),
      node('content', 'singleBlock', {
        seq: ['message1', 'interval2', 'img3'],
        elements: [
          { number: 'message1', type: 'message', value: 'Veja nosso catálogo' },
          { number: 'interval2', type: 'interval', value: 1 },
          { number: 'img3', type: 'img', value: image, original: 'catalogo.png' },
        ],
      }),
      node('audio', 'audio', { url: voice, record: true }),
      node('ask', 'question', { message: 'Qual o seu e-mail?', answerKey: 'email' }),
      node('check', 'condition', { key: 'email', condition: 'contains', value: '@' }),
      node('coin', 'randomizer', { percent: 100 }),
      node('menu', 'menu', {
        message: 'Obrigado, {{email}}. Escolha:',
        arrayOption: [
          { number: 1, value: 'Comprar' },
          { number: 2, value: 'Suporte' },
        ],
      }),
      node('queue', 'ticket', { queueId: sales, name: 'Vendas' }),
      node('bye', 'message', { label: 'Vou te passar para vendas' }),
    ];
    const connections = [
      ...chain('1', 'hello', 'content', 'audio', 'ask', 'check', 'coin'),
      edge('coin', 'menu', 'a'),
      edge('menu', 'queue', 'a1'),
      edge('queue', 'bye'),
    ];
    await save(flow.id, nodes, connections);
    const phrase = `catalogo ${randomUUID().slice(0, 6)}`;
    await admin().post('/flowcampaign', { name: 'Catálogo', flowId: flow.id, whatsappId: connection.id, phrase });
    await configSettles();

    const number = phone();
    const ticketId = await say(number, phrase.toUpperCase());
    const asked = await flowSent(ticketId, 5, 'up to the question');
    expect(asked.map((m) => [m.body, m.mediaType])).toEqual([
      ['Olá Maria!', 'chat'],
      ['Veja nosso catálogo', 'chat'],
      ['', 'image'],
      ['', 'audio'],
      ['Qual o seu e-mail?', 'chat'],
    ]);
    expect(JSON.parse(asked[3]!.dataJson ?? '{}')).toEqual({ voice: true });
    expect((await getTicket(t.company.id, ticketId))!.isBot).toBe(true);

    await say(number, 'maria@example.com');
    const menu = await flowSent(ticketId, 6, 'the menu');
    expect(menu[5]!.body).toBe('Obrigado, maria@example.com. Escolha:\n\n*1* - Comprar\n*2* - Suporte');

    await say(number, '9');
    const reprompt = await flowSent(ticketId, 7, 'the re-prompt');
    expect(reprompt[6]!.body).toMatch(/^Opção inválida, por favor escolha uma das opções abaixo\.\n\nObrigado/);

    await say(number, 'comprar');
    const done = await flowSent(ticketId, 8, 'the last message');
    expect(done[7]!.body).toBe('Vou te passar para vendas');
    const run = await runEnded(ticketId);
    expect(run).toMatchObject({ endReason: 'flow-ended', variables: { email: 'maria@example.com' } });
    const ticket = await waitFor(
      () => getTicket(t.company.id, ticketId),
      (tk) => tk?.isBot === false,
      { what: 'handed to the queue' },
    );
    expect(ticket).toMatchObject({ status: 'pending', queueId: sales, userId: null });
    const log = (await listTicketLog(t.company.id, ticketId)).map((l) => l.type);
    expect(log).toEqual(expect.arrayContaining(['queue', 'chatBot']));
  });

  it('a customer writing during a pause does not make the next node go twice', async () => {
    const { phrase } = await flowWithPhrase(
      [
        node('1', 'start'),
        node('a', 'message', { label: 'Um momento' }),
        node('wait', 'interval', { sec: 2 }),
        node('b', 'message', { label: 'Pronto!' }),
        node('ask', 'question', { message: 'Algo mais?', answerKey: 'mais' }),
        node('c', 'message', { label: 'Até logo' }),
      ],
      chain('1', 'a', 'wait', 'b', 'ask', 'c'),
    );
    const number = phone();
    const ticketId = await say(number, phrase);
    await flowSent(ticketId, 1);
    await say(number, 'oi?');
    await say(number, 'alguém aí?');
    await flowSent(ticketId, 3, 'the question after the pause');
    await say(number, 'não');
    // The sentinel: the flow's last message, after every event the pause could have been woken by.
    const sent = await flowSent(ticketId, 4, 'the last message');
    expect(sent.map((m) => m.body)).toEqual(['Um momento', 'Pronto!', 'Algo mais?', 'Até logo']);
    expect((await runEnded(ticketId))!.variables).toEqual({ mais: 'não' });
  });

  it('stops at once when a person accepts the ticket during a pause (long before the pause would end)', async () => {
    const { phrase } = await flowWithPhrase(
      [
        node('1', 'start'),
        node('a', 'message', { label: 'Aguarde' }),
        node('wait', 'interval', { sec: 90 }),
        node('b', 'message', { label: 'Nunca enviada' }),
      ],
      chain('1', 'a', 'wait', 'b'),
    );
    const ticketId = await say(phone(), phrase);
    await flowSent(ticketId, 1);
    const accepted = await admin().put(`/tickets/${ticketId}`, { status: 'open', userId: t.admin.id, queueId: sales });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const run = await runEnded(ticketId);
    expect(run!.endReason).toBe('ticket-taken');
    expect(sentBy(await listTicketMessages(t.company.id, ticketId)).map((m) => m.body)).not.toContain('Nunca enviada');
  });
});

// -------------------------------------------------------------------------------- engine, called directly

const newContact = async (): Promise<Contact> => {
  const number = phone();
  return createContact(
    t.company.id,
    { name: 'Cliente Direto', number, isGroup: false, channel: 'whatsapp', whatsappId: null },
    [`wa#${number}`],
  );
};

const newTicket = async (contact: Contact): Promise<Ticket> =>
  createTicket(t.company.id, {
    status: 'pending',
    queueId: null,
    userId: null,
    contactId: contact.id,
    whatsappId: connection.id,
    channel: 'whatsapp',
    isGroup: false,
    chatId: `${contact.number}@s.whatsapp.net`,
    origin: 'passive',
  });

describe('the flow engine, event by event', () => {
  it('every event of a run delivered three times sends each message once', async () => {
    const flow = await newFlow();
    await save(
      flow.id,
      [
        node('1', 'start'),
        node('a', 'message', { label: 'Primeira' }),
        node('ask', 'question', { message: 'Seu nome?', answerKey: 'nome' }),
        node('b', 'message', { label: 'Prazer, {{nome}}' }),
      ],
      chain('1', 'a', 'ask', 'b'),
    );
    const contact = await newContact();
    const ticket = await newTicket(contact);
    const runId = newUlid(Date.now());
    const scope = new ReadScope();
    for (let i = 0; i < 3; i += 1) {
      expect(await startFlowRun(scope, ticket, contact, flow.id, { ulid: runId, kind: 'test' })).toBe(true);
    }
    const ref = { companyId: t.company.id, ticketId: ticket.id, runId };
    for (let i = 0; i < 3; i += 1) await driveFlowRun(scope, ref, { kind: 'timer' });
    const answer = { kind: 'input' as const, body: 'Ana', ulid: newUlid(Date.now() + 1000) };
    for (let i = 0; i < 3; i += 1) await driveFlowRun(scope, ref, answer);
    const run = await getFlowRun(t.company.id, ticket.id, runId);
    expect(run).toMatchObject({ status: 'ended', endReason: 'flow-ended' });
    const sent = sentBy(await listTicketMessages(t.company.id, ticket.id)).map((m) => m.body);
    expect(sent).toEqual(['Primeira', 'Seu nome?', 'Prazer, Ana']);
  });

  it('a loop ends on the step budget and hands the ticket over', async () => {
    const flow = await newFlow();
    await save(
      flow.id,
      [node('1', 'start'), node('loop', 'condition', { key: 'x', condition: '==', value: '' })],
      [edge('1', 'loop'), edge('loop', 'loop')],
    );
    const contact = await newContact();
    const ticket = await newTicket(contact);
    const runId = newUlid(Date.now());
    await startFlowRun(new ReadScope(), ticket, contact, flow.id, { ulid: runId, kind: 'test' });
    const run = await getFlowRun(t.company.id, ticket.id, runId);
    expect(run).toMatchObject({ status: 'ended', endReason: 'step-budget' });
    expect((await getTicket(t.company.id, ticket.id))!.isBot).toBe(false);
  });

  it('a run started on version 1 finishes on version 1 after version 2 is saved', async () => {
    const flow = await newFlow();
    const v = (label: string) =>
      save(
        flow.id,
        [
          node('1', 'start'),
          node('ask', 'question', { message: 'Nome?', answerKey: 'nome' }),
          node('end', 'message', { label }),
        ],
        chain('1', 'ask', 'end'),
      );
    await v('Fim da versão 1');
    const contact = await newContact();
    const ticket = await newTicket(contact);
    const runId = newUlid(Date.now());
    await startFlowRun(new ReadScope(), ticket, contact, flow.id, { ulid: runId, kind: 'test' });
    expect((await v('Fim da versão 2')).flow.version).toBe(2);
    await driveFlowRun(
      new ReadScope(),
      { companyId: t.company.id, ticketId: ticket.id, runId },
      { kind: 'input', body: 'Ana', ulid: newUlid(Date.now() + 1000) },
    );
    const sent = sentBy(await listTicketMessages(t.company.id, ticket.id)).map((m) => m.body);
    expect(sent).toEqual(['Nome?', 'Fim da versão 1']);
    expect((await getFlowRun(t.company.id, ticket.id, runId))!.version).toBe(1);
  });

  it('a timer whose queue message was lost fires from the due index on the minute tick', async () => {
    const flow = await newFlow();
    await save(
      flow.id,
      [node('1', 'start'), node('wait', 'interval', { sec: 60 }), node('after', 'message', { label: 'Depois' })],
      chain('1', 'wait', 'after'),
    );
    const contact = await newContact();
    const ticket = await newTicket(contact);
    const at = new Date();
    const runId = newUlid(at.getTime());
    // A run stored as the engine leaves it in the pause (due a second ago), with no SQS timer behind it.
    await createFlowRun({
      companyId: t.company.id,
      ticketId: ticket.id,
      runId,
      flowId: flow.id,
      version: 1,
      whatsappId: connection.id,
      status: 'waiting',
      nodeId: 'after',
      element: 0,
      step: 2,
      waitKind: 'timer',
      waitUntil: new Date(at.getTime() - 1000).toISOString(),
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
    });
    expect(await activeFlowRun(t.company.id, ticket.id)).not.toBeNull();
    await waitFor(
      async () => {
        await runFlowTick();
        return getFlowRun(t.company.id, ticket.id, runId);
      },
      (run) => run?.status === 'ended',
      { what: 'the tick drove the run', timeoutMs: 20_000 },
    );
    expect(sentBy(await listTicketMessages(t.company.id, ticket.id)).map((m) => m.body)).toEqual(['Depois']);
  });
});

/** A WhatsApp connection made through the API and paired by the phone simulator's scan (the local worker). */
const simulatorConnection = async (name: string): Promise<number> => {
  const created = await admin().post('/whatsapp', { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  await waitForConnection(t.company.id, id, (c) => c?.status === 'qrcode', { timeoutMs: 15_000 });
  const deadline = Date.now() + 40_000;
  for (;;) {
    const current = await getConnection(t.company.id, id);
    if (current?.status === 'CONNECTED') return id;
    if (current?.status === 'qrcode') await admin().post(`/simulator/${id}/scan`);
    if (Date.now() > deadline) throw new Error(`connection ${id} did not connect; last ${current?.status}`);
    await waitForConnection(t.company.id, id, (c) => c?.status === 'CONNECTED', { timeoutMs: 4_000 }).catch(
      () => undefined,
    );
  }
};

describe('the welcome flow of a connection, on the phone simulator', () => {
  it('a customer walks start → content → menu → ticket and lands in the queue', async () => {
    const flow = await newFlow();
    await save(
      flow.id,
      [
        node('1', 'start'),
        node('content', 'singleBlock', {
          seq: ['message1'],
          elements: [{ number: 'message1', type: 'message', value: 'Bem-vindo à loja!' }],
        }),
        node('menu', 'menu', { message: 'Como ajudar?', arrayOption: [{ number: 1, value: 'Comprar' }] }),
        node('queue', 'ticket', { queueId: sales }),
      ],
      [...chain('1', 'content', 'menu'), edge('menu', 'queue', 'a1')],
    );
    const id = await simulatorConnection('Loja');
    const set = await admin().put(`/whatsapp/${id}`, { flowIdWelcome: flow.id, greetingMessage: 'Não deve sair' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await configSettles();

    const number = phone();
    const phoneChat = () =>
      admin()
        .get(`/simulator/${id}/messages`, { number })
        .then((r) => r.body as SimulatorReceivedPage);
    const hello = await admin().post(`/simulator/${id}/messages`, { number, name: 'Maria', body: 'Oi' });
    expect(hello.status, JSON.stringify(hello.body)).toBe(200);
    const greeted = await waitFor(phoneChat, (page) => page.messages.length >= 2, {
      what: 'the welcome and the menu on the phone',
      timeoutMs: 40_000,
    });
    expect(greeted.messages.map((m) => m.body)).toEqual(['Bem-vindo à loja!', 'Como ajudar?\n\n*1* - Comprar']);

    expect((await admin().post(`/simulator/${id}/messages`, { number, body: '1' })).status).toBe(200);
    const ref = await waitFor(
      () => getProviderRef(t.company.id, id, hello.body.providerMessageId as string),
      (r) => r !== null,
      { what: 'the ticket' },
    );
    const ticket = await waitFor(
      () => getTicket(t.company.id, ref!.ticketId),
      (tk) => tk?.queueId === sales && tk.isBot === false,
      { what: 'the ticket in the queue', timeoutMs: 40_000 },
    );
    expect(ticket).toMatchObject({ status: 'pending', userId: null });
    expect((await latestFlowRun(t.company.id, ticket!.id))?.endReason).toBe('handed-to-queue');
    expect((await phoneChat()).messages.map((m) => m.body)).not.toContain('Não deve sair');
  });
});
