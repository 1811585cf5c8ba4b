import { randomUUID } from 'node:crypto';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import {
  enqueueInbound,
  inboundDeduplicationId,
  inboundEventSchema,
  inboundGroupId,
  type InboundEventInput,
} from '../../functions/channels/inbound';
import { signAccessToken } from '../../functions/core/access-token';
import { handleInboundEvent } from '../../functions/core/inbound/inbound-service';
import { ReadScope } from '../../functions/data/read-scope';
import { defaultSchedules, updateConnection, type Connection } from '../../functions/data/connection-repository';
import { findContactIdsByIdentities, getContact } from '../../functions/data/contact-repository';
import { getProviderRef, listTicketMessages, type StoredMessage } from '../../functions/data/message-repository';
import { createQueue } from '../../functions/data/queue-repository';
import { setCompanySetting } from '../../functions/data/settings-repository';
import {
  closeTicket,
  getOpenTicketId,
  getTicket,
  listContactTicketIds,
  listTicketLog,
  type Ticket,
} from '../../functions/data/ticket-repository';
import { createUser, type User } from '../../functions/data/user-repository';
import { listOutbox } from '../../functions/data/wa-outbox-repository';
import { handler as inboundHandler } from '../../functions/jobs/inbound/handler';
import { db } from '../../functions/data/client';
import { someConnection, waitFor } from '../helpers/connections';
import { freshCompany } from '../helpers/fixtures';
import { connectSocket, openSockets, type TestSocket } from '../helpers/ws-client';

const env = inject('localCloudEnv');
const wsUrl = inject('wsUrl');
const queueUrls = JSON.parse(env.QUEUE_URLS ?? '{}') as Record<string, string>;
const sqs = new SQSClient({ endpoint: env.SQS_ENDPOINT, region: env.AWS_REGION });

afterAll(() => {
  for (const s of openSockets) s.terminate();
  sqs.destroy();
});

// ------------------------------------------------------------------------------------------- fixtures

const digits = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const lidOf = () => String(Math.floor(Math.random() * 1e14)).padStart(14, '1');
const pid = () => `3EB0${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;

interface World {
  companyId: number;
  connection: Connection;
  queueA: number;
  queueB: number;
  admin: TestSocket;
  /** A plain user in queue A. */
  inA: TestSocket;
  /** A plain user in queue B only. */
  inB: TestSocket;
}

const socketOf = async (user: Pick<User, 'companyId' | 'id' | 'profile'>): Promise<TestSocket> =>
  connectSocket(
    `${wsUrl}?token=${await signAccessToken({ companyId: user.companyId, userId: user.id, profile: user.profile, super: false })}`,
  );

/** A fresh company (STYLE 13) with queues A and B, a connection whose only queue is A, and three sockets. */
const world = async (connectionFields: Partial<Connection> = {}): Promise<World> => {
  const c = await freshCompany();
  const companyId = c.company.id;
  const queueA = (await createQueue(companyId, { name: 'Vendas', color: `#${randomUUID().slice(0, 6)}` })).id;
  const queueB = (await createQueue(companyId, { name: 'Suporte', color: `#${randomUUID().slice(0, 6)}` })).id;
  const created = await someConnection(companyId, { status: 'CONNECTED' });
  const connection = (await updateConnection(created, { queueIds: [queueA], ...connectionFields })).connection;
  const plain = (queueIds: number[], flags: Partial<User> = {}) =>
    createUser(companyId, {
      name: 'Atendente',
      email: `u-${randomUUID()}@test.local`,
      passwordHash: 'x',
      profile: 'user',
      queueIds,
      ...flags,
    });
  return {
    companyId,
    connection,
    queueA,
    queueB,
    admin: await socketOf(c.admin),
    inA: await socketOf(await plain([queueA])),
    inB: await socketOf(await plain([queueB])),
  };
};

const message = (
  w: Pick<World, 'companyId' | 'connection'>,
  phone: string,
  over: Partial<Extract<InboundEventInput, { kind: 'message' }>> = {},
): Extract<InboundEventInput, { kind: 'message' }> => ({
  kind: 'message',
  companyId: w.companyId,
  whatsappId: w.connection.id,
  chat: { id: `${phone}@s.whatsapp.net` },
  providerMessageId: pid(),
  fromMe: false,
  timestamp: new Date().toISOString(),
  contact: { phone, pushName: 'Maria Cliente' },
  content: { type: 'text', body: 'Olá, preciso de ajuda' },
  ...over,
});

const change = (w: Pick<World, 'companyId' | 'connection'>, phone: string, providerMessageId: string) => ({
  companyId: w.companyId,
  whatsappId: w.connection.id,
  chat: { id: `${phone}@s.whatsapp.net` },
  providerMessageId,
});

/** The stored message of a provider id, once the pipeline has written it. */
const stored = async (w: Pick<World, 'companyId' | 'connection'>, providerId: string, timeout = 15_000) =>
  vi.waitFor(
    async () => {
      const ref = await getProviderRef(w.companyId, w.connection.id, providerId);
      expect(ref, `message ${providerId} stored`).not.toBeNull();
      const messages = await listTicketMessages(w.companyId, ref!.ticketId);
      const found = messages.find((m) => m.providerId === providerId);
      expect(found).toBeDefined();
      return { ref: ref!, message: found!, messages };
    },
    { timeout, interval: 50 },
  );

const contactIdOf = async (companyId: number, identity: string): Promise<number | undefined> =>
  (await findContactIdsByIdentities(companyId, [identity])).get(identity);

const openTicketOf = async (w: Pick<World, 'companyId' | 'connection'>, contactId: number): Promise<Ticket> => {
  const id = await getOpenTicketId(w.companyId, contactId, w.connection.id);
  expect(id).not.toBeNull();
  return (await getTicket(w.companyId, id!))!;
};

/** An SQS record of the inbound queue, as the job receives it. */
const record = (body: string, group: string): SQSRecord =>
  ({
    messageId: randomUUID(),
    receiptHandle: 'r',
    body,
    attributes: { ApproximateReceiveCount: '1', MessageGroupId: group },
    messageAttributes: {},
  }) as unknown as SQSRecord;

/** The next event on a socket, or a failure after `ms`. */
const nextEvent = async (s: TestSocket, ms = 10_000): Promise<Record<string, unknown>> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no event arrived')), ms);
  });
  try {
    return (await Promise.race([s.next(), timeout])) as Record<string, unknown>;
  } finally {
    clearTimeout(timer);
  }
};

/** Nothing is queued for this socket: a ping's pong is the very next message. */
const expectNothingPending = async (s: TestSocket) => {
  s.send({ action: 'ping' });
  expect(await nextEvent(s)).toEqual({ action: 'pong' });
};

/** Reads events until one matches, returning every event read on the way (the match last). */
const eventsUntil = async (s: TestSocket, done: (e: Record<string, unknown>) => boolean) => {
  const seen: Record<string, unknown>[] = [];
  for (;;) {
    const e = await nextEvent(s);
    seen.push(e);
    if (done(e)) return seen;
  }
};

const isCreateOf = (providerBody: string) => (e: Record<string, unknown>) =>
  String(e.channel).endsWith('-appMessage') &&
  e.action === 'create' &&
  (e.message as { body?: string } | undefined)?.body === providerBody;

// ------------------------------------------------------------------------------------------------ tests

describe('inbound pipeline: LGPD numbers in events', () => {
  it("where the company hides numbers, a plain user's events carry the masked number and an admin's the whole one", async () => {
    const w = await world();
    await setCompanySetting(w.companyId, 'lgpdHideNumber', 'enabled');
    const phone = digits();
    const masked = `${phone.slice(0, 4)}${'*'.repeat(phone.length - 6)}${phone.slice(-2)}`;
    await enqueueInbound(message(w, phone));

    const fromAdmin = await eventsUntil(w.admin, (e) => e.channel === `company-${w.companyId}-ticket`);
    const fromAttendant = await eventsUntil(w.inA, (e) => e.channel === `company-${w.companyId}-ticket`);
    const numbersIn = (events: Record<string, unknown>[]) =>
      events
        .flatMap((e) => [
          (e.contact as { number?: string } | undefined)?.number,
          (e.ticket as { contact?: { number?: string } } | undefined)?.contact?.number,
        ])
        .filter((n): n is string => n !== undefined);
    expect(numbersIn(fromAdmin).length).toBeGreaterThanOrEqual(3);
    expect(new Set(numbersIn(fromAdmin))).toEqual(new Set([phone]));
    expect(numbersIn(fromAttendant).length).toBeGreaterThanOrEqual(3);
    expect(new Set(numbersIn(fromAttendant))).toEqual(new Set([masked]));
    expect(JSON.stringify(fromAttendant)).not.toContain(phone);
  });
});

describe('inbound pipeline: a first message', () => {
  it('makes one contact, one pending ticket in the connection queue, one message, and tells only who may see it', async () => {
    const w = await world();
    const phone = digits();
    const event = await enqueueInbound(message(w, phone));

    const { ref, message: msg, messages } = await stored(w, event.providerMessageId);
    const contactId = await contactIdOf(w.companyId, `wa#${phone}`);
    expect(contactId).toBe(ref.contactId);
    const contact = (await getContact(w.companyId, contactId!))!;
    expect(contact).toMatchObject({ name: 'Maria Cliente', number: phone, isGroup: false, channel: 'whatsapp' });
    expect(contact.identities).toEqual([`wa#${phone}`]);
    const ticket = await openTicketOf(w, contactId!);
    expect(ticket).toMatchObject({
      id: ref.ticketId,
      status: 'pending',
      queueId: w.queueA,
      userId: null,
      unreadMessages: 1,
      lastMessage: 'Olá, preciso de ajuda',
      isGroup: false,
      channel: 'whatsapp',
      chatId: `${phone}@s.whatsapp.net`,
    });
    expect(messages).toHaveLength(1);
    expect(msg).toMatchObject({
      body: 'Olá, preciso de ajuda',
      fromMe: false,
      mediaType: 'chat',
      ack: 0,
      queueId: w.queueA,
    });
    expect((await listTicketLog(w.companyId, ticket.id)).map((l) => l.type)).toEqual(['create']);

    for (const s of [w.admin, w.inA]) {
      const events = await eventsUntil(s, (e) => e.channel === `company-${w.companyId}-ticket`);
      expect(events.map((e) => `${String(e.channel).replace(/^company-\d+-/, '')}:${String(e.action)}`)).toEqual([
        'contact:update',
        'appMessage:create',
        'ticket:update',
      ]);
      expect(events[1]).toMatchObject({
        message: {
          id: `${ticket.id}-${ref.ulid}`,
          ticketId: ticket.id,
          body: 'Olá, preciso de ajuda',
          fromMe: false,
          read: false,
        },
        ticket: {
          id: ticket.id,
          uuid: ticket.uuid,
          status: 'pending',
          unreadMessages: 1,
          queue: { id: w.queueA, name: 'Vendas' },
        },
        contact: { id: contactId, name: 'Maria Cliente', number: phone },
      });
      expect(events[2]).toMatchObject({
        ticket: { id: ticket.id, whatsapp: { id: w.connection.id }, contact: { id: contactId } },
      });
      expect(JSON.stringify(events)).not.toMatch(/identities|providerId|version|"pk"/);
      await expectNothingPending(s);
    }
    await expectNothingPending(w.inB);
  });

  it('the same event delivered three times is one message and one event', async () => {
    const w = await world();
    const phone = digits();
    const input = message(w, phone);
    const first = await enqueueInbound(input);
    await enqueueInbound(input); // dropped by the queue's deduplication
    await stored(w, first.providerMessageId);
    // A re-delivery after the deduplication window: the same event under new deduplication ids.
    for (const n of [1, 2]) {
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: queueUrls.inbound,
          MessageBody: JSON.stringify(first),
          MessageGroupId: inboundGroupId(first),
          MessageDeduplicationId: `${inboundDeduplicationId(first)}:again-${n}`,
        }),
      );
    }
    // A later message of the same chat: once it is stored, the repeats before it were handled.
    const marker = await enqueueInbound(message(w, phone, { content: { type: 'text', body: 'marcador' } }));
    const { messages } = await stored(w, marker.providerMessageId);

    expect(messages.map((m) => m.body)).toEqual(['Olá, preciso de ajuda', 'marcador']);
    const ticket = (await getTicket(w.companyId, messages[0]!.ticketId))!;
    expect(ticket.unreadMessages).toBe(2);
    const events = await eventsUntil(w.admin, isCreateOf('marcador'));
    expect(events.filter(isCreateOf('Olá, preciso de ajuda'))).toHaveLength(1);
    await eventsUntil(w.admin, (e) => e.action === 'update' && String(e.channel).endsWith('-ticket'));
    await expectNothingPending(w.admin);
  });
});

describe('inbound pipeline: many messages at once', () => {
  it('100 parallel first messages of a new contact through the queue: one contact, one ticket, 100 messages, unread 100', async () => {
    const w = await world();
    const phone = digits();
    const events = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        enqueueInbound(message(w, phone, { content: { type: 'text', body: `m${i}` } })),
      ),
    );

    const contactId = await vi.waitFor(
      async () => {
        const id = await contactIdOf(w.companyId, `wa#${phone}`);
        expect(id).toBeDefined();
        const ticket = await openTicketOf(w, id!);
        expect(ticket.unreadMessages).toBe(100);
        return id!;
      },
      { timeout: 60_000, interval: 200 },
    );
    const ticket = await openTicketOf(w, contactId);
    const messages = await listTicketMessages(w.companyId, ticket.id);
    expect(messages).toHaveLength(100);
    expect(new Set(messages.map((m) => m.providerId))).toEqual(new Set(events.map((e) => e.providerMessageId)));
    await vi.waitFor(async () => expect(await listContactTicketIds(w.companyId, contactId)).toEqual([ticket.id]));
  });

  it('100 first messages handled truly in parallel (no FIFO in between) still converge on one contact and one ticket', async () => {
    const w = await world();
    const phone = digits();
    const lid = lidOf();
    // Half arrive naming the phone, half naming phone and LID, like a chat seen under both ids.
    const events = Array.from({ length: 100 }, (_, i) =>
      inboundEventSchema.parse({
        ...message(w, phone, { content: { type: 'text', body: `p${i}` } }),
        ...(i % 2 ? { contact: { phone, lid, pushName: 'Paralela' }, chat: { id: `${lid}@lid` } } : {}),
        receivedAt: new Date().toISOString(),
      }),
    );

    const outcomes = await Promise.all(events.map((e) => handleInboundEvent(e, new ReadScope())));

    expect(outcomes.every((o) => o === 'stored')).toBe(true);
    const byPhone = await contactIdOf(w.companyId, `wa#${phone}`);
    expect(await contactIdOf(w.companyId, `wa#lid:${lid}`)).toBe(byPhone);
    const ticket = await openTicketOf(w, byPhone!);
    expect(ticket.unreadMessages).toBe(100);
    expect(await listTicketMessages(w.companyId, ticket.id)).toHaveLength(100);
    await vi.waitFor(async () => expect(await listContactTicketIds(w.companyId, byPhone!)).toEqual([ticket.id]));
  });

  it("keeps each chat's order", async () => {
    const w = await world();
    const phone = digits();
    const bodies = Array.from({ length: 15 }, (_, i) => `ordem ${String(i).padStart(2, '0')}`);
    let last = '';
    for (const body of bodies) {
      // Same receivedAt for all: the store keeps them in queue order anyway.
      last = (
        await enqueueInbound(
          message(w, phone, { content: { type: 'text', body }, receivedAt: '2026-01-01T00:00:00.000Z' }),
        )
      ).providerMessageId;
    }
    const { messages, ref } = await stored(w, last);
    expect(messages.map((m) => m.body)).toEqual(bodies);
    expect((await getTicket(w.companyId, ref.ticketId))!.lastMessage).toBe('ordem 14');
  });
});

describe('inbound pipeline: who the contact is', () => {
  it('a contact known by phone and then by LID stays one contact with one ticket', async () => {
    const w = await world();
    const phone = digits();
    const lid = lidOf();
    const one = await enqueueInbound(message(w, phone, { contact: { phone } }));
    const first = await stored(w, one.providerMessageId);
    const contactId = first.ref.contactId;
    expect((await getContact(w.companyId, contactId))!.name).toBe(phone); // no push name yet: the number

    const two = await enqueueInbound(message(w, phone, { contact: { phone, lid, pushName: 'João' } }));
    await stored(w, two.providerMessageId);
    const three = await enqueueInbound(message(w, lid, { chat: { id: `${lid}@lid` }, contact: { lid } }));
    const third = await stored(w, three.providerMessageId);

    expect(third.ref.contactId).toBe(contactId);
    expect(third.ref.ticketId).toBe(first.ref.ticketId);
    expect(await contactIdOf(w.companyId, `wa#lid:${lid}`)).toBe(contactId);
    const contact = (await getContact(w.companyId, contactId))!;
    expect(contact).toMatchObject({ name: 'João', number: phone, lid });
    expect(contact.identities).toEqual([`wa#${phone}`, `wa#lid:${lid}`].sort());
    expect(third.messages).toHaveLength(3);
  });

  it('a LID contact and a phone contact made before the mapping was known are folded into the phone contact', async () => {
    const w = await world();
    const phone = digits();
    const lid = lidOf();
    const byLid = await enqueueInbound(
      message(w, lid, { chat: { id: `${lid}@lid` }, contact: { lid, pushName: 'Ana' } }),
    );
    const lidContact = (await stored(w, byLid.providerMessageId)).ref.contactId;
    const byPhone = await enqueueInbound(message(w, phone, { contact: { phone } }));
    const phoneContact = (await stored(w, byPhone.providerMessageId)).ref.contactId;
    expect(phoneContact).not.toBe(lidContact);

    const both = await enqueueInbound(
      message(w, lid, { chat: { id: `${lid}@lid` }, contact: { lid, phone, pushName: 'Ana' } }),
    );
    const after = await stored(w, both.providerMessageId);

    expect(after.ref.contactId).toBe(phoneContact);
    expect(await contactIdOf(w.companyId, `wa#lid:${lid}`)).toBe(phoneContact);
    expect((await getContact(w.companyId, lidContact))!.mergedInto).toBe(phoneContact);
    expect((await getContact(w.companyId, phoneContact))!.name).toBe('Ana');
  });

  it('a message after the ticket was closed opens a new pending ticket', async () => {
    const w = await world();
    const phone = digits();
    const one = await enqueueInbound(message(w, phone));
    const first = await stored(w, one.providerMessageId);
    const old = (await getTicket(w.companyId, first.ref.ticketId))!;
    await closeTicket(old);
    expect(await getOpenTicketId(w.companyId, old.contactId, w.connection.id)).toBeNull();

    const two = await enqueueInbound(message(w, phone, { content: { type: 'text', body: 'voltei' } }));
    const second = await stored(w, two.providerMessageId);

    expect(second.ref.ticketId).not.toBe(old.id);
    expect(second.ref.contactId).toBe(old.contactId);
    expect(await openTicketOf(w, old.contactId)).toMatchObject({
      id: second.ref.ticketId,
      status: 'pending',
      unreadMessages: 1,
    });
    expect((await getTicket(w.companyId, old.id))!.status).toBe('closed');
    expect(second.messages.map((m) => m.body)).toEqual(['voltei']);
  });

  it('within timeCreateNewTicket of the close, the contact’s message reopens that ticket as pending', async () => {
    const w = await world({ timeCreateNewTicket: 10 });
    const phone = digits();
    const one = await enqueueInbound(message(w, phone));
    const first = await stored(w, one.providerMessageId);
    const old = (await getTicket(w.companyId, first.ref.ticketId))!;
    await closeTicket(old);

    const two = await enqueueInbound(message(w, phone, { content: { type: 'text', body: 'esqueci uma coisa' } }));
    const second = await stored(w, two.providerMessageId);

    expect(second.ref.ticketId).toBe(old.id);
    expect(await openTicketOf(w, old.contactId)).toMatchObject({ id: old.id, status: 'pending', userId: null });
    const log = await listTicketLog(w.companyId, old.id);
    expect(log.map((e) => e.type)).toEqual(['create', 'closed', 'reopen']);
  });
});

describe('inbound pipeline: groups', () => {
  it('a group message makes a group contact and a group ticket, seen by admins and allowGroup users only', async () => {
    const w = await world({ allowGroup: true });
    const withGroups = await socketOf(
      await createUser(w.companyId, {
        name: 'Grupos',
        email: `g-${randomUUID()}@test.local`,
        passwordHash: 'x',
        profile: 'user',
        queueIds: [w.queueA],
        allowGroup: true,
      }),
    );
    const groupId = `120363${String(Date.now()).slice(-9)}`;
    const participant = digits();
    const event = await enqueueInbound(
      message(w, participant, {
        chat: { id: `${groupId}@g.us`, isGroup: true, name: 'Clientes VIP' },
        contact: undefined,
        participant: { phone: participant, pushName: 'Pedro' },
        content: { type: 'text', body: 'bom dia, grupo' },
      }),
    );

    const { ref, message: msg } = await stored(w, event.providerMessageId);
    expect(await contactIdOf(w.companyId, `wa#g:${groupId}`)).toBe(ref.contactId);
    expect(await contactIdOf(w.companyId, `wa#${participant}`)).toBeUndefined(); // participants are not contacts
    expect(await getContact(w.companyId, ref.contactId)).toMatchObject({
      isGroup: true,
      name: 'Clientes VIP',
      number: groupId,
    });
    expect(await getTicket(w.companyId, ref.ticketId)).toMatchObject({ status: 'group', isGroup: true, queueId: null });
    expect(msg.participant).toEqual({ number: participant, name: 'Pedro' });

    for (const s of [w.admin, withGroups]) await eventsUntil(s, isCreateOf('bom dia, grupo'));
    await expectNothingPending(w.inA);

    // The group is renamed on WhatsApp: its contact follows the new subject (a person's name would stay).
    const renamed = await enqueueInbound(
      message(w, participant, {
        chat: { id: `${groupId}@g.us`, isGroup: true, name: 'Clientes VIP 2027' },
        contact: undefined,
        participant: { phone: participant, pushName: 'Pedro' },
        content: { type: 'text', body: 'novo nome' },
      }),
    );
    await stored(w, renamed.providerMessageId);
    expect(await getContact(w.companyId, ref.contactId)).toMatchObject({ name: 'Clientes VIP 2027' });
  });

  it('a connection that does not allow groups ignores group messages', async () => {
    const w = await world();
    const groupId = `120363${String(Date.now()).slice(-9)}`;
    const ignored = await enqueueInbound(
      message(w, digits(), {
        chat: { id: `${groupId}@g.us`, isGroup: true },
        contact: undefined,
        participant: undefined,
      }),
    );
    const event = inboundEventSchema.parse({ ...ignored });
    expect(await handleInboundEvent(event, new ReadScope())).toBe('ignored:groups-disabled');
    expect(await contactIdOf(w.companyId, `wa#g:${groupId}`)).toBeUndefined();
  });
});

describe('inbound pipeline: edits, deletes and acks', () => {
  it('change the stored message, acks never go down, and each change is one update event', async () => {
    const w = await world();
    const phone = digits();
    const sent = await enqueueInbound(
      message(w, phone, { fromMe: true, content: { type: 'text', body: 'resposta do celular' } }),
    );
    const base = change(w, phone, sent.providerMessageId);
    await enqueueInbound({ kind: 'ack', ...base, ack: 3 });
    await enqueueInbound({ kind: 'ack', ...base, ack: 2 }); // late and lower: ignored
    await enqueueInbound({ kind: 'edit', ...base, body: 'resposta corrigida' });
    await enqueueInbound({ kind: 'ack', ...base, ack: 4 });

    const done = await vi.waitFor(
      async () => {
        const { message: m } = await stored(w, sent.providerMessageId);
        expect(m).toMatchObject({ ack: 4, body: 'resposta corrigida', isEdited: true });
        return m;
      },
      { timeout: 15_000 },
    );
    expect(done.fromMe).toBe(true);
    const ticket = (await getTicket(w.companyId, done.ticketId))!;
    expect(ticket.lastMessage).toBe('resposta corrigida');
    expect(ticket.unreadMessages).toBe(0);

    await enqueueInbound({ kind: 'ack', ...base, ack: 1 });
    const contactMessage = await enqueueInbound(message(w, phone, { content: { type: 'text', body: 'vou apagar' } }));
    await enqueueInbound({ kind: 'delete', ...change(w, phone, contactMessage.providerMessageId) });
    await vi.waitFor(async () =>
      expect((await stored(w, contactMessage.providerMessageId)).message.isDeleted).toBe(true),
    );
    expect((await stored(w, sent.providerMessageId)).message.ack).toBe(4);

    const events = await eventsUntil(
      w.admin,
      (e) => e.action === 'update' && (e.message as StoredMessage | undefined)?.isDeleted === true,
    );
    const updates = events.filter((e) => String(e.channel).endsWith('-appMessage') && e.action === 'update');
    expect(updates.map((e) => (e.message as { ack: number; body: string }).ack)).toEqual([3, 3, 4, 0]);
    expect(updates.map((e) => (e.message as { body: string }).body)).toEqual([
      'resposta do celular',
      'resposta corrigida',
      'resposta corrigida',
      'vou apagar',
    ]);
  });

  it('changes of messages it never stored are ignored', async () => {
    const w = await world();
    const event = inboundEventSchema.parse({ kind: 'ack', ...change(w, digits(), pid()), ack: 2 });
    expect(await handleInboundEvent(event, new ReadScope())).toBe('ignored:unknown-message');
  });
});

describe('inbound pipeline: automatic replies', () => {
  /**
   * The sends for one connection, as the outbound job left them in its outbox (decisions D41): these
   * connections are CONNECTED in storage only, so no worker holds them and the sends wait there.
   */
  const takeSends = async (whatsappId: number, count: number, companyId: number) => {
    const items = await waitFor(
      () => listOutbox(companyId, whatsappId),
      (found) => found.filter((i) => i.kind === 'send').length >= count,
      { timeoutMs: 15_000, what: `${count} sends in the outbox` },
    );
    return items.filter((i) => i.kind === 'send').map((i) => i.payload);
  };

  it("a new ticket gets the connection's greeting once, stored unsent and queued for the sender", async () => {
    const w = await world({ greetingMessage: 'Olá! Em que podemos ajudar?' });
    const phone = digits();
    const one = await enqueueInbound(message(w, phone));
    const two = await enqueueInbound(message(w, phone, { content: { type: 'text', body: 'alô?' } }));
    const { messages, ref } = await stored(w, two.providerMessageId);

    expect(messages.map((m) => [m.body, m.fromMe, m.ack, m.automatic ?? null])).toEqual([
      ['Olá, preciso de ajuda', false, 0, null],
      ['Olá! Em que podemos ajudar?', true, 0, 'greeting'],
      ['alô?', false, 0, null],
    ]);
    const greeting = messages[1]!;
    expect(greeting.triggeredBy).toBe(one.providerMessageId);
    expect(greeting.providerId).toMatch(/^3EB0[0-9A-F]{18}$/);
    const ticket = (await getTicket(w.companyId, ref.ticketId))!;
    expect(ticket.unreadMessages).toBe(2); // the system's reply reads nothing

    const sends = await takeSends(w.connection.id, 1, w.companyId);
    expect(sends).toEqual([
      {
        kind: 'send',
        companyId: w.companyId,
        whatsappId: w.connection.id,
        channel: 'whatsapp',
        ticketId: ticket.id,
        messageId: `${ticket.id}-${greeting.ulid}`,
        chatId: `${phone}@s.whatsapp.net`,
        providerMessageId: greeting.providerId,
        requestedAt: expect.any(String),
      },
    ]);
    // The attendants see the greeting like any message.
    await eventsUntil(w.admin, isCreateOf('Olá! Em que podemos ajudar?'));
  });

  it('out of service hours the contact gets the out-of-hours message once per ticket, and no greeting', async () => {
    const closed = defaultSchedules().map((d) => ({
      ...d,
      startTimeA: '',
      endTimeA: '',
      startTimeB: '',
      endTimeB: '',
    }));
    const w = await world({ greetingMessage: 'Bem-vindo', outOfHoursMessage: 'Estamos fechados.', schedules: closed });
    await setCompanySetting(w.companyId, 'scheduleType', 'connection');
    const phone = digits();
    await enqueueInbound(message(w, phone));
    await enqueueInbound(message(w, phone, { content: { type: 'text', body: 'tem alguém?' } }));
    const last = await enqueueInbound(message(w, phone, { content: { type: 'text', body: 'oi??' } }));
    const { messages } = await stored(w, last.providerMessageId);

    expect(messages.map((m) => m.body)).toEqual(['Olá, preciso de ajuda', 'Estamos fechados.', 'tem alguém?', 'oi??']);
    expect(messages[1]).toMatchObject({ fromMe: true, ack: 0, automatic: 'outOfHours' });
    expect(await takeSends(w.connection.id, 1, w.companyId)).toHaveLength(1);
  });
});

describe('inbound pipeline: malformed events', () => {
  it('are logged and dropped without holding back the rest of their chat', async () => {
    const w = await world();
    const phone = digits();
    const good = inboundEventSchema.parse({ ...message(w, phone), receivedAt: new Date().toISOString() });
    const group = inboundGroupId(good);
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    let result;
    try {
      result = await inboundHandler({
        Records: [
          record('{"kind":"message","companyId":"não é número"}', group),
          record('not json at all', group),
          record(JSON.stringify(good), group),
        ],
      });
    } finally {
      spy.mockRestore();
    }

    expect(result).toEqual({ batchItemFailures: [] });
    expect((await stored(w, good.providerMessageId)).messages).toHaveLength(1);
    const dropped = lines
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as { msg: string; problems: string[] }];
        } catch {
          return [];
        }
      })
      .filter((l) => l.msg === 'inbound event dropped: invalid');
    expect(dropped).toHaveLength(2);
    expect(dropped[0]!.problems.join(' ')).toMatch(/companyId/);
    expect(lines.join('')).not.toContain('não é número'); // problems are logged, content never
  });

  it("a batch holding a chat's run, a repeat inside it and a quote of it: each message once, in order", async () => {
    const w = await world();
    const phone = digits();
    const at = new Date().toISOString();
    const ev = (body: string, over: Partial<Extract<InboundEventInput, { kind: 'message' }>> = {}) =>
      inboundEventSchema.parse({ ...message(w, phone, { content: { type: 'text', body }, ...over }), receivedAt: at });
    const [m1, m2] = [ev('lote 1'), ev('lote 2')];
    const m3 = ev('lote 3', { quotedProviderMessageId: m1.providerMessageId });
    const m4 = ev('lote 4');
    const group = inboundGroupId(m1);

    const result = await inboundHandler({
      Records: [m1, m2, m1, m3, m4].map((e) => record(JSON.stringify(e), group)),
    });

    expect(result).toEqual({ batchItemFailures: [] });
    const { messages, ref } = await stored(w, m4.providerMessageId);
    expect(messages.map((m) => m.body)).toEqual(['lote 1', 'lote 2', 'lote 3', 'lote 4']);
    expect(messages[2]!.quotedMsg).toMatchObject({ body: 'lote 1', fromMe: false });
    const ticket = (await getTicket(w.companyId, ref.ticketId))!;
    expect(ticket).toMatchObject({ unreadMessages: 4, lastMessage: 'lote 4' });
    const events = await eventsUntil(w.admin, isCreateOf('lote 4'));
    expect(events.filter((e) => e.action === 'create').map((e) => (e.message as { body: string }).body)).toEqual([
      'lote 1',
      'lote 2',
      'lote 3',
      'lote 4',
    ]);
    const last = await nextEvent(w.admin);
    expect(last).toMatchObject({ action: 'update', ticket: { id: ticket.id, unreadMessages: 4 } });
    await expectNothingPending(w.admin);
  });

  it('through the real queue: a malformed event does not block its chat and never reaches the DLQ', async () => {
    const w = await world();
    const phone = digits();
    const group = `${w.connection.id}:${phone}@s.whatsapp.net`;
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queueUrls.inbound,
        MessageBody: '{"kind":"message","broken":true}',
        MessageGroupId: group,
        MessageDeduplicationId: randomUUID(),
      }),
    );
    const good = await enqueueInbound(message(w, phone));
    await stored(w, good.providerMessageId);
    const dead = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrls['inbound-dlq'], MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    expect((dead.Messages ?? []).filter((m) => m.Body?.includes('"broken":true'))).toEqual([]);
  });
});

describe('inbound pipeline: the reads of a batch (decisions D84)', () => {
  it('a run cut off between pinning its provider ids and its transaction is stored once when redelivered', async () => {
    const w = await world();
    const phones = [digits(), digits()];
    const recordsOf = (body: string) =>
      phones.map((phone) => {
        const e = inboundEventSchema.parse({
          ...message(w, phone, { content: { type: 'text', body: `${body} ${phone}` } }),
          receivedAt: new Date().toISOString(),
        });
        return { event: e, record: record(JSON.stringify(e), inboundGroupId(e)) };
      });
    expect(await inboundHandler({ Records: recordsOf('antes').map((r) => r.record) })).toEqual({
      batchItemFailures: [],
    });

    // The transaction fails however often it is tried (DynamoDB down for it): the pins are written first.
    const second = recordsOf('depois');
    const stack = db().middlewareStack;
    stack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand') {
          throw Object.assign(new Error('injected: transaction unavailable'), { name: 'InternalServerError' });
        }
        return next(args);
      },
      { step: 'initialize', name: 'failRunTransactions' },
    );
    let cut;
    try {
      cut = await inboundHandler({ Records: second.map((r) => r.record) });
    } finally {
      stack.remove('failRunTransactions');
    }
    expect(cut.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
      second.map((r) => r.record.messageId).sort(),
    );
    for (const { event } of second) {
      const ref = await getProviderRef(w.companyId, w.connection.id, event.providerMessageId);
      expect(ref).not.toBeNull(); // pinned
      const messages = await listTicketMessages(w.companyId, ref!.ticketId);
      expect(messages.map((m) => m.providerId)).not.toContain(event.providerMessageId); // not stored
    }

    // SQS hands the same records back: each message lands once, under its pin, and the ticket counts it.
    expect(await inboundHandler({ Records: second.map((r) => r.record) })).toEqual({ batchItemFailures: [] });
    expect(await inboundHandler({ Records: second.map((r) => r.record) })).toEqual({ batchItemFailures: [] });
    for (const [i, phone] of phones.entries()) {
      const { ref, messages } = await stored(w, second[i]!.event.providerMessageId);
      expect(messages.map((m) => m.body)).toEqual([`antes ${phone}`, `depois ${phone}`]);
      expect(messages[1]!.ulid).toBe(ref.ulid);
      expect(await getTicket(w.companyId, ref.ticketId)).toMatchObject({
        lastMessage: `depois ${phone}`,
        unreadMessages: 2,
      });
    }
  });

  it('known chats: provider ids with identities, then contacts with their open-ticket guards, in one request each', async () => {
    const w = await world();
    const phones = [digits(), digits(), digits(), digits()];
    const batchOf = (body: string) =>
      phones.map((phone) => {
        const e = inboundEventSchema.parse({
          ...message(w, phone, { content: { type: 'text', body: `${body} ${phone}` } }),
          receivedAt: new Date().toISOString(),
        });
        return record(JSON.stringify(e), inboundGroupId(e));
      });
    // The four people write a first time: contacts and tickets are made.
    expect(await inboundHandler({ Records: batchOf('primeira') })).toEqual({ batchItemFailures: [] });

    const batchGets: string[][] = [];
    const stack = db().middlewareStack;
    stack.add(
      (next, context) => async (args) => {
        const input = args.input as { RequestItems?: Record<string, { Keys?: { pk: string; sk: string }[] }> };
        if (context.commandName === 'BatchGetItemCommand') {
          batchGets.push(Object.values(input.RequestItems ?? {}).flatMap((r) => (r.Keys ?? []).map((k) => k.sk)));
        }
        return next(args);
      },
      { step: 'initialize', name: 'batchReadsAhead' },
    );
    let result;
    try {
      result = await inboundHandler({ Records: batchOf('segunda') });
    } finally {
      stack.remove('batchReadsAhead');
    }
    expect(result).toEqual({ batchItemFailures: [] });
    const kinds = (keys: string[]) => keys.map((sk) => sk.replace(/#.*$/, '')).sort();
    // First request: the four provider ids and the four people's identities.
    expect(kinds(batchGets[0]!)).toEqual([...phones.map(() => 'CTID'), ...phones.map(() => 'WAMID')]);
    // Second: the four contacts and their open-ticket guards.
    expect(kinds(batchGets[1]!)).toEqual([...phones.map(() => 'CONTACT'), ...phones.map(() => 'OPEN')]);
    // And what the people see is as before: each second message on its person's only ticket.
    for (const phone of phones) {
      const contactId = (await contactIdOf(w.companyId, `wa#${phone}`))!;
      const ticket = await openTicketOf(w, contactId);
      expect(ticket).toMatchObject({ lastMessage: `segunda ${phone}`, unreadMessages: 2 });
      expect((await listTicketMessages(w.companyId, ticket.id)).map((m) => m.body)).toEqual([
        `primeira ${phone}`,
        `segunda ${phone}`,
      ]);
    }
  });
});
