import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { getConnection } from '../../functions/data/connection-repository';
import { authStateStore } from '../../functions/data/wa-auth-state-repository';
import { eventsUntil, waitFor, waitForConnection, type SocketEvent } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets, type TestSocket } from '../helpers/ws-client';

/**
 * The import of old messages (issue 4, item 7; core spec §4; decisions D78), end to end with the phone
 * simulator: the simulated phone is given a history, the connection is paired through the API, the worker
 * of the local cloud imports what falls in the connection's window through the real inbound queue and job,
 * the screens get `importMessages-{companyId}` progress, and the imported tickets are closed by
 * `POST /closedimported/{id}` or, with `closedTicketsPostImported`, at the end of the import.
 */
let t: TestCompany;
let admin: TestSocket;

beforeAll(async () => {
  t = await freshCompany();
  admin = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const DAY = 86_400_000;
const suffix = () => String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
/** The day of an instant in the company's time zone (the default, America/Sao_Paulo). */
const localDay = (at: number) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Sao_Paulo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(at));

interface HistoryEntry {
  number: string;
  name?: string;
  group?: { id: string; name?: string };
  fromMe?: boolean;
  body: string;
  at: string;
}

/** A connection with import on, its phone given `history`, paired through the simulator route. */
const pairWithHistory = async (name: string, settings: Record<string, unknown>, history: HistoryEntry[]) => {
  const created = await api(t.adminToken).post('/whatsapp', { name, ...settings });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  const set = await api(t.adminToken).put(`/simulator/${id}/history`, { messages: history });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  expect(set.body.count).toBe(history.length);
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

const ticketsOf = async (status: string) => {
  const res = await api(t.adminToken).get('/tickets', { status, showAll: 'true' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.tickets as {
    id: number;
    uuid: string;
    whatsappId: number;
    status: string;
    unreadMessages: number;
    lastMessage: string;
    contact: { name: string; number: string };
  }[];
};

describe('import of old messages', () => {
  it('imports the window of the phone history into pending tickets, with progress, then closes them on request', async () => {
    const now = Date.now();
    const ana = { number: `55119${suffix()}`, name: 'Ana Importada' };
    const bruno = { number: `55219${suffix()}`, name: 'Bruno Importado' };
    const carla = { number: `55319${suffix()}`, name: 'Carla Antiga' };
    const history: HistoryEntry[] = [
      { ...carla, body: 'Mensagem de antes da janela', at: new Date(now - 10 * DAY).toISOString() },
      { ...ana, body: 'Olá, tudo bem?', at: new Date(now - 3 * DAY).toISOString() },
      {
        ...ana,
        fromMe: true,
        body: 'Tudo ótimo, em que posso ajudar?',
        at: new Date(now - 3 * DAY + 60_000).toISOString(),
      },
      { ...bruno, body: 'Qual o prazo de entrega?', at: new Date(now - 2 * DAY).toISOString() },
      {
        ...bruno,
        group: { id: `1203630${suffix()}`, name: 'Grupo' },
        body: 'No grupo',
        at: new Date(now - 2 * DAY).toISOString(),
      },
    ];
    const id = await pairWithHistory(
      'Importação',
      { importOldMessages: localDay(now - 5 * DAY), importOldMessagesGroups: false },
      history,
    );

    // Progress reaches the screens, then the refresh that ends it.
    const events = await eventsUntil(
      admin,
      (e) => e.channel === `importMessages-${t.company.id}` && e.action === 'refresh' && e.whatsappId === id,
      30_000,
    );
    const updates = events.filter(
      (e: SocketEvent) => e.channel === `importMessages-${t.company.id}` && e.action === 'update',
    );
    expect(updates[0]?.status).toMatchObject({ whatsappId: id, state: 'preparing', this: 0, all: 0 });
    const connection = await waitForConnection(
      t.company.id,
      id,
      (c) => c?.statusImportMessages === 'renderButtonCloseTickets',
      { timeoutMs: 10_000 },
    );
    expect(connection?.importStartedAt).toEqual(expect.any(String));

    // Ana and Bruno have pending tickets of this connection; Carla (before the window) and the group do not.
    const pending = (await ticketsOf('pending')).filter((ticket) => ticket.whatsappId === id);
    expect(pending.map((ticket) => ticket.contact.name).sort()).toEqual(['Ana Importada', 'Bruno Importado']);
    expect(pending.every((ticket) => ticket.unreadMessages === 0)).toBe(true);
    const anaTicket = pending.find((ticket) => ticket.contact.name === 'Ana Importada')!;
    expect(anaTicket.lastMessage).toBe('Tudo ótimo, em que posso ajudar?');

    // Ana's messages (newest first) keep their own time and sender; nothing was answered automatically.
    const page = await api(t.adminToken).get(`/messages/${anaTicket.uuid}`, { pageNumber: '1' });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const messages = page.body.messages as { body: string; fromMe: boolean; createdAt: string }[];
    expect(messages.map((m) => [m.body, m.fromMe])).toEqual([
      ['Tudo ótimo, em que posso ajudar?', true],
      ['Olá, tudo bem?', false],
    ]);
    expect(Date.parse(messages[1]!.createdAt)).toBe(Date.parse(history[1]!.at));

    // The admin closes the imported tickets; the button goes away; a second call finds nothing.
    const closed = await api(t.adminToken).post(`/closedimported/${id}`);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body).toEqual({ closed: 2, hasMore: false });
    expect((await getConnection(t.company.id, id))?.statusImportMessages).toBe('');
    expect((await ticketsOf('pending')).filter((ticket) => ticket.whatsappId === id)).toEqual([]);
    const again = await api(t.adminToken).post(`/closedimported/${id}`);
    expect(again.body).toEqual({ closed: 0, hasMore: false });
  }, 90_000);

  it('closes the imported tickets itself when the connection says so', async () => {
    const now = Date.now();
    const dora = { number: `55419${suffix()}`, name: 'Dora Importada' };
    const id = await pairWithHistory(
      'Importação fechando',
      { importOldMessages: localDay(now - 5 * DAY), closedTicketsPostImported: true },
      [
        { ...dora, body: 'Primeira', at: new Date(now - 4 * DAY).toISOString() },
        { ...dora, body: 'Segunda', at: new Date(now - 4 * DAY + 1_000).toISOString() },
      ],
    );
    await waitFor(
      async () => (await ticketsOf('closed')).filter((ticket) => ticket.whatsappId === id),
      (closed) => closed.length === 1,
      { timeoutMs: 30_000, what: 'the imported ticket closed' },
    );
    const connection = await waitForConnection(t.company.id, id, (c) => c?.statusImportMessages === '', {
      timeoutMs: 10_000,
    });
    expect(connection?.statusImportMessages).toBe('');
    expect((await ticketsOf('pending')).filter((ticket) => ticket.whatsappId === id)).toEqual([]);
  }, 90_000);

  it('imports nothing when the connection has no import date', async () => {
    const now = Date.now();
    const eva = { number: `55519${suffix()}`, name: 'Eva' };
    const id = await pairWithHistory('Sem importação', {}, [
      { ...eva, body: 'Antiga', at: new Date(now - DAY).toISOString() },
    ]);
    // The phone hands its history over right after connecting, then stores that it did: from then on the
    // worker has the batch an import would take its messages from.
    await waitFor(
      () => authStateStore(t.company.id, id).readCreds(),
      (creds) => (creds as { historyPending?: boolean } | null)?.historyPending === false,
      { timeoutMs: 15_000, what: 'the phone to hand its history over' },
    );
    // Then Eva writes now, on the chat of her old message: an imported 'Antiga' would go to the same inbound
    // FIFO group (connection and chat), so it is handled before this one if the worker enqueued it first.
    // The worker does not order its history steps with what customers send: this relies on its step for the
    // batch (three reads) ending before Eva's message has crossed the API, the outbox and the worker's queue.
    const res = await api(t.adminToken).post(`/simulator/${id}/messages`, { ...eva, body: 'Mensagem de agora' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const pending = await waitFor(
      async () => (await ticketsOf('pending')).filter((ticket) => ticket.whatsappId === id),
      (tickets) => tickets.some((ticket) => ticket.lastMessage === 'Mensagem de agora'),
      { timeoutMs: 30_000, what: "Eva's message of now" },
    );

    expect((await getConnection(t.company.id, id))?.statusImportMessages).toBe('');
    // The only ticket of the connection is the one Eva's message of now opened, and it holds that alone.
    expect(pending.map((ticket) => [ticket.contact.name, ticket.lastMessage])).toEqual([['Eva', 'Mensagem de agora']]);
    const page = await api(t.adminToken).get(`/messages/${pending[0]!.uuid}`, { pageNumber: '1' });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect((page.body.messages as { body: string }[]).map((m) => m.body)).toEqual(['Mensagem de agora']);
  }, 90_000);

  it('refuses a history that is not one', async () => {
    const created = await api(t.adminToken).post('/whatsapp', { name: 'Histórico inválido' });
    const id = created.body.id as number;
    const res = await api(t.adminToken).put(`/simulator/${id}/history`, {
      messages: [{ number: 'abc', body: '', at: 'ontem' }],
    });
    expect(res.status).toBe(400);
    const fields = (res.body.fields as { field: string }[]).map((f) => f.field).sort();
    expect(fields).toEqual(['body.messages.0.at', 'body.messages.0.body', 'body.messages.0.number']);
  });
});
