import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { createContact, getContact, type Contact } from '../../functions/data/contact-repository';
import { listTicketNotes } from '../../functions/data/note-repository';
import { createTag, listAllTags, listContactTagIds } from '../../functions/data/tag-repository';
import { createTicket, getTicket, type Ticket } from '../../functions/data/ticket-repository';
import { listTicketIdsOfTag } from '../../functions/data/ticket-tag-repository';
import { createUser } from '../../functions/data/user-repository';
import { eventsUntil, waitFor, type SocketEvent } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

let t: TestCompany;
let other: TestCompany;
/** A second plain user of `t`, who sees only tickets assigned to them. */
let plainToken: string;
beforeAll(async () => {
  [t, other] = await Promise.all([freshCompany(), freshCompany()]);
  const plain = await createUser(t.company.id, {
    name: 'Outra Atendente',
    email: `p-${randomUUID()}@test.local`,
    passwordHash: 'x',
    profile: 'user',
  });
  plainToken = await signAccessToken({ companyId: t.company.id, userId: plain.id, profile: 'user', super: false });
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const contactOf = (companyId: number, name = `Contato ${randomUUID().slice(0, 6)}`): Promise<Contact> => {
  const number = phone();
  return createContact(companyId, { name, number, isGroup: false, channel: 'whatsapp', whatsappId: null }, [
    `wa#${number}`,
  ]);
};
/** An open ticket of a fresh contact, assigned to `userId` (null: pending, no queue). */
const ticketOf = async (c: TestCompany, userId: number | null): Promise<Ticket> => {
  const contact = await contactOf(c.company.id);
  return createTicket(c.company.id, {
    status: userId === null ? 'pending' : 'open',
    queueId: null,
    userId,
    contactId: contact.id,
    whatsappId: 1,
    channel: 'whatsapp',
    isGroup: false,
    origin: 'active',
  });
};
const tag = (c: TestCompany, name: string, kanban: 0 | 1 = 0) =>
  createTag(c.company.id, { name: `${name} ${randomUUID().slice(0, 4)}`, color: '#00aa00', kanban });
const names = (body: { name: string }[]) => body.map((x) => x.name);

describe('tags list and contact tags', () => {
  it('GET /tags/list answers every tag of the company; kanban=1 only the lanes', async () => {
    const c = await freshCompany();
    const plainTag = await tag(c, 'Lista');
    const lane = await tag(c, 'Coluna', 1);
    const all = await api(c.attendantToken).get('/tags/list', { companyId: String(other.company.id) });
    expect(all.status).toBe(200);
    expect(names(all.body).sort()).toEqual([plainTag.name, lane.name].sort());
    const lanes = await api(c.attendantToken).get('/tags/list', { kanban: '1' });
    expect(names(lanes.body)).toEqual([lane.name]);
    expect(all.body[0]).not.toHaveProperty('companyId');
  });

  it('sync sets exactly the given tags, creates inline ones, and GET /contacts?contactTag filters by them', async () => {
    const vip = await tag(t, 'VIP');
    const lead = await tag(t, 'Lead');
    const tagged = await contactOf(t.company.id, 'Zuleica Tagueada');
    const untagged = await contactOf(t.company.id, 'Zuleica Sem Tag');
    const res = await api(t.attendantToken).post('/tags/sync', {
      contactId: tagged.id,
      tags: [{ id: vip.id, name: vip.name }, lead.id, { name: 'Nova inline' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(names(res.body.tags).sort()).toEqual([lead.name, 'Nova inline', vip.name].sort());
    const inline = res.body.tags.find((x: { name: string }) => x.name === 'Nova inline');
    expect(inline).toMatchObject({ kanban: 0, color: expect.stringMatching(/^#[0-9a-f]{6}$/) });

    const read = await api(t.adminToken).get(`/contactTags/${tagged.id}`);
    expect(names(read.body.tags).sort()).toEqual(names(res.body.tags).sort());
    expect((await getContact(t.company.id, tagged.id))?.tagIds.sort()).toEqual(
      [vip.id, lead.id, inline.id].sort((a, b) => a - b),
    );
    // The contacts list by tag (a Query of the tag's links, eventually consistent).
    const byTag = await waitFor(
      () => api(t.adminToken).get('/contacts', { contactTag: JSON.stringify([vip.id]), searchParam: 'zuleica' }),
      (r) => r.body.contacts?.length === 1,
      { what: 'the tagged contact in the list' },
    );
    expect(byTag.body.contacts[0]).toMatchObject({ id: tagged.id, tags: expect.arrayContaining([{ id: vip.id }]) });
    expect(byTag.body.contacts.map((x: { id: number }) => x.id)).not.toContain(untagged.id);
    // Two of its tags: the contact appears once.
    const twoTags = await api(t.adminToken).get('/contacts', { contactTag: JSON.stringify([vip.id, lead.id]) });
    expect(twoTags.body.contacts.filter((x: { id: number }) => x.id === tagged.id)).toHaveLength(1);

    // Sync replaces: VIP goes, its link too.
    const again = await api(t.attendantToken).post('/tags/sync', { contactId: tagged.id, tags: [lead.id] });
    expect(names(again.body.tags)).toEqual([lead.name]);
    expect(await listContactTagIds(t.company.id, tagged.id)).toEqual([lead.id]);
    await waitFor(
      () => api(t.adminToken).get('/contacts', { contactTag: JSON.stringify([vip.id]) }),
      (r) => r.body.contacts?.length === 0,
      { what: 'the VIP filter to be empty' },
    );
  });

  it('a renamed contact keeps its place in the tag filter by its new name', async () => {
    const mark = await tag(t, 'Renomear');
    const contact = await contactOf(t.company.id, 'Antigo Nome');
    await api(t.adminToken).post('/tags/sync', { contactId: contact.id, tags: [mark.id] });
    await api(t.adminToken).put(`/contacts/${contact.id}`, { name: 'Xavier Novo' });
    const found = await waitFor(
      () => api(t.adminToken).get('/contacts', { contactTag: JSON.stringify([mark.id]), searchParam: 'xavier' }),
      (r) => r.body.contacts?.length === 1,
      { what: 'the renamed contact by its new name' },
    );
    expect(found.body.contacts[0]).toMatchObject({ id: contact.id, name: 'Xavier Novo' });
  });

  it('bad input is a 400 with the field and the spec text, and nothing is written', async () => {
    const contact = await contactOf(t.company.id);
    const before = (await listAllTags(t.company.id, false)).length;
    const short = await api(t.adminToken).post('/tags/sync', {
      contactId: contact.id,
      tags: [{ name: 'Boa etiqueta' }, { name: 'ab' }],
    });
    expect(short.status).toBe(400);
    expect(short.body.fields).toEqual([{ field: 'body.tags.1.name', reason: 'Tag muito curta!' }]);
    const unknown = await api(t.adminToken).post('/tags/sync', { contactId: contact.id, tags: [999999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual([{ field: 'body.tags.0.id', reason: 'no such tag' }]);
    const noList = await api(t.adminToken).post('/tags/sync', { contactId: contact.id });
    expect(noList.status).toBe(400);
    expect(noList.body.fields[0].field).toBe('body.tags');
    expect((await listAllTags(t.company.id, false)).length).toBe(before);
    expect(await listContactTagIds(t.company.id, contact.id)).toEqual([]);
  });

  it("another company's contact or tag answers 404 like a missing one, and nothing changes", async () => {
    const foreign = await contactOf(other.company.id);
    const mine = await tag(t, 'Minha');
    for (const res of [
      await api(t.adminToken).post('/tags/sync', { contactId: foreign.id + 100_000, tags: [mine.id] }),
      await api(t.adminToken).get(`/contactTags/${foreign.id + 100_000}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_CONTACT_FOUND');
    }
    const theirTag = await createTag(other.company.id, { name: 'Deles', color: '#111111', kanban: 0 });
    const contact = await contactOf(t.company.id);
    const res = await api(t.adminToken).post('/tags/sync', { contactId: contact.id, tags: [theirTag.id + 100_000] });
    expect(res.status).toBe(400);
    expect(await listContactTagIds(t.company.id, contact.id)).toEqual([]);
  });

  it('a contact tag change reaches the company as company-{id}-contact update, not another company', async () => {
    const c = await freshCompany();
    const url = (token: string) => `${inject('wsUrl')}?token=${token}`;
    const [admin, outsider] = await Promise.all([
      connectSocket(url(c.attendantToken)),
      connectSocket(url(other.adminToken)),
    ]);
    const contact = await contactOf(c.company.id);
    const mark = await tag(c, 'Evento');
    await api(c.adminToken).post('/tags/sync', { contactId: contact.id, tags: [mark.id] });
    const channel = `company-${c.company.id}-contact`;
    const [event] = (await eventsUntil(admin, (e) => e.channel === channel && e.action === 'update')).slice(-1);
    expect(event).toMatchObject({ contact: { id: contact.id, tags: [{ id: mark.id }] } });
    outsider.send({ action: 'ping' });
    expect(await outsider.next()).toEqual({ action: 'pong' });
  });
});

describe('ticket tags', () => {
  it('adds tags, a kanban tag moves the card from its previous lane, and DELETE removes them all', async () => {
    const ticket = await ticketOf(t, t.attendant.id);
    const plainTag = await tag(t, 'Urgente');
    const laneA = await tag(t, 'Coluna A', 1);
    const laneB = await tag(t, 'Coluna B', 1);
    const user = api(t.attendantToken);
    const first = await user.put(`/ticket-tags/${ticket.id}/${plainTag.id}`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ ticketId: ticket.id, tags: [{ id: plainTag.id, name: plainTag.name }] });
    await user.put(`/ticket-tags/${ticket.id}/${laneA.id}`);
    const moved = await user.put(`/ticket-tags/${ticket.id}/${laneB.id}`);
    expect(moved.body.tags.map((x: { id: number }) => x.id).sort()).toEqual([plainTag.id, laneB.id].sort());
    const stored = await getTicket(t.company.id, ticket.id);
    expect(stored?.tagIds.sort()).toEqual([plainTag.id, laneB.id].sort());
    expect((stored as { kanbanTagId?: number }).kanbanTagId).toBe(laneB.id);
    await waitFor(
      () => Promise.all([listTicketIdsOfTag(t.company.id, laneA.id), listTicketIdsOfTag(t.company.id, laneB.id)]),
      ([a, b]) => !a.includes(ticket.id) && b.includes(ticket.id),
      { what: 'the card to be in lane B only' },
    );
    // The same tag again changes nothing.
    const repeat = await user.put(`/ticket-tags/${ticket.id}/${plainTag.id}`);
    expect(repeat.body.tags).toHaveLength(2);

    const cleared = await user.delete(`/ticket-tags/${ticket.id}`);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ ticketId: ticket.id, tags: [] });
    const after = await getTicket(t.company.id, ticket.id);
    expect(after?.tagIds).toEqual([]);
    expect(after).not.toHaveProperty('kanbanTagId');
    await waitFor(
      () => listTicketIdsOfTag(t.company.id, plainTag.id),
      (ids) => !ids.includes(ticket.id),
      { what: 'the link to be gone' },
    );
  });

  it('a ticket the caller may not see is 403 and unchanged; an unknown tag 404; another company’s ticket 404', async () => {
    const ticket = await ticketOf(t, t.attendant.id);
    const mark = await tag(t, 'Proibida');
    const forbidden = await api(plainToken).put(`/ticket-tags/${ticket.id}/${mark.id}`);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api(plainToken).delete(`/ticket-tags/${ticket.id}`)).status).toBe(403);
    expect((await getTicket(t.company.id, ticket.id))?.tagIds).toEqual([]);

    const noTag = await api(t.adminToken).put(`/ticket-tags/${ticket.id}/999999`);
    expect(noTag.status).toBe(404);
    expect(noTag.body.error).toBe('ERR_NO_TAG_FOUND');

    const theirs = await ticketOf(other, other.admin.id);
    const foreign = await api(t.adminToken).put(`/ticket-tags/${theirs.id + 100_000}/${mark.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_TICKET_FOUND');
    const bad = await api(t.adminToken).put(`/ticket-tags/abc/${mark.id}`);
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('params.ticketId');
  });

  it('two tags added at once both stay (no lost update)', async () => {
    const ticket = await ticketOf(t, t.admin.id);
    const marks = await Promise.all([tag(t, 'Par 1'), tag(t, 'Par 2'), tag(t, 'Par 3')]);
    const results = await Promise.all(marks.map((m) => api(t.adminToken).put(`/ticket-tags/${ticket.id}/${m.id}`)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await getTicket(t.company.id, ticket.id))?.tagIds.sort()).toEqual(marks.map((m) => m.id).sort());
  });

  it('a tag change reaches only the users who may see the ticket, as company-{id}-ticket update', async () => {
    const url = (token: string) => `${inject('wsUrl')}?token=${token}`;
    const [admin, assigned, plain] = await Promise.all([
      connectSocket(url(t.adminToken)),
      connectSocket(url(t.attendantToken)),
      connectSocket(url(plainToken)),
    ]);
    const ticket = await ticketOf(t, t.attendant.id);
    const mark = await tag(t, 'Ao vivo');
    await api(t.adminToken).put(`/ticket-tags/${ticket.id}/${mark.id}`);
    const channel = `company-${t.company.id}-ticket`;
    const isUpdate = (e: SocketEvent) =>
      e.channel === channel && e.action === 'update' && (e.ticket as { id?: number })?.id === ticket.id;
    for (const socket of [admin, assigned]) {
      const [event] = (await eventsUntil(socket, isUpdate)).slice(-1);
      expect(event).toMatchObject({ ticket: { id: ticket.id, tags: [{ id: mark.id }] } });
    }
    plain.send({ action: 'ping' });
    expect(await plain.next()).toEqual({ action: 'pong' });
  });
});

describe('ticket notes', () => {
  it('adds a note with the spec fields, lists the ticket’s notes newest first, and the author deletes it', async () => {
    const ticket = await ticketOf(t, t.attendant.id);
    const user = api(t.attendantToken);
    const first = await user.post('/ticket-notes', {
      note: '  Cliente pediu retorno  ',
      ticketId: ticket.id,
      contactId: ticket.contactId,
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(new RegExp(`^${ticket.contactId}-[0-9A-Z]{26}$`)),
      note: 'Cliente pediu retorno',
      user: { id: t.attendant.id, name: 'Atendente' },
      createdAt: expect.any(String),
      ticketId: ticket.id,
      contactId: ticket.contactId,
    });
    const second = (await user.post('/ticket-notes', { note: 'Segunda', ticketId: ticket.id })).body;
    const list = await user.get('/ticket-notes/list', {
      ticketId: String(ticket.id),
      contactId: String(ticket.contactId),
    });
    expect(list.status).toBe(200);
    expect(list.body.map((n: { id: string }) => n.id)).toEqual([second.id, first.body.id]);

    const del = await user.delete(`/ticket-notes/${first.body.id}`);
    expect(del.status).toBe(200);
    const after = await user.get('/ticket-notes/list', { ticketId: String(ticket.id) });
    expect(after.body.map((n: { id: string }) => n.id)).toEqual([second.id]);
  });

  it('only the author or an admin deletes a note: another plain user gets 403 and the note stays', async () => {
    // The attendant's ticket: the attendant and the admin each write a note on it.
    const mine = await ticketOf(t, t.attendant.id);
    const byAttendant = (await api(t.attendantToken).post('/ticket-notes', { note: 'Da atendente', ticketId: mine.id }))
      .body;
    const byAdmin = (await api(t.adminToken).post('/ticket-notes', { note: 'Do admin', ticketId: mine.id })).body;
    // The attendant sees the ticket but did not write the admin's note.
    const refused = await api(t.attendantToken).delete(`/ticket-notes/${byAdmin.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');
    // A plain user who may not see the ticket: 403 as ticket-access says, for deleting and for listing.
    expect((await api(plainToken).delete(`/ticket-notes/${byAttendant.id}`)).status).toBe(403);
    expect((await api(plainToken).get('/ticket-notes/list', { ticketId: String(mine.id) })).status).toBe(403);
    expect((await listTicketNotes(t.company.id, mine.contactId, mine.id)).map((n) => n.note).sort()).toEqual([
      'Da atendente',
      'Do admin',
    ]);
    // An admin deletes anyone's note.
    expect((await api(t.adminToken).delete(`/ticket-notes/${byAttendant.id}`)).status).toBe(200);
    expect((await listTicketNotes(t.company.id, mine.contactId, mine.id)).map((n) => n.note)).toEqual(['Do admin']);
  });

  it('bad input is a 400 naming the field, and nothing is written', async () => {
    const ticket = await ticketOf(t, t.admin.id);
    const admin = api(t.adminToken);
    const short = await admin.post('/ticket-notes', { note: ' a ', ticketId: ticket.id });
    expect(short.status).toBe(400);
    expect(short.body.fields).toEqual([{ field: 'body.note', reason: 'Too Short!' }]);
    const missing = await admin.post('/ticket-notes', { ticketId: ticket.id });
    expect(missing.body.fields).toEqual([{ field: 'body.note', reason: 'Required' }]);
    const wrongContact = await admin.post('/ticket-notes', {
      note: 'Contato errado',
      ticketId: ticket.id,
      contactId: ticket.contactId + 1,
    });
    expect(wrongContact.status).toBe(400);
    expect(wrongContact.body.fields[0].field).toBe('body.contactId');
    expect(await listTicketNotes(t.company.id, ticket.contactId, ticket.id)).toEqual([]);
    const badId = await admin.delete('/ticket-notes/not-a-note');
    expect(badId.status).toBe(400);
    expect(badId.body.fields[0].field).toBe('params.id');
    expect((await admin.get('/ticket-notes/list')).status).toBe(400);
  });

  it("another company's ticket or note answers 404 like a missing one", async () => {
    const theirs = await ticketOf(other, other.admin.id);
    const theirNote = (await api(other.adminToken).post('/ticket-notes', { note: 'Segredo', ticketId: theirs.id }))
      .body;
    const [viaNote, missingNote] = await Promise.all([
      api(t.adminToken).delete(`/ticket-notes/${theirNote.id}`),
      api(t.adminToken).delete('/ticket-notes/999999999-01ARZ3NDEKTSV4RRFFQ69G5FAV'),
    ]);
    expect(viaNote.status).toBe(404);
    expect(viaNote.body).toEqual(missingNote.body);
    expect(await listTicketNotes(other.company.id, theirs.contactId, theirs.id)).toHaveLength(1);
    const create = await api(t.adminToken).post('/ticket-notes', { note: 'Invasão', ticketId: 999_999_999 });
    expect(create.status).toBe(404);
    expect(create.body.error).toBe('ERR_NO_TICKET_FOUND');
  });

  it('a new note reaches the users who may see the ticket as company-{id}-ticket update, nobody else', async () => {
    const url = (token: string) => `${inject('wsUrl')}?token=${token}`;
    const [assigned, plain] = await Promise.all([connectSocket(url(t.attendantToken)), connectSocket(url(plainToken))]);
    const ticket = await ticketOf(t, t.attendant.id);
    await api(t.adminToken).post('/ticket-notes', { note: 'Evento de nota', ticketId: ticket.id });
    const channel = `company-${t.company.id}-ticket`;
    await eventsUntil(
      assigned,
      (e) => e.channel === channel && e.action === 'update' && (e.ticket as { id?: number })?.id === ticket.id,
    );
    plain.send({ action: 'ping' });
    expect(await plain.next()).toEqual({ action: 'pong' });
  });
});
