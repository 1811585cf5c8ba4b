import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { enqueueInbound } from '../../functions/channels/inbound';
import { runLaneTimers } from '../../functions/core/tags/lane-timers';
import { db, tableName } from '../../functions/data/client';
import { nextId } from '../../functions/data/counter-repository';
import { createContact, getContact, type Contact } from '../../functions/data/contact-repository';
import { getProviderRef, listTicketMessages } from '../../functions/data/message-repository';
import { createTag, getTag, type Tag } from '../../functions/data/tag-repository';
import { contactIdsOfTag, ticketIdsOfTag } from '../../functions/data/tag-admin-repository';
import { createTicket, getTicket, type Ticket } from '../../functions/data/ticket-repository';
import { type TaggedTicket } from '../../functions/data/ticket-tag-repository';
import { someConnection, waitFor, eventsUntil } from '../helpers/connections';
import { api, channelPlan, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';
import type { Connection } from '../../functions/data/connection-repository';

/**
 * Tags administration and the kanban board (administration §2, §3, §7; decisions D100–D102): tag edit and
 * delete with their links, contacts of a tag, the board's lanes and cards by date range, moves that leave a
 * card in exactly one lane, and the lane timers (greeting once per entry, the lane time moving once).
 */
let t: TestCompany;
let other: TestCompany;
let connection: Connection;
beforeAll(async () => {
  [t, other] = await Promise.all([freshCompany(), freshCompany()]);
  connection = await someConnection(t.company.id, { status: 'CONNECTED' });
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const contactOf = (c: TestCompany, name = `Contato ${randomUUID().slice(0, 6)}`): Promise<Contact> => {
  const number = phone();
  return createContact(c.company.id, { name, number, isGroup: false, channel: 'whatsapp', whatsappId: null }, [
    `wa#${number}`,
  ]);
};
/** A pending ticket of a fresh contact on the connection, with its chat (so automatic texts can go out). */
const ticketOf = async (c: TestCompany, whatsappId = connection.id): Promise<Ticket> => {
  const contact = await contactOf(c);
  return createTicket(c.company.id, {
    status: 'pending',
    queueId: null,
    userId: null,
    contactId: contact.id,
    whatsappId,
    channel: 'whatsapp',
    isGroup: false,
    origin: 'passive',
    chatId: `${contact.number}@s.whatsapp.net`,
  });
};
const lane = (c: TestCompany, name: string, fields: Partial<Tag> = {}) =>
  createTag(c.company.id, { name: `${name} ${randomUUID().slice(0, 4)}`, color: '#3366ff', kanban: 1, ...fields });

/** The lane links of a ticket, read consistently from its partition. */
const laneLinks = async (companyId: number, ticketId: number): Promise<number[]> => {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tag)',
      ExpressionAttributeValues: { ':pk': `C#${companyId}#T#${String(ticketId).padStart(10, '0')}`, ':tag': 'TAG#' },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).filter((i) => i.kanban === 1).map((i) => Number(i.tagId));
};

describe('tags administration', () => {
  it('edits a tag into a kanban lane with its lane fields; the list finds it by search and kanban filter', async () => {
    const next = await lane(t, 'Proposta');
    const created = await api(t.attendantToken).post('/tags', { name: `Negociação ${randomUUID().slice(0, 4)}` });
    expect(created.status).toBe(201);
    const res = await api(t.attendantToken).put(`/tags/${created.body.id}`, {
      kanban: 1,
      timeLane: 2,
      nextLaneId: next.id,
      rollbackLaneId: 0,
      greetingMessageLane: 'Estamos negociando!',
      userId: t.attendant.id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      kanban: 1,
      timeLane: 2,
      nextLaneId: next.id,
      rollbackLaneId: null,
      greetingMessageLane: 'Estamos negociando!',
      userId: t.attendant.id,
      contactCount: 0,
      ticketCount: 0,
    });
    const search = await api(t.adminToken).get('/tags', { searchParam: 'negocia', kanban: '1' });
    expect(search.body.tags.map((x: { id: number }) => x.id)).toEqual([created.body.id]);
    const lanes = await api(t.adminToken).get('/tag/kanban');
    expect(lanes.status).toBe(200);
    expect(lanes.body.lista.map((x: { id: number }) => x.id)).toEqual(
      expect.arrayContaining([next.id, created.body.id]),
    );

    const off = await api(t.adminToken).put(`/tags/${created.body.id}`, { kanban: 0, name: 'Negociação encerrada' });
    expect(off.body).toMatchObject({ kanban: 0, name: 'Negociação encerrada' });
    const lanesAfter = await api(t.adminToken).get('/tag/kanban');
    expect(lanesAfter.body.lista.map((x: { id: number }) => x.id)).not.toContain(created.body.id);
  });

  it('bad input is a 400 naming the field and changes nothing', async () => {
    const tag = await lane(t, 'Intacta');
    const plainTag = await createTag(t.company.id, {
      name: `Comum ${randomUUID().slice(0, 4)}`,
      color: '#000000',
      kanban: 0,
    });
    const cases: [unknown, string][] = [
      [{ name: 'ab' }, 'body.name'],
      [{ color: 'azul' }, 'body.color'],
      [{ timeLane: -1 }, 'body.timeLane'],
      [{ nextLaneId: tag.id }, 'body.nextLaneId'],
      [{ nextLaneId: plainTag.id }, 'body.nextLaneId'],
      [{ rollbackLaneId: 999999 }, 'body.rollbackLaneId'],
      [{ userId: 999999 }, 'body.userId'],
    ];
    for (const [body, field] of cases) {
      const res = await api(t.adminToken).put(`/tags/${tag.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect(await getTag(t.company.id, tag.id)).toEqual(tag);
  });

  it("another company's tag is a 404 for edit, delete, contacts and contact removal", async () => {
    // Ids are numbered per company: one beyond the caller's own.
    await nextId(other.company.id, 'tag', 1000);
    const foreign = await lane(other, 'Alheia');
    const contact = await contactOf(other);
    for (const res of [
      await api(t.adminToken).put(`/tags/${foreign.id}`, { name: 'Roubada' }),
      await api(t.adminToken).delete(`/tags/${foreign.id}`),
      await api(t.adminToken).get(`/tags/${foreign.id}/contacts`),
      await api(t.adminToken).delete(`/tags-contacts/${foreign.id}/${contact.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_TAG_FOUND');
    }
    expect((await getTag(other.company.id, foreign.id))?.name).toBe(foreign.name);
  });

  it('counts contacts per tag, lists them and removes one', async () => {
    const tag = await createTag(t.company.id, {
      name: `Clientes ${randomUUID().slice(0, 4)}`,
      color: '#aa0000',
      kanban: 0,
    });
    const people = [
      await contactOf(t, 'Ana Contato'),
      await contactOf(t, 'Bia Contato'),
      await contactOf(t, 'Caio Contato'),
    ];
    for (const p of people) {
      const res = await api(t.attendantToken).post('/tags/sync', { contactId: p.id, tags: [tag.id] });
      expect(res.status).toBe(200);
    }
    const one = await api(t.attendantToken).get(`/tags/${tag.id}`);
    expect(one.body.contactCount).toBe(3);
    const list = await waitFor(
      () => api(t.attendantToken).get(`/tags/${tag.id}/contacts`),
      (r) => r.body.contacts?.length === 3,
      { what: 'the contacts of the tag' },
    );
    expect(list.body.contacts.map((c: { name: string }) => c.name)).toEqual([
      'Ana Contato',
      'Bia Contato',
      'Caio Contato',
    ]);
    expect(list.body.contacts[0]).toEqual({ id: people[0]!.id, name: 'Ana Contato', number: people[0]!.number });

    const removed = await api(t.attendantToken).delete(`/tags-contacts/${tag.id}/${people[1]!.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.contactCount).toBe(2);
    expect((await getContact(t.company.id, people[1]!.id))?.tagIds).toEqual([]);
    const tags = await api(t.attendantToken).get(`/contactTags/${people[1]!.id}`);
    expect(tags.body.tags).toEqual([]);
  });

  it('a deleted contact or ticket leaves its tags: counted down, gone from the tag’s lists', async () => {
    const tag = await createTag(t.company.id, {
      name: `Saída ${randomUUID().slice(0, 4)}`,
      color: '#00aa00',
      kanban: 0,
    });
    const other = await createTag(t.company.id, {
      name: `Outra ${randomUUID().slice(0, 4)}`,
      color: '#0000aa',
      kanban: 0,
    });
    const [staying, leaving] = [await contactOf(t, 'Fica Contato'), await contactOf(t, 'Sai Contato')];
    for (const p of [staying, leaving]) {
      expect((await api(t.adminToken).post('/tags/sync', { contactId: p.id, tags: [tag.id, other.id] })).status).toBe(
        200,
      );
    }
    const ticket = await ticketOf(t);
    expect((await api(t.adminToken).put(`/ticket-tags/${ticket.id}/${tag.id}`)).status).toBe(200);
    expect(await getTag(t.company.id, tag.id)).toMatchObject({ contactCount: 2, ticketCount: 1 });

    expect((await api(t.adminToken).delete(`/contacts/${leaving.id}`)).status).toBe(200);
    expect((await api(t.adminToken).delete(`/tickets/${ticket.id}`)).status).toBe(200);

    expect(await getTag(t.company.id, tag.id)).toMatchObject({ contactCount: 1, ticketCount: 0 });
    expect((await getTag(t.company.id, other.id))?.contactCount).toBe(1);
    const list = await waitFor(
      () => api(t.adminToken).get(`/tags/${tag.id}/contacts`),
      (r) => r.body.contacts?.length === 1,
      { what: 'the contacts of the tag without the deleted one' },
    );
    expect(list.body.contacts.map((c: { id: number }) => c.id)).toEqual([staying.id]);
    expect(await contactIdsOfTag(t.company.id, tag.id, 10)).toEqual([staying.id]);
  });

  it('pages the tag list by pageNumber and cursor', async () => {
    const c = await freshCompany();
    for (let i = 0; i < 23; i += 1)
      await createTag(c.company.id, { name: `pagina ${String(i).padStart(2, '0')}`, color: '#111111', kanban: 0 });
    const first = await api(c.adminToken).get('/tags', { pageNumber: '1' });
    expect(first.body.tags).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await api(c.adminToken).get('/tags', { pageNumber: '2' });
    expect(second.body.tags.map((x: { name: string }) => x.name)).toEqual(['pagina 20', 'pagina 21', 'pagina 22']);
    const byCursor = await api(c.adminToken).get('/tags', { cursor: first.body.nextCursor });
    expect(byCursor.body.tags).toEqual(second.body.tags);
  });

  it('deleting a tag removes its contact and ticket links and the lanes that led to it; company{id}-tag says so', async () => {
    const doomed = await lane(t, 'Condenada');
    const pointing = await lane(t, 'Aponta', { nextLaneId: doomed.id, rollbackLaneId: doomed.id });
    const people = [await contactOf(t), await contactOf(t)];
    for (const p of people) await api(t.adminToken).post('/tags/sync', { contactId: p.id, tags: [doomed.id] });
    const tickets = [await ticketOf(t), await ticketOf(t)];
    for (const tk of tickets)
      expect((await api(t.adminToken).put(`/ticket-tags/${tk.id}/${doomed.id}`)).status).toBe(200);

    const socket = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
    const res = await api(t.adminToken).delete(`/tags/${doomed.id}`);
    expect(res.status).toBe(200);
    const events = await eventsUntil(
      socket,
      (e) => e.channel === `company${t.company.id}-tag` && e.action === 'delete',
    );
    expect(events.find((e) => e.action === 'delete')).toMatchObject({ tagId: doomed.id });
    expect((await api(t.adminToken).get(`/tags/${doomed.id}`)).status).toBe(404);
    expect(await getTag(t.company.id, pointing.id)).toMatchObject({ nextLaneId: null, rollbackLaneId: null });

    await waitFor(
      async () => ({
        contacts: await contactIdsOfTag(t.company.id, doomed.id, 10),
        tickets: await ticketIdsOfTag(t.company.id, doomed.id, 10),
        contactTags: await Promise.all(people.map(async (p) => (await getContact(t.company.id, p.id))?.tagIds)),
        ticketTags: await Promise.all(
          tickets.map(async (tk) => (await getTicket(t.company.id, tk.id)) as TaggedTicket),
        ),
      }),
      (s) =>
        s.contacts.length === 0 &&
        s.tickets.length === 0 &&
        s.contactTags.every((ids) => ids?.length === 0) &&
        s.ticketTags.every((tk) => (tk.tagIds ?? []).length === 0 && tk.kanbanTagId === undefined),
      { what: 'the deleted tag gone from every contact and ticket', timeoutMs: 30_000 },
    );
    for (const tk of tickets) expect(await laneLinks(t.company.id, tk.id)).toEqual([]);
  });
});

describe('the kanban board', () => {
  it('lists the cards of the date range by lane, default lane first, with what a card shows', async () => {
    const c = await freshCompany();
    const conn = await someConnection(c.company.id, { status: 'CONNECTED', name: 'Loja' });
    const col = await lane(c, 'Contato feito');
    const inLane = await ticketOf(c, conn.id);
    const noLane = await ticketOf(c, conn.id);
    await api(c.adminToken).put(`/ticket-tags/${inLane.id}/${col.id}`);
    const today = new Date().toISOString().slice(0, 10);
    const res = await waitFor(
      () => api(c.adminToken).get('/ticket/kanban', { startDate: today, endDate: today }),
      (r) =>
        r.body.tickets?.length === 2 && r.body.tickets.some((x: { kanbanTagId: number }) => x.kanbanTagId === col.id),
      { what: 'both cards on the board' },
    );
    const byId = new Map(res.body.tickets.map((x: { id: number }) => [x.id, x]));
    expect(byId.get(inLane.id)).toMatchObject({
      uuid: inLane.uuid,
      kanbanTagId: col.id,
      whatsapp: { id: conn.id, name: 'Loja' },
      channel: 'whatsapp',
      tags: [{ id: col.id, name: col.name, color: col.color, kanban: 1 }],
      unreadMessages: 0,
      user: null,
    });
    expect(byId.get(noLane.id)).toMatchObject({ kanbanTagId: null, tags: [] });

    // A range that does not hold the tickets' day shows none of them.
    const past = await api(c.adminToken).get('/ticket/kanban', { startDate: '2020-01-01', endDate: '2020-01-31' });
    expect(past.body.tickets).toEqual([]);
    // queueIds (a JSON list) keeps only those queues' tickets.
    const queues = await api(c.adminToken).get('/ticket/kanban', { queueIds: '[12345]' });
    expect(queues.body.tickets).toEqual([]);
  });

  it('refuses bad dates and a plan without kanban; another company sees none of the cards', async () => {
    const queries: Record<string, string>[] = [
      { startDate: '27/11/2026' },
      { startDate: '2026-02-02', endDate: '2026-01-01' },
      { queueIds: 'x' },
    ];
    for (const query of queries) {
      const res = await api(t.adminToken).get('/ticket/kanban', query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.fields.length).toBeGreaterThan(0);
    }
    const plan = await channelPlan();
    const noKanban = await freshCompany(undefined, { planId: plan.id });
    expect((await api(noKanban.adminToken).get('/ticket/kanban')).status).toBe(403);
    expect((await api(noKanban.adminToken).get('/tag/kanban')).status).toBe(403);
    const ticket = await ticketOf(t);
    const res = await api(other.adminToken).get('/ticket/kanban');
    expect(res.body.tickets.map((x: { id: number }) => x.id)).not.toContain(ticket.id);
  });

  it('two people moving one card at once leave it in exactly one lane; the default-lane move keeps other tags', async () => {
    const [a, b] = [await lane(t, 'Coluna A'), await lane(t, 'Coluna B')];
    const plainTag = await createTag(t.company.id, {
      name: `Etiqueta ${randomUUID().slice(0, 4)}`,
      color: '#222222',
      kanban: 0,
    });
    const ticket = await ticketOf(t);
    await api(t.adminToken).put(`/ticket-tags/${ticket.id}/${plainTag.id}`);
    const [ra, rb] = await Promise.all([
      api(t.adminToken).put(`/ticket-tags/${ticket.id}/${a.id}`),
      api(t.adminToken).put(`/ticket-tags/${ticket.id}/${b.id}`),
    ]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    const stored = (await getTicket(t.company.id, ticket.id)) as TaggedTicket;
    const links = await laneLinks(t.company.id, ticket.id);
    expect(links).toHaveLength(1);
    expect(links).toEqual([stored.kanbanTagId]);
    expect(stored.tagIds?.sort()).toEqual([plainTag.id, stored.kanbanTagId].sort());
    const counts = [(await getTag(t.company.id, a.id))!.ticketCount, (await getTag(t.company.id, b.id))!.ticketCount];
    expect(counts.sort()).toEqual([0, 1]);

    const back = await api(t.adminToken).delete(`/ticket-tags/${ticket.id}?kanban=1`);
    expect(back.status).toBe(200);
    expect(back.body.tags.map((x: { id: number }) => x.id)).toEqual([plainTag.id]);
    expect(await laneLinks(t.company.id, ticket.id)).toEqual([]);
    expect(((await getTicket(t.company.id, ticket.id)) as TaggedTicket).kanbanTagId).toBeUndefined();
  });
});

describe('lane timers', () => {
  it('sends the lane greeting once per entry and moves the card once when the lane time runs out', async () => {
    const next = await lane(t, 'Seguimento', { greetingMessageLane: 'Vamos dar seguimento!' });
    const first = await lane(t, 'Primeiro contato', {
      timeLane: 1,
      nextLaneId: next.id,
      greetingMessageLane: 'Olá, recebemos seu contato!',
    });
    const ticket = await ticketOf(t);
    expect((await api(t.adminToken).put(`/ticket-tags/${ticket.id}/${first.id}`)).status).toBe(200);
    await runLaneTimers();
    const greetings = (await listTicketMessages(t.company.id, ticket.id)).map((m) => m.body);
    expect(greetings).toEqual(['Olá, recebemos seu contato!']);

    const later = new Date(Date.now() + 61 * 60_000);
    const firstRun = await runLaneTimers(later);
    const secondRun = await runLaneTimers(later);
    expect([firstRun.moved, secondRun.moved]).toEqual([1, 0]);
    const moved = (await getTicket(t.company.id, ticket.id)) as TaggedTicket;
    expect(moved.kanbanTagId).toBe(next.id);
    expect(await laneLinks(t.company.id, ticket.id)).toEqual([next.id]);
    const bodies = (await listTicketMessages(t.company.id, ticket.id)).map((m) => m.body);
    expect(bodies.filter((b) => b === 'Olá, recebemos seu contato!')).toHaveLength(1);
    expect(bodies.filter((b) => b === 'Vamos dar seguimento!')).toHaveLength(1);
  }, 180_000);

  it('a customer who answered in the lane goes to the rollback lane instead', async () => {
    const next = await lane(t, 'Sem resposta');
    const rollback = await lane(t, 'Respondeu');
    const waiting = await lane(t, 'Aguardando cliente', {
      timeLane: 1,
      nextLaneId: next.id,
      rollbackLaneId: rollback.id,
    });
    const ticket = await ticketOf(t);
    await api(t.adminToken).put(`/ticket-tags/${ticket.id}/${waiting.id}`);
    const contact = (await getContact(t.company.id, ticket.contactId))!;
    const providerMessageId = `3EB0${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;
    await enqueueInbound({
      kind: 'message',
      companyId: t.company.id,
      whatsappId: connection.id,
      chat: { id: `${contact.number}@s.whatsapp.net` },
      providerMessageId,
      fromMe: false,
      timestamp: new Date().toISOString(),
      contact: { phone: contact.number, pushName: contact.name },
      content: { type: 'text', body: 'Oi, ainda tenho interesse' },
    });
    const ref = await waitFor(
      () => getProviderRef(t.company.id, connection.id, providerMessageId),
      (r) => r !== null,
      { what: 'the customer message stored' },
    );
    expect(ref!.ticketId).toBe(ticket.id);
    await waitFor(
      () => getTicket(t.company.id, ticket.id),
      (tk) => tk?.lastInboundAt !== undefined,
      { what: "the customer's message on the ticket" },
    );
    await runLaneTimers(new Date(Date.now() + 61 * 60_000));
    await runLaneTimers(new Date(Date.now() + 61 * 60_000));
    expect(((await getTicket(t.company.id, ticket.id)) as TaggedTicket).kanbanTagId).toBe(rollback.id);
    expect(await laneLinks(t.company.id, ticket.id)).toEqual([rollback.id]);
  }, 180_000);
});
