import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { countCompanyContacts, findContactIdsByIdentities, getContact } from '../../functions/data/contact-repository';
import { connectedSimulatorConnection, eventsUntil, someConnection, waitFor } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

/**
 * Contacts from the phone and numbers checked on WhatsApp (core §7 `POST /contacts/import`,
 * `/contacts/import/chats`, `/contactsImport`, `validateContact`; decisions D148, D149), through the local
 * cloud's WhatsApp worker and the phone simulator: the holder reads the simulated phone's address book or
 * chats, the contact-import job merges them by number, and WhatsApp's directory (the simulator knows every
 * number except those ending in 0000) decides which numbers become contacts when asked to validate.
 */
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

let t: TestCompany;
let whatsappId: number;

beforeAll(async () => {
  t = await freshCompany();
  whatsappId = await connectedSimulatorConnection(t.adminToken, t.company.id, 'Celular da loja');
}, 90_000);

const contactOf = async (number: string) => {
  const id = (await findContactIdsByIdentities(t.company.id, [`wa#${number}`])).get(`wa#${number}`);
  return id === undefined ? null : getContact(t.company.id, id);
};

const waitDone = (id: string) =>
  waitFor(
    async () => (await api(t.adminToken).get(`/contacts/import/${id}`)).body,
    (b: { status?: string }) => b.status === 'done' || b.status === 'failed',
    { timeoutMs: 60_000, intervalMs: 250, what: `import ${id} to finish` },
  );

describe('POST /contacts/import: the phone address book', () => {
  it('reads the phone through the connection and merges by number: new people created, known ones kept, unnamed ones under their number', async () => {
    const known = await api(t.adminToken).post('/contacts', { name: 'Cliente antigo', number: '5511955550001' });
    expect(known.status, JSON.stringify(known.body)).toBe(201);
    const book = await api(t.adminToken).put(`/simulator/${whatsappId}/contacts`, {
      contacts: [
        { number: '5511955550001', name: 'Nome no celular' },
        { number: '5511955550002', name: 'Ana; "da padaria"' },
        { number: '5511955550003', name: 'Bruno' },
        { number: '5511955550004' },
        { number: '5511955550003', name: 'Bruno de novo' },
      ],
    });
    expect(book.status, JSON.stringify(book.body)).toBe(200);
    const socket = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);

    const started = await api(t.adminToken).post('/contacts/import', { whatsappId });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({ source: 'contacts', status: 'uploaded', fileName: 'whatsapp-contacts.csv' });
    const id = started.body.id as string;

    const events = await eventsUntil(
      socket,
      (e) =>
        e.channel === `company-${t.company.id}-contactImport` &&
        (e.import as { id: string; status: string }).id === id &&
        (e.import as { status: string }).status === 'done',
      60_000,
    );
    expect(events.some((e) => (e.import as { status?: string } | undefined)?.status === 'queued')).toBe(true);
    expect(await waitDone(id)).toMatchObject({
      status: 'done',
      source: 'contacts',
      total: 5,
      processed: 5,
      created: 3,
      merged: 2,
      ignored: 0,
      invalid: 0,
    });
    expect((await contactOf('5511955550001'))?.name).toBe('Cliente antigo');
    expect((await contactOf('5511955550002'))?.name).toBe('Ana; "da padaria"');
    expect((await contactOf('5511955550003'))?.name).toBe('Bruno');
    expect((await contactOf('5511955550004'))?.name).toBe('5511955550004');
  }, 90_000);

  it('POST /contacts/import/chats imports the people of the phone’s one-to-one chats, named as the address book names them', async () => {
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const history = await api(t.adminToken).put(`/simulator/${whatsappId}/history`, {
      messages: [
        { number: '5521944440001', name: 'Carla (perfil)', body: 'Oi', at },
        { number: '5521944440002', name: 'Diego', body: 'Bom dia', at },
        { number: '5521944440003', group: { id: '120363000000000099', name: 'Grupo' }, body: 'Olá', at },
      ],
    });
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    await api(t.adminToken).put(`/simulator/${whatsappId}/contacts`, {
      contacts: [{ number: '5521944440001', name: 'Carla Mendes' }],
    });
    const started = await api(t.adminToken).post('/contacts/import/chats', { whatsappId });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(await waitDone(started.body.id as string)).toMatchObject({ status: 'done', source: 'chats', created: 2 });
    expect((await contactOf('5521944440001'))?.name).toBe('Carla Mendes');
    expect((await contactOf('5521944440002'))?.name).toBe('Diego');
    expect(await contactOf('5521944440003')).toBeNull();
  }, 90_000);

  it('refuses a connection that is not connected, of another channel, or of another company, writing nothing', async () => {
    const before = await countCompanyContacts(t.company.id);
    const offline = await someConnection(t.company.id, { status: 'DISCONNECTED' });
    const down = await api(t.adminToken).post('/contacts/import', { whatsappId: offline.id });
    expect(down.status).toBe(400);
    expect(down.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');

    const page = await someConnection(t.company.id, { channel: 'facebook', status: 'CONNECTED' });
    const facebook = await api(t.adminToken).post('/contacts/import/chats', { whatsappId: page.id });
    expect(facebook.status).toBe(400);
    expect(facebook.body.fields).toEqual([{ field: 'body.whatsappId', reason: expect.any(String) }]);

    const other = await freshCompany();
    const theirs = await someConnection(other.company.id, { status: 'CONNECTED' });
    const foreign = await api(t.adminToken).post('/contacts/import', { whatsappId: theirs.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_WAPP_FOUND');
    expect(await countCompanyContacts(t.company.id)).toBe(before);
  });
});

describe('validateContact', () => {
  const upload = async (fileName: string, text: string): Promise<string> => {
    const bytes = Buffer.from(text, 'utf8');
    const res = await api(t.adminToken).post('/contacts/upload', { fileName, size: bytes.length });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const put = await fetch(res.body.uploadUrl as string, {
      method: 'PUT',
      headers: res.body.headers as Record<string, string>,
      body: bytes,
    });
    expect(put.status).toBe(200);
    return res.body.importId as string;
  };

  it('a spreadsheet import that validates creates only the numbers WhatsApp knows and counts the others as invalid', async () => {
    const id = await upload(
      'validar.csv',
      'nome;numero\nEva;5531933330001\nFábio;5531933330000\nGil;5531933330002\nHelena;5531922220000\n',
    );
    const start = await api(t.adminToken).post(`/contacts/import/${id}/start`, {
      columns: ['name', 'number'],
      validateContact: true,
      whatsappId,
    });
    expect(start.status, JSON.stringify(start.body)).toBe(202);
    expect(await waitDone(id)).toMatchObject({ status: 'done', total: 4, created: 2, merged: 0, invalid: 2 });
    expect(await contactOf('5531933330001')).not.toBeNull();
    expect(await contactOf('5531933330002')).not.toBeNull();
    expect(await contactOf('5531933330000')).toBeNull();
    expect(await contactOf('5531922220000')).toBeNull();
  }, 90_000);

  it('a validating start needs a connected WhatsApp connection (400 ERR_WAPP_NOT_INITIALIZED, nothing queued)', async () => {
    const offline = await someConnection(t.company.id, { status: 'DISCONNECTED' });
    const id = await upload('offline.csv', 'nome;numero\nIvo;5531911110001\n');
    const start = await api(t.adminToken).post(`/contacts/import/${id}/start`, {
      columns: ['name', 'number'],
      validateContact: true,
      whatsappId: offline.id,
    });
    expect(start.status).toBe(400);
    expect(start.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
    expect((await api(t.adminToken).get(`/contacts/import/${id}`)).body.status).toBe('uploaded');
  });

  it('POST /contactsImport: one row, validated through the default connection, merged by number', async () => {
    await api(t.adminToken).put(`/whatsapp/${whatsappId}`, { isDefault: true });
    const refused = await api(t.adminToken).post('/contactsImport', {
      name: 'Sem WhatsApp',
      number: '(31) 97777-0000',
      validateContact: 'true',
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error).toBe('ERR_WAPP_INVALID_CONTACT');
    expect(await contactOf('5531977770000')).toBeNull();

    const made = await api(t.adminToken).post('/contactsImport', {
      name: 'Com WhatsApp',
      number: '+55 (31) 97777-0001',
      email: 'com@ex.com',
      validateContact: 'true',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ name: 'Com WhatsApp', number: '5531977770001', email: 'com@ex.com' });

    const again = await api(t.adminToken).post('/contactsImport', {
      name: 'Outro nome',
      number: '31 977770001',
      validateContact: 'false',
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: made.body.id, name: 'Com WhatsApp' });

    const bad = await api(t.adminToken).post('/contactsImport', { name: 'X', number: 'abc', validateContact: 'false' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([{ field: 'body.number', reason: expect.any(String) }]);
  }, 60_000);
});
