import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { enqueueInbound, type InboundEventInput } from '../../functions/channels/inbound';
import { updateConnection, type Connection } from '../../functions/data/connection-repository';
import { nextId } from '../../functions/data/counter-repository';
import { getProviderRef, listTicketMessages, type StoredMessage } from '../../functions/data/message-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { getTicket, listTicketLog, type Ticket } from '../../functions/data/ticket-repository';
import type { ChatbotOption } from '../../functions/contracts/queues';
import { DEFAULT_BOT_TEXTS } from '../../functions/core/inbound/chatbot';
import { handleMessageRun } from '../../functions/core/inbound/inbound-service';
import { inboundEventSchema, type InboundMessage } from '../../functions/core/pipeline/inbound-event';
import { ReadScope } from '../../functions/data/read-scope';
import { someConnection, waitFor } from '../helpers/connections';
import { freshCompany, type TestCompany } from '../helpers/fixtures';

/**
 * The chatbot through the real pipeline (decisions D91): a customer's messages go on the inbound queue, the
 * inbound job answers with the queue menu and the chatbot tree, and the ticket moves where the customer
 * chose. Each answer waits for the bot's reply to it, so every step is ordered after the one before.
 */
let t: TestCompany;
let connection: Connection;
let sales: number;
let billingOptionIds: { root: number; second: number; boleto: number };
beforeAll(async () => {
  t = await freshCompany();
  const companyId = t.company.id;
  sales = (
    await createQueue(companyId, {
      name: 'Vendas',
      color: `#${randomUUID().slice(0, 6)}`,
      greetingMessage: 'Vendas aqui!',
    })
  ).id;
  const ids = {
    root: await nextId(companyId, 'chatbot'),
    second: await nextId(companyId, 'chatbot'),
    boleto: await nextId(companyId, 'chatbot'),
  };
  billingOptionIds = ids;
  const leaf = (id: number, name: string, extra: Partial<ChatbotOption> = {}): ChatbotOption => ({
    id,
    name,
    queueType: 'text',
    greetingMessage: '',
    closeTicket: false,
    optQueueId: null,
    optUserId: null,
    optIntegrationId: null,
    optFileId: null,
    options: [],
    ...extra,
  });
  const billing = await createQueue(companyId, {
    name: 'Financeiro',
    color: `#${randomUUID().slice(0, 6)}`,
    greetingMessage: 'Financeiro, em que posso ajudar?',
    chatbots: [
      leaf(ids.root, 'Boletos', {
        greetingMessage: 'Sobre boletos:',
        options: [
          leaf(ids.second, 'Segunda via', {
            greetingMessage: 'Qual a forma?',
            options: [
              leaf(ids.boleto, 'Falar com vendas', {
                queueType: 'queue',
                optQueueId: sales,
                greetingMessage: 'Vou te passar para vendas',
              }),
            ],
          }),
        ],
      }),
    ],
  });
  const created = await someConnection(companyId, { status: 'CONNECTED' });
  connection = (
    await updateConnection(created, { queueIds: [sales, billing.id], greetingMessage: 'Olá! Escolha o setor:' })
  ).connection;
});

const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const pid = () => `3EB0${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;

/** The customer writes; answers the ticket once the bot has answered this message (or the message is stored). */
const say = async (
  number: string,
  body: string,
  repliesExpected = 1,
): Promise<{ ticket: Ticket; bot: StoredMessage[] }> => {
  const providerMessageId = pid();
  const event: InboundEventInput = {
    kind: 'message',
    companyId: t.company.id,
    whatsappId: connection.id,
    chat: { id: `${number}@s.whatsapp.net` },
    providerMessageId,
    fromMe: false,
    timestamp: new Date().toISOString(),
    contact: { phone: number, pushName: 'Cliente' },
    content: { type: 'text', body },
  };
  await enqueueInbound(event);
  const ref = await waitFor(
    () => getProviderRef(t.company.id, connection.id, providerMessageId),
    (r) => r !== null,
    {
      what: `message ${body} stored`,
    },
  );
  const bot = await waitFor(
    async () =>
      (await listTicketMessages(t.company.id, ref!.ticketId)).filter((m) => m.triggeredBy === providerMessageId),
    (replies) => replies.length >= repliesExpected,
    { what: `the bot's answer to ${body}` },
  );
  const ticket = await waitFor(
    () => getTicket(t.company.id, ref!.ticketId),
    (tk) => repliesExpected === 0 || tk?.botTrigger === providerMessageId,
    { what: 'the bot step recorded' },
  );
  return { ticket: ticket!, bot };
};

describe('the chatbot through the inbound pipeline', () => {
  it('a customer walks a three-level menu to a queue; an invalid answer re-prompts', async () => {
    const number = phone();
    const first = await say(number, 'Oi');
    expect(first.bot.map((m) => m.body)).toEqual(['Olá! Escolha o setor:\n\n*1* - Vendas\n*2* - Financeiro']);
    expect(first.ticket).toMatchObject({ status: 'pending', queueId: null, botStage: 'queues' });

    const wrong = await say(number, 'quero pagar');
    expect(wrong.bot[0]!.body).toBe(`${DEFAULT_BOT_TEXTS.invalidOption}\n\n*1* - Vendas\n*2* - Financeiro`);

    const billing = await say(number, '2');
    expect(billing.ticket.queueId).not.toBeNull();
    expect(billing.bot[0]!.body).toBe('Financeiro, em que posso ajudar?\n\n*1* - Boletos');

    const level1 = await say(number, 'boletos');
    expect(level1.ticket.botPath).toEqual([billingOptionIds.root]);
    const level2 = await say(number, '1');
    expect(level2.ticket.botPath).toEqual([billingOptionIds.root, billingOptionIds.second]);
    expect(level2.bot[0]!.body).toMatch(/^Qual a forma\?\n\n\*1\* - Falar com vendas/);

    const moved = await say(number, '1', 2);
    expect(moved.bot.map((m) => m.body)).toEqual(['Vou te passar para vendas', 'Vendas aqui!']);
    expect(moved.ticket).toMatchObject({ queueId: sales, status: 'pending', userId: null, botStage: null });
    const log = (await listTicketLog(t.company.id, moved.ticket.id)).map((l) => l.type);
    expect(log.filter((type) => type === 'queue')).toHaveLength(2);

    // The bot is done: a later message is a plain message for the queue's people.
    const after = await say(number, 'obrigado', 0);
    expect(after.bot).toEqual([]);
    expect(after.ticket.queueId).toBe(sales);
  });

  it('every bot reply is sent once, even when the same message is delivered twice', async () => {
    const number = phone();
    const event: InboundEventInput = {
      kind: 'message',
      companyId: t.company.id,
      whatsappId: connection.id,
      chat: { id: `${number}@s.whatsapp.net` },
      providerMessageId: pid(),
      fromMe: false,
      timestamp: new Date().toISOString(),
      contact: { phone: number, pushName: 'Cliente' },
      content: { type: 'text', body: 'Oi' },
    };
    await enqueueInbound(event);
    // The same provider message again: the queue's dedup or the pipeline's idempotency must absorb it.
    await enqueueInbound(event);
    // A sentinel after both on the same chat: once its own reply is there, both deliveries were handled.
    const sentinel = await say(number, '1');
    const messages = await listTicketMessages(t.company.id, sentinel.ticket.id);
    const menus = messages.filter((m) => m.triggeredBy === event.providerMessageId);
    expect(menus).toHaveLength(1);
  });

  it('messages of one chat handled as one run are each answered on the state the one before left', async () => {
    const number = phone();
    const event = (body: string): InboundMessage =>
      inboundEventSchema.parse({
        kind: 'message',
        companyId: t.company.id,
        whatsappId: connection.id,
        chat: { id: `${number}@s.whatsapp.net` },
        providerMessageId: pid(),
        fromMe: false,
        timestamp: new Date().toISOString(),
        contact: { phone: number, pushName: 'Cliente' },
        content: { type: 'text', body },
      }) as InboundMessage;
    // Three messages the inbound job got in one batch: the menu, an invalid answer, then a choice.
    const run = [event('Oi'), event('quero pagar'), event('2')];
    expect(await handleMessageRun(run, new ReadScope())).toEqual(['stored', 'stored', 'stored']);
    const ref = await getProviderRef(t.company.id, connection.id, run[0]!.providerMessageId);
    const messages = await listTicketMessages(t.company.id, ref!.ticketId);
    const answer = (e: InboundMessage) =>
      messages.filter((m) => m.triggeredBy === e.providerMessageId).map((m) => m.body);
    expect(answer(run[0]!)).toEqual(['Olá! Escolha o setor:\n\n*1* - Vendas\n*2* - Financeiro']);
    expect(answer(run[1]!)).toEqual([`${DEFAULT_BOT_TEXTS.invalidOption}\n\n*1* - Vendas\n*2* - Financeiro`]);
    expect(answer(run[2]!)).toEqual(['Financeiro, em que posso ajudar?\n\n*1* - Boletos']);
    expect(await getTicket(t.company.id, ref!.ticketId)).toMatchObject({
      botStage: 'chatbot',
      amountUsedBotQueues: 1,
      botTrigger: run[2]!.providerMessageId,
    });
  });
});
