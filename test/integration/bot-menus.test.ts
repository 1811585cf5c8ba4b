import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { metaSignature } from '../../functions/channels/meta/signature';
import type { ChatbotOption } from '../../functions/contracts/queues';
import { createMetaConnection } from '../../functions/core/connections/meta-connections';
import { updateConnection } from '../../functions/data/connection-repository';
import { findContactIdsByIdentities } from '../../functions/data/contact-repository';
import { nextId } from '../../functions/data/counter-repository';
import { listTicketMessages } from '../../functions/data/message-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { getTicket, listContactTicketIds } from '../../functions/data/ticket-repository';
import { waitFor } from '../helpers/connections';
import { fakeGraph } from '../helpers/fake-graph';
import { api, channelPlan, freshCompany, type TestCompany } from '../helpers/fixtures';

/**
 * Bot menus drawn by the channel (issue 13 item 4; decisions D132): with `chatBotType` list or button, a
 * WhatsApp Cloud API customer gets the queue menu and the chatbot menus as interactive messages (reply
 * buttons up to three choices, a list up to ten), presses one, and the bot reads the pressed choice's id
 * — so a title Meta's limits cut still chooses right. The ticket keeps the numbered text, as every channel
 * shows it. Sends go to the fake Graph API; the customer's presses come in as signed webhooks.
 */
const env = inject('localCloudEnv');
const graph = fakeGraph(inject('fakeGraphUrl'));
const webhookUrl = `${inject('gatewayUrl')}/api/webhooks/meta`;
const digits = (n: number) =>
  Array.from({ length: n }, () => Math.floor(Math.random() * 10))
    .join('')
    .replace(/^0/, '1');

let t: TestCompany;
let phoneNumberId: string;
let support: number;
const LONG = 'Suporte técnico de equipamentos industriais';

const option = (id: number, name: string, extra: Partial<ChatbotOption> = {}): ChatbotOption => ({
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

beforeAll(async () => {
  t = await freshCompany(undefined, { planId: (await channelPlan()).id });
  const companyId = t.company.id;
  const sales = (await createQueue(companyId, { name: 'Vendas', color: '#0a0b0c', greetingMessage: 'Vendas aqui!' }))
    .id;
  const ids = await Promise.all([1, 2, 3, 4].map(() => nextId(companyId, 'chatbot')));
  support = (
    await createQueue(companyId, {
      name: LONG,
      color: '#0c0b0a',
      greetingMessage: 'Suporte: qual o assunto?',
      chatbots: [
        option(ids[0]!, 'Impressoras'),
        option(ids[1]!, 'Computadores e periféricos de escritório', { greetingMessage: 'Sobre computadores.' }),
        option(ids[2]!, 'Redes'),
        option(ids[3]!, 'Outros'),
      ],
    })
  ).id;
  phoneNumberId = digits(15);
  const connection = await createMetaConnection(companyId, {
    channel: 'whatsappapi',
    kind: 'waphone',
    externalId: phoneNumberId,
    name: 'Cloud API',
    token: `EAACLOUD${randomUUID().replace(/-/g, '')}`,
  });
  await updateConnection(connection, { queueIds: [sales, support], greetingMessage: 'Olá! Escolha o setor:' });
  const set = await api(t.adminToken).put('/companySettings', { column: 'chatBotType', data: 'button' });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
}, 60_000);

/** The customer's message as Meta's signed webhook delivers it. */
const customer = async (from: string, message: Record<string, unknown>) => {
  const payload = {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: digits(15),
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name: 'Cliente' }, wa_id: from }],
              messages: [
                { from, id: `wamid.${randomUUID()}`, timestamp: String(Math.floor(Date.now() / 1000)), ...message },
              ],
            },
          },
        ],
      },
    ],
  };
  const body = Buffer.from(JSON.stringify(payload));
  const res = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(body, env.META_APP_SECRET!) },
    body,
  });
  expect(res.status).toBe(200);
};

/** What the Graph API was asked to send to this number, oldest first. */
const sentTo = async (to: string) =>
  (await graph.calls(`/${phoneNumberId}/messages`))
    .map((c) => c.body as Record<string, unknown>)
    .filter((b) => b.to === to);

const sentCount = (to: string, count: number, what: string) =>
  waitFor(
    () => sentTo(to),
    (all) => all.length >= count,
    { what, timeoutMs: 40_000 },
  );

const ticketOf = async (from: string) => {
  const contactId = (await findContactIdsByIdentities(t.company.id, [`wa#${from}`])).get(`wa#${from}`)!;
  const [ticketId] = await listContactTicketIds(t.company.id, contactId);
  return (await getTicket(t.company.id, ticketId!))!;
};

describe('bot menus as buttons and lists on the WhatsApp Cloud API', () => {
  it('the queue menu goes as reply buttons; a pressed button picks the queue, whose longer menu goes as a list', async () => {
    const from = `55119${digits(8)}`;
    await customer(from, { type: 'text', text: { body: 'Oi' } });
    const [menu] = await sentCount(from, 1, 'the queue menu');
    expect(menu).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Olá! Escolha o setor:' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: '1', title: 'Vendas' } },
            // Meta allows 20 characters in a button: cut, and still chosen by its id.
            { type: 'reply', reply: { id: '2', title: `${LONG.slice(0, 19)}…` } },
          ],
        },
      },
    });
    // The ticket shows the numbered menu, as on every channel.
    const ticket = await ticketOf(from);
    const stored = await listTicketMessages(t.company.id, ticket.id);
    expect(stored.find((m) => m.fromMe)?.body).toBe(`Olá! Escolha o setor:\n\n*1* - Vendas\n*2* - ${LONG}`);

    await customer(from, {
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: '2', title: `${LONG.slice(0, 19)}…` } },
    });
    const all = await sentCount(from, 2, "the support queue's menu");
    // Four choices do not fit in three buttons: a list, with the whole title where a row cuts it.
    expect(all[1]).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Suporte: qual o assunto?' },
        action: {
          button: 'Ver opções',
          sections: [
            {
              rows: [
                { id: '1', title: 'Impressoras' },
                {
                  id: '2',
                  title: 'Computadores e periféri…',
                  description: 'Computadores e periféricos de escritório',
                },
                { id: '3', title: 'Redes' },
                { id: '4', title: 'Outros' },
              ],
            },
          ],
        },
      },
    });
    expect((await ticketOf(from)).queueId).toBe(support);
    // What the customer pressed shows in the ticket by its title.
    const messages = await listTicketMessages(t.company.id, ticket.id);
    expect(messages.filter((m) => !m.fromMe).map((m) => m.body)).toEqual(['Oi', `${LONG.slice(0, 19)}…`]);

    await customer(from, {
      type: 'interactive',
      interactive: { type: 'list_reply', list_reply: { id: '2', title: 'Computadores e periféri…' } },
    });
    const third = await sentCount(from, 3, "the option's answer");
    expect(third[2]).toMatchObject({ type: 'text', text: { body: 'Sobre computadores.' } });
  });

  it('with chatBotType text the same menu goes as numbered text; typing the number still chooses', async () => {
    expect((await api(t.adminToken).put('/companySettings', { column: 'chatBotType', data: 'text' })).status).toBe(200);
    // The inbound job may reuse the settings it read for up to a second (decisions D67).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const from = `55119${digits(8)}`;
    await customer(from, { type: 'text', text: { body: 'Bom dia' } });
    const [menu] = await sentCount(from, 1, 'the queue menu');
    expect(menu).toMatchObject({
      type: 'text',
      text: { body: `Olá! Escolha o setor:\n\n*1* - Vendas\n*2* - ${LONG}` },
    });
    await customer(from, { type: 'text', text: { body: '1' } });
    const all = await sentCount(from, 2, "the sales queue's greeting");
    expect(all[1]).toMatchObject({ type: 'text', text: { body: 'Vendas aqui!' } });
  });
});
