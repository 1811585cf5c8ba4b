import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { getConnection } from '../../functions/data/connection-repository';
import { getItemByNumber } from '../../functions/data/contact-list-repository';
import { eventsUntil, waitFor, waitForConnection } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

/**
 * Contact lists and their items (administration spec "Contact lists", §5, §7; decisions D122): CRUD with
 * search and paging, one number per list (409 ERR_DUPLICATED_CONTACT), an exact contactsCount, the upload
 * of an xlsx or csv through the contact-import job (messy numbers normalised, the same file twice adds
 * nothing), deleting a list removes its items by the removal job, events on the spec's channels, and bad
 * input answered 400 writing nothing.
 */
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

let t: TestCompany;
beforeAll(async () => {
  t = await freshCompany();
});

const fieldsOf = (body: { fields?: { field: string; reason: string }[] }) => (body.fields ?? []).map((f) => f.field);

const newList = async (name: string): Promise<{ id: number; name: string; contactsCount: number }> => {
  const res = await api(t.adminToken).post('/contact-lists', { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const listOf = async (id: number) => (await api(t.adminToken).get(`/contact-lists/${id}`)).body;

const xlsx = async (rows: (string | number)[][]): Promise<Buffer> => {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Lista');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
};

const uploadForm = (bytes: Buffer, fileName: string) => {
  const form = new FormData();
  form.append('file', new Blob([bytes]), fileName);
  return form;
};

const uploadAndWait = async (listId: number, bytes: Buffer, fileName: string) => {
  const res = await api(t.adminToken).post(`/contact-lists/${listId}/upload`, uploadForm(bytes, fileName));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return waitFor(
    async () => (await api(t.adminToken).get(`/contacts/import/${res.body.id}`)).body,
    (b: { status?: string }) => b.status === 'done' || b.status === 'failed',
    { timeoutMs: 60_000, intervalMs: 250, what: `list import ${res.body.id}` },
  );
};

describe('contact lists', () => {
  it('creates, renames, finds by name prefix, pages and deletes lists; the events reach the admins', async () => {
    const socket = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
    const made = await newList('Clientes VIP');
    expect(made).toMatchObject({ name: 'Clientes VIP', contactsCount: 0 });
    await eventsUntil(
      socket,
      (e) =>
        e.channel === `company-${t.company.id}-ContactList` &&
        e.action === 'create' &&
        (e.record as { id: number }).id === made.id,
    );
    for (const n of ['Alfa', 'Beta', 'Gama']) await newList(`Lista ${n}`);

    const renamed = await api(t.adminToken).put(`/contact-lists/${made.id}`, { name: 'Clientes Ouro' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Clientes Ouro');

    const found = await api(t.adminToken).get('/contact-lists', { searchParam: 'clientes' });
    expect(found.body.records.map((r: { name: string }) => r.name)).toEqual(['Clientes Ouro']);

    const all = await api(t.adminToken).get('/contact-lists/list');
    expect(all.body.map((r: { name: string }) => r.name)).toEqual([
      'Clientes Ouro',
      'Lista Alfa',
      'Lista Beta',
      'Lista Gama',
    ]);

    const page = await api(t.adminToken).get('/contact-lists', { searchParam: 'lista' });
    expect(page.body).toMatchObject({ hasMore: false });
    expect(page.body.records).toHaveLength(3);

    const gone = await api(t.adminToken).delete(`/contact-lists/${made.id}`);
    expect(gone.status).toBe(200);
    expect((await api(t.adminToken).get(`/contact-lists/${made.id}`)).status).toBe(404);
    await eventsUntil(
      socket,
      (e) => e.channel === `company-${t.company.id}-ContactList` && e.action === 'delete' && e.id === made.id,
    );
  });

  it('bad input is a 400 naming the field and writes nothing; the profile user has no access', async () => {
    const before = (await api(t.adminToken).get('/contact-lists/list')).body.length;
    const short = await api(t.adminToken).post('/contact-lists', { name: 'a' });
    expect(short.status).toBe(400);
    expect(fieldsOf(short.body)).toEqual(['body.name']);
    expect((await api(t.adminToken).post('/contact-lists', {})).status).toBe(400);
    expect((await api(t.adminToken).post('/contact-lists', { name: 'x'.repeat(51) })).status).toBe(400);
    expect((await api(t.adminToken).get('/contact-lists/list')).body).toHaveLength(before);
    expect((await api(t.attendantToken).get('/contact-lists')).status).toBe(403);
  });
});

describe('contact list items', () => {
  it('adds, edits, searches and deletes items with an exact count; a number is once per list (409)', async () => {
    const list = await newList('Itens');
    const socket = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
    const add = (name: string, number: string, email = '') =>
      api(t.adminToken).post('/contact-list-items', { name, number, email, contactListId: list.id });

    const ana = await add('Ana Souza', '+55 (11) 99999-0001', 'ana@exemplo.com');
    expect(ana.status, JSON.stringify(ana.body)).toBe(201);
    expect(ana.body).toMatchObject({
      name: 'Ana Souza',
      number: '5511999990001',
      email: 'ana@exemplo.com',
      contactListId: list.id,
      companyId: t.company.id,
    });
    await eventsUntil(socket, (e) => e.channel === `company-${t.company.id}-ContactListItem` && e.action === 'create');
    expect((await add('Bruno Lima', '5511999990002')).status).toBe(201);
    expect((await add('Carla Dias', '11 99999-0003')).status).toBe(201);

    // The same number written another way is the same number.
    const dup = await add('Ana de novo', '11999990001');
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_DUPLICATED_CONTACT');
    expect((await listOf(list.id)).contactsCount).toBe(3);

    const byName = await api(t.adminToken).get('/contact-list-items', {
      contactListId: String(list.id),
      searchParam: 'bru',
    });
    expect(byName.body.contacts.map((c: { name: string }) => c.name)).toEqual(['Bruno Lima']);
    const byNumber = await api(t.adminToken).get('/contact-list-items', {
      contactListId: String(list.id),
      searchParam: '551199999000',
    });
    expect(byNumber.body.contacts).toHaveLength(3);

    const renumbered = await api(t.adminToken).put(`/contact-list-items/${ana.body.id}`, {
      name: 'Ana S.',
      number: '5511988880001',
    });
    expect(renumbered.status).toBe(200);
    expect(renumbered.body).toMatchObject({ id: ana.body.id, name: 'Ana S.', number: '5511988880001' });
    expect((await api(t.adminToken).get(`/contact-list-items/${ana.body.id}`)).body.number).toBe('5511988880001');
    expect(await getItemByNumber(t.company.id, list.id, '5511999990001')).toBeNull();
    const clash = await api(t.adminToken).put(`/contact-list-items/${ana.body.id}`, { number: '5511999990002' });
    expect(clash.status).toBe(409);

    const bad = await api(t.adminToken).put(`/contact-list-items/${ana.body.id}`, { email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['body.email']);
    const badNumber = await add('Zeca', 'abcdefghij');
    expect(badNumber.status).toBe(400);
    expect(fieldsOf(badNumber.body)).toEqual(['body.number']);
    expect((await listOf(list.id)).contactsCount).toBe(3);

    expect((await api(t.adminToken).delete(`/contact-list-items/${ana.body.id}`)).status).toBe(200);
    expect((await api(t.adminToken).get(`/contact-list-items/${ana.body.id}`)).status).toBe(404);
    expect((await listOf(list.id)).contactsCount).toBe(2);
  });

  it('an item of another list id or of a list that is gone is a 404', async () => {
    const missing = await api(t.adminToken).post('/contact-list-items', {
      name: 'Sem lista',
      number: '5511999998888',
      contactListId: 999_999,
    });
    expect(missing.status).toBe(404);
    expect((await api(t.adminToken).get('/contact-list-items', { contactListId: '999999' })).status).toBe(404);
  });
});

describe('contact list upload', () => {
  it('imports an xlsx with messy numbers into the list with the right counts; the same file again adds nothing', async () => {
    const list = await newList('Planilha');
    const sheet = await xlsx([
      ['Nome', 'Número', 'Email'],
      ['Ana', '+55 (11) 98888-0001', 'ana@x.com'],
      ['Bruno', '11 98888-0002', ''],
      ['Carla', 5511988880003, 'carla@x.com'],
      ['Ana outra vez', '5511988880001', ''],
      ['Sem número', '', ''],
      ['Número ruim', '12-34', ''],
      ['Dani', '0055 11 98888 0004', 'email ruim'],
    ]);
    const first = await uploadAndWait(list.id, sheet, 'lista.xlsx');
    expect(first).toMatchObject({ status: 'done', total: 7, processed: 7, created: 4, merged: 1, ignored: 2 });
    expect((await listOf(list.id)).contactsCount).toBe(4);
    const items = await api(t.adminToken).get('/contact-list-items', { contactListId: String(list.id) });
    expect(
      items.body.contacts.map((c: { name: string; number: string; email: string }) => [c.name, c.number, c.email]),
    ).toEqual([
      ['Ana', '5511988880001', 'ana@x.com'],
      ['Bruno', '5511988880002', ''],
      ['Carla', '5511988880003', 'carla@x.com'],
      ['Dani', '5511988880004', ''],
    ]);

    const again = await uploadAndWait(list.id, sheet, 'lista.xlsx');
    expect(again).toMatchObject({ status: 'done', created: 0, merged: 5, ignored: 2 });
    expect((await listOf(list.id)).contactsCount).toBe(4);
  });

  it('imports a csv (semicolons, a header the example uses) and refuses what is not a spreadsheet', async () => {
    const list = await newList('CSV');
    const csv = Buffer.from('nome;numero;email\nEva;(21) 97777-0001;eva@x.com\nFabio;21977770002;\n', 'utf8');
    const done = await uploadAndWait(list.id, csv, 'lista.csv');
    expect(done).toMatchObject({ status: 'done', created: 2, merged: 0, ignored: 0 });
    expect((await listOf(list.id)).contactsCount).toBe(2);

    const pdf = await api(t.adminToken).post(
      `/contact-lists/${list.id}/upload`,
      uploadForm(Buffer.from('%PDF-1.4'), 'lista.pdf'),
    );
    expect(pdf.status).toBe(400);
    expect(pdf.body.error).toBe('ERR_INVALID_FILE');
    const noFile = await api(t.adminToken).post(`/contact-lists/${list.id}/upload`, new FormData());
    expect(noFile.status).toBe(400);
    expect((await listOf(list.id)).contactsCount).toBe(2);
  });

  it('deleting a list removes its items by the removal job', async () => {
    const list = await newList('Apagar');
    const rows: (string | number)[][] = [['nome', 'numero']];
    for (let i = 0; i < 30; i += 1) rows.push([`Pessoa ${i}`, `55119666${String(i).padStart(5, '0')}`]);
    expect(await uploadAndWait(list.id, await xlsx(rows), 'apagar.xlsx')).toMatchObject({ created: 30 });
    expect(await getItemByNumber(t.company.id, list.id, '5511966600000')).not.toBeNull();
    expect((await api(t.adminToken).delete(`/contact-lists/${list.id}`)).status).toBe(200);
    await waitFor(
      async () => [
        await getItemByNumber(t.company.id, list.id, '5511966600000'),
        await getItemByNumber(t.company.id, list.id, '5511966600029'),
      ],
      (found) => found.every((i) => i === null),
      { timeoutMs: 30_000, intervalMs: 250, what: 'the list items to be removed' },
    );
  });
});

describe('isWhatsappValid', () => {
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

  it("is answered by the connection's driver (the simulator's directory) for added and imported numbers", async () => {
    await connectedConnection('Verificação');
    const list = await newList('Verificar');
    const socket = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
    const on = await api(t.adminToken).post('/contact-list-items', {
      name: 'Tem WhatsApp',
      number: '5511977770001',
      contactListId: list.id,
    });
    // The simulator's WhatsApp knows every number except those ending in 0000 (D122).
    const off = await api(t.adminToken).post('/contact-list-items', {
      name: 'Sem WhatsApp',
      number: '5511977770000',
      contactListId: list.id,
    });
    expect([on.body.isWhatsappValid, off.body.isWhatsappValid]).toEqual([null, null]);
    await eventsUntil(
      socket,
      (e) =>
        e.channel === `company-${t.company.id}-ContactListItem` &&
        e.action === 'update' &&
        (e.record as { id: number; isWhatsappValid: boolean | null }).id === off.body.id &&
        (e.record as { isWhatsappValid: boolean | null }).isWhatsappValid === false,
      30_000,
    );
    const checked = await waitFor(
      async () => [
        (await api(t.adminToken).get(`/contact-list-items/${on.body.id}`)).body.isWhatsappValid,
        (await api(t.adminToken).get(`/contact-list-items/${off.body.id}`)).body.isWhatsappValid,
      ],
      (v) => v.every((x) => x !== null),
      { timeoutMs: 30_000, what: 'both numbers checked' },
    );
    expect(checked).toEqual([true, false]);

    const csv = Buffer.from('nome;numero\nEva;5521966660001\nFabio;5521966660000\n', 'utf8');
    await uploadAndWait(list.id, csv, 'verificar.csv');
    const imported = await waitFor(
      async () => [
        (await getItemByNumber(t.company.id, list.id, '5521966660001'))?.isWhatsappValid,
        (await getItemByNumber(t.company.id, list.id, '5521966660000'))?.isWhatsappValid,
      ],
      (v) => v.every((x) => x !== null && x !== undefined),
      { timeoutMs: 30_000, what: 'the imported numbers checked' },
    );
    expect(imported).toEqual([true, false]);
  }, 120_000);
});
