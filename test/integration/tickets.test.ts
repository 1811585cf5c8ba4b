import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { getConnection, updateConnection } from '../../functions/data/connection-repository';
import { createContact, type Contact } from '../../functions/data/contact-repository';
import { listTicketMessages } from '../../functions/data/message-repository';
import { createQueue, type Queue } from '../../functions/data/queue-repository';
import { setCompanySetting } from '../../functions/data/settings-repository';
import { createTicket, getOpenTicketId, getTicket, type Ticket } from '../../functions/data/ticket-repository';
import { createUser, type User } from '../../functions/data/user-repository';
import { eventsUntil, someConnection, type SocketEvent } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

/**
 * The tickets API (issue 5 item 1; core §4 transitions, §6 permissions, §7 Tickets): lists by tab and
 * visibility, the transitions of PUT /tickets/{id}, new tickets and their conflicts, delete, close-all,
 * the log — through the gateway, against DynamoDB Local, with the sockets that watch.
 */
let t: TestCompany;
let vendas: Queue;
let suporte: Queue;
let whatsappId: number;
/** Attendants: ana and caio in Vendas, bia in Suporte. */
let ana: { user: User; token: string };
let caio: { user: User; token: string };
let bia: { user: User; token: string };

const person = async (name: string, queueIds: number[], extra: Partial<User> = {}) => {
  const user = await createUser(t.company.id, {
    name,
    email: `${randomUUID()}@test.local`,
    passwordHash: 'x',
    profile: 'user',
    queueIds,
    ...extra,
  });
  const token = await signAccessToken({ companyId: t.company.id, userId: user.id, profile: 'user', super: false });
  return { user, token };
};

const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

const contact = async (name = `Cliente ${randomUUID().slice(0, 6)}`): Promise<Contact> => {
  const number = phone();
  return createContact(t.company.id, { name, number, isGroup: false, channel: 'whatsapp', whatsappId }, [
    `wa#${number}`,
  ]);
};

/** A ticket as the inbound pipeline makes it: pending in a queue, nobody assigned. */
const pending = async (queue: Queue | null = vendas, who?: Contact): Promise<Ticket> => {
  const c = who ?? (await contact());
  return createTicket(t.company.id, {
    status: 'pending',
    queueId: queue?.id ?? null,
    userId: null,
    contactId: c.id,
    whatsappId,
    channel: 'whatsapp',
    isGroup: false,
    chatId: `${c.number}@s.whatsapp.net`,
    origin: 'passive',
  });
};

const ids = (body: { tickets: { id: number }[] }) => body.tickets.map((x) => x.id);
const list = (token: string, query: Record<string, string>) => api(token).get('/tickets', query);

beforeAll(async () => {
  t = await freshCompany();
  vendas = await createQueue(t.company.id, { name: 'Vendas', color: '#1f77b4' });
  suporte = await createQueue(t.company.id, { name: 'Suporte', color: '#ff7f0e' });
  const connection = await someConnection(t.company.id, { status: 'CONNECTED' });
  whatsappId = connection.id;
  ana = await person('Ana', [vendas.id]);
  caio = await person('Caio', [vendas.id]);
  bia = await person('Bia', [suporte.id]);
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

describe('GET /tickets: tabs by visibility', () => {
  it('shows pending tickets of the caller’s queues, every queue to admins, with exact counts', async () => {
    const inVendas = await pending(vendas);
    const inSuporte = await pending(suporte);
    const noQueue = await pending(null);

    const forAna = await list(ana.token, { status: 'pending' });
    expect(forAna.status, JSON.stringify(forAna.body)).toBe(200);
    expect(ids(forAna.body)).toContain(inVendas.id);
    expect(ids(forAna.body)).not.toContain(inSuporte.id);
    expect(ids(forAna.body)).not.toContain(noQueue.id);
    expect(forAna.body.count).toBe(forAna.body.tickets.length);
    expect(forAna.body.countIsExact).toBe(true);

    const forBia = await list(bia.token, { status: 'pending' });
    expect(ids(forBia.body)).toContain(inSuporte.id);
    expect(ids(forBia.body)).not.toContain(inVendas.id);

    const forAdmin = await list(t.adminToken, { status: 'pending' });
    expect(ids(forAdmin.body)).toEqual(expect.arrayContaining([inVendas.id, inSuporte.id, noQueue.id]));

    // A ticket without a queue needs allTicket.
    const withAllTicket = await person('Duda', [vendas.id], { allTicket: 'enable' } as Partial<User>);
    expect(ids((await list(withAllTicket.token, { status: 'pending' })).body)).toContain(noQueue.id);
  });

  it('answers the ticket with the spec’s wire fields, newest first, and the queue selector narrows', async () => {
    const older = await pending(vendas);
    const newer = await pending(vendas);
    const res = await list(t.adminToken, { status: 'pending', queueIds: JSON.stringify([vendas.id]) });
    const order = ids(res.body);
    expect(order.indexOf(newer.id)).toBeLessThan(order.indexOf(older.id));
    // Tickets without a queue stay in sight (they wait for someone to give them one).
    expect(res.body.tickets.every((x: Ticket) => x.queueId === vendas.id || x.queueId === null)).toBe(true);
    expect(res.body.tickets.some((x: Ticket) => x.queueId === suporte.id)).toBe(false);
    const row = res.body.tickets.find((x: { id: number }) => x.id === newer.id);
    expect(row).toMatchObject({
      id: newer.id,
      uuid: newer.uuid,
      status: 'pending',
      queue: { id: vendas.id, name: 'Vendas', color: '#1f77b4' },
      whatsapp: { id: whatsappId },
      user: null,
      contact: { id: newer.contactId },
      unreadMessages: 0,
    });
    expect(row).not.toHaveProperty('version');
    expect(row).not.toHaveProperty('chatId');
    const asc = await list(t.adminToken, { status: 'pending', sortTickets: 'ASC', queueIds: `[${vendas.id}]` });
    const ascOrder = ids(asc.body);
    expect(ascOrder.indexOf(older.id)).toBeLessThan(ascOrder.indexOf(newer.id));
  });

  it('pages by cursor without repeats; pageNumber reaches the same page', async () => {
    const queue = await createQueue(t.company.id, { name: `Lote ${randomUUID().slice(0, 4)}`, color: '#2ca02c' });
    const made: number[] = [];
    for (let i = 0; i < 45; i += 1) made.push((await pending(queue)).id);
    const member = await person('Lia', [queue.id]);
    const query = { status: 'pending', queueIds: `[${queue.id}]` };
    const first = await list(member.token, query);
    expect(first.body.tickets).toHaveLength(40);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.count).toBe(45);
    const second = await list(member.token, { ...query, cursor: first.body.nextCursor });
    expect(second.body.tickets).toHaveLength(5);
    expect(second.body.hasMore).toBe(false);
    expect(new Set([...ids(first.body), ...ids(second.body)])).toEqual(new Set(made));
    const byNumber = await list(member.token, { ...query, pageNumber: '2' });
    expect(ids(byNumber.body)).toEqual(ids(second.body));
  });

  it('rejects bad filters with the field and reason', async () => {
    const res = await list(ana.token, { status: 'talvez', queueIds: 'não-json' });
    expect(res.status).toBe(400);
    const fields = (res.body.fields as { field: string }[]).map((f) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['query.status', 'query.queueIds']));
  });
});

describe('PUT /tickets/{id}: transitions', () => {
  it('accept: the attendant takes a pending ticket; it leaves Aguardando and joins their Atendendo', async () => {
    const ticket = await pending(vendas);
    const res = await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'open', userId: ana.user.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: ticket.id, status: 'open', userId: ana.user.id, user: { name: 'Ana' } });
    expect(ids((await list(ana.token, { status: 'open' })).body)).toContain(ticket.id);
    expect(ids((await list(ana.token, { status: 'pending' })).body)).not.toContain(ticket.id);
    // Caio (same queue, no allUserChat) does not see Ana's conversation.
    expect((await api(caio.token).get(`/tickets/u/${ticket.uuid}`)).status).toBe(403);
  });

  it('two attendants accepting at once: exactly one wins, the other is told who has it', async () => {
    const ticket = await pending(vendas);
    const [a, c] = await Promise.all([
      api(ana.token).put(`/tickets/${ticket.id}`, { status: 'open', userId: ana.user.id }),
      api(caio.token).put(`/tickets/${ticket.id}`, { status: 'open', userId: caio.user.id }),
    ]);
    const statuses = [a.status, c.status].sort();
    expect(statuses).toEqual([200, 409]);
    const winner = a.status === 200 ? ana : caio;
    const loser = a.status === 200 ? c : a;
    expect(loser.body).toMatchObject({
      error: 'ERR_OTHER_OPEN_TICKET',
      details: {
        userId: winner.user.id,
        user: { name: winner.user.name },
        queue: { name: 'Vendas' },
        uuid: ticket.uuid,
      },
    });
    expect((await getTicket(t.company.id, ticket.id))?.userId).toBe(winner.user.id);
  });

  it('accept without a queue asks for one (Selecione uma fila); with one it moves the ticket there', async () => {
    const ticket = await pending(null);
    const refused = await api(t.adminToken).put(`/tickets/${ticket.id}`, { status: 'open' });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual([{ field: 'body.queueId', reason: 'Selecione uma fila' }]);
    expect((await getTicket(t.company.id, ticket.id))?.status).toBe('pending');
    const ok = await api(t.adminToken).put(`/tickets/${ticket.id}`, { status: 'open', queueId: suporte.id });
    expect(ok.body).toMatchObject({ status: 'open', queueId: suporte.id, userId: t.admin.id });
  });

  it('return to queue clears the attendant; resolving with farewell sends the goodbye and frees the contact', async () => {
    await updateConnection((await getConnection(t.company.id, whatsappId))!, {
      complationMessage: 'Obrigado pelo contato!',
    });
    const ticket = await pending(vendas);
    await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'open' });
    const back = await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'pending', userId: null });
    expect(back.body).toMatchObject({ status: 'pending', userId: null, user: null });
    await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'open' });
    const closed = await api(ana.token).put(`/tickets/${ticket.id}`, {
      status: 'closed',
      userId: ana.user.id,
      sendFarewellMessage: true,
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.status).toBe('closed');
    const messages = await listTicketMessages(t.company.id, ticket.id);
    expect(messages.map((m) => [m.body, m.fromMe, m.userId])).toContainEqual([
      'Obrigado pelo contato!',
      true,
      ana.user.id,
    ]);
    expect(await getOpenTicketId(t.company.id, ticket.contactId, whatsappId)).toBeNull();
    expect(ids((await list(ana.token, { status: 'closed' })).body)).toContain(ticket.id);
  });

  it('requiredTag: resolving a ticket whose contact has no tag is refused and changes nothing', async () => {
    await setCompanySetting(t.company.id, 'requiredTag', 'enabled');
    try {
      const ticket = await pending(vendas);
      await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'open' });
      const res = await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'closed' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: 'ERR_REQUIRED_TAG',
        message: 'Você deve atribuir uma tag antes de fechar o ticket.',
      });
      expect((await getTicket(t.company.id, ticket.id))?.status).toBe('open');
    } finally {
      await setCompanySetting(t.company.id, 'requiredTag', 'disabled');
    }
  });

  it('ignore (close a pending ticket) needs admin or userClosePendingTicket', async () => {
    const strict = await person('Edu', [vendas.id], { userClosePendingTicket: 'disabled' } as Partial<User>);
    const ticket = await pending(vendas);
    const refused = await api(strict.token).put(`/tickets/${ticket.id}`, {
      status: 'closed',
      sendFarewellMessage: false,
      amountUsedBotQueues: 0,
    });
    expect(refused.status).toBe(403);
    expect((await getTicket(t.company.id, ticket.id))?.status).toBe('pending');
    const ok = await api(ana.token).put(`/tickets/${ticket.id}`, {
      status: 'closed',
      sendFarewellMessage: false,
      amountUsedBotQueues: 0,
    });
    expect(ok.body.status).toBe('closed');
  });

  it('reopen: a closed ticket opens again for the caller, unless the contact has another one open', async () => {
    const who = await contact();
    const ticket = await pending(vendas, who);
    await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'open' });
    await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'closed' });
    const reopened = await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'open', userId: ana.user.id });
    expect(reopened.body).toMatchObject({ status: 'open', userId: ana.user.id });
    await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'closed' });
    const newer = await pending(vendas, who);
    const refused = await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'open' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', details: { uuid: newer.uuid } });
    expect((await getTicket(t.company.id, ticket.id))?.status).toBe('closed');
  });

  it('transfer to another queue: pending there, a private note with the reason, the old holder loses it live', async () => {
    const ticket = await pending(vendas);
    await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'open' });
    const socket = await connectSocket(`${inject('wsUrl')}?token=${ana.token}`);
    const res = await api(ana.token).put(`/tickets/${ticket.id}`, {
      queueId: suporte.id,
      userId: null,
      msgTransfer: 'Cliente quer falar de garantia',
      isTransfered: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'pending', queueId: suporte.id, userId: null });
    const events = await eventsUntil(
      socket,
      (e: SocketEvent) => e.channel === `company-${t.company.id}-ticket` && e.action === 'delete',
    );
    expect(events.at(-1)).toMatchObject({ ticketId: ticket.id });
    const note = (await listTicketMessages(t.company.id, ticket.id)).find((m) => m.isPrivate);
    expect(note).toMatchObject({ body: 'Cliente quer falar de garantia', fromMe: true, userId: ana.user.id });
    expect(ids((await list(bia.token, { status: 'pending' })).body)).toContain(ticket.id);
    expect((await api(ana.token).get(`/tickets/u/${ticket.uuid}`)).status).toBe(403);

    const log = await api(bia.token).get(`/tickets-log/${ticket.id}`);
    expect(log.body.map((e: { type: string }) => e.type)).toEqual(['create', 'open', 'transfered', 'queue']);
    expect(log.body[2]).toMatchObject({ user: { id: ana.user.id, name: 'Ana' }, queue: { name: 'Vendas' } });
  });

  it('transfer without a queue is refused; a bad status is a 400; neither writes', async () => {
    const ticket = await pending(vendas);
    await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'open' });
    const before = await getTicket(t.company.id, ticket.id);
    const noQueue = await api(ana.token).put(`/tickets/${ticket.id}`, { queueId: null, isTransfered: true });
    expect(noQueue.status).toBe(400);
    expect(noQueue.body.fields).toEqual([{ field: 'body.queueId', reason: 'Selecione uma fila' }]);
    const bad = await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'talvez', userId: 'eu' });
    expect(bad.status).toBe(400);
    expect((bad.body.fields as { field: string }[]).map((f) => f.field).sort()).toEqual(['body.status', 'body.userId']);
    expect(await getTicket(t.company.id, ticket.id)).toEqual(before);
  });
});

describe('POST /tickets', () => {
  it('opens a ticket for a contact; another attendant gets ERR_OTHER_OPEN_TICKET naming the holder', async () => {
    const who = await contact('Marina Alves');
    const made = await api(ana.token).post('/tickets', {
      contactId: who.id,
      queueId: vendas.id,
      whatsappId,
      userId: ana.user.id,
      status: 'open',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      status: 'open',
      userId: ana.user.id,
      queueId: vendas.id,
      contact: { id: who.id },
    });
    const again = await api(ana.token).post('/tickets', { contactId: who.id, queueId: vendas.id, whatsappId });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.uuid).toBe(made.body.uuid);
    const other = await api(caio.token).post('/tickets', { contactId: who.id, queueId: vendas.id, whatsappId });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({
      error: 'ERR_OTHER_OPEN_TICKET',
      details: {
        userId: ana.user.id,
        user: { name: 'Ana' },
        queue: { name: 'Vendas' },
        uuid: made.body.uuid,
        status: 'open',
      },
    });
  });

  it('parallel new tickets for one contact make one ticket', async () => {
    const who = await contact();
    const answers = await Promise.all(
      [ana, caio].map((p) => api(p.token).post('/tickets', { contactId: who.id, queueId: vendas.id, whatsappId })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const open = await getOpenTicketId(t.company.id, who.id, whatsappId);
    expect(answers.find((a) => a.status === 201)?.body.id).toBe(open);
  });

  it('needs a queue, a live unblocked contact of the company, and a queue the attendant belongs to', async () => {
    const who = await contact();
    const noQueue = await api(ana.token).post('/tickets', { contactId: who.id, whatsappId });
    expect(noQueue.body.fields).toEqual([{ field: 'body.queueId', reason: 'Selecione uma fila' }]);
    const otherQueue = await api(ana.token).post('/tickets', { contactId: who.id, queueId: suporte.id, whatsappId });
    expect(otherQueue.status).toBe(403);
    const missing = await api(ana.token).post('/tickets', { contactId: 99_999_999, queueId: vendas.id });
    expect(missing).toMatchObject({ status: 404, body: { error: 'ERR_NO_CONTACT_FOUND' } });
    await api(t.adminToken).put(`/contacts/block/${who.id}`, { active: false });
    const blocked = await api(ana.token).post('/tickets', { contactId: who.id, queueId: vendas.id, whatsappId });
    expect(blocked).toMatchObject({ status: 400, body: { error: 'ERR_CONTACT_BLOCKED' } });
    expect(await getOpenTicketId(t.company.id, who.id, whatsappId)).toBeNull();
  });
});

describe('one ticket: show, search, delete, close all, log', () => {
  it('GET /tickets/u/{uuid}: visible ones only; another company’s is a 404 like a missing one; access is logged once', async () => {
    const ticket = await pending(vendas);
    const res = await api(ana.token).get(`/tickets/u/${ticket.uuid}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ticket.id, uuid: ticket.uuid });
    await api(ana.token).get(`/tickets/u/${ticket.uuid}`);
    expect((await api(bia.token).get(`/tickets/u/${ticket.uuid}`)).status).toBe(403);
    const outsider = await freshCompany();
    const foreign = await api(outsider.adminToken).get(`/tickets/u/${ticket.uuid}`);
    const missing = await api(outsider.adminToken).get(`/tickets/u/${randomUUID()}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    const log = await api(t.adminToken).get(`/tickets-log/${ticket.id}`);
    expect(log.body.filter((e: { type: string }) => e.type === 'access')).toHaveLength(1);
  });

  it('search finds tickets by contact name, number and ticket number, within visibility', async () => {
    const who = await contact('Zuleica Ferraz');
    const ticket = await pending(vendas, who);
    const hidden = await pending(suporte, await contact('Zuleica Souto'));
    const byName = await list(ana.token, { searchParam: 'zulei', statusFilter: '["pending"]' });
    expect(ids(byName.body)).toContain(ticket.id);
    expect(ids(byName.body)).not.toContain(hidden.id);
    const byNumber = await list(ana.token, { searchParam: who.number.slice(0, 9) });
    expect(ids(byNumber.body)).toContain(ticket.id);
    const byId = await list(t.adminToken, { searchParam: String(hidden.id) });
    expect(ids(byId.body)).toContain(hidden.id);
  });

  it('searchOnMessages finds tickets by words of their messages (every word, the last one as typed), nothing else does', async () => {
    const ticket = await pending(vendas, await contact('Otávio Prado'));
    await api(ana.token).put(`/tickets/${ticket.id}`, { status: 'open' });
    const sent = await api(ana.token).post(`/messages/${ticket.id}`, { body: 'O boleto do Pedido vence amanhã' });
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    const search = (searchParam: string, token = ana.token) =>
      list(token, { searchParam, searchOnMessages: 'true', statusFilter: '["open"]' });
    expect(ids((await search('boleto')).body)).toContain(ticket.id);
    expect(ids((await search('pedido amanh')).body)).toContain(ticket.id);
    expect(ids((await search('boleto pix')).body)).not.toContain(ticket.id);
    expect(ids((await list(ana.token, { searchParam: 'boleto', statusFilter: '["open"]' })).body)).not.toContain(
      ticket.id,
    );
    // Bia may not see Ana's ticket, and another company never finds it.
    expect(ids((await search('boleto', bia.token)).body)).not.toContain(ticket.id);
    const outsider = await freshCompany();
    expect((await search('boleto', outsider.adminToken)).body.tickets).toEqual([]);
  });

  it('DELETE is for admins; the ticket, its guard and messages are gone', async () => {
    const ticket = await pending(vendas);
    expect((await api(ana.token).delete(`/tickets/${ticket.id}`)).status).toBe(403);
    const res = await api(t.adminToken).delete(`/tickets/${ticket.id}`);
    expect(res.status).toBe(200);
    expect(await getTicket(t.company.id, ticket.id)).toBeNull();
    expect(await getOpenTicketId(t.company.id, ticket.contactId, whatsappId)).toBeNull();
    expect((await api(t.adminToken).get(`/tickets/u/${ticket.uuid}`)).status).toBe(404);
  });

  it('close-all closes the pending tickets of the selected queues only', async () => {
    const queue = await createQueue(t.company.id, { name: `Fechar ${randomUUID().slice(0, 4)}`, color: '#9467bd' });
    const inQueue = [await pending(queue), await pending(queue)];
    const elsewhere = await pending(suporte);
    expect((await api(ana.token).post('/tickets/closeAll', { status: 'pending' })).status).toBe(403);
    const res = await api(t.adminToken).post('/tickets/closeAll', { status: 'pending', selectedQueueIds: [queue.id] });
    expect(res.body).toEqual({ closed: 2, hasMore: false });
    for (const x of inQueue) expect((await getTicket(t.company.id, x.id))?.status).toBe('closed');
    expect((await getTicket(t.company.id, elsewhere.id))?.status).toBe('pending');
    const member = await person('Rui', [queue.id]);
    const counts = await list(member.token, { status: 'pending', queueIds: `[${queue.id}]` });
    expect(counts.body.count).toBe(0);
  });

  it('close-all on the Grupos tab closes the group tickets of the selected queues and those without a queue', async () => {
    const queue = await createQueue(t.company.id, { name: `Grupos ${randomUUID().slice(0, 4)}`, color: '#8c564b' });
    const group = async (queueId: number | null) => {
      const id = `1203630${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
      const c = await createContact(
        t.company.id,
        { name: `Grupo ${id.slice(-4)}`, number: id, isGroup: true, channel: 'whatsapp', whatsappId },
        [`wa#g:${id}`],
      );
      return createTicket(t.company.id, {
        status: 'group',
        queueId,
        userId: null,
        contactId: c.id,
        whatsappId,
        channel: 'whatsapp',
        isGroup: true,
        chatId: `${id}@g.us`,
        origin: 'passive',
      });
    };
    const inQueue = await group(queue.id);
    const noQueue = await group(null);
    const elsewhere = await group(suporte.id);
    const open = await pending(queue);

    const res = await api(t.adminToken).post('/tickets/closeAll', { status: 'group', selectedQueueIds: [queue.id] });

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ closed: 2, hasMore: false });
    expect((await getTicket(t.company.id, inQueue.id))?.status).toBe('closed');
    expect((await getTicket(t.company.id, noQueue.id))?.status).toBe('closed');
    expect((await getTicket(t.company.id, elsewhere.id))?.status).toBe('group');
    expect((await getTicket(t.company.id, open.id))?.status).toBe('pending');
    expect((await api(t.adminToken).post('/tickets/closeAll', { status: 'closed' })).status).toBe(400);
  });
});

describe('GET /queue: the queues the dialogs offer', () => {
  it('lists the company’s queues to any signed-in user; another company’s queue is a 404', async () => {
    const res = await api(bia.token).get('/queue');
    expect(res.status).toBe(200);
    expect(res.body.map((q: { name: string }) => q.name)).toEqual(expect.arrayContaining(['Vendas', 'Suporte']));
    expect(res.body[0]).toMatchObject({ id: expect.any(Number), name: expect.any(String), color: expect.any(String) });
    expect(res.body[0]).not.toHaveProperty('companyId');
    expect((await api(bia.token).get(`/queue/${vendas.id}`)).body).toMatchObject({ id: vendas.id, name: 'Vendas' });
    const outsider = await freshCompany();
    expect((await api(outsider.adminToken).get(`/queue/${vendas.id}`)).status).toBe(404);
  });
});
