import { beforeAll, describe, expect, it } from 'vitest';
import type { SimulatorReceivedPage } from '../../functions/contracts/simulator';
import { getConnection } from '../../functions/data/connection-repository';
import { getProviderRef } from '../../functions/data/message-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { setTickCheckpoint } from '../../functions/data/tick-repository';
import { getTicket, type Ticket } from '../../functions/data/ticket-repository';
import { touchPresence } from '../../functions/data/user-presence-repository';
import { createUser, type User } from '../../functions/data/user-repository';
import { SHARED_READS } from '../../functions/jobs/inbound/handler';
import { runTicketTimers, TICK_NAME } from '../../functions/jobs/ticks/ticket-timers';
import { waitFor, waitForConnection } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';

/**
 * The ticket timers of routing (issue 13; decisions D95–D97) through the simulator: customers write from
 * the simulated phone, the real inbound pipeline makes their tickets, and time is driven by calling the
 * minute tick with a `now` in the future. What is checked is what people see: the ticket (status, queue,
 * attendant) and its log through the API, and the messages on the customer's phone.
 */
let t: TestCompany;
let whatsappId: number;
let sales: number;
let support: number;

const suffix = () => String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
const customerNumber = () => `55119${suffix()}`;
const minutesFromNow = (m: number) => new Date(Date.now() + m * 60_000);

/**
 * The minute tick at `now`. Arrange: its checkpoint as if it last ran a minute ago, so it reads every due
 * bucket from the present (where writes arm timers) up to `now`.
 */
const tickAt = async (now: Date) => {
  await setTickCheckpoint(TICK_NAME, new Date(Date.now() - 60_000).toISOString().slice(0, 16));
  return runTicketTimers(now);
};

const connectedConnection = async (name: string): Promise<number> => {
  const created = await api(t.adminToken).post('/whatsapp', { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  await waitForConnection(t.company.id, id, (c) => c?.status === 'qrcode', { timeoutMs: 40_000 });
  const deadline = Date.now() + 90_000; // a busy machine may fence the worker a few times first
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
 * Change the connection. The inbound job may reuse what it read of a connection for up to
 * SHARED_READS.configMs (decisions D67), so the next customer message is sent only after that bound: a
 * customer writing in the same second may still meet the old greeting, as in production.
 */
const configure = async (fields: Record<string, unknown>) => {
  const res = await api(t.adminToken).put(`/whatsapp/${whatsappId}`, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, SHARED_READS.configMs + 100));
};

/** The customer writes from the simulated phone; answers their ticket once the message is stored. */
const customerWrites = async (number: string, body: string): Promise<Ticket> => {
  const res = await api(t.adminToken).post(`/simulator/${whatsappId}/messages`, { number, name: 'Cliente', body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const ref = await waitFor(
    () => getProviderRef(t.company.id, whatsappId, res.body.providerMessageId as string),
    (r) => r !== null,
    { what: `the customer's "${body}" stored`, timeoutMs: 40_000 },
  );
  return (await getTicket(t.company.id, ref!.ticketId))!;
};

/** What the customer's phone received, oldest first. */
const received = async (number: string): Promise<string[]> => {
  const res = await api(t.adminToken).get(`/simulator/${whatsappId}/messages`, { number });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as SimulatorReceivedPage).messages.map((m) => m.body ?? '');
};

const ticketSeen = async (ticket: Pick<Ticket, 'uuid'>) => {
  const res = await api(t.adminToken).get(`/tickets/u/${ticket.uuid}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { status: string; queueId: number | null; userId: number | null; isBot: boolean };
};

const logTypes = async (id: number): Promise<string[]> => {
  const res = await api(t.adminToken).get(`/tickets-log/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { type: string }[]).map((e) => e.type);
};

beforeAll(async () => {
  t = await freshCompany();
  sales = (await createQueue(t.company.id, { name: 'Vendas', color: '#1a2b3c' })).id;
  support = (await createQueue(t.company.id, { name: 'Suporte', color: '#3c2b1a' })).id;
  whatsappId = await connectedConnection('Timers');
}, 150_000);

// Each step waits on the local cloud (inbound job, worker, simulator): generous on a shared, busy machine.
describe('the ticket timers of routing', { timeout: 180_000 }, () => {
  it('bot expiry: a customer who does not answer the queue menu within timeUseBotQueues leaves the bot and waits', async () => {
    await configure({ queueIds: [sales, support], greetingMessage: 'Olá! Escolha o setor:', timeUseBotQueues: 5 });
    const number = customerNumber();
    const ticket = await customerWrites(number, 'Oi');
    await waitFor(
      () => received(number),
      (bodies) => bodies.some((b) => b.startsWith('Olá! Escolha o setor:')),
      { what: 'the queue menu on the phone', timeoutMs: 40_000 },
    );
    expect(await ticketSeen(ticket)).toMatchObject({ status: 'pending', isBot: true });

    await tickAt(minutesFromNow(3));
    expect(await ticketSeen(ticket)).toMatchObject({ status: 'pending', isBot: true });

    await tickAt(minutesFromNow(6));
    expect(await ticketSeen(ticket)).toMatchObject({ status: 'pending', isBot: false, userId: null });
    expect((await getTicket(t.company.id, ticket.id))?.botStage ?? null).toBeNull();
    expect((await logTypes(ticket.id)).at(-1)).toBe('queue');
  });

  it('redirect: a pending ticket nobody accepted within timeSendQueue moves to sendIdQueue, once', async () => {
    await configure({ queueIds: [sales], timeUseBotQueues: 0, sendIdQueue: support, timeSendQueue: 10 });
    const ticket = await customerWrites(customerNumber(), 'Quero comprar');
    expect(await ticketSeen(ticket)).toMatchObject({ status: 'pending', queueId: sales });

    await tickAt(minutesFromNow(5));
    expect((await ticketSeen(ticket)).queueId).toBe(sales);

    // Two ticks at once (a redelivery, two instances): the ticket moves once.
    await Promise.all([tickAt(minutesFromNow(11)), tickAt(minutesFromNow(11))]);
    expect(await ticketSeen(ticket)).toMatchObject({ status: 'pending', queueId: support, userId: null });
    await tickAt(minutesFromNow(30));
    expect((await ticketSeen(ticket)).queueId).toBe(support);
    expect((await logTypes(ticket.id)).filter((type) => type === 'redirect')).toHaveLength(1);
  });

  it('a person accepting stops the automation: an accepted ticket is not redirected', async () => {
    const ticket = await customerWrites(customerNumber(), 'Preciso de ajuda');
    const accepted = await api(t.adminToken).put(`/tickets/${ticket.id}`, { status: 'open', userId: t.admin.id });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    await tickAt(minutesFromNow(15));
    expect(await ticketSeen(ticket)).toMatchObject({ status: 'open', queueId: sales, userId: t.admin.id });
    expect(await logTypes(ticket.id)).not.toContain('redirect');
  });

  it('inactivity: the notice once after timeInactiveMessage, then the closing text and the close after expiresTicket', async () => {
    await configure({
      queueIds: [sales],
      greetingMessage: '',
      sendIdQueue: null,
      timeSendQueue: 0,
      timeInactiveMessage: 5,
      inactiveMessage: 'Ainda está por aí?',
      expiresTicket: 15,
      whenExpiresTicket: '0',
      expiresInactiveMessage: 'Encerramos o atendimento por inatividade.',
    });
    const number = customerNumber();
    const ticket = await customerWrites(number, 'Boa tarde');
    expect((await api(t.adminToken).put(`/tickets/${ticket.id}`, { status: 'open', userId: t.admin.id })).status).toBe(
      200,
    );
    const reply = await api(t.adminToken).post(`/messages/${ticket.id}`, { body: 'Como posso ajudar?' });
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    await waitFor(
      () => received(number),
      (bodies) => bodies.includes('Como posso ajudar?'),
      { what: 'the reply on the phone', timeoutMs: 40_000 },
    );

    await tickAt(minutesFromNow(3));
    // Twice at once: the notice goes out once.
    await Promise.all([tickAt(minutesFromNow(6)), tickAt(minutesFromNow(6))]);
    await waitFor(
      () => received(number),
      (bodies) => bodies.includes('Ainda está por aí?'),
      { what: 'the inactivity notice on the phone', timeoutMs: 40_000 },
    );
    expect((await ticketSeen(ticket)).status).toBe('open');

    await tickAt(minutesFromNow(23));
    expect((await ticketSeen(ticket)).status).toBe('closed');
    expect((await logTypes(ticket.id)).at(-1)).toBe('closed');
    // The closing text arrives after the notice: the phone shows each once, in order.
    const bodies = await waitFor(
      () => received(number),
      (all) => all.includes('Encerramos o atendimento por inatividade.'),
      { what: 'the closing text on the phone', timeoutMs: 40_000 },
    );
    expect(bodies).toEqual(['Como posso ajudar?', 'Ainda está por aí?', 'Encerramos o atendimento por inatividade.']);
  });

  it('rotation: pending tickets go round-robin only to online attendants inside their hours; a taken one is left alone', async () => {
    const rot = (
      await createQueue(t.company.id, {
        name: 'Rodízio',
        color: '#5e5e5e',
        ativarRoteador: true,
        tempoRoteador: 2,
      })
    ).id;
    await configure({ queueIds: [rot], timeInactiveMessage: 0, inactiveMessage: '', expiresTicket: 0 });
    const when = minutesFromNow(3);
    const localHour = (when.getUTCHours() + 21) % 24; // São Paulo, the company's default zone (UTC−3)
    const hh = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
    const member = (name: string, hours: { startWork?: string; endWork?: string } = {}): Promise<User> =>
      createUser(t.company.id, {
        name,
        email: `${name.toLowerCase()}-${suffix()}@test.local`,
        passwordHash: 'x',
        profile: 'user',
        queueIds: [rot],
        ...hours,
      });
    const ana = await member('Ana');
    const bia = await member('Bia');
    const offline = await member('Caio');
    const offHours = await member('Davi', { startWork: hh(localHour + 2), endWork: hh(localHour + 4) });
    for (const u of [ana, bia, offHours]) await touchPresence(t.company.id, u.id, when);

    const first = await customerWrites(customerNumber(), 'Oi, rodízio 1');
    const second = await customerWrites(customerNumber(), 'Oi, rodízio 2');
    const taken = await customerWrites(customerNumber(), 'Oi, rodízio 3');
    expect((await api(t.adminToken).put(`/tickets/${taken.id}`, { status: 'open', userId: t.admin.id })).status).toBe(
      200,
    );
    for (const ticket of [first, second]) expect((await ticketSeen(ticket)).status).toBe('pending');

    // The first tick arms the queue's rotation from the tickets' arrival; the next runs it.
    await tickAt(when);
    await tickAt(new Date(when.getTime() + 30_000));
    const handed = [await ticketSeen(first), await ticketSeen(second)];
    expect(handed.map((h) => h.status)).toEqual(['open', 'open']);
    expect(handed.map((h) => h.userId).sort()).toEqual([ana.id, bia.id].sort());
    expect(handed.map((h) => h.userId)).not.toContain(offline.id);
    expect(handed.map((h) => h.userId)).not.toContain(offHours.id);
    expect((await logTypes(first.id)).at(-1)).toBe('open');
    expect(await ticketSeen(taken)).toMatchObject({ status: 'open', userId: t.admin.id });
  });
});
