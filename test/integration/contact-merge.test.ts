import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { enqueueInbound, type InboundEventInput } from '../../functions/channels/inbound';
import { mergeContactHistory } from '../../functions/core/contacts/contact-merge';
import { findContactIdsByIdentities, getContact, moveIdentity } from '../../functions/data/contact-repository';
import { getProviderRef, listContactHistoryPage, listTicketMessages } from '../../functions/data/message-repository';
import { createNote } from '../../functions/data/note-repository';
import { createTag, syncContactTags } from '../../functions/data/tag-repository';
import {
  closeTicket,
  getLastClosedTicket,
  getOpenTicketId,
  getTicket,
  listContactTicketIds,
} from '../../functions/data/ticket-repository';
import { someConnection } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';

/**
 * A WhatsApp LID contact that turns out to be a phone contact's person is folded into it, and its
 * history follows (data-model §2.12, decisions D77): its open ticket at once, its other tickets, every
 * message, its notes and tags through the contact-merge job on the real queue.
 */
const digits = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const lidOf = () => String(Math.floor(Math.random() * 1e14)).padStart(14, '1');
const pid = () => `3EB0${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;

interface World {
  c: TestCompany;
  companyId: number;
  whatsappId: number;
}

const world = async (): Promise<World> => {
  const c = await freshCompany();
  const connection = await someConnection(c.company.id, { status: 'CONNECTED' });
  return { c, companyId: c.company.id, whatsappId: connection.id };
};

type Who = { phone?: string; lid?: string };

const send = async (w: World, who: Who, body: string) => {
  const chat = who.lid ? `${who.lid}@lid` : `${who.phone}@s.whatsapp.net`;
  const event: Extract<InboundEventInput, { kind: 'message' }> = {
    kind: 'message',
    companyId: w.companyId,
    whatsappId: w.whatsappId,
    chat: { id: chat },
    providerMessageId: pid(),
    fromMe: false,
    timestamp: new Date().toISOString(),
    contact: { ...who, pushName: 'Ana' },
    content: { type: 'text', body },
  };
  await enqueueInbound(event);
  return vi.waitFor(
    async () => {
      const ref = await getProviderRef(w.companyId, w.whatsappId, event.providerMessageId);
      expect(ref, `message "${body}" stored`).not.toBeNull();
      return ref!;
    },
    { timeout: 15_000, interval: 50 },
  );
};

const contactOf = async (w: World, identity: string) =>
  (await findContactIdsByIdentities(w.companyId, [identity])).get(identity)!;

/** Every message body of a contact's history (gsi3), oldest first. */
const historyOf = async (w: World, contactId: number, ticketId: number): Promise<string[]> => {
  const bodies: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await listContactHistoryPage(w.companyId, contactId, { limit: 100, cursor, ticketId });
    bodies.push(...page.items.map((m) => m.body));
    cursor = page.nextCursor;
  } while (cursor);
  return bodies.reverse();
};

/** Waits until the merge job has run (the new contact no longer lists the old one as pending). */
const mergeDone = (w: World, into: number) =>
  vi.waitFor(
    async () => {
      const contact = await getContact(w.companyId, into);
      expect(contact?.pendingMerges ?? []).toEqual([]);
    },
    { timeout: 20_000, interval: 100 },
  );

describe('a LID contact folded into the phone contact brings its history (D77)', () => {
  it("the open conversation continues in the LID contact's ticket; older tickets, messages, notes and tags follow", async () => {
    const w = await world();
    const phone = digits();
    const lid = lidOf();

    // The phone contact talked before, and that ticket was resolved.
    const early = await send(w, { phone }, 'pedido antigo');
    const phoneContact = early.contactId;
    await closeTicket((await getTicket(w.companyId, early.ticketId))!);

    // Then the same person wrote from a LID chat, before WhatsApp told us the mapping: another contact.
    const first = await send(w, { lid }, 'oi, sou eu de novo');
    const lidContact = first.contactId;
    expect(lidContact).not.toBe(phoneContact);
    const olderLid = (await getTicket(w.companyId, first.ticketId))!;
    await send(w, { lid }, 'esqueci um detalhe');
    await closeTicket(olderLid);
    const second = await send(w, { lid }, 'agora é outro assunto');
    expect(second.ticketId).not.toBe(olderLid.id);
    // An attendant wrote a note on it and tagged the contact.
    await createNote(w.companyId, {
      contactId: lidContact,
      ticketId: second.ticketId,
      userId: w.c.admin.id,
      note: 'cliente VIP',
    });
    const vip = await createTag(w.companyId, { name: `VIP ${randomUUID().slice(0, 4)}`, color: '#aa0000', kanban: 0 });
    await syncContactTags((await getContact(w.companyId, lidContact))!, [], [vip.id], [], w.c.admin.id);

    // The mapping arrives with a message carrying both: it lands in the LID contact's open ticket.
    const both = await send(w, { lid, phone }, 'meu número é este');
    expect(both.contactId).toBe(phoneContact);
    expect(both.ticketId).toBe(second.ticketId);
    expect(await contactOf(w, `wa#lid:${lid}`)).toBe(phoneContact);
    const open = (await getTicket(w.companyId, second.ticketId))!;
    expect(open).toMatchObject({ contactId: phoneContact, status: 'pending' });
    expect(await getOpenTicketId(w.companyId, phoneContact, w.whatsappId)).toBe(second.ticketId);
    expect(await getOpenTicketId(w.companyId, lidContact, w.whatsappId)).toBeNull();

    await mergeDone(w, phoneContact);

    // Every ticket is the phone contact's; the LID contact has none left.
    await vi.waitFor(
      async () => {
        expect((await listContactTicketIds(w.companyId, phoneContact)).sort()).toEqual(
          [early.ticketId, olderLid.id, second.ticketId].sort(),
        );
        expect(await listContactTicketIds(w.companyId, lidContact)).toEqual([]);
      },
      { timeout: 5_000 },
    );
    expect((await getTicket(w.companyId, olderLid.id))!.contactId).toBe(phoneContact);
    // The whole history, in order, under the phone contact (what allHistoric shows).
    expect(await historyOf(w, phoneContact, second.ticketId)).toEqual([
      'pedido antigo',
      'oi, sou eu de novo',
      'esqueci um detalhe',
      'agora é outro assunto',
      'meu número é este',
    ]);
    expect(await historyOf(w, lidContact, second.ticketId)).toEqual([]);
    expect((await listTicketMessages(w.companyId, olderLid.id)).every((m) => m.contactId === phoneContact)).toBe(true);
    // A reopen looks at the phone contact's last closed ticket: the more recent one, the LID's.
    expect((await getLastClosedTicket(w.companyId, phoneContact, w.whatsappId))?.ticketId).toBe(olderLid.id);

    // The note and the tag, as the attendant's screens read them.
    const notes = await api(w.c.adminToken).get(
      `/ticket-notes/list?contactId=${phoneContact}&ticketId=${second.ticketId}`,
    );
    expect(notes.status).toBe(200);
    expect((notes.body as { note: string }[]).map((n) => n.note)).toEqual(['cliente VIP']);
    const contact = await api(w.c.adminToken).get(`/contacts/${phoneContact}`);
    expect((contact.body as { tags: { id: number }[] }).tags.map((t) => t.id)).toEqual([vip.id]);
    // The LID contact is out of the contacts list.
    const list = await api(w.c.adminToken).get('/contacts/');
    expect((list.body as { contacts: { id: number }[] }).contacts.map((x) => x.id)).not.toContain(lidContact);
  });

  it("when both had an open ticket, the LID contact's is closed and joins the history; the phone's stays open", async () => {
    const w = await world();
    const phone = digits();
    const lid = lidOf();
    const byLid = await send(w, { lid }, 'pelo lid');
    const byPhone = await send(w, { phone }, 'pelo telefone');
    expect(byLid.contactId).not.toBe(byPhone.contactId);

    const both = await send(w, { lid, phone }, 'os dois');
    expect(both).toMatchObject({ contactId: byPhone.contactId, ticketId: byPhone.ticketId });
    await mergeDone(w, byPhone.contactId);

    const lidTicket = (await getTicket(w.companyId, byLid.ticketId))!;
    expect(lidTicket).toMatchObject({ status: 'closed', contactId: byPhone.contactId });
    expect(await getOpenTicketId(w.companyId, byPhone.contactId, w.whatsappId)).toBe(byPhone.ticketId);
    expect(await getOpenTicketId(w.companyId, byLid.contactId, w.whatsappId)).toBeNull();
    expect(await historyOf(w, byPhone.contactId, byPhone.ticketId)).toEqual(['pelo lid', 'pelo telefone', 'os dois']);
  });

  it('a merge cut off after the identity moved (no job, open ticket left behind) is finished by the next message', async () => {
    const w = await world();
    const phone = digits();
    const lid = lidOf();
    const byLid = await send(w, { lid }, 'começo pelo lid');
    const phoneContact = (await send(w, { phone }, 'pedido antigo')).contactId;
    await closeTicket(
      (await getTicket(w.companyId, (await getOpenTicketId(w.companyId, phoneContact, w.whatsappId))!))!,
    );
    // What an upsert that crashed right after the identity move leaves: the phone contact marked pending.
    await moveIdentity(w.companyId, `wa#lid:${lid}`, byLid.contactId, phoneContact);

    const next = await send(w, { phone }, 'continuo pelo telefone');
    expect(next).toMatchObject({ contactId: phoneContact, ticketId: byLid.ticketId });
    await mergeDone(w, phoneContact);
    expect(await historyOf(w, phoneContact, byLid.ticketId)).toEqual([
      'começo pelo lid',
      'pedido antigo',
      'continuo pelo telefone',
    ]);
  });

  it('a long history moves in several passes, and running a pass again changes nothing', async () => {
    const w = await world();
    const phone = digits();
    const lid = lidOf();
    const bodies = Array.from({ length: 7 }, (_, i) => `mensagem ${i + 1}`);
    let lidTicket = 0;
    for (const body of bodies) lidTicket = (await send(w, { lid }, body)).ticketId;
    const lidContact = (await getTicket(w.companyId, lidTicket))!.contactId;
    const phoneContact = (await send(w, { phone }, 'pelo telefone')).contactId;
    await closeTicket((await getTicket(w.companyId, lidTicket))!);

    await send(w, { lid, phone }, 'os dois');
    await mergeDone(w, phoneContact);
    // Running the job again (SQS may deliver twice): nothing left to move, nothing changes.
    const again = await mergeContactHistory(
      { companyId: w.companyId, from: lidContact, into: phoneContact, pass: 0 },
      { messagesPerPass: 2 },
    );
    expect(again).toMatchObject({ tickets: 0, messages: 0 });
    expect(await historyOf(w, phoneContact, lidTicket)).toEqual([...bodies, 'pelo telefone', 'os dois']);
  });

  it('a pass that stops at its message budget hands over to the next pass on the queue', async () => {
    const w = await world();
    const phone = digits();
    const lid = lidOf();
    const bodies = Array.from({ length: 6 }, (_, i) => `parte ${i + 1}`);
    let lidTicket = 0;
    for (const body of bodies) lidTicket = (await send(w, { lid }, body)).ticketId;
    const lidContact = (await getTicket(w.companyId, lidTicket))!.contactId;
    const phoneContact = (await send(w, { phone }, 'pelo telefone')).contactId;

    // The identity moves as the inbound upsert does (without its enqueue), then one small pass runs here:
    // it stops at its budget and enqueues the rest, which the contact-merge job finishes.
    await moveIdentity(w.companyId, `wa#lid:${lid}`, lidContact, phoneContact);
    expect((await getContact(w.companyId, phoneContact))!.pendingMerges).toEqual([lidContact]);
    const pass = await mergeContactHistory(
      { companyId: w.companyId, from: lidContact, into: phoneContact, pass: 7 },
      { messagesPerPass: 2 },
    );
    expect(pass).toMatchObject({ status: 'continued', tickets: 1, messages: 2 });
    await mergeDone(w, phoneContact);
    await vi.waitFor(async () => expect(await historyOf(w, lidContact, lidTicket)).toEqual([]), { timeout: 10_000 });
    expect(await historyOf(w, phoneContact, lidTicket)).toEqual([...bodies, 'pelo telefone']);
  });
});
