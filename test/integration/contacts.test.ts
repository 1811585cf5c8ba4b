import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { inboundEventSchema } from '../../functions/channels/inbound';
import { signAccessToken } from '../../functions/core/access-token';
import { upsertContact } from '../../functions/core/inbound/contact-upsert';
import { handleInboundEvent } from '../../functions/core/inbound/inbound-service';
import { ReadScope } from '../../functions/data/read-scope';
import {
  countCompanyContacts,
  createContact,
  findContactIdsByIdentities,
  getContact,
} from '../../functions/data/contact-repository';
import { setCompanySetting } from '../../functions/data/settings-repository';
import { listContactTicketIds } from '../../functions/data/ticket-repository';
import { createUser } from '../../functions/data/user-repository';
import { eventsUntil, someConnection } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

let t: TestCompany;
beforeAll(async () => {
  t = await freshCompany();
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const fieldsOf = (body: { fields?: { field: string; reason: string }[] }) =>
  Object.fromEntries((body.fields ?? []).map((f) => [f.field, f.reason]));
const contactIdOf = async (companyId: number, number: string) =>
  (await findContactIdsByIdentities(companyId, [`wa#${number}`])).get(`wa#${number}`);

describe('contacts API: create, read, update', () => {
  it('creates a contact with the spec fields; the tenant comes from the token, not the body', async () => {
    const number = phone();
    const res = await api(t.attendantToken).post('/contacts', {
      name: 'Joana Prado',
      number: `+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4)}`,
      email: 'Joana@Example.com',
      disableBot: true,
      extraInfo: [{ name: 'CPF', value: '123' }],
      companyId: 999,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Joana Prado',
      number,
      email: 'joana@example.com',
      disableBot: true,
      active: true,
      acceptAudioMessage: true,
      isGroup: false,
      channel: 'whatsapp',
      extraInfo: [{ id: 1, name: 'CPF', value: '123' }],
    });
    expect(await contactIdOf(t.company.id, number)).toBe(res.body.id);
    const read = await api(t.attendantToken).get(`/contacts/${res.body.id}`);
    expect(read.body).toMatchObject({ id: res.body.id, name: 'Joana Prado', number });
    expect(JSON.stringify(read.body)).not.toMatch(/identities|"pk"|gsi/);
    const profile = await api(t.attendantToken).get(`/contacts/profile/${number}`);
    expect(profile.body).toEqual({ contactId: res.body.id, urlPicture: '' });
  });

  it('bad input is a 400 naming each field with the spec text, and writes nothing', async () => {
    const before = await countCompanyContacts(t.company.id);
    const res = await api(t.adminToken).post('/contacts', { name: 'J', number: '123', email: 'nope' });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toMatchObject({
      'body.name': 'Too Short!',
      'body.number': 'Too Short!',
      'body.email': expect.stringMatching(/Invalid email|Invalid/),
    });
    const long = await api(t.adminToken).post('/contacts', { name: 'x'.repeat(251), number: '1'.repeat(51) });
    expect(fieldsOf(long.body)).toMatchObject({ 'body.name': 'Too Long!', 'body.number': 'Too Long!' });
    const missing = await api(t.adminToken).post('/contacts', {});
    expect(fieldsOf(missing.body)).toMatchObject({ 'body.name': 'Required', 'body.number': 'Required' });
    const letters = await api(t.adminToken).post('/contacts', { name: 'Letras', number: 'abcdefghij' });
    expect(fieldsOf(letters.body)).toEqual({ 'body.number': 'must have at least 8 digits' });
    expect(await countCompanyContacts(t.company.id)).toBe(before);
  });

  it('a number of another contact is ERR_DUPLICATED_CONTACT, on create and on update, and nothing is written', async () => {
    const taken = phone();
    const first = (await api(t.adminToken).post('/contacts', { name: 'Primeiro', number: taken })).body;
    const before = await countCompanyContacts(t.company.id);
    const dup = await api(t.adminToken).post('/contacts', { name: 'Segundo', number: taken });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'ERR_DUPLICATED_CONTACT', details: { contactId: first.id } });
    expect(await countCompanyContacts(t.company.id)).toBe(before);

    const other = (await api(t.adminToken).post('/contacts', { name: 'Outro', number: phone() })).body;
    const move = await api(t.adminToken).put(`/contacts/${other.id}`, { name: 'Outro Renomeado', number: taken });
    expect(move.status).toBe(409);
    expect(move.body.error).toBe('ERR_DUPLICATED_CONTACT');
    expect((await getContact(t.company.id, other.id))?.name).toBe('Outro');
    expect(await contactIdOf(t.company.id, taken)).toBe(first.id);
    expect(await contactIdOf(t.company.id, other.number)).toBe(other.id);
  });

  it('an update renames and renumbers: the old number is free again, the new one names the contact', async () => {
    const [a, b] = [phone(), phone()];
    const c = (await api(t.adminToken).post('/contacts', { name: 'Renato', number: a })).body;
    const res = await api(t.attendantToken).put(`/contacts/${c.id}`, {
      name: 'Renato Lima',
      number: b,
      email: '',
      extraInfo: [{ name: 'Empresa', value: 'ACME' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renato Lima', number: b, extraInfo: [{ id: 1, name: 'Empresa' }] });
    expect(await contactIdOf(t.company.id, a)).toBeUndefined();
    expect(await contactIdOf(t.company.id, b)).toBe(c.id);
    expect((await api(t.adminToken).post('/contacts', { name: 'Novo Dono', number: a })).status).toBe(201);
  });

  it('an unknown id is 404 ERR_NO_CONTACT_FOUND, also for a number nobody has', async () => {
    for (const res of [
      await api(t.adminToken).get('/contacts/999999999'),
      await api(t.adminToken).put('/contacts/999999999', { name: 'Ninguém' }),
      await api(t.adminToken).get(`/contacts/profile/${phone()}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_CONTACT_FOUND');
    }
  });
});

describe('contacts API: one contact per number, even racing the inbound pipeline', () => {
  it('a manual create and an inbound upsert of the same number at once make exactly one contact', async () => {
    const c = await freshCompany();
    const connection = await someConnection(c.company.id);
    const numbers = Array.from({ length: 6 }, phone);
    await Promise.all(
      numbers.map(async (number) => {
        const [manual, inbound] = await Promise.all([
          api(c.adminToken).post('/contacts', { name: 'Manual', number }),
          upsertContact(c.company.id, connection.id, {
            channel: 'whatsapp',
            isGroup: false,
            identities: [`wa#${number}`],
            number,
            name: 'Inbound',
          }),
        ]);
        const owner = await contactIdOf(c.company.id, number);
        expect(owner).toBe(inbound.contact.id);
        if (manual.status === 201) expect(manual.body.id).toBe(owner);
        else expect(manual.body.error).toBe('ERR_DUPLICATED_CONTACT');
      }),
    );
    const listed = await api(c.adminToken).get('/contacts', { pageNumber: '1' });
    expect(listed.body.contacts).toHaveLength(6);
    expect(listed.body.count).toBe(6);
  });
});

describe('contacts API: contacts the inbound pipeline made', () => {
  it('are listed, counted and found by name and by number, also once a LID contact learns its phone', async () => {
    const c = await freshCompany();
    const connection = await someConnection(c.company.id);
    const lid = String(Math.floor(Math.random() * 1e14)).padStart(14, '1');
    const number = phone();
    const first = await upsertContact(c.company.id, connection.id, {
      channel: 'whatsapp',
      isGroup: false,
      identities: [`wa#lid:${lid}`],
      number: '',
      lid,
      name: 'Lídia Entrante',
    });
    const search = (searchParam: string) =>
      api(c.attendantToken)
        .get('/contacts', { searchParam })
        .then((r) => r.body.contacts.map((x: { id: number }) => x.id));
    expect(await search('lidia')).toEqual([first.contact.id]);
    expect(await search(number)).toEqual([]);
    await upsertContact(c.company.id, connection.id, {
      channel: 'whatsapp',
      isGroup: false,
      identities: [`wa#${number}`, `wa#lid:${lid}`],
      number,
      lid,
    });
    expect(await search(number.slice(0, 9))).toEqual([first.contact.id]);
    expect((await api(c.adminToken).get('/contacts')).body).toMatchObject({ count: 1, countIsExact: true });
  });
});

describe('contacts API: a LID contact folded into the phone contact', () => {
  it('leaves the list and the count; the phone contact stays', async () => {
    const c = await freshCompany();
    const connection = await someConnection(c.company.id);
    const lid = String(Math.floor(Math.random() * 1e14)).padStart(14, '1');
    const number = phone();
    const subject = (identities: string[], extra: { number: string; lid?: string }) =>
      upsertContact(c.company.id, connection.id, { channel: 'whatsapp', isGroup: false, identities, ...extra });
    const byLid = await subject([`wa#lid:${lid}`], { number: '', lid });
    const byPhone = await subject([`wa#${number}`], { number });
    expect((await api(c.adminToken).get('/contacts')).body.count).toBe(2);
    await subject([`wa#${number}`, `wa#lid:${lid}`], { number, lid });
    expect((await getContact(c.company.id, byLid.contact.id))?.mergedInto).toBe(byPhone.contact.id);
    const list = (await api(c.adminToken).get('/contacts')).body;
    expect(list.contacts.map((x: { id: number }) => x.id)).toEqual([byPhone.contact.id]);
    expect(list.count).toBe(1);
  });
});

describe('contacts API: lists', () => {
  let c: TestCompany;
  const names = ['Ana Souza', 'Álvaro Reis', 'Amanda Lopes', 'Bruno Costa', 'Beatriz Melo'];
  const numbers: string[] = [];
  beforeAll(async () => {
    c = await freshCompany();
    for (const name of names) {
      const number = phone();
      numbers.push(number);
      await api(c.adminToken).post('/contacts', { name, number });
    }
    // 22 more, so the unfiltered list has two pages of 20.
    await Promise.all(
      Array.from({ length: 22 }, (_, i) =>
        api(c.adminToken).post('/contacts', { name: `Zé ${String(i).padStart(2, '0')}`, number: phone() }),
      ),
    );
    await createContact(
      c.company.id,
      { name: 'Grupo Amigos', number: '120363000000001', isGroup: true, channel: 'whatsapp', whatsappId: null },
      ['wa#g:120363000000001'],
    );
    await createContact(
      c.company.id,
      { name: 'Ana Insta', number: '998877', isGroup: false, channel: 'instagram', whatsappId: null },
      ['ig#1:998877'],
    );
  });

  it('search by name prefix ignores case and accents, in name order', async () => {
    const res = await api(c.attendantToken).get('/contacts', { searchParam: 'A' });
    expect(res.status).toBe(200);
    expect(res.body.contacts.map((x: { name: string }) => x.name)).toEqual([
      'Álvaro Reis',
      'Amanda Lopes',
      'Ana Insta',
      'Ana Souza',
    ]);
    const alv = await api(c.attendantToken).get('/contacts', { searchParam: 'ALVA' });
    expect(alv.body.contacts.map((x: { name: string }) => x.name)).toEqual(['Álvaro Reis']);
    expect(alv.body).toMatchObject({ hasMore: false, count: 1, countIsExact: false });
  });

  it('search by number digits (with punctuation) finds by prefix', async () => {
    const n = numbers[3]!;
    const res = await api(c.attendantToken).get('/contacts', {
      searchParam: `+${n.slice(0, 2)} (${n.slice(2, 4)}) ${n.slice(4, 10)}`,
    });
    expect(res.body.contacts.map((x: { name: string }) => x.name)).toEqual(['Bruno Costa']);
  });

  it('pages of 20 by cursor and by pageNumber, with hasMore and the exact count', async () => {
    const first = await api(c.attendantToken).get('/contacts');
    expect(first.body.contacts).toHaveLength(20);
    expect(first.body).toMatchObject({ hasMore: true, count: 29, countIsExact: true });
    const second = await api(c.attendantToken).get('/contacts', { cursor: first.body.nextCursor });
    expect(second.body.contacts).toHaveLength(9);
    expect(second.body.hasMore).toBe(false);
    const byNumber = await api(c.attendantToken).get('/contacts', { pageNumber: '2' });
    expect(byNumber.body.contacts).toEqual(second.body.contacts);
    const all = [...first.body.contacts, ...second.body.contacts].map((x: { id: number }) => x.id);
    expect(new Set(all).size).toBe(29);
  });

  it('filters by channel and by group', async () => {
    const groups = await api(c.attendantToken).get('/contacts', { isGroup: 'true' });
    expect(groups.body.contacts.map((x: { name: string }) => x.name)).toEqual(['Grupo Amigos']);
    const insta = await api(c.attendantToken).get('/contacts', { channel: 'instagram' });
    expect(insta.body.contacts.map((x: { name: string }) => x.name)).toEqual(['Ana Insta']);
    const people = await api(c.attendantToken).get('/contacts', { searchParam: 'gru', isGroup: 'false' });
    expect(people.body.contacts).toEqual([]);
  });

  it('contactTag is a JSON list of tag ids: validated, and it filters (no contact has tags yet)', async () => {
    const bad = await api(c.attendantToken).get('/contacts', { contactTag: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('query.contactTag');
    const ok = await api(c.attendantToken).get('/contacts', { contactTag: '[1,2]' });
    expect(ok.status).toBe(200);
    expect(ok.body.contacts).toEqual([]);
    expect((await api(c.attendantToken).get('/contacts', { contactTag: '[]' })).body.contacts).toHaveLength(20);
  });

  it('/contacts/list gives id, name and number of everyone, for pickers', async () => {
    const res = await api(c.attendantToken).get('/contacts/list', { companyId: String(c.company.id) });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(29);
    expect(res.body[0]).toEqual({ id: expect.any(Number), name: 'Álvaro Reis', number: numbers[1] });
  });
});

describe('contacts API: block, toggles, delete', () => {
  it('blocks and unblocks; toggles answer the new values', async () => {
    const c = (await api(t.adminToken).post('/contacts', { name: 'Bloqueável', number: phone() })).body;
    const blocked = await api(t.attendantToken).put(`/contacts/block/${c.id}`, { active: false });
    expect(blocked.body).toMatchObject({ id: c.id, active: false });
    expect((await getContact(t.company.id, c.id))?.active).toBe(false);
    expect((await api(t.attendantToken).put(`/contacts/block/${c.id}`, { active: true })).body.active).toBe(true);
    expect((await api(t.attendantToken).put(`/contacts/block/${c.id}`, {})).status).toBe(400);

    const audio = await api(t.attendantToken).put(`/contacts/toggleAcceptAudio/${c.id}`);
    expect(audio.body.acceptAudioMessage).toBe(false);
    expect((await api(t.attendantToken).put(`/contacts/toggleAcceptAudio/${c.id}`)).body.acceptAudioMessage).toBe(true);
    const bot = await api(t.attendantToken).put(`/contacts/toggleDisableBot/${c.id}`);
    expect(bot.body.disableBot).toBe(true);
  });

  it('only admins delete; the number is free again and the contact leaves lists and count', async () => {
    const number = phone();
    const c = (await api(t.adminToken).post('/contacts', { name: 'Apagável', number })).body;
    const denied = await api(t.attendantToken).delete(`/contacts/${c.id}`);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('ERR_NO_PERMISSION');
    const before = await countCompanyContacts(t.company.id);
    expect((await api(t.adminToken).delete(`/contacts/${c.id}`)).status).toBe(200);
    expect(await countCompanyContacts(t.company.id)).toBe(before - 1);
    expect((await api(t.adminToken).get(`/contacts/${c.id}`)).status).toBe(404);
    expect((await api(t.adminToken).delete(`/contacts/${c.id}`)).status).toBe(404);
    expect(await contactIdOf(t.company.id, number)).toBeUndefined();
    expect((await getContact(t.company.id, c.id))?.deletedAt).toEqual(expect.any(String)); // history keeps it
    const again = await api(t.adminToken).post('/contacts', { name: 'Apagável', number });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(c.id);
  });
});

describe('contacts API: inbound messages of a contact', () => {
  const inbound = (companyId: number, whatsappId: number, number: string) =>
    inboundEventSchema.parse({
      kind: 'message',
      companyId,
      whatsappId,
      chat: { id: `${number}@s.whatsapp.net` },
      providerMessageId: `3EB0${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`,
      fromMe: false,
      timestamp: new Date().toISOString(),
      receivedAt: new Date().toISOString(),
      contact: { phone: number, pushName: 'Cliente' },
      content: { type: 'text', body: 'Oi' },
    });

  it("a blocked contact's message is dropped: no ticket; unblocked, the next one opens a ticket", async () => {
    const connection = await someConnection(t.company.id, { status: 'CONNECTED' });
    const number = phone();
    const c = (await api(t.adminToken).post('/contacts', { name: 'Bloqueado', number })).body;
    await api(t.adminToken).put(`/contacts/block/${c.id}`, { active: false });
    const outcome = await handleInboundEvent(inbound(t.company.id, connection.id, number), new ReadScope());
    expect(outcome).toBe('ignored:blocked-contact');
    expect(await listContactTicketIds(t.company.id, c.id)).toEqual([]);

    await api(t.adminToken).put(`/contacts/block/${c.id}`, { active: true });
    expect(await handleInboundEvent(inbound(t.company.id, connection.id, number), new ReadScope())).toBe('stored');
  });

  it('a contact with an open ticket is not deleted (ERR_OTHER_OPEN_TICKET)', async () => {
    const connection = await someConnection(t.company.id, { status: 'CONNECTED' });
    const number = phone();
    await handleInboundEvent(inbound(t.company.id, connection.id, number), new ReadScope());
    const id = (await contactIdOf(t.company.id, number))!;
    const res = await api(t.adminToken).delete(`/contacts/${id}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_OTHER_OPEN_TICKET');
    expect((await api(t.adminToken).get(`/contacts/${id}`)).status).toBe(200);
  });
});

describe('contacts API: LGPD numbers and events', () => {
  it('with lgpdHideNumber on, a plain user sees masked numbers (groups whole), an admin full ones', async () => {
    const c = await freshCompany();
    const number = '5511987654321';
    const made = (await api(c.adminToken).post('/contacts', { name: 'Privada', number })).body;
    await createContact(
      c.company.id,
      { name: 'Grupo', number: '120363999', isGroup: true, channel: 'whatsapp', whatsappId: null },
      ['wa#g:120363999'],
    );
    expect((await api(c.attendantToken).get(`/contacts/${made.id}`)).body.number).toBe(number);
    await setCompanySetting(c.company.id, 'lgpdHideNumber', 'enabled');

    const user = api(c.attendantToken);
    expect((await user.get(`/contacts/${made.id}`)).body.number).toBe('5511*******21');
    const list = (await user.get('/contacts')).body.contacts;
    expect(list.map((x: { number: string }) => x.number).sort()).toEqual(['120363999', '5511*******21']);
    expect((await user.get('/contacts/list')).body.map((x: { number: string }) => x.number)).toContain('5511*******21');
    expect((await api(c.adminToken).get(`/contacts/${made.id}`)).body.number).toBe(number);
    // The masked number sent back unchanged is no number change.
    const edit = await user.put(`/contacts/${made.id}`, { name: 'Privada Editada', number: '5511*******21' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await getContact(c.company.id, made.id))?.number).toBe(number);
  });

  it('changes reach every user of the company as company-{id}-contact, masked for plain users when hidden', async () => {
    const c = await freshCompany();
    await setCompanySetting(c.company.id, 'lgpdHideNumber', 'enabled');
    const other = await freshCompany();
    const url = (token: string) => `${inject('wsUrl')}?token=${token}`;
    const outsiderToken = await signAccessToken({
      companyId: other.company.id,
      userId: other.admin.id,
      profile: 'admin',
      super: false,
    });
    const plain = await createUser(c.company.id, {
      name: 'Outra',
      email: `o-${randomUUID()}@test.local`,
      passwordHash: 'x',
      profile: 'user',
    });
    const plainToken = await signAccessToken({
      companyId: c.company.id,
      userId: plain.id,
      profile: 'user',
      super: false,
    });
    const [admin, user, outsider] = await Promise.all([
      connectSocket(url(c.adminToken)),
      connectSocket(url(plainToken)),
      connectSocket(url(outsiderToken)),
    ]);
    const number = '5511912345678';
    const made = (await api(c.adminToken).post('/contacts', { name: 'Evento', number })).body;
    const channel = `company-${c.company.id}-contact`;
    const isUpdate = (e: { channel?: string; action?: string }) => e.channel === channel && e.action === 'update';
    const [forAdmin] = (await eventsUntil(admin, isUpdate)).slice(-1);
    expect(forAdmin).toMatchObject({ contact: { id: made.id, number } });
    const [forUser] = (await eventsUntil(user, isUpdate)).slice(-1);
    expect(forUser).toMatchObject({ contact: { id: made.id, number: '5511*******78' } });

    await api(c.adminToken).delete(`/contacts/${made.id}`);
    const isDelete = (e: { channel?: string; action?: string }) => e.channel === channel && e.action === 'delete';
    expect((await eventsUntil(admin, isDelete)).slice(-1)[0]).toMatchObject({ contactId: made.id });
    expect((await eventsUntil(user, isDelete)).slice(-1)[0]).toMatchObject({ contactId: made.id });
    outsider.send({ action: 'ping' });
    expect(await outsider.next()).toEqual({ action: 'pong' });
  });
});
