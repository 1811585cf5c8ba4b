import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { getConnection } from '../../functions/data/connection-repository';
import { createContact, type Contact } from '../../functions/data/contact-repository';
import { nextId } from '../../functions/data/counter-repository';
import { putMediaObject } from '../../functions/data/media-store';
import {
  getMessage,
  listTicketMessages,
  storeMessage,
  type StoredMessage,
} from '../../functions/data/message-repository';
import { setCompanySetting } from '../../functions/data/settings-repository';
import { listReceived } from '../../functions/data/simulator-phone-repository';
import { createTicket, getTicket, type Ticket } from '../../functions/data/ticket-repository';
import { newUlid } from '../../functions/data/ulids';
import { createUser, updateUser } from '../../functions/data/user-repository';
import { signAccessToken } from '../../functions/core/access-token';
import { eventsUntil, waitFor, waitForConnection, type SocketEvent } from '../helpers/connections';
import { fakeOpenAi } from '../../infra/local/fake-openai';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets, type TestSocket } from '../helpers/ws-client';

/**
 * The messages API (issue 5 item 3; decisions D50–D54) through the gateway with real tokens: sends go the
 * whole way — stored with ack 0, the outbound job, the connection's outbox, the local cloud's simulated
 * WhatsApp session — to a simulated customer, whose acks come back through the inbound path.
 */
let t: TestCompany;
let admin: TestSocket;
let whatsappId: number;

const suffix = () => String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
const customerNumber = () => `55119${suffix()}`;

/** A connection made through the API and paired through the simulator (held by the local cloud's worker). */
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

/** A customer and their open ticket, assigned to the attendant (made in storage: the tickets API is not under test). */
const conversation = async (
  options: { status?: Ticket['status']; userId?: number | null; queueId?: number | null; on?: number } = {},
): Promise<{ contact: Contact; ticket: Ticket; chatId: string }> => {
  const number = customerNumber();
  const on = options.on ?? whatsappId;
  const contact = await createContact(
    t.company.id,
    { name: `Cliente ${number.slice(-4)}`, number, isGroup: false, channel: 'whatsapp', whatsappId: on },
    [`wa#${number}`],
  );
  const chatId = `${number}@s.whatsapp.net`;
  const ticket = await createTicket(t.company.id, {
    status: options.status ?? 'open',
    queueId: options.queueId ?? null,
    userId: options.userId === undefined ? t.attendant.id : options.userId,
    contactId: contact.id,
    whatsappId: on,
    channel: 'whatsapp',
    isGroup: false,
    chatId,
    origin: 'active',
  });
  return { contact, ticket, chatId };
};

/** A message stored directly (the customer's, or an old one of ours), for reads, edits and pages. */
const stored = async (
  ticket: Ticket,
  fields: Partial<StoredMessage> & { body: string },
  at = Date.now(),
): Promise<StoredMessage> => {
  const ulid = newUlid(at);
  const message: StoredMessage = {
    ulid,
    companyId: t.company.id,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    mediaType: 'chat',
    fromMe: false,
    isPrivate: false,
    isDeleted: false,
    isEdited: false,
    isForwarded: false,
    queueId: ticket.queueId,
    ack: 0,
    createdAt: new Date(at).toISOString(),
    userId: null,
    ...fields,
  };
  expect(
    await storeMessage(message, {
      lastMessage: message.body,
      updatedAt: message.createdAt,
      unread: message.fromMe ? 'keep' : 'increment',
    }),
  ).toBe('stored');
  return message;
};

const received = async (chatId: string) =>
  (await listReceived(t.company.id, whatsappId, { limit: 100 })).messages.filter((m) => m.chatId === chatId);

const ulidOf = (wireId: string) => wireId.split('-')[1]!;

const isAppMessage =
  (action: string, accept: (message: Record<string, unknown>) => boolean) =>
  (e: SocketEvent): boolean =>
    e.channel === `company-${t.company.id}-appMessage` &&
    e.action === action &&
    accept(e.message as Record<string, unknown>);

const as = (token: string) => api(token);

beforeAll(async () => {
  t = await freshCompany();
  admin = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
  whatsappId = await connectedConnection('Mensagens');
}, 90_000);
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

describe('sending text', () => {
  it('is stored with ack 0, reaches the customer once, and its acks rise; the attendants get the event', async () => {
    const { ticket, chatId, contact } = await conversation();
    const res = await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: 'Olá, tudo bem?', fromMe: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      ticketId: ticket.id,
      body: 'Olá, tudo bem?',
      fromMe: true,
      isPrivate: false,
      ack: 0,
      userId: t.attendant.id,
    });
    const id = res.body.id as string;

    const events = await eventsUntil(
      admin,
      isAppMessage('create', (m) => m.id === id),
      10_000,
    );
    const created = events.at(-1)!;
    expect(created.ticket).toMatchObject({ id: ticket.id, lastMessage: 'Olá, tudo bem?' });
    expect(created.contact).toMatchObject({ id: contact.id });

    const got = await waitFor(
      () => received(chatId),
      (r) => r.some((m) => m.ack >= 2),
      { timeoutMs: 20_000, what: 'the customer to get the message' },
    );
    expect(got).toEqual([expect.objectContaining({ type: 'text', body: 'Olá, tudo bem?' })]);
    const after = await waitFor(
      () => getMessage(t.company.id, ticket.id, ulidOf(id)),
      (m) => (m?.ack ?? 0) >= 2,
      { timeoutMs: 10_000, what: 'ack 2' },
    );
    expect(after!.providerId).toBe(got[0]!.providerMessageId);
  });

  it('a private note is stored and shown, and never reaches the customer', async () => {
    const { ticket, chatId } = await conversation();
    const note = await as(t.attendantToken).post(`/messages/${ticket.id}`, {
      body: 'Cliente pediu desconto — ver com gerente',
      isPrivate: true,
    });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    expect(note.body).toMatchObject({ isPrivate: true, ack: 0 });
    const reply = await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: 'Vou verificar para você.' });
    expect(reply.status).toBe(201);
    // The chat's sends keep their order: once the reply arrived, the note would have arrived before it.
    const got = await waitFor(
      () => received(chatId),
      (r) => r.some((m) => m.body === 'Vou verificar para você.'),
      { timeoutMs: 20_000, what: 'the reply' },
    );
    expect(got.map((m) => m.body)).toEqual(['Vou verificar para você.']);
    const note1 = await getMessage(t.company.id, ticket.id, ulidOf(note.body.id));
    expect(note1).toMatchObject({ isPrivate: true, ack: 0 });
    expect(note1!.providerId).toBeUndefined();
    const listed = await as(t.attendantToken).get(`/messages/${ticket.uuid}`);
    expect(listed.body.messages.map((m: { body: string }) => m.body)).toEqual([
      'Vou verificar para você.',
      'Cliente pediu desconto — ver com gerente',
    ]);
  });

  it('a quoted reply carries the quoted message, to the app and to WhatsApp', async () => {
    const { ticket, chatId } = await conversation();
    const question = await stored(ticket, { body: 'Qual o prazo de entrega?', providerId: `ABC${suffix()}` });
    const res = await as(t.attendantToken).post(`/messages/${ticket.id}`, {
      body: 'Três dias úteis.',
      quotedMsg: { id: `${ticket.id}-${question.ulid}`, body: 'Qual o prazo de entrega?' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.quotedMsg).toMatchObject({
      id: `${ticket.id}-${question.ulid}`,
      body: 'Qual o prazo de entrega?',
      fromMe: false,
    });
    const got = await waitFor(
      () => received(chatId),
      (r) => r.length > 0,
      { timeoutMs: 20_000, what: 'the reply' },
    );
    expect(got[0]).toMatchObject({ body: 'Três dias úteis.', quotedProviderMessageId: question.providerId });

    // Quoting a message of another conversation is refused, and nothing is written.
    const other = await conversation();
    const foreign = await stored(other.ticket, { body: 'outra conversa' });
    const before = (await listTicketMessages(t.company.id, ticket.id)).length;
    const bad = await as(t.attendantToken).post(`/messages/${ticket.id}`, {
      body: 'x',
      quotedMsg: `${other.ticket.id}-${foreign.ulid}`,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([{ field: 'body.quotedMsg', reason: 'not a message of this conversation' }]);
    expect(await listTicketMessages(t.company.id, ticket.id)).toHaveLength(before);
  });

  it('empty or whitespace text is not sent: 400 with the field, nothing written', async () => {
    const { ticket } = await conversation();
    const res = await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: '   \n ' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ field: 'body.body', reason: 'Empty or whitespace text is not sent' }]);
    const wrongType = await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: 'oi', isPrivate: 'talvez' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.fields[0].field).toBe('body.isPrivate');
    expect(await listTicketMessages(t.company.id, ticket.id)).toEqual([]);
    expect((await getTicket(t.company.id, ticket.id))!.lastMessage).toBe('');
  });

  it('the composer works only on open tickets; another company’s ticket is 404; an unseen one 403', async () => {
    const pending = await conversation({ status: 'pending', userId: null });
    const refused = await as(t.adminToken).post(`/messages/${pending.ticket.id}`, { body: 'Oi' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');

    const other = await freshCompany();
    const otherNumber = customerNumber();
    const otherContact = await createContact(
      other.company.id,
      { name: 'Alheio', number: otherNumber, isGroup: false, channel: 'whatsapp', whatsappId: null },
      [`wa#${otherNumber}`],
    );
    // Ticket ids are numbered per company: skip ahead, so the id is one this company does not have.
    await nextId(other.company.id, 'ticket', 1000);
    const otherTicket = await createTicket(other.company.id, {
      status: 'open',
      queueId: null,
      userId: other.admin.id,
      contactId: otherContact.id,
      whatsappId: 1,
      channel: 'whatsapp',
      isGroup: false,
      origin: 'active',
    });
    for (const res of [
      await as(t.adminToken).post(`/messages/${otherTicket.id}`, { body: 'Oi' }),
      await as(t.adminToken).get(`/messages/${otherTicket.uuid}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_TICKET_FOUND');
    }

    const mine = await conversation();
    const stranger = await createUser(t.company.id, {
      name: 'Outra Pessoa',
      email: `outra-${suffix()}@test.local`,
      passwordHash: 'x',
      profile: 'user',
    });
    const token = await signAccessToken({
      companyId: t.company.id,
      userId: stranger.id,
      profile: 'user',
      super: false,
    });
    for (const res of [
      await as(token).post(`/messages/${mine.ticket.id}`, { body: 'Oi' }),
      await as(token).get(`/messages/${mine.ticket.uuid}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect(await listTicketMessages(t.company.id, mine.ticket.id)).toEqual([]);
  });
});

describe('Meta’s reply window', () => {
  it('a Messenger ticket past 24 hours refuses sends (403 ERR_META_WINDOW_CLOSED) but takes private notes', async () => {
    const number = customerNumber();
    const contact = await createContact(
      t.company.id,
      { name: 'Cliente Messenger', number, isGroup: false, channel: 'facebook', whatsappId: null },
      [`fb#${number}`],
    );
    const ticket = await createTicket(t.company.id, {
      status: 'open',
      queueId: null,
      userId: t.attendant.id,
      contactId: contact.id,
      whatsappId: whatsappId + 200_000,
      channel: 'facebook',
      isGroup: false,
      chatId: `psid-${number}`,
      origin: 'active',
    });
    const refused = await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: 'Ainda aí?' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_META_WINDOW_CLOSED');
    const note = await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: 'Ligar amanhã', isPrivate: true });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    expect((await listTicketMessages(t.company.id, ticket.id)).map((m) => m.body)).toEqual(['Ligar amanhã']);
  });
});

describe('edit and delete', () => {
  it('edits own messages within 15 minutes; another user’s is 403, and so is an older one', async () => {
    const { ticket } = await conversation();
    const sent = await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: 'Encontro às 15h' });
    const id = sent.body.id as string;
    const edited = await as(t.attendantToken).post(`/messages/edit/${id}`, { body: 'Encontro às 16h' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ id, body: 'Encontro às 16h', isEdited: true });
    await eventsUntil(
      admin,
      isAppMessage('update', (m) => m.id === id && m.body === 'Encontro às 16h'),
    );
    expect((await getTicket(t.company.id, ticket.id))!.lastMessage).toBe('Encontro às 16h');

    const byAdmin = await as(t.adminToken).post(`/messages/edit/${id}`, { body: 'Invasão' });
    expect(byAdmin.status).toBe(403);
    const old = await stored(
      ticket,
      { body: 'Mensagem antiga', fromMe: true, userId: t.attendant.id },
      Date.now() - 20 * 60_000,
    );
    const late = await as(t.attendantToken).post(`/messages/edit/${ticket.id}-${old.ulid}`, { body: 'Tarde demais' });
    expect(late.status).toBe(403);
    expect(late.body.error).toBe('ERR_NO_PERMISSION');
    expect((await getMessage(t.company.id, ticket.id, old.ulid))!.body).toBe('Mensagem antiga');
    expect((await getMessage(t.company.id, ticket.id, ulidOf(id)))!.body).toBe('Encontro às 16h');

    const customers = await stored(ticket, { body: 'Do cliente' });
    expect(
      (await as(t.attendantToken).post(`/messages/edit/${ticket.id}-${customers.ulid}`, { body: 'x' })).status,
    ).toBe(403);
  });

  it('deletes own messages (kept, marked); others’ are 403; with the LGPD pair on, the content is erased', async () => {
    const { ticket } = await conversation();
    const sent = await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: 'Mensagem errada' });
    const id = sent.body.id as string;
    expect((await as(t.adminToken).delete(`/messages/${id}`)).status).toBe(403);
    const deleted = await as(t.attendantToken).delete(`/messages/${id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({ id, isDeleted: true, body: 'Mensagem errada' });
    await eventsUntil(
      admin,
      isAppMessage('update', (m) => m.id === id && m.isDeleted === true),
    );
    expect((await as(t.attendantToken).delete(`/messages/${id}`)).status).toBe(403);

    await setCompanySetting(t.company.id, 'enableLGPD', 'enabled');
    await setCompanySetting(t.company.id, 'lgpdDeleteMessage', 'enabled');
    try {
      const second = await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: 'CPF 123.456.789-09' });
      const erased = await as(t.attendantToken).delete(`/messages/${second.body.id}`);
      expect(erased.status).toBe(200);
      expect(erased.body).toMatchObject({ isDeleted: true, body: '' });
      expect((await getMessage(t.company.id, ticket.id, ulidOf(second.body.id)))!.body).toBe('');
    } finally {
      await setCompanySetting(t.company.id, 'lgpdDeleteMessage', 'disabled');
      await setCompanySetting(t.company.id, 'enableLGPD', 'disabled');
    }
  });
});

describe('forward', () => {
  it('opens a ticket for the other contact and sends the message there, signed, marked forwarded', async () => {
    const source = await conversation();
    const original = await stored(source.ticket, { body: 'Segue o endereço: Rua A, 10' });
    const number = customerNumber();
    const target = await createContact(
      t.company.id,
      { name: 'Destino', number, isGroup: false, channel: 'whatsapp', whatsappId },
      [`wa#${number}`],
    );
    const res = await as(t.attendantToken).post('/message/forward', {
      messageId: `${source.ticket.id}-${original.ulid}`,
      contactId: target.id,
      signMessage: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toMatchObject({
      isForwarded: true,
      fromMe: true,
      body: '*Atendente:*\nSegue o endereço: Rua A, 10',
    });
    expect(res.body.ticket).toMatchObject({ status: 'open', userId: t.attendant.id, contact: { id: target.id } });
    const got = await waitFor(
      () => received(`${number}@s.whatsapp.net`),
      (r) => r.length > 0,
      { timeoutMs: 20_000, what: 'the forward' },
    );
    expect(got[0]!.body).toBe('*Atendente:*\nSegue o endereço: Rua A, 10');

    // A second forward goes into the same open ticket; a missing contact is 404.
    const again = await as(t.attendantToken).post('/message/forward', {
      messageId: `${source.ticket.id}-${original.ulid}`,
      contactId: target.id,
      signMessage: false,
    });
    expect(again.body.ticket.id).toBe(res.body.ticket.id);
    const missing = await as(t.attendantToken).post('/message/forward', {
      messageId: `${source.ticket.id}-${original.ulid}`,
      contactId: 999_999,
    });
    expect(missing.status).toBe(404);
  });
});

describe('media', () => {
  const PDF = Buffer.from('%PDF-1.4\n% contrato de teste\n1 0 obj << >> endobj\n');
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );

  it('a large file goes straight to S3 with a presigned URL, then the message names its key', async () => {
    const { ticket, chatId } = await conversation();
    const upload = await as(t.attendantToken).post(`/messages/uploads/${ticket.id}`, {
      filename: 'Contrato final.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    expect(upload.body.key).toMatch(
      new RegExp(`^c/${t.company.id}/tickets/${ticket.id}/uploads/.+/Contrato_final\\.pdf$`),
    );
    const put = await fetch(upload.body.uploadUrl as string, {
      method: 'PUT',
      headers: upload.body.headers as Record<string, string>,
      body: PDF,
    });
    expect(put.status).toBe(200);

    const res = await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: '', mediaKey: upload.body.key });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ mediaType: 'application', mimetype: 'application/pdf' });
    expect(res.body.mediaUrl).toContain(upload.body.key);
    const got = await waitFor(
      () => received(chatId),
      (r) => r.length > 0,
      { timeoutMs: 20_000, what: 'the document' },
    );
    expect(got[0]).toMatchObject({ type: 'document', mediaKey: upload.body.key });

    // Another ticket's key, or a key nothing was uploaded under, is refused.
    const other = await conversation();
    const foreignKey = await as(t.attendantToken).post(`/messages/${other.ticket.id}`, { mediaKey: upload.body.key });
    expect(foreignKey.status).toBe(400);
    expect(foreignKey.body.fields[0]).toEqual({ field: 'body.mediaKey', reason: 'not an upload of this ticket' });
    const nothing = await as(t.attendantToken).post(`/messages/${ticket.id}`, {
      mediaKey: `c/${t.company.id}/tickets/${ticket.id}/uploads/none/x.pdf`,
    });
    expect(nothing.status).toBe(400);
    const tooBig = await as(t.attendantToken).post(`/messages/uploads/${ticket.id}`, {
      filename: 'x.mp4',
      contentType: 'video/mp4',
      size: 200 * 1024 * 1024,
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.fields[0].field).toBe('body.size');
  });

  it('small files go as the spec’s multipart {medias, body}', async () => {
    const { ticket, chatId } = await conversation();
    const form = new FormData();
    form.append('medias', new Blob([PNG], { type: 'image/png' }), 'foto.png');
    form.append('body', 'Olha a foto');
    form.append('fromMe', 'true');
    const res = await as(t.attendantToken).post(`/messages/${ticket.id}`, form);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ mediaType: 'image', mimetype: 'image/png', body: 'Olha a foto' });
    const got = await waitFor(
      () => received(chatId),
      (r) => r.length > 0,
      { timeoutMs: 20_000, what: 'the image' },
    );
    expect(got[0]).toMatchObject({ type: 'image', body: 'Olha a foto' });
    const media = await fetch(`${inject('gatewayUrl')}${res.body.mediaUrl}`);
    expect(Buffer.from(await media.arrayBuffer()).equals(PNG)).toBe(true);

    const empty = new FormData();
    empty.append('body', 'sem arquivo');
    const bad = await as(t.attendantToken).post(`/messages/${ticket.id}`, empty);
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([{ field: 'body.medias', reason: 'Required: at least one file' }]);
  });
});

describe('interactive messages', () => {
  it('validate with field and reason and write nothing; a ticket id must be numeric', async () => {
    const { ticket } = await conversation();
    const cases: [string, unknown, string][] = [
      ['lista', { body: 'Escolha', sections: [{ rows: [{ title: 'A' }] }] }, 'body.title'],
      ['copy', { body: 'Seu cupom' }, 'body.copyCode'],
      ['call', { body: 'Ligue', phoneNumber: 'abc' }, 'body.phoneNumber'],
      ['URL', { body: 'Site' }, 'body.url'],
      ['PIX', { sendvalue: 10, sendkey_type: 'CPF', sendmerchant_name: 'Loja', sendKey: '123' }, 'body.sendKey'],
      ['PIX', { sendvalue: 10, sendkey_type: 'BOLETO', sendmerchant_name: 'Loja', sendKey: '1' }, 'body.sendkey_type'],
    ];
    for (const [kind, body, field] of cases) {
      const res = await as(t.attendantToken).post(`/messages/${kind}/${ticket.id}`, body);
      expect(res.status, `${kind}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const invalid = await as(t.attendantToken).post('/messages/URL/abc', { url: 'https://exemplo.com' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toEqual([{ field: 'params.id', reason: 'Ticket ID invalid' }]);
    expect(await listTicketMessages(t.company.id, ticket.id)).toEqual([]);
  });

  it('store what the app draws in dataJson; PIX sends the copia-e-cola code with +55 on a phone key', async () => {
    const { ticket, chatId } = await conversation();
    const pix = await as(t.attendantToken).post(`/messages/PIX/${ticket.id}`, {
      title: 'Pedido 42',
      sendvalue: '25,90',
      sendkey_type: 'PHONE',
      sendmerchant_name: 'Padaria São João',
      sendKey: '11999998888',
    });
    expect(pix.status, JSON.stringify(pix.body)).toBe(201);
    const data = JSON.parse(pix.body.dataJson as string);
    expect(data).toMatchObject({ type: 'pix', sendKey: '+5511999998888', sendvalue: 25.9, title: 'Pedido 42' });
    expect(pix.body.body).toBe(data.payload);
    expect(data.payload).toMatch(/^000201.*5802BR5916Padaria Sao Joao.*6304[0-9A-F]{4}$/);
    expect(data.payload).toContain('540525.90');

    const url = await as(t.attendantToken).post(`/messages/URL/${ticket.id}`, {
      body: 'Veja o catálogo',
      title: 'Catálogo',
      url: 'https://exemplo.com/catalogo',
    });
    expect(url.status).toBe(201);
    expect(JSON.parse(url.body.dataJson)).toEqual({
      type: 'url',
      body: 'Veja o catálogo',
      title: 'Catálogo',
      url: 'https://exemplo.com/catalogo',
    });
    const list = await as(t.attendantToken).post(`/messages/lista/${ticket.id}`, {
      title: 'Menu',
      body: 'Escolha uma opção',
      sections: [{ title: 'Setores', rows: [{ title: 'Vendas' }, { title: 'Suporte' }] }],
    });
    expect(list.status).toBe(201);
    expect(list.body).toMatchObject({
      mediaType: 'list',
      body: '*Menu*\nEscolha uma opção\n1. Vendas\n2. Suporte',
    });
    for (const [kind, body] of [
      ['copy', { body: 'Seu cupom', copyCode: 'PROMO10' }],
      ['call', { body: 'Fale conosco', phoneNumber: '+55 11 3333-4444' }],
    ] as const) {
      const res = await as(t.attendantToken).post(`/messages/${kind}/${ticket.id}`, body);
      expect(res.status).toBe(201);
      expect(JSON.parse(res.body.dataJson).type).toBe(kind);
    }
    const got = await waitFor(
      () => received(chatId),
      (r) => r.length >= 5,
      { timeoutMs: 20_000, what: 'the five interactive messages' },
    );
    expect(got[0]!.body).toBe(data.payload);
  });
});

describe('transcription', () => {
  it('uses the company’s OpenAI key (never shown by settings), keeps the text, and reports failures', async () => {
    const { ticket } = await conversation();
    const key = `c/${t.company.id}/tickets/${ticket.id}/${newUlid()}/audio.ogg`;
    const audio = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(2000, 1)]);
    await putMediaObject(key, audio, 'audio/ogg');
    const voice = await stored(ticket, { body: '', mediaType: 'audio', mediaKey: key, mimetype: 'audio/ogg' });
    const id = `${ticket.id}-${voice.ulid}`;

    const noKey = await as(t.attendantToken).get(`/messages/transcribeAudio/${id}`);
    expect(noKey.status).toBe(400);
    expect(noKey.body.error).toBe('ERR_NO_OPENAI_KEY');

    await setCompanySetting(t.company.id, 'openAiKey', 'sk-refused-0001');
    const refused = await as(t.attendantToken).get(`/messages/transcribeAudio/${id}`);
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe('ERR_TRANSCRIPTION_FAILED');
    expect(JSON.stringify(refused.body)).not.toContain('sk-refused');

    const secret = `sk-test-${suffix()}`;
    await setCompanySetting(t.company.id, 'openAiKey', secret);
    const res = await as(t.attendantToken).get(`/messages/transcribeAudio/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ transcribedText: `Transcrição de audio.ogg (${audio.length} bytes)` });
    const calls = (await fakeOpenAi(inject('fakeOpenAiUrl')).calls()).filter((c) => c.apiKey === secret);
    expect(calls).toEqual([{ apiKey: secret, model: 'whisper-1', filename: 'audio.ogg', size: audio.length }]);
    expect((await getMessage(t.company.id, ticket.id, voice.ulid))!.transcribedText).toBe(res.body.transcribedText);

    // Kept: asking again does not call OpenAI again. By key, within the company's prefix only.
    expect((await as(t.attendantToken).get(`/messages/transcribeAudio/${id}`)).body).toEqual(res.body);
    const byKey = await as(t.attendantToken).get(`/messages/transcribeAudio/${encodeURIComponent(key)}`);
    expect(byKey.status).toBe(200);
    const foreign = await as(t.attendantToken).get(
      `/messages/transcribeAudio/${encodeURIComponent(`c/${t.company.id + 1}/tickets/1/x/audio.ogg`)}`,
    );
    expect(foreign.status).toBe(404);
    expect((await fakeOpenAi(inject('fakeOpenAiUrl')).calls()).filter((c) => c.apiKey === secret)).toHaveLength(2);

    const settings = await as(t.adminToken).get(`/companySettings/${t.company.id}`);
    expect(settings.status).toBe(200);
    expect(JSON.stringify(settings.body)).not.toContain(secret);
    expect(settings.body).not.toHaveProperty('openAiKey');
  });
});

describe('reading', () => {
  it('pages newest first, 20 a page, with hasMore; pageNumber and the cursor agree', async () => {
    const { ticket } = await conversation();
    const start = Date.now() - 60_000;
    for (let i = 1; i <= 25; i += 1) await stored(ticket, { body: `m${i}` }, start + i);
    const page1 = await as(t.attendantToken).get(`/messages/${ticket.uuid}`, { pageNumber: '1' });
    expect(page1.status).toBe(200);
    expect(page1.body.messages.map((m: { body: string }) => m.body)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${25 - i}`),
    );
    expect(page1.body.hasMore).toBe(true);
    const page2 = await as(t.attendantToken).get(`/messages/${ticket.uuid}`, { pageNumber: '2' });
    expect(page2.body.messages.map((m: { body: string }) => m.body)).toEqual(['m5', 'm4', 'm3', 'm2', 'm1']);
    expect(page2.body.hasMore).toBe(false);
    const byCursor = await as(t.attendantToken).get(`/messages/${ticket.uuid}`, { cursor: page1.body.nextCursor });
    expect(byCursor.body.messages).toEqual(page2.body.messages);
    const bad = await as(t.attendantToken).get(`/messages/${ticket.uuid}`, { pageNumber: '0' });
    expect(bad.status).toBe(400);
  });

  it('opening page 1 as the ticket’s attendant marks it read and tells the attendants', async () => {
    const { ticket } = await conversation();
    await stored(ticket, { body: 'Oi' });
    const last = await stored(ticket, { body: 'Alguém aí?' });
    expect((await getTicket(t.company.id, ticket.id))!.unreadMessages).toBe(2);
    const page = await as(t.attendantToken).get(`/messages/${ticket.uuid}`);
    expect(page.status).toBe(200);
    expect(page.body.messages.every((m: { read: boolean }) => m.read)).toBe(true);
    const after = (await getTicket(t.company.id, ticket.id))!;
    expect(after).toMatchObject({ unreadMessages: 0, readUpTo: `MSG#${last.ulid}` });
    await eventsUntil(
      admin,
      (e) => e.channel === `company-${t.company.id}-ticket` && e.action === 'updateUnread' && e.ticketId === ticket.id,
    );
  });

  it('with allHistoric, the contact’s history across tickets, filtered by selectedQueues', async () => {
    const first = await conversation({ queueId: 7, userId: t.admin.id });
    await stored(first.ticket, { body: 'Na fila 7' });
    // A second ticket of the same contact, on another connection, in queue 8.
    const second = await createTicket(t.company.id, {
      status: 'open',
      queueId: 8,
      userId: t.admin.id,
      contactId: first.contact.id,
      whatsappId: whatsappId + 100_000,
      channel: 'whatsapp',
      isGroup: false,
      chatId: first.chatId,
      origin: 'active',
    });
    await stored(second, { body: 'Na fila 8' });
    const own = await as(t.adminToken).get(`/messages/${second.uuid}`);
    expect(own.body.messages.map((m: { body: string }) => m.body)).toEqual(['Na fila 8']);

    await updateUser(t.company.id, t.admin.id, { allHistoric: 'enabled' });
    try {
      const all = await waitFor(
        () => as(t.adminToken).get(`/messages/${second.uuid}`),
        (r) => r.body.messages?.length === 2,
        { what: 'the history (an index: eventually consistent)' },
      );
      expect(all.body.messages.map((m: { body: string }) => m.body)).toEqual(['Na fila 8', 'Na fila 7']);
      const filtered = await as(t.adminToken).get(`/messages/${second.uuid}`, { selectedQueues: '[8]' });
      expect(filtered.body.messages.map((m: { body: string }) => m.body)).toEqual(['Na fila 8']);
      const both = await as(t.adminToken).get(`/messages/${second.uuid}`, { selectedQueues: '7,8' });
      expect(both.body.messages).toHaveLength(2);
    } finally {
      await updateUser(t.company.id, t.admin.id, { allHistoric: 'disabled' });
    }
  });

  it('messages-allMe counts the messages sent between two days (private notes are not sent)', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const count = async () => {
      const res = await as(t.adminToken).get('/messages-allMe', { fromMe: 'true', dateStart: today, dateEnd: today });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.count[0].count as number;
    };
    const before = await count();
    const { ticket } = await conversation();
    await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: 'um' });
    await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: 'dois' });
    await as(t.attendantToken).post(`/messages/${ticket.id}`, { body: 'nota', isPrivate: true });
    expect(await count()).toBe(before + 2);
    const yesterday = await as(t.adminToken).get('/messages-allMe', {
      fromMe: 'true',
      dateStart: '2020-01-01',
      dateEnd: '2020-01-02',
    });
    expect(yesterday.body).toEqual({ count: [{ count: 0 }] });
    expect((await as(t.attendantToken).get('/messages-allMe', { dateStart: today, dateEnd: today })).status).toBe(403);
    const bad = await as(t.adminToken).get('/messages-allMe', { dateStart: 'ontem', dateEnd: today });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('query.dateStart');
  });
});
