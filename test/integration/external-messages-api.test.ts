import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { getConnection } from '../../functions/data/connection-repository';
import { findContactIdsByIdentities } from '../../functions/data/contact-repository';
import { listTicketMessages } from '../../functions/data/message-repository';
import { listReceived } from '../../functions/data/simulator-phone-repository';
import { getTicket } from '../../functions/data/ticket-repository';
import { getGovernorState } from '../../functions/data/send-governor-repository';
import { eventsUntil, someConnection, waitFor, waitForConnection } from '../helpers/connections';
import { api, freshCompany, TINY_PNG, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

/**
 * The external messages API (administration spec "External messages API", §5, §7; decisions D123): an
 * integrator posts to /api/messages/send with a connection's token as bearer. A bad token is 401 and
 * another company's token acts only for that company; a number that is not digits with country and area
 * code is a 400; text and media go through the real pipeline to the simulated phone and show in the
 * ticket; over the usage plan's throttle the gateway answers 429.
 */
let t: TestCompany;
let other: TestCompany;
let whatsappId: number;
let token: string;

afterAll(() => {
  for (const s of openSockets) s.terminate();
});

/** A connection made through the API and paired through the simulator (as whatsapp-messages.test.ts). */
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

beforeAll(async () => {
  [t, other] = await Promise.all([freshCompany(), freshCompany()]);
  whatsappId = await connectedConnection('API');
  token = (await getConnection(t.company.id, whatsappId))!.token;
  // No pacing between this file's sends, but for the governor's own tests below.
  await setPacing(0);
}, 90_000);

const setPacing = async (messageInterval: number) => {
  const res = await api(t.adminToken).post('/campaign-settings', {
    settings: { messageInterval, longerIntervalAfter: 0 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

const suffix = () => String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
const send = (bearer: string | undefined, body: unknown) =>
  api(undefined, bearer === undefined ? {} : { headers: { authorization: `Bearer ${bearer}` } }).post(
    '/messages/send',
    body,
  );
const received = async (to: string) =>
  (await listReceived(t.company.id, whatsappId, { limit: 100 })).messages.filter(
    (m) => m.chatId === `${to}@s.whatsapp.net`,
  );

describe('the external messages API', () => {
  it('sends a text to a new number: the contact and a pending ticket appear, the phone receives it', async () => {
    const number = `5511${suffix()}0`.slice(0, 13);
    const socket = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
    const res = await send(token, { number, body: 'Seu pedido saiu para entrega' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ message: 'Mensagem enviada', messageIds: [expect.any(String)] });

    const ticket = (await getTicket(t.company.id, res.body.ticketId))!;
    expect(ticket).toMatchObject({ status: 'pending', whatsappId, chatId: `${number}@s.whatsapp.net` });
    await eventsUntil(
      socket,
      (e) =>
        e.channel === `company-${t.company.id}-appMessage` &&
        (e.message as { body?: string } | undefined)?.body === 'Seu pedido saiu para entrega',
    );
    const phone = await waitFor(
      () => received(number),
      (m) => m.length === 1,
      { timeoutMs: 30_000, what: 'the phone to receive the text' },
    );
    expect(phone[0]).toMatchObject({ type: 'text', body: 'Seu pedido saiu para entrega' });

    // A second send reuses the contact and the ticket, open for the user the integrator names.
    const again = await send(token, { number, body: 'Chega hoje', userId: t.admin.id });
    expect(again.status).toBe(200);
    expect(again.body.ticketId).toBe(res.body.ticketId);
    const messages = await listTicketMessages(t.company.id, res.body.ticketId);
    expect(messages.map((m) => [m.body, m.fromMe])).toEqual([
      ['Seu pedido saiu para entrega', true],
      ['Chega hoje', true],
    ]);
    expect((await findContactIdsByIdentities(t.company.id, [`wa#${number}`])).size).toBe(1);
  });

  it('sends media (multipart `medias`) with its caption, visible in the ticket and on the phone', async () => {
    const number = `5521${suffix()}1`.slice(0, 13);
    const form = new FormData();
    form.append('number', number);
    form.append('body', 'Segue a foto');
    form.append('medias', new Blob([TINY_PNG], { type: 'image/png' }), 'foto.png');
    const res = await send(token, form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [message] = await listTicketMessages(t.company.id, res.body.ticketId);
    expect(message).toMatchObject({ mediaType: 'image', body: 'Segue a foto', filename: 'foto.png' });
    const phone = await waitFor(
      () => received(number),
      (m) => m.length === 1,
      { timeoutMs: 30_000, what: 'the phone to receive the image' },
    );
    expect(phone[0]).toMatchObject({ type: 'image', body: 'Segue a foto' });
  });

  it('a missing or unknown token is 401 and sends nothing', async () => {
    const number = `5531${suffix()}2`.slice(0, 13);
    const none = await send(undefined, { number, body: 'oi' });
    expect(none.status).toBe(401);
    const unknown = await send('x'.repeat(30), { number, body: 'oi' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('ERR_INVALID_TOKEN');
    // A user's access token is not a connection token either.
    expect((await send(t.adminToken, { number, body: 'oi' })).status).toBe(401);
    expect((await findContactIdsByIdentities(t.company.id, [`wa#${number}`])).size).toBe(0);
  });

  it("another company's token sends only for that company, never for this one", async () => {
    const theirs = await someConnection(other.company.id);
    const number = `5541${suffix()}3`.slice(0, 13);
    const res = await send(theirs.token, { number, body: 'Mensagem da outra empresa' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ticket = (await getTicket(other.company.id, res.body.ticketId))!;
    expect(ticket).toMatchObject({ companyId: other.company.id, whatsappId: theirs.id });
    expect((await findContactIdsByIdentities(t.company.id, [`wa#${number}`])).size).toBe(0);
    // Naming this company's user or queue from the other company's token is a 400: it has no such user.
    const foreignUser = await send(theirs.token, { number, body: 'x', userId: t.attendant.id + 1000 });
    expect(foreignUser.status).toBe(400);
    expect(foreignUser.body.fields.map((f: { field: string }) => f.field)).toEqual(['body.userId']);
  });

  it('a number that is not digits with country and area code is a 400 naming it, and sends nothing', async () => {
    for (const number of ['(11) 99999-0000', '+5511999990000', '99990000', 'abc', '']) {
      const res = await send(token, { number, body: 'oi' });
      expect(res.status, number).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toEqual(['body.number']);
    }
    expect((await findContactIdsByIdentities(t.company.id, ['wa#99990000'])).size).toBe(0);
    const noBody = await send(token, { number: '5511999990000' });
    expect(noBody.status).toBe(400);
    expect(noBody.body.fields.map((f: { field: string }) => f.field)).toEqual(['body.body']);
    const notJson = await send(token, '{"number": ');
    expect(notJson.status).toBe(400);
  });

  it('over the usage plan’s throttle the gateway answers 429', async () => {
    const theirs = await someConnection(other.company.id);
    // Invalid numbers: each request costs a token of the bucket but sends nothing.
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => send(theirs.token, { number: 'x', body: 'oi' })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThanOrEqual(20);
    expect(answers.find((a) => a.status === 429)!.body).toEqual({ message: 'Too Many Requests' });
  });

  describe('through the connection’s send governor (decisions D117, D166)', () => {
    it('a send before the pacing allows the next is a 429 with the wait and the reason, writing nothing', async () => {
      await setPacing(10);
      try {
        const number = `5551${suffix()}4`.slice(0, 13);
        const first = await send(token, { number, body: 'Primeira' });
        expect(first.status, JSON.stringify(first.body)).toBe(200);
        const second = await send(token, { number, body: 'Segunda, cedo demais' });
        expect(second.status).toBe(429);
        expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(5);
        expect(second.body).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS', details: { reason: 'paced' } });
        const messages = await listTicketMessages(t.company.id, first.body.ticketId);
        expect(messages.map((m) => m.body)).toEqual(['Primeira']);
      } finally {
        await setPacing(0);
      }
    });

    it('WhatsApp rate-limiting a send pauses the connection’s automatic sends; the send goes once after', async () => {
      // The previous test's last slot was taken with 10 s pacing: let it pass.
      await waitFor(
        () => getGovernorState(t.company.id, whatsappId),
        (s) => s.nextAt <= Date.now(),
        { timeoutMs: 20_000, what: 'the paced slot to pass' },
      );
      // The simulated WhatsApp answers rate-overlimit to the first try of a send to a number ending in 0429.
      const limited = `5561${suffix()}`.slice(0, 9) + '0429';
      const accepted = await send(token, { number: limited, body: 'Devagar' });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      const paused = await waitFor(
        () => getGovernorState(t.company.id, whatsappId),
        (s) => s.pausedUntil > Date.now(),
        { timeoutMs: 20_000, what: 'the governor to pause the connection' },
      );

      // Meanwhile the API holds every send of the connection, saying why and until when.
      const held = await send(token, { number: `5571${suffix()}5`.slice(0, 13), body: 'Durante a pausa' });
      expect(held.status).toBe(429);
      expect(held.body).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS', details: { reason: 'throttled' } });
      expect(Date.parse(held.body.details.retryAt)).toBe(paused.pausedUntil);

      // The refused send waits for the pause and then reaches the phone once, not failed.
      const phone = await waitFor(
        () => received(limited),
        (m) => m.length === 1,
        { timeoutMs: 60_000, what: 'the rate-limited send after the pause' },
      );
      expect(phone[0]).toMatchObject({ body: 'Devagar' });
      const [stored] = await listTicketMessages(t.company.id, accepted.body.ticketId);
      expect(stored!.ack).toBeGreaterThanOrEqual(1);
      expect(Date.now()).toBeGreaterThanOrEqual(paused.pausedUntil);

      // After the pause the API sends again.
      const after = await send(token, { number: limited, body: 'Agora sim' });
      expect(after.status, JSON.stringify(after.body)).toBe(200);
    }, 150_000);
  });
});
