import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { nextId } from '../../functions/data/counter-repository';
import { createPlan } from '../../functions/data/plan-repository';
import { getQueue, listQueues } from '../../functions/data/queue-repository';
import { setCompanySetting } from '../../functions/data/settings-repository';
import { createContact } from '../../functions/data/contact-repository';
import { getConnection, updateConnection } from '../../functions/data/connection-repository';
import { createTicket, getTicket, listTicketLog } from '../../functions/data/ticket-repository';
import { getUser, updateUser } from '../../functions/data/user-repository';
import { eventsUntil, someConnection, waitFor } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

/** Queues and their chatbot trees (admin spec §2 Queues, §3, §5, §7; decisions D89) through the gateway. */
let t: TestCompany;
let other: TestCompany;
beforeAll(async () => {
  [t, other] = await Promise.all([freshCompany(), freshCompany()]);
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const color = () =>
  `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')}`;
const newQueue = (token: string, body: Record<string, unknown> = {}) =>
  api(token).post('/queue', { name: `Fila ${Math.random().toString(36).slice(2, 7)}`, color: color(), ...body });

describe('queues: create, read, edit', () => {
  it('creates a queue with the spec defaults and answers it to admins whole, to attendants without the bot', async () => {
    const res = await newQueue(t.adminToken, {
      name: ' Vendas ',
      orderQueue: 1,
      greetingMessage: 'Bem-vindo às vendas',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: 'Vendas',
      orderQueue: 1,
      greetingMessage: 'Bem-vindo às vendas',
      outOfHoursMessage: '',
      closeTicket: false,
      ativarRoteador: false,
      tempoRoteador: 0,
      integrationId: null,
      fileListId: null,
      schedules: [],
      chatbots: [],
    });
    expect((await api(t.adminToken).get(`/queue/${res.body.id}`)).body).toEqual(res.body);
    const seen = await api(t.attendantToken).get(`/queue/${res.body.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body).not.toHaveProperty('chatbots');
    expect(seen.body.name).toBe('Vendas');
  });

  it('refuses bad input with the field and reason, and writes nothing', async () => {
    const before = (await listQueues(t.company.id)).length;
    for (const [body, field] of [
      [{ name: 'V', color: color() }, 'body.name'],
      [{ name: 'x'.repeat(51), color: color() }, 'body.name'],
      [{ name: 'Vendas 2', color: '#1' }, 'body.color'],
      [{ name: 'Vendas 2', color: '#1234567890' }, 'body.color'],
      [{ name: 'Vendas 2', color: color(), tempoRoteador: 7 }, 'body.tempoRoteador'],
      [
        {
          name: 'Vendas 2',
          color: color(),
          schedules: [
            {
              weekday: 'Segunda',
              weekdayEn: 'monday',
              startTimeA: '25:00',
              endTimeA: '',
              startTimeB: '',
              endTimeB: '',
            },
          ],
        },
        'body.schedules.0.startTimeA',
      ],
      [{ color: color() }, 'body.name'],
    ] as const) {
      const res = await api(t.adminToken).post('/queue', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect((await listQueues(t.company.id)).length).toBe(before);
  });

  it("a colour is one queue's in the company, in any spelling, and exactly one of two parallel creates gets it", async () => {
    const first = await newQueue(t.adminToken, { color: '#a1b2c3' });
    expect(first.status).toBe(201);
    const again = await newQueue(t.adminToken, { color: '#A1B2C3' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    // Another company may use it.
    expect((await newQueue(other.adminToken, { color: '#a1b2c3' })).status).toBe(201);

    const race = await Promise.all([
      newQueue(t.adminToken, { color: '#0f0' }),
      newQueue(t.adminToken, { color: '#00ff00' }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('a new colour frees the old one; edits answer the stored queue', async () => {
    const q = (await newQueue(t.adminToken, { color: '#123abc' })).body;
    const res = await api(t.adminToken).put(`/queue/${q.id}`, { color: '#abc123', greetingMessage: 'Olá' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: q.id, color: '#abc123', greetingMessage: 'Olá', name: q.name });
    expect((await newQueue(t.adminToken, { color: '#123abc' })).status).toBe(201);
    expect((await newQueue(t.adminToken, { color: '#abc123' })).status).toBe(409);
  });

  it('needs the out-of-hours message while the company checks hours per queue', async () => {
    const company = await freshCompany();
    await setCompanySetting(company.company.id, 'scheduleType', 'queue');
    const res = await newQueue(company.adminToken);
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ field: 'body.outOfHoursMessage', reason: expect.any(String) }]);
    expect((await newQueue(company.adminToken, { outOfHoursMessage: 'Voltamos às 8h' })).status).toBe(201);
  });

  it("stops at the plan's queue limit, also when admins create the last ones at the same moment", async () => {
    const plan = await createPlan({
      name: `Duas filas ${Math.random()}`,
      users: 5,
      connections: 1,
      queues: 2,
      amount: 10,
      isPublic: false,
      useWhatsapp: true,
      useFacebook: true,
      useInstagram: true,
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
    });
    const small = await freshCompany(undefined, { planId: plan.id });
    const results = await Promise.all([1, 2, 3, 4].map(() => newQueue(small.adminToken)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.body.error)).toEqual(['ERR_PLAN_LIMIT_QUEUES', 'ERR_PLAN_LIMIT_QUEUES']);
    expect(await listQueues(small.company.id)).toHaveLength(2);
  });

  it('attendants may read queues but not change them', async () => {
    expect((await newQueue(t.attendantToken)).status).toBe(403);
    const q = (await newQueue(t.adminToken)).body;
    expect((await api(t.attendantToken).put(`/queue/${q.id}`, { name: 'Outra' })).status).toBe(403);
    expect((await api(t.attendantToken).delete(`/queue/${q.id}`)).status).toBe(403);
  });

  it("announces creates, updates and deletes on company-{id}-queue to the company's sockets", async () => {
    const socket = await connectSocket(`${inject('wsUrl')}?token=${t.attendantToken}`);
    const q = (await newQueue(t.adminToken, { name: 'Eventos' })).body;
    await api(t.adminToken).put(`/queue/${q.id}`, { name: 'Eventos 2' });
    await api(t.adminToken).delete(`/queue/${q.id}`);
    const events = await eventsUntil(socket, (e) => e.action === 'delete' && e.queueId === q.id);
    const mine = events.filter((e) => e.channel === `company-${t.company.id}-queue`);
    expect(mine.map((e) => e.action)).toEqual(['create', 'update', 'delete']);
    expect((mine[1]!.queue as { name: string }).name).toBe('Eventos 2');
  });
});

describe('chatbot option trees', () => {
  const option = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    greetingMessage: `Mensagem de ${name}`,
    ...extra,
  });

  it('stores a nested tree with its targets, gives every option an id and keeps them on the next save', async () => {
    const target = (await newQueue(t.adminToken, { name: 'Financeiro alvo' })).body;
    const res = await newQueue(t.adminToken, {
      name: 'Atendimento',
      chatbots: [
        option('Vendas online', {
          options: [
            option('Pedidos novos', {
              options: [option('Falar com Ana', { queueType: 'attendent', optUserId: t.attendant.id })],
            }),
          ],
        }),
        option('Cobranças', { queueType: 'queue', optQueueId: target.id, closeTicket: false }),
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [sales, billing] = res.body.chatbots;
    expect(sales).toMatchObject({ name: 'Vendas online', queueType: 'text', id: expect.any(Number) });
    expect(sales.options[0].options[0]).toMatchObject({ queueType: 'attendent', optUserId: t.attendant.id });
    expect(billing).toMatchObject({ queueType: 'queue', optQueueId: target.id });

    // Saved again with a renamed option and a new one: ids of the old options stay.
    const next = await api(t.adminToken).put(`/queue/${res.body.id}`, {
      chatbots: [{ ...sales, name: 'Vendas pela loja' }, billing, option('Suporte técnico')],
    });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.chatbots.map((o: { id: number }) => o.id).slice(0, 2)).toEqual([sales.id, billing.id]);
    expect(next.body.chatbots[0].name).toBe('Vendas pela loja');
    expect(next.body.chatbots[2].id).not.toBe(sales.id);
  });

  it('refuses targets of another company, missing targets, a level without a bot message, and trees too deep', async () => {
    // Ids are per company: the other company's queue gets an id this company does not have.
    await nextId(other.company.id, 'queue', 1000);
    const foreign = (await newQueue(other.adminToken)).body;
    let deep: Record<string, unknown> = option('Nível seis');
    for (let i = 5; i >= 1; i -= 1) deep = option(`Nível ${i}`, { options: [deep] });
    for (const [chatbots, field] of [
      [[option('Outra empresa', { queueType: 'queue', optQueueId: foreign.id })], 'body.chatbots.0.optQueueId'],
      [[option('Sem destino', { queueType: 'attendent' })], 'body.chatbots.0.optUserId'],
      [[option('Sem arquivos', { queueType: 'file', optFileId: 1 })], 'body.chatbots.0.optFileId'],
      [[{ name: 'Sem mensagem', options: [option('Filho')] }], 'body.chatbots.0.greetingMessage'],
      [[option('abc')], 'body.chatbots.0.name'],
      [[deep], 'body.chatbots.0.options.0.options.0.options.0.options.0.options.0'],
    ] as const) {
      const res = await newQueue(t.adminToken, { chatbots });
      expect(res.status, JSON.stringify(chatbots)).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
  });

  it('edits options one at a time through /chatbot', async () => {
    const q = (await newQueue(t.adminToken, { chatbots: [option('Financeiro')] })).body;
    const root = q.chatbots[0];
    const child = await api(t.adminToken).post('/chatbot', {
      chatbotId: root.id,
      name: 'Segunda via',
      greetingMessage: 'Segue o boleto',
    });
    expect(child.status, JSON.stringify(child.body)).toBe(201);
    expect(child.body).toMatchObject({ queueId: q.id, name: 'Segunda via', id: expect.any(Number) });
    const top = await api(t.adminToken).post('/chatbot', { queueId: q.id, name: 'Comercial', greetingMessage: 'Olá' });
    expect(top.status).toBe(201);

    expect((await api(t.adminToken).put(`/chatbot/${child.body.id}`, { name: 'Boleto atualizado' })).body.name).toBe(
      'Boleto atualizado',
    );
    expect(
      (await api(t.adminToken).get(`/chatbot/${root.id}`)).body.options.map((o: { name: string }) => o.name),
    ).toEqual(['Boleto atualizado']);
    expect((await api(t.adminToken).delete(`/chatbot/${root.id}`)).status).toBe(200);
    const stored = await getQueue(t.company.id, q.id);
    expect(stored!.chatbots.map((o) => o.name)).toEqual(['Comercial']);
    expect((await api(t.adminToken).get(`/chatbot/${child.body.id}`)).status).toBe(404);
    expect((await api(other.adminToken).get(`/chatbot/${top.body.id}`)).status).toBe(404);
  });
});

describe('chatbot options that send a file list', () => {
  it('name an existing list of the company; that list cannot be deleted while an option sends it', async () => {
    const list = await api(t.adminToken).post('/files', { name: 'Catálogo', message: 'Segue o catálogo' });
    expect(list.status, JSON.stringify(list.body)).toBe(201);
    const q = await newQueue(t.adminToken, {
      chatbots: [{ name: 'Ver catálogo', greetingMessage: 'Enviando', queueType: 'file', optFileId: list.body.id }],
    });
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    expect(q.body.chatbots[0]).toMatchObject({ queueType: 'file', optFileId: list.body.id });
    const refused = await api(t.adminToken).delete(`/files/${list.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'ERR_FILE_LIST_IN_USE', details: { queues: [{ id: q.body.id }] } });
  });
});

describe('deleting a queue', () => {
  it("is refused while another queue's chatbot sends customers there, naming that queue", async () => {
    const target = (await newQueue(t.adminToken, { name: 'Destino' })).body;
    const menu = (
      await newQueue(t.adminToken, {
        name: 'Menu principal',
        chatbots: [{ name: 'Ir ao destino', greetingMessage: 'Indo', queueType: 'queue', optQueueId: target.id }],
      })
    ).body;
    const res = await api(t.adminToken).delete(`/queue/${target.id}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: 'ERR_QUEUE_IN_USE',
      details: { queues: [{ id: menu.id, name: 'Menu principal' }] },
    });
    expect(await getQueue(t.company.id, target.id)).not.toBeNull();
  });

  it('unlinks users and connections, frees the colour, and its tickets become tickets without a queue', async () => {
    const q = (await newQueue(t.adminToken, { color: '#fedcba' })).body;
    await updateUser(t.company.id, t.attendant.id, { queueIds: [q.id] });
    const connection = await someConnection(t.company.id);
    await updateConnection(connection, { queueIds: [q.id], sendIdQueue: q.id, timeSendQueue: 5 });
    const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const contact = await createContact(
      t.company.id,
      { name: 'Cliente da fila', number, isGroup: false, channel: 'whatsapp', whatsappId: connection.id },
      [`wa#${number}`],
    );
    const ticket = await createTicket(t.company.id, {
      status: 'pending',
      queueId: q.id,
      userId: null,
      contactId: contact.id,
      whatsappId: connection.id,
      channel: 'whatsapp',
      isGroup: false,
      origin: 'passive',
    });

    expect((await api(t.adminToken).delete(`/queue/${q.id}`)).status).toBe(200);
    expect(await getQueue(t.company.id, q.id)).toBeNull();
    expect((await getUser(t.company.id, t.attendant.id))!.queueIds).toEqual([]);
    expect(await getConnection(t.company.id, connection.id)).toMatchObject({ queueIds: [], sendIdQueue: null });
    expect((await newQueue(t.adminToken, { color: '#fedcba' })).status).toBe(201);
    const moved = await waitFor(
      () => getTicket(t.company.id, ticket.id),
      (tk) => tk?.queueId === null,
      { what: 'the ticket to leave the deleted queue' },
    );
    expect(moved).toMatchObject({ status: 'pending', userId: null, queueId: null });
    expect((await listTicketLog(t.company.id, ticket.id)).map((l) => l.type)).toContain('queue');
    // The attendant's tickets without a queue list shows it only with allTicket; the admin's always.
    const list = await api(t.adminToken).get('/tickets', { status: 'pending', showAll: 'true' });
    expect(list.body.tickets.map((tk: { id: number }) => tk.id)).toContain(ticket.id);
  });
});
