import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { enqueueInbound, type InboundEventInput } from '../../functions/channels/inbound';
import { getConnection, updateConnection, type Connection } from '../../functions/data/connection-repository';
import type { SimulatorReceivedPage } from '../../functions/contracts/simulator';
import { getContact } from '../../functions/data/contact-repository';
import { getProviderRef, listTicketMessages, type StoredMessage } from '../../functions/data/message-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { setCompanySetting } from '../../functions/data/settings-repository';
import { getTicket, listTicketLog, transitionTicket, type Ticket } from '../../functions/data/ticket-repository';
import { updateUser } from '../../functions/data/user-repository';
import { putConnection } from '../../functions/data/ws-connection-repository';
import { DEFAULT_CONSENT_TEXTS } from '../../functions/core/inbound/consent';
import { someConnection, waitFor, waitForConnection } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';

/**
 * The rest of the routing engine through the real pipeline (decisions D92, D93): a customer's messages go
 * on the inbound queue and the inbound job answers — out-of-hours once per closed period, LGPD consent,
 * a queue's file list, the customer's place in the queue, and tickets given to the wallet attendant or a
 * random online user of the queue.
 */
const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const pid = () => `3EB0${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;

interface Setup {
  t: TestCompany;
  connection: Connection;
}

/** The customer (or, with fromMe, the phone) writes; answers the stored message's ticket. */
const write = async (
  s: Setup,
  number: string,
  body: string,
  fromMe = false,
): Promise<{ providerMessageId: string; ticketId: number }> => {
  const providerMessageId = pid();
  const event: InboundEventInput = {
    kind: 'message',
    companyId: s.t.company.id,
    whatsappId: s.connection.id,
    chat: { id: `${number}@s.whatsapp.net` },
    providerMessageId,
    fromMe,
    timestamp: new Date().toISOString(),
    contact: { phone: number, pushName: 'Cliente' },
    content: { type: 'text', body },
  };
  await enqueueInbound(event);
  const ref = await waitFor(
    () => getProviderRef(s.t.company.id, s.connection.id, providerMessageId),
    (r) => r !== null,
    { what: `message ${body} stored` },
  );
  return { providerMessageId, ticketId: ref!.ticketId };
};

/** The customer writes and waits for at least `expected` automatic replies to that message. */
const say = async (
  s: Setup,
  number: string,
  body: string,
  expected = 1,
): Promise<{ ticketId: number; replies: StoredMessage[] }> => {
  const { providerMessageId, ticketId } = await write(s, number, body);
  const replies = await waitFor(
    async () => (await listTicketMessages(s.t.company.id, ticketId)).filter((m) => m.triggeredBy === providerMessageId),
    (found) => found.length >= expected,
    { what: `the answer to ${body}` },
  );
  return { ticketId, replies };
};

const ticketOf = (s: Setup, id: number, accept: (t: Ticket) => boolean, what: string) =>
  waitFor(
    () => getTicket(s.t.company.id, id),
    (t) => t !== null && accept(t),
    { what },
  ) as Promise<Ticket>;

/** A connection of the company paired by the simulator's scan, with the queues of `s.connection`. */
const pairedConnection = async (s: Setup): Promise<number> => {
  const created = await api(s.t.adminToken).post('/whatsapp', { name: `Simulada ${randomUUID().slice(0, 4)}` });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  const deadline = Date.now() + 40_000;
  for (;;) {
    const current = await getConnection(s.t.company.id, id);
    if (current?.status === 'CONNECTED') {
      await updateConnection(current, {
        queueIds: s.connection.queueIds,
        greetingMessage: s.connection.greetingMessage,
      });
      return id;
    }
    if (current?.status === 'qrcode') await api(s.t.adminToken).post(`/simulator/${id}/scan`);
    if (Date.now() > deadline) throw new Error(`connection ${id} did not connect; last ${current?.status}`);
    await waitForConnection(s.t.company.id, id, (c) => c?.status === 'CONNECTED', { timeoutMs: 4_000 }).catch(
      () => undefined,
    );
  }
};

const setup = async (connectionChanges: Parameters<typeof updateConnection>[1]): Promise<Setup> => {
  const t = await freshCompany();
  const created = await someConnection(t.company.id, { status: 'CONNECTED' });
  const { connection } = await updateConnection(created, connectionChanges);
  return { t, connection };
};

describe('out of hours: once per ticket per closed period', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup({
      outOfHoursMessage: 'Estamos fechados agora.',
      greetingMessage: 'Olá!',
      // No shift on any day: every message falls in one closed period.
      schedules: ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((weekdayEn) => ({
        weekday: weekdayEn,
        weekdayEn,
        startTimeA: '',
        endTimeA: '',
        startTimeB: '',
        endTimeB: '',
      })),
    });
    await setCompanySetting(s.t.company.id, 'scheduleType', 'connection');
  });

  it('two messages in one closed period get one out-of-hours message', async () => {
    const number = phone();
    const first = await say(s, number, 'Oi, tem alguém?');
    expect(first.replies.map((m) => [m.body, m.automatic])).toEqual([['Estamos fechados agora.', 'outOfHours']]);

    await write(s, number, 'Alô?');
    // A message from the phone after it on the same chat: once it is stored, the one before was answered.
    const sentinel = await write(s, number, 'Bom dia, retornamos às 8h.', true);
    const messages = await listTicketMessages(s.t.company.id, sentinel.ticketId);
    expect(messages.filter((m) => m.automatic === 'outOfHours').map((m) => m.body)).toEqual([
      'Estamos fechados agora.',
    ]);
    expect(messages.filter((m) => m.automatic === 'greeting')).toEqual([]);
  });
});

describe('LGPD consent', () => {
  let s: Setup;
  const question = `Tratamos seus dados conforme a LGPD.\n\nhttps://exemplo.com.br/privacidade\n\n*1* - Aceito\n*2* - Não aceito`;
  beforeAll(async () => {
    s = await setup({ greetingMessage: 'Olá! Como podemos ajudar?' });
    await setCompanySetting(s.t.company.id, 'enableLGPD', 'enabled');
    await setCompanySetting(s.t.company.id, 'lgpdMessage', 'Tratamos seus dados conforme a LGPD.');
    await setCompanySetting(s.t.company.id, 'lgpdLink', 'https://exemplo.com.br/privacidade');
  });

  it('asks a new contact, asks again on a wrong answer, and an acceptance stores it and greets', async () => {
    const number = phone();
    const first = await say(s, number, 'Oi');
    expect(first.replies.map((m) => m.body)).toEqual([question]);
    const asked = await ticketOf(s, first.ticketId, (t) => t.status === 'lgpd', 'the ticket in lgpd');
    expect(asked).toMatchObject({ userId: null, isBot: true });

    const wrong = await say(s, number, 'talvez');
    expect(wrong.replies.map((m) => m.body)).toEqual([`${DEFAULT_CONSENT_TEXTS.invalid}\n\n${question}`]);

    const accept = await say(s, number, '1');
    expect(accept.replies.map((m) => [m.body, m.automatic])).toEqual([['Olá! Como podemos ajudar?', 'greeting']]);
    const ticket = await ticketOf(s, first.ticketId, (t) => t.status === 'pending', 'the ticket back to pending');
    expect(ticket.id).toBe(first.ticketId);
    const contact = await getContact(s.t.company.id, ticket.contactId);
    expect(contact?.lgpdAcceptedAt).toEqual(expect.any(String));
    expect((await listTicketLog(s.t.company.id, ticket.id)).map((l) => l.type)).toEqual([
      'create',
      'chatBot',
      'chatBot',
    ]);
  });

  it('a refusal closes the ticket with a notice', async () => {
    const number = phone();
    const first = await say(s, number, 'Bom dia');
    expect(first.replies.map((m) => m.body)).toEqual([question]);
    const refuse = await say(s, number, '2');
    expect(refuse.replies.map((m) => m.body)).toEqual([DEFAULT_CONSENT_TEXTS.refused]);
    const closed = await ticketOf(s, first.ticketId, (t) => t.status === 'closed', 'the ticket closed');
    expect((await getContact(s.t.company.id, closed.contactId))?.lgpdAcceptedAt).toBeNull();
  });
});

describe("landing in a queue: its file list and the customer's place", () => {
  let s: Setup;
  beforeAll(async () => {
    const t = await freshCompany();
    const admin = api(t.adminToken);
    const list = await admin.post('/files', {
      name: 'Catálogo',
      message: 'Seguem nossos catálogos:',
      options: [{ name: 'Tabela' }],
    });
    expect(list.status).toBe(201);
    const form = new FormData();
    form.append('files', new Blob([Buffer.from('%PDF-1.4 tabela')], { type: 'application/pdf' }), 'tabela.pdf');
    form.append('id', String(list.body.options[0].id));
    expect((await admin.post(`/files/uploadList/${list.body.id}`, form)).status).toBe(200);
    const queue = await createQueue(t.company.id, {
      name: 'Vendas',
      color: `#${randomUUID().slice(0, 6)}`,
      greetingMessage: 'Vendas aqui!',
      fileListId: list.body.id,
    });
    const created = await someConnection(t.company.id, { status: 'CONNECTED' });
    const { connection } = await updateConnection(created, { queueIds: [queue.id], greetingMessage: 'Bem-vindo!' });
    s = { t, connection };
    await setCompanySetting(t.company.id, 'sendQueuePosition', 'enabled');
    await setCompanySetting(t.company.id, 'sendQueuePositionMessage', 'Você é o {{position}}º da fila.');
  });

  it('a new ticket gets the greeting, the queue files and its position; the next customer is second', async () => {
    const first = await say(s, phone(), 'Oi', 4);
    expect(first.replies.map((m) => [m.body, m.mediaType])).toEqual([
      ['Bem-vindo!', 'chat'],
      ['Seguem nossos catálogos:', 'chat'],
      ['', 'application'],
      ['Você é o 1º da fila.', 'chat'],
    ]);
    expect(first.replies[2]).toMatchObject({
      mimetype: 'application/pdf',
      filename: 'tabela.pdf',
      fromMe: true,
      mediaKey: expect.stringMatching(new RegExp(`^c/${s.t.company.id}/files/`)),
    });
    const second = await say(s, phone(), 'Olá', 4);
    expect(second.replies.at(-1)?.body).toBe('Você é o 2º da fila.');
  });

  it("the customer's phone receives the list's message and its file through a paired connection", async () => {
    const id = await pairedConnection(s);
    const number = phone();
    const posted = await api(s.t.adminToken).post(`/simulator/${id}/messages`, { number, name: 'Cliente', body: 'Oi' });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const page = await waitFor(
      async () =>
        (await api(s.t.adminToken).get(`/simulator/${id}/messages`, { number })).body as SimulatorReceivedPage,
      (p) => p.messages.length >= 4,
      { what: "the customer's phone receiving the replies", timeoutMs: 30_000 },
    );
    const received = [...page.messages].sort((a, b) => a.id.slice(2).localeCompare(b.id.slice(2)));
    expect(received.map((m) => [m.type, m.body ?? null, m.filename ?? null])).toEqual([
      ['text', 'Bem-vindo!', null],
      ['text', 'Seguem nossos catálogos:', null],
      ['document', null, 'tabela.pdf'],
      // Third in the queue after the two customers of the test before (or first when run alone).
      ['text', expect.stringMatching(/^Você é o [13]º da fila\.$/), null],
    ]);
  });
});

describe('tickets given to a person on landing', () => {
  let s: Setup;
  beforeAll(async () => {
    const t = await freshCompany();
    const queue = await createQueue(t.company.id, { name: 'Suporte', color: `#${randomUUID().slice(0, 6)}` });
    const created = await someConnection(t.company.id, { status: 'CONNECTED' });
    const { connection } = await updateConnection(created, { queueIds: [queue.id], greetingMessage: 'Oi!' });
    s = { t, connection };
    // The attendant works in the queue all day and is online; the admin is neither in it nor online.
    await updateUser(t.company.id, t.attendant.id, { queueIds: [queue.id] });
    await putConnection({
      connectionId: `ws-${randomUUID()}`,
      companyId: t.company.id,
      userId: t.attendant.id,
      profile: 'user',
      super: false,
      rooms: [],
      connectedAt: new Date().toISOString(),
    });
    await setCompanySetting(t.company.id, 'userRandom', 'enabled');
    await setCompanySetting(t.company.id, 'DirectTicketsToWallets', true);
  });

  it('userRandom gives a new ticket to an online user of the queue; the next one goes to the wallet attendant', async () => {
    const number = phone();
    const first = await say(s, number, 'Oi');
    const random = await ticketOf(s, first.ticketId, (t) => t.status === 'open', 'the ticket given to someone');
    expect(random.userId).toBe(s.t.attendant.id);
    const log = await listTicketLog(s.t.company.id, random.id);
    expect(log.at(-1)).toMatchObject({ type: 'open', userId: s.t.attendant.id });

    // The admin takes the conversation over and closes it: the admin is now this contact's attendant.
    const taken = await transitionTicket(random, {
      status: 'open',
      userId: s.t.admin.id,
      queueId: random.queueId,
      logs: [{ type: 'transfered', userId: s.t.admin.id, queueId: random.queueId }],
    });
    await transitionTicket(taken, {
      status: 'closed',
      userId: s.t.admin.id,
      queueId: random.queueId,
      logs: [{ type: 'closed', userId: s.t.admin.id, queueId: random.queueId }],
    });

    const again = await say(s, number, 'Voltei');
    expect(again.ticketId).not.toBe(first.ticketId);
    const wallet = await ticketOf(s, again.ticketId, (t) => t.status === 'open', 'the new ticket given to someone');
    expect(wallet.userId).toBe(s.t.admin.id);
  });
});
