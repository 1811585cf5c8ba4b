import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session, WhatsAppDriver } from '../../functions/channels/whatsapp/driver';
import { createSimulatorDriver } from '../../functions/channels/whatsapp/simulator-driver';
import { startWhatsAppWorker, type WhatsAppWorker } from '../../functions/channels/whatsapp/whatsapp-worker';
import {
  enqueueOutbound,
  whatsappMessageId,
  type OutboundChange,
  type OutboundSend,
} from '../../functions/core/pipeline/outbound-queue';
import type { OutboundMessage } from '../../functions/channels/whatsapp/driver';
import { getConnection, setSessionState } from '../../functions/data/connection-repository';
import {
  claimProviderRef,
  getMessage,
  storeMessage,
  type StoredMessage,
} from '../../functions/data/message-repository';
import { listReceived } from '../../functions/data/simulator-phone-repository';
import { getTicket } from '../../functions/data/ticket-repository';
import { seededUlid, ulidTime } from '../../functions/data/ulids';
import { getLease } from '../../functions/data/wa-lease-repository';
import { listOutbox } from '../../functions/data/wa-outbox-repository';
import { handler as outboundHandler } from '../../functions/jobs/outbound/handler';
import { eventsUntil, someConnection, waitFor, waitForConnection, type SocketEvent } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets, type TestSocket } from '../helpers/ws-client';
import { inject } from 'vitest';

/**
 * The message pipelines through the WhatsApp worker (issue 4, items 3, 4 and 6; decisions D31, D34, D41):
 * a simulated customer writes through the simulator routes, the holder's simulated session hands the
 * message to the inbound sink, the real inbound job stores it; replies stored with ack 0 go through the
 * outbound queue, the outbound job, the connection's outbox and the holder's session to the customer,
 * whose acks come back through the inbound path.
 */
let t: TestCompany;
let admin: TestSocket;
const extraWorkers: WhatsAppWorker[] = [];

beforeAll(async () => {
  t = await freshCompany();
  admin = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
});
afterAll(async () => {
  for (const s of openSockets) s.terminate();
  await Promise.all(extraWorkers.map((w) => w.stop()));
});

const suffix = () => String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
const customerNumber = () => `55119${suffix()}`;

/**
 * A connection made through the API and paired through the simulator route (held by the local cloud's
 * worker). On a loaded machine the session may be reopened between the QR code and the scan (a missed
 * heartbeat with the tests' 1.5 s lease): scan the code it shows then, until it connects.
 */
const connectedConnection = async (name: string): Promise<number> => {
  const created = await api(t.adminToken).post('/whatsapp', { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  await waitForConnection(t.company.id, id, (c) => c?.status === 'qrcode', { timeoutMs: 15_000 });
  const deadline = Date.now() + 40_000;
  for (;;) {
    const current = await getConnection(t.company.id, id);
    if (current?.status === 'CONNECTED') return id;
    if (current?.status === 'qrcode') await api(t.adminToken).post(`/simulator/${id}/scan`);
    if (Date.now() > deadline) throw new Error(`connection ${id} did not connect; last ${current?.status}`);
    await waitForConnection(t.company.id, id, (c) => c?.status === 'CONNECTED', { timeoutMs: 4_000 }).catch(
      () => undefined,
    );
  }
};

/**
 * A connection paired in a worker of this process (no queue), so the test knows who holds it. The worker's
 * own heartbeat may carry a recorded command out first ('handled-before'): either way it is done.
 */
const connectedIn = async (worker: WhatsAppWorker): Promise<number> => {
  const connection = await someConnection(t.company.id);
  const start = new Date().toISOString();
  await setSessionState(t.company.id, connection.id, { status: 'OPENING', command: 'start', at: start });
  expect(
    await worker.handleCommand({
      companyId: t.company.id,
      whatsappId: connection.id,
      command: 'start',
      requestedAt: start,
    }),
  ).toMatch(/^(done|handled-before)$/);
  await waitForConnection(t.company.id, connection.id, (c) => c?.status === 'qrcode');
  const scan = new Date(Date.parse(start) + 1).toISOString();
  await setSessionState(t.company.id, connection.id, { command: 'scan', at: scan });
  expect(
    await worker.handleCommand({
      companyId: t.company.id,
      whatsappId: connection.id,
      command: 'scan',
      requestedAt: scan,
    }),
  ).toMatch(/^(done|handled-before)$/);
  await waitForConnection(t.company.id, connection.id, (c) => c?.status === 'CONNECTED');
  return connection.id;
};

const isAppMessage =
  (action: string, accept: (message: Record<string, unknown>) => boolean) =>
  (e: SocketEvent): boolean =>
    e.channel === `company-${t.company.id}-appMessage` &&
    e.action === action &&
    accept(e.message as Record<string, unknown>);

/** The customer writes; answers the ticket the inbound job made (from the attendants' event). */
const customerWrites = async (whatsappId: number, number: string, body: string): Promise<number> => {
  const res = await api(t.adminToken).post(`/simulator/${whatsappId}/messages`, { number, name: 'Cliente', body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const events = await eventsUntil(
    admin,
    isAppMessage('create', (m) => m.body === body),
    15_000,
  );
  return Number((events.at(-1)!.message as { ticketId: number }).ticketId);
};

/** What an attendant's reply is until the messages API exists: stored with ack 0, then queued (D34). */
const storeReply = async (
  whatsappId: number,
  ticketId: number,
  body: string,
): Promise<{ message: StoredMessage; send: OutboundSend }> => {
  const ticket = (await getTicket(t.company.id, ticketId))!;
  const providerId = whatsappMessageId(randomUUID());
  const previous = ticket.lastMsgSk ? ulidTime(ticket.lastMsgSk.slice(4)) : 0;
  const { ref } = await claimProviderRef(t.company.id, whatsappId, providerId, {
    ticketId,
    ulid: seededUlid(Math.max(Date.now(), previous + 1), `${whatsappId}:${providerId}`),
    contactId: ticket.contactId,
  });
  const message: StoredMessage = {
    ulid: ref.ulid,
    companyId: t.company.id,
    ticketId,
    contactId: ticket.contactId,
    whatsappId,
    body,
    mediaType: 'chat',
    fromMe: true,
    isPrivate: false,
    isDeleted: false,
    isEdited: false,
    isForwarded: false,
    queueId: ticket.queueId,
    ack: 0,
    createdAt: new Date(ulidTime(ref.ulid)).toISOString(),
    providerId,
    userId: t.admin.id,
  };
  expect(await storeMessage(message, { lastMessage: body, updatedAt: message.createdAt, unread: 'reset' })).toBe(
    'stored',
  );
  const send: OutboundSend = {
    kind: 'send',
    companyId: t.company.id,
    whatsappId,
    channel: 'whatsapp',
    ticketId,
    messageId: `${ticketId}-${ref.ulid}`,
    chatId: ticket.chatId!,
    providerMessageId: providerId,
    requestedAt: new Date().toISOString(),
  };
  await enqueueOutbound(send);
  return { message, send };
};

const received = async (whatsappId: number) => (await listReceived(t.company.id, whatsappId, { limit: 100 })).messages;

describe('a simulated customer and the replies through the real pipeline', () => {
  it('the customer writes: one ticket and message, and the attendants see it', async () => {
    const id = await connectedConnection('Simulador');
    const number = customerNumber();
    const ticketId = await customerWrites(id, number, 'Olá, quero um orçamento');
    const ticket = (await getTicket(t.company.id, ticketId))!;
    expect(ticket).toMatchObject({ status: 'pending', chatId: `${number}@s.whatsapp.net`, unreadMessages: 1 });
  });

  it('a reply reaches the customer once, and its acks 1, 2 and 3 come back as message updates', async () => {
    const id = await connectedConnection('Respostas');
    const number = customerNumber();
    const ticketId = await customerWrites(id, number, 'Vocês abrem amanhã?');
    const { message } = await storeReply(id, ticketId, 'Abrimos às 8h.');
    const wireId = `${ticketId}-${message.ulid}`;

    const acks = await eventsUntil(
      admin,
      isAppMessage('update', (m) => m.id === wireId && m.ack === 2),
      15_000,
    );
    const seen = acks
      .filter(isAppMessage('update', (m) => m.id === wireId))
      .map((e) => (e.message as { ack: number }).ack);
    expect(seen).toEqual([1, 2]);
    const got = await received(id);
    expect(got).toEqual([
      expect.objectContaining({
        providerMessageId: message.providerId,
        chatId: `${number}@s.whatsapp.net`,
        type: 'text',
        body: 'Abrimos às 8h.',
        ack: 2,
      }),
    ]);
    const listed = await api(t.adminToken).get(`/simulator/${id}/messages`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ hasMore: false, messages: [{ body: 'Abrimos às 8h.', ack: 2 }] });

    expect((await api(t.adminToken).post(`/simulator/${id}/read`, { number })).status).toBe(200);
    await eventsUntil(
      admin,
      isAppMessage('update', (m) => m.id === wireId && m.ack === 3),
      15_000,
    );
    expect((await getMessage(t.company.id, ticketId, message.ulid))!.ack).toBe(3);
    expect((await received(id))[0]!.ack).toBe(3);
  });

  it('a new ticket’s greeting reaches the customer, once, however often they write', async () => {
    const id = await connectedConnection('Saudação');
    const edit = await api(t.adminToken).put(`/whatsapp/${id}`, { greetingMessage: 'Bem-vindo à loja!' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const number = customerNumber();
    await customerWrites(id, number, 'Oi');
    await customerWrites(id, number, 'Tem alguém?');
    const got = await waitFor(
      () => received(id),
      (r) => r.some((m) => m.ack >= 2),
      { timeoutMs: 15_000, what: 'the greeting, delivered' },
    );
    expect(got).toEqual([
      expect.objectContaining({ chatId: `${number}@s.whatsapp.net`, body: 'Bem-vindo à loja!', ack: 2 }),
    ]);
  });

  it('a retried outbound job sends nothing twice', async () => {
    const id = await connectedConnection('Repetição');
    const ticketId = await customerWrites(id, customerNumber(), 'Oi');
    const { message, send } = await storeReply(id, ticketId, 'Uma vez só');
    await waitFor(
      () => getMessage(t.company.id, ticketId, message.ulid),
      (m) => (m?.ack ?? 0) >= 1,
      { what: 'the send' },
    );
    // The job's retry (SQS redelivered it): the send goes into the outbox again, the holder skips it.
    const record = {
      messageId: randomUUID(),
      body: JSON.stringify(send),
      attributes: { MessageGroupId: `${id}:${send.chatId}`, ApproximateReceiveCount: '2' },
    } as unknown as SQSRecord;
    expect(await outboundHandler({ Records: [record] })).toEqual({ batchItemFailures: [] });
    await waitFor(
      () => listOutbox(t.company.id, id),
      (items) => items.length === 0,
      { what: 'the outbox to drain' },
    );
    expect((await received(id)).filter((r) => r.providerMessageId === message.providerId)).toHaveLength(1);
  });

  it('keeps a chat’s order for 20 quick replies', async () => {
    const id = await connectedConnection('Rajada');
    const ticketId = await customerWrites(id, customerNumber(), 'Manda tudo');
    const bodies = Array.from({ length: 20 }, (_, i) => `Resposta ${i + 1}`);
    for (const body of bodies) await storeReply(id, ticketId, body);
    const got = await waitFor(
      () => received(id),
      (r) => r.length >= 20,
      { timeoutMs: 30_000, what: '20 replies' },
    );
    expect(got.map((r) => r.body)).toEqual(bodies);
  });

  it('the customer sends a file and reacts to a reply', async () => {
    const id = await connectedConnection('Arquivos');
    const number = customerNumber();
    const ticketId = await customerWrites(id, number, 'Segue o comprovante');
    const form = new FormData();
    form.append('number', number);
    form.append('body', 'comprovante');
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n% recibo\n')], { type: 'application/pdf' }), 'recibo.pdf');
    const sent = await api(t.adminToken).post(`/simulator/${id}/media`, form);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const media = await eventsUntil(
      admin,
      isAppMessage('create', (m) => m.mediaType === 'application'),
      15_000,
    );
    expect(media.at(-1)!.message).toMatchObject({
      ticketId,
      mediaUrl: expect.stringContaining(`/c/${t.company.id}/inbound/${id}/`),
      mimetype: 'application/pdf',
    });

    const { message } = await storeReply(id, ticketId, 'Recebido, obrigado!');
    await waitFor(
      () => received(id),
      (r) => r.length === 1,
      { what: 'the reply' },
    );
    const reacted = await api(t.adminToken).post(`/simulator/${id}/messages`, {
      number,
      reactTo: message.providerId,
      emoji: '👍',
    });
    expect(reacted.status).toBe(200);
    const reaction = await eventsUntil(
      admin,
      isAppMessage('create', (m) => m.mediaType === 'reaction'),
      15_000,
    );
    expect(reaction.at(-1)!.message).toMatchObject({ body: '👍', quotedMsgId: `${ticketId}-${message.ulid}` });
  });

  it('the simulator routes refuse a connection that is not connected, and plain users', async () => {
    const connection = await someConnection(t.company.id);
    const res = await api(t.adminToken).post(`/simulator/${connection.id}/messages`, {
      number: customerNumber(),
      body: 'x',
    });
    expect(res.status).toBe(400);
    expect((await api(t.attendantToken).get(`/simulator/${connection.id}/messages`)).status).toBe(403);
  });
});

describe('sends for a connection another worker holds, and sends that fail', () => {
  it('the holder sends it, whoever received the wake-up', async () => {
    const holder = await startWhatsAppWorker({ consumeQueue: false });
    extraWorkers.push(holder);
    const id = await connectedIn(holder);
    expect((await getLease(t.company.id, id))!.holder).toBe(holder.taskId);
    const ticketId = await customerWrites(id, customerNumber(), 'Alguém aí?');
    const { message } = await storeReply(id, ticketId, 'Sim, pode falar.');
    const got = await waitFor(
      () => received(id),
      (r) => r.length === 1,
      { timeoutMs: 15_000, what: 'the reply' },
    );
    expect(got[0]).toMatchObject({ providerMessageId: message.providerId, body: 'Sim, pode falar.' });
    expect((await getLease(t.company.id, id))!.holder).toBe(holder.taskId);
  });

  it('a send that keeps failing marks the message ERR_SENDING_WAPP_MSG and tells the attendants', async () => {
    const simulator = createSimulatorDriver();
    const failing: WhatsAppDriver = {
      ...simulator,
      start: (auth, events, context) => {
        const session: Session = simulator.start(auth, events, context);
        session.send = () => Promise.reject(new Error('the phone is unreachable'));
        return session;
      },
    };
    const worker = await startWhatsAppWorker({
      consumeQueue: false,
      driver: failing,
      sendRetry: { attempts: 2, baseMs: 50 },
    });
    extraWorkers.push(worker);
    const id = await connectedIn(worker);
    const ticketId = await customerWrites(id, customerNumber(), 'Olá');
    const { message } = await storeReply(id, ticketId, 'Não vai chegar');
    const wireId = `${ticketId}-${message.ulid}`;
    const events = await eventsUntil(
      admin,
      isAppMessage('update', (m) => m.id === wireId),
      15_000,
    );
    expect(events.at(-1)!.message).toMatchObject({ ack: 0, sendError: 'ERR_SENDING_WAPP_MSG' });
    expect(await getMessage(t.company.id, ticketId, message.ulid)).toMatchObject({
      ack: 0,
      sendError: 'ERR_SENDING_WAPP_MSG',
    });
    await waitFor(
      () => listOutbox(t.company.id, id),
      (items) => items.length === 0,
      { what: 'the outbox to drain' },
    );
    expect(await received(id)).toEqual([]);
  });
});

describe('an attendant’s edit and delete reach the customer (decisions D75)', () => {
  /** The customer writes, an attendant takes the ticket and answers through the messages API. */
  const answered = async (id: number, body: string) => {
    const number = customerNumber();
    const ticketId = await customerWrites(id, number, 'Qual o horário?');
    const taken = await api(t.adminToken).put(`/tickets/${ticketId}`, { status: 'open', userId: t.admin.id });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const sent = await api(t.adminToken).post(`/messages/${ticketId}`, { body });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const wireId = sent.body.id as string;
    const ulid = wireId.split('-')[1]!;
    const stored = await waitFor(
      () => getMessage(t.company.id, ticketId, ulid),
      (m) => (m?.ack ?? 0) >= 1,
      { timeoutMs: 15_000, what: 'the reply, sent' },
    );
    return { ticketId, wireId, providerId: stored!.providerId!, number };
  };

  const receivedOne = async (id: number, providerId: string, accept: (r: Record<string, unknown>) => boolean) =>
    (await waitFor(
      async () => (await received(id)).find((r) => r.providerMessageId === providerId),
      (r) => r !== undefined && accept(r as unknown as Record<string, unknown>),
      { timeoutMs: 15_000, what: 'the customer’s copy' },
    ))!;

  it('an edit shows the new text marked edited; a delete shows it deleted, on the customer’s phone', async () => {
    const id = await connectedConnection('Edições');
    const { wireId, providerId, number } = await answered(id, 'Abrimos às 9h');
    await receivedOne(id, providerId, (r) => r.body === 'Abrimos às 9h');

    const edited = await api(t.adminToken).post(`/messages/edit/${wireId}`, { body: 'Abrimos às 10h' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const afterEdit = await receivedOne(id, providerId, (r) => r.edited === true);
    expect(afterEdit).toMatchObject({ chatId: `${number}@s.whatsapp.net`, type: 'text', body: 'Abrimos às 10h' });
    const listed = await api(t.adminToken).get(`/simulator/${id}/messages`, { number });
    expect(listed.status).toBe(200);
    expect(listed.body.messages).toEqual([
      expect.objectContaining({ providerMessageId: providerId, body: 'Abrimos às 10h', edited: true }),
    ]);

    const deleted = await api(t.adminToken).delete(`/messages/${wireId}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const afterDelete = await receivedOne(id, providerId, (r) => r.deleted === true);
    expect(afterDelete.body).toBeUndefined();
    // The edit and the delete changed the message: the customer still has one.
    expect((await received(id)).filter((r) => r.chatId === `${number}@s.whatsapp.net`)).toHaveLength(1);
  });

  it('a private note’s edit stays here', async () => {
    const id = await connectedConnection('Notas');
    const { ticketId } = await answered(id, 'Olá');
    const note = await api(t.adminToken).post(`/messages/${ticketId}`, { body: 'ligar depois', isPrivate: true });
    expect(note.status).toBe(201);
    const edited = await api(t.adminToken).post(`/messages/edit/${note.body.id as string}`, { body: 'ligar amanhã' });
    expect(edited.status).toBe(200);
    await waitFor(
      () => listOutbox(t.company.id, id),
      (items) => items.length === 0,
      { what: 'the outbox to drain' },
    );
    expect((await received(id)).map((r) => r.body)).toEqual(['Olá']);
  });

  it('a retried job edits once', async () => {
    const simulator = createSimulatorDriver();
    const sends: OutboundMessage[] = [];
    const counting: WhatsAppDriver = {
      ...simulator,
      start: (auth, events, context) => {
        const session: Session = simulator.start(auth, events, context);
        const send = session.send!.bind(session);
        session.send = (message) => {
          sends.push(message);
          return send(message);
        };
        return session;
      },
    };
    const worker = await startWhatsAppWorker({ consumeQueue: false, driver: counting });
    extraWorkers.push(worker);
    const id = await connectedIn(worker);
    const { ticketId, wireId, providerId } = await answered(id, 'Preço: R$ 10');
    const edited = await api(t.adminToken).post(`/messages/edit/${wireId}`, { body: 'Preço: R$ 12' });
    expect(edited.status).toBe(200);
    await receivedOne(id, providerId, (r) => r.edited === true && r.body === 'Preço: R$ 12');
    const edits = () => sends.filter((m) => m.content.type === 'edit');
    expect(edits()).toHaveLength(1);
    expect(edits()[0]!.content).toEqual({ type: 'edit', targetProviderMessageId: providerId, body: 'Preço: R$ 12' });

    // SQS delivers the job again after the holder carried it out: the outbox gets it again, nothing goes out.
    const stored = (await getMessage(t.company.id, ticketId, wireId.split('-')[1]!))!;
    const job: OutboundChange = {
      kind: 'edit',
      companyId: t.company.id,
      whatsappId: id,
      channel: 'whatsapp',
      ticketId,
      messageId: wireId,
      chatId: (await getTicket(t.company.id, ticketId))!.chatId!,
      providerMessageId: providerId,
      changedAt: stored.editedAt!,
      requestedAt: new Date().toISOString(),
    };
    const record = {
      messageId: randomUUID(),
      body: JSON.stringify(job),
      attributes: { MessageGroupId: `${id}:${job.chatId}`, ApproximateReceiveCount: '2' },
    } as unknown as SQSRecord;
    expect(await outboundHandler({ Records: [record] })).toEqual({ batchItemFailures: [] });
    await waitFor(
      () => listOutbox(t.company.id, id),
      (items) => items.length === 0,
      { what: 'the outbox to drain' },
    );
    expect(edits()).toHaveLength(1);
  });
});
