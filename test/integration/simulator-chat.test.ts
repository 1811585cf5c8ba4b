import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SimulatorReceivedPage } from '../../functions/contracts/simulator';
import { getConnection } from '../../functions/data/connection-repository';
import { listSent, recordSent } from '../../functions/data/simulator-phone-repository';
import { newUlid } from '../../functions/data/ulids';
import { eventsUntil, waitFor, waitForConnection, type SocketEvent } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets, type TestSocket } from '../helpers/ws-client';

/**
 * The phone simulator shows both sides of a chat (tracker issue 14, item 2; decisions D41): what a
 * simulated customer sends is kept on their phone when posted (ack 0, then 2 once the holder's session has
 * delivered it), and GET /simulator/{whatsappId}/messages answers it as `sent` beside the received
 * `messages`, the two merged by id into the chat's order, page by page. The phone keeps at most SENT_MAX
 * of its own messages per connection.
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

const customerNumber = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** A WhatsApp connection made through the API and paired by the simulator's scan (the local cloud's worker). */
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

const chatOf = async (id: number, number: string, query: Record<string, string> = {}) => {
  const res = await api(t.adminToken).get(`/simulator/${id}/messages`, { number, ...query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as SimulatorReceivedPage;
};

/** Both sides in the chat's order: `C` what the customer sent, `B` what they received from the business. */
const inOrder = (page: Pick<SimulatorReceivedPage, 'messages' | 'sent'>) =>
  [
    ...page.sent.map((m) => ({ id: m.id, line: `C ${m.type === 'reaction' ? `${m.emoji} reaction` : m.body}` })),
    ...page.messages.map((m) => ({ id: m.id, line: `B ${m.body}` })),
  ]
    .sort((a, b) => a.id.slice(2).localeCompare(b.id.slice(2)))
    .map((m) => m.line);

const isCreated = (body: string) => (e: SocketEvent) =>
  e.channel === `company-${t.company.id}-appMessage` &&
  e.action === 'create' &&
  (e.message as { body?: string }).body === body;

describe('the simulated phone keeps what the customer sent', () => {
  it('a customer message shows at once on their side, then delivered; replies and quotes interleave in order', async () => {
    const id = await connectedConnection('Chat completo');
    const number = customerNumber();

    // The customer writes: their phone shows it right away, before (or as) the session delivers it.
    const first = await api(t.adminToken).post(`/simulator/${id}/messages`, {
      number,
      name: 'Cliente',
      body: 'Olá, *tudo bem*?',
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const right = await chatOf(id, number);
    expect(right.sent).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^S#/),
        providerMessageId: first.body.providerMessageId,
        chatId: `${number}@s.whatsapp.net`,
        type: 'text',
        body: 'Olá, *tudo bem*?',
        ack: expect.any(Number),
        mediaUrl: null,
      }),
    ]);
    expect(right.messages).toEqual([]);
    // Delivered through the real inbound pipeline: a ticket message, and two ticks on the customer's phone.
    const created = await eventsUntil(admin, isCreated('Olá, *tudo bem*?'), 15_000);
    const ticketId = Number((created.at(-1)!.message as { ticketId: number }).ticketId);
    await waitFor(
      () => chatOf(id, number),
      (page) => page.sent[0]?.ack === 2,
      { what: 'ack 2 on the customer’s own message' },
    );

    // The business answers; the customer replies quoting it and sends a file.
    expect((await api(t.adminToken).put(`/tickets/${ticketId}`, { status: 'open', userId: t.admin.id })).status).toBe(
      200,
    );
    const reply = await api(t.adminToken).post(`/messages/${ticketId}`, { body: '*Admin:*\nTudo ótimo!' });
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    const answered = await waitFor(
      () => chatOf(id, number),
      (page) => page.messages.some((m) => m.body === '*Admin:*\nTudo ótimo!'),
      { what: 'the reply on the customer’s phone' },
    );
    const received = answered.messages.find((m) => m.body === '*Admin:*\nTudo ótimo!')!;
    const quoting = await api(t.adminToken).post(`/simulator/${id}/messages`, {
      number,
      body: 'Que bom!',
      quotedProviderMessageId: received.providerMessageId,
    });
    expect(quoting.status).toBe(200);
    const form = new FormData();
    form.append('number', number);
    form.append('body', 'comprovante');
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n% recibo\n')], { type: 'application/pdf' }), 'recibo.pdf');
    expect((await api(t.adminToken).post(`/simulator/${id}/media`, form)).status).toBe(200);
    const reacted = await api(t.adminToken).post(`/simulator/${id}/messages`, {
      number,
      reactTo: received.providerMessageId,
      emoji: '👍',
    });
    expect(reacted.status).toBe(200);

    const chat = await chatOf(id, number);
    expect(inOrder(chat)).toEqual([
      'C Olá, *tudo bem*?',
      'B *Admin:*\nTudo ótimo!',
      'C Que bom!',
      'C comprovante',
      'C 👍 reaction',
    ]);
    expect(chat.sent[1]).toMatchObject({ quotedProviderMessageId: received.providerMessageId });
    expect(chat.sent[2]).toMatchObject({
      type: 'document',
      filename: 'recibo.pdf',
      mimetype: 'application/pdf',
      mediaUrl: expect.stringContaining(`/c/${t.company.id}/inbound/${id}/`),
    });
    expect(chat.sent[2]).not.toHaveProperty('mediaKey');
    expect(chat.sent[3]).toMatchObject({ emoji: '👍', targetProviderMessageId: received.providerMessageId });
    expect(chat.hasMore).toBe(false);

    // Another customer's chat shows none of it.
    expect(await chatOf(id, customerNumber())).toMatchObject({ messages: [], sent: [] });

    // Page by page (one at a time), both sides come once each, in the same order.
    const paged: SimulatorReceivedPage[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const page = await chatOf(id, number, { limit: '1', ...(cursor ? { cursor } : {}) });
      paged.push(page);
      if (!page.hasMore || !page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(paged.every((p) => p.messages.length + p.sent.length <= 1)).toBe(true);
    expect(inOrder({ messages: paged.flatMap((p) => p.messages), sent: paged.flatMap((p) => p.sent) })).toEqual(
      inOrder(chat),
    );
  });

  it('another company never sees the phone', async () => {
    const id = await connectedConnection('Só nossa');
    const outsider = await freshCompany();
    expect((await api(outsider.adminToken).get(`/simulator/${id}/messages`)).status).toBe(404);
  });
});

describe('the phone’s own messages are bounded', () => {
  it('keeps the newest `max` per connection, dropping the oldest', async () => {
    const whatsappId = 900_000 + Math.floor(Math.random() * 99_999);
    const bodies = ['um', 'dois', 'três', 'quatro', 'cinco'];
    for (const body of bodies) {
      await recordSent(
        t.company.id,
        whatsappId,
        newUlid(),
        { providerMessageId: `3A${body}`, chatId: '5511900000001@s.whatsapp.net', type: 'text', body },
        { max: 3 },
      );
    }

    const kept = await listSent(t.company.id, whatsappId, { limit: 10 });

    expect(kept.messages.map((m) => m.body)).toEqual(['três', 'quatro', 'cinco']);
  });
});
