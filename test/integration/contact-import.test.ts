import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createContactUpload, runContactImport } from '../../functions/core/contacts/contact-import-service';
import { getContactImport, queueContactImport } from '../../functions/data/contact-import-repository';
import { countCompanyContacts, findContactIdsByIdentities, getContact } from '../../functions/data/contact-repository';
import type { AuthContext } from '../../functions/shared/auth-context';
import { eventsUntil, waitFor } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

/**
 * Contact import from a spreadsheet (core spec §4, §5; decisions D104, D105): the file goes to S3 with a
 * presigned PUT, the preview feeds the mapping, the contact-import job on the real queue writes the rows in
 * chunks — merged by normalised number, rows without name or number ignored — and resumes after a crash
 * without counting a chunk twice.
 */
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const fieldsOf = (body: { fields?: { field: string; reason: string }[] }) =>
  (body.fields ?? []).map((f) => `${f.field}: ${f.reason}`);

const xlsx = async (rows: (string | number)[][]): Promise<Buffer> => {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Contatos');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
};

/** Uploads a file the browser's way: POST /contacts/upload, then the PUT to the presigned URL. */
const upload = async (token: string, fileName: string, bytes: Buffer): Promise<string> => {
  const res = await api(token).post('/contacts/upload', { fileName, size: bytes.length });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const put = await fetch(res.body.uploadUrl as string, {
    method: 'PUT',
    headers: res.body.headers as Record<string, string>,
    body: bytes,
  });
  expect(put.status).toBe(200);
  return res.body.importId as string;
};

const waitDone = (token: string, id: string, timeoutMs = 90_000) =>
  waitFor(
    async () => (await api(token).get(`/contacts/import/${id}`)).body,
    (b: { status?: string }) => b.status === 'done' || b.status === 'failed',
    { timeoutMs, intervalMs: 250, what: `import ${id} to finish` },
  );

const contactOf = async (companyId: number, number: string) => {
  const id = (await findContactIdsByIdentities(companyId, [`wa#${number}`])).get(`wa#${number}`);
  return id === undefined ? null : getContact(companyId, id);
};

/** 5 000 data rows: 4 800 people, 100 of them written a second time another way, 100 rows without name or number. */
const bigSheet = (base: number): (string | number)[][] => {
  const rows: (string | number)[][] = [['Nome', 'Telefone', 'E-mail']];
  for (let i = 0; i < 4800; i += 1) {
    const n = String(base + i).padStart(8, '0');
    // Half as numbers (Excel keeps digits), half as formatted text.
    rows.push([
      `Cliente ${i}`,
      i % 2 === 0 ? Number(`55119${n}`) : `+55 (11) 9${n.slice(0, 4)}-${n.slice(4)}`,
      `c${i}@ex.com`,
    ]);
  }
  for (let i = 0; i < 100; i += 1) {
    const n = String(base + i).padStart(8, '0');
    rows.push([`Cliente ${i} de novo`, `11 9${n}`, '']);
  }
  for (let i = 0; i < 50; i += 1) rows.push(['', `5511988${String(i).padStart(6, '0')}`, '']);
  for (let i = 0; i < 50; i += 1) rows.push([`Sem número ${i}`, '', '']);
  return rows;
};

describe('contact import from an .xlsx', () => {
  let t: TestCompany;
  let file: Buffer;
  const base = 10_000_000 + Math.floor(Math.random() * 80_000_000);
  beforeAll(async () => {
    t = await freshCompany();
    file = await xlsx(bigSheet(base));
  });

  it('previews, then imports 5 000 rows: 4 800 created, 100 merged by number, 100 ignored, with progress events', async () => {
    const socket = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
    const id = await upload(t.adminToken, 'clientes.xlsx', file);

    const preview = await api(t.adminToken).get(`/contacts/import/${id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.body.header).toEqual(['Nome', 'Telefone', 'E-mail']);
    expect(preview.body.rows).toHaveLength(100);
    expect(preview.body.rows[0]).toEqual(['Cliente 0', `55119${String(base).padStart(8, '0')}`, 'c0@ex.com']);
    expect(preview.body.more).toBe(true);

    const start = await api(t.adminToken).post(`/contacts/import/${id}/start`, {
      columns: ['name', 'number', 'email'],
    });
    expect(start.status, JSON.stringify(start.body)).toBe(202);
    expect(start.body).toMatchObject({ id, status: 'queued', processed: 0 });

    const events = await eventsUntil(
      socket,
      (e) =>
        e.channel === `company-${t.company.id}-contactImport` && (e.import as { status: string }).status === 'done',
      400_000,
    );
    const progress = events.filter((e) => e.channel === `company-${t.company.id}-contactImport`);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.at(-1)!.import).toMatchObject({
      total: 5000,
      processed: 5000,
      created: 4800,
      merged: 100,
      ignored: 100,
    });

    const done = await api(t.adminToken).get(`/contacts/import/${id}`);
    expect(done.body).toMatchObject({
      status: 'done',
      total: 5000,
      processed: 5000,
      created: 4800,
      merged: 100,
      ignored: 100,
    });
    expect(await countCompanyContacts(t.company.id)).toBe(4800);
    const n = String(base + 1).padStart(8, '0');
    expect(await contactOf(t.company.id, `55119${n}`)).toMatchObject({ name: 'Cliente 1', email: 'c1@ex.com' });
    const list = await api(t.adminToken).get('/contacts', { searchParam: 'Cliente 4799' });
    expect(list.body.contacts.map((c: { name: string }) => c.name)).toEqual(['Cliente 4799']);
  }, 480_000);

  it('the same file imported again creates nothing: every person is merged into the contact it already has', async () => {
    const id = await upload(t.adminToken, 'clientes.xlsx', file);
    const start = await api(t.adminToken).post(`/contacts/import/${id}/start`, {
      columns: ['name', 'number', 'email'],
    });
    expect(start.status).toBe(202);
    expect(await waitDone(t.adminToken, id, 400_000)).toMatchObject({
      status: 'done',
      created: 0,
      merged: 4900,
      ignored: 100,
    });
    expect(await countCompanyContacts(t.company.id)).toBe(4800);
  }, 480_000);
});

describe('contact import from a messy .csv', () => {
  it('reads ; separators, a BOM and quotes, and merges numbers however they are written', async () => {
    const t = await freshCompany();
    const existing = await api(t.adminToken).post('/contacts', { name: 'Já Cadastrada', number: '5511912345678' });
    expect(existing.status).toBe(201);
    const csv = [
      'E-mail;Nome completo;Celular',
      'ana@ex.com;"Silva; Ana";+55 (11) 98765-4321',
      ';Ana de novo;11 98765 4321',
      ';"Bruno ""Bê"" Costa";(31) 8765-4321',
      ';Bruno outra vez;5531987654321',
      ';Carla;0055 21 99999-0000',
      ';Outra pessoa;(11) 91234-5678',
      ';Curto demais;123',
      ';;11 97777-6666',
      ';Pulada pelo usuário;11 96666-5555',
      '',
    ].join('\r\n');
    const id = await upload(t.adminToken, 'lista.csv', Buffer.from(`\uFEFF${csv}`, 'utf8'));
    const preview = await api(t.adminToken).get(`/contacts/import/${id}/preview`);
    expect(preview.body.header).toEqual(['E-mail', 'Nome completo', 'Celular']);
    expect(preview.body.rows[0]).toEqual(['ana@ex.com', 'Silva; Ana', '+55 (11) 98765-4321']);
    expect(preview.body.rows[2]).toEqual(['', 'Bruno "Bê" Costa', '(31) 8765-4321']);
    expect(preview.body.more).toBe(false);

    const start = await api(t.adminToken).post(`/contacts/import/${id}/start`, {
      columns: ['email', 'name', 'number'],
      excludedRows: [8],
    });
    expect(start.status, JSON.stringify(start.body)).toBe(202);
    expect(await waitDone(t.adminToken, id)).toMatchObject({
      status: 'done',
      total: 9,
      created: 3,
      merged: 3,
      ignored: 3,
    });
    expect(await contactOf(t.company.id, '5511987654321')).toMatchObject({ name: 'Silva; Ana', email: 'ana@ex.com' });
    expect(await contactOf(t.company.id, '5531987654321')).toMatchObject({ name: 'Bruno "Bê" Costa' });
    expect(await contactOf(t.company.id, '5521999990000')).toMatchObject({ name: 'Carla' });
    expect(await contactOf(t.company.id, '5511912345678')).toMatchObject({ name: 'Já Cadastrada' });
    expect(await contactOf(t.company.id, '5511966665555')).toBeNull();
    expect(await countCompanyContacts(t.company.id)).toBe(4);
  }, 120_000);
});

describe('a crash in the middle of an import', () => {
  it('resumes at the last chunk recorded and ends with the same counts as an import that never stopped', async () => {
    const t = await freshCompany();
    const auth: AuthContext = {
      companyId: t.company.id,
      userId: t.admin.id,
      profile: 'admin',
      super: false,
      userFlags: {},
      planFlags: {},
    };
    const rows: (string | number)[][] = [['nome', 'numero']];
    for (let i = 0; i < 700; i += 1) rows.push([`Pessoa ${i}`, `5511955${String(i).padStart(6, '0')}`]);
    for (let i = 0; i < 20; i += 1) rows.push([`Pessoa ${i} repetida`, `(11) 955${String(i).padStart(6, '0')}`]);
    rows.push(['Sem número', '']);
    const bytes = await xlsx(rows);
    // Uploaded as the browser does, but queued without a message: this test is the job's only delivery.
    const upload = await createContactUpload(auth, { fileName: 'crash.xlsx', size: bytes.length });
    await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: bytes });
    await queueContactImport((await getContactImport(t.company.id, upload.importId))!, ['name', 'number'], []);

    // The first delivery dies right after its first chunk is recorded.
    await expect(
      runContactImport(t.company.id, upload.importId, {
        afterChunk: () => {
          throw new Error('injected crash');
        },
      }),
    ).rejects.toThrow('injected crash');
    expect(await getContactImport(t.company.id, upload.importId)).toMatchObject({
      status: 'running',
      offset: 250,
      created: 250,
      merged: 0,
    });

    // A redelivery, and a late duplicate delivery after it, change nothing more.
    expect(await runContactImport(t.company.id, upload.importId)).toBe('done');
    expect(await runContactImport(t.company.id, upload.importId)).toBe('nothing');
    expect(await getContactImport(t.company.id, upload.importId)).toMatchObject({
      status: 'done',
      total: 721,
      offset: 721,
      created: 700,
      merged: 20,
      ignored: 1,
    });
    expect(await countCompanyContacts(t.company.id)).toBe(700);
  }, 120_000);

  it('a chunk replayed after a crash before its offset was recorded counts its own contacts as created', async () => {
    const t = await freshCompany();
    const auth: AuthContext = {
      companyId: t.company.id,
      userId: t.admin.id,
      profile: 'admin',
      super: false,
      userFlags: {},
      planFlags: {},
    };
    const rows: (string | number)[][] = [['nome', 'numero']];
    for (let i = 0; i < 300; i += 1) rows.push([`Pessoa ${i}`, `5511944${String(i).padStart(6, '0')}`]);
    const bytes = await xlsx(rows);
    const upload = await createContactUpload(auth, { fileName: 'crash.xlsx', size: bytes.length });
    await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: bytes });
    await queueContactImport((await getContactImport(t.company.id, upload.importId))!, ['name', 'number'], []);
    // The first delivery writes the first chunk's 250 contacts and dies before recording the chunk.
    await expect(
      runContactImport(t.company.id, upload.importId, {
        beforeRecord: () => {
          throw new Error('injected crash');
        },
      }),
    ).rejects.toThrow('injected crash');
    expect(await getContactImport(t.company.id, upload.importId)).toMatchObject({ offset: 0, created: 0 });
    // Made, but counted only with the chunk's record (D104): the company's count has not moved yet.
    expect(await contactOf(t.company.id, '5511944000000')).not.toBeNull();
    expect(await countCompanyContacts(t.company.id)).toBe(0);
    // The redelivery writes the chunk again: its rows find the contacts they made and count them as created.
    expect(await runContactImport(t.company.id, upload.importId)).toBe('done');
    expect(await getContactImport(t.company.id, upload.importId)).toMatchObject({
      status: 'done',
      created: 300,
      merged: 0,
    });
    expect(await countCompanyContacts(t.company.id)).toBe(300);
  }, 120_000);
});

describe('contact import: bad input and who sees an import', () => {
  let t: TestCompany;
  let other: TestCompany;
  let id: string;
  beforeAll(async () => {
    t = await freshCompany();
    other = await freshCompany();
    id = await upload(t.attendantToken, 'poucos.csv', Buffer.from('nome,numero,email\nAna,11987650000,\n', 'utf8'));
  });

  it("refuses a file that is not a spreadsheet: 'Arquivo inválido!'", async () => {
    const pdf = await api(t.adminToken).post('/contacts/upload', { fileName: 'contrato.pdf', size: 100 });
    expect(pdf.status).toBe(400);
    expect(pdf.body.error).toBe('ERR_INVALID_FILE');
    const garbage = await upload(
      t.adminToken,
      'planilha.xlsx',
      Buffer.from('PK\u0003\u0004 not really a zip', 'latin1'),
    );
    const preview = await api(t.adminToken).get(`/contacts/import/${garbage}/preview`);
    expect(preview.status).toBe(400);
    expect(preview.body).toMatchObject({ error: 'ERR_INVALID_FILE', message: 'Arquivo inválido!' });
    const big = await api(t.adminToken).post('/contacts/upload', { fileName: 'big.csv', size: 50 * 1024 * 1024 });
    expect(big.status).toBe(400);
    expect(fieldsOf(big.body)[0]).toMatch(/^body\.size/);
  });

  it('checks the mapping: a number column, a name column, each field once, a row selected', async () => {
    const post = (body: unknown) => api(t.attendantToken).post(`/contacts/import/${id}/start`, body);
    const noNumber = await post({ columns: ['name', null, null] });
    expect(noNumber.status).toBe(400);
    expect(fieldsOf(noNumber.body)).toEqual(['body.columns: no column is the number']);
    const noName = await post({ columns: [null, 'number'] });
    expect(fieldsOf(noName.body)).toEqual(['body.columns: no column is the name']);
    const twice = await post({ columns: ['name', 'number', 'name'] });
    expect(fieldsOf(twice.body)).toEqual(['body.columns: name is chosen for more than one column']);
    const none = await post({ columns: ['name', 'number'], excludedRows: [0] });
    expect(fieldsOf(none.body)).toEqual(['body.excludedRows: no row is selected']);
    const wrong = await post({ columns: ['phone'] });
    expect(wrong.status).toBe(400);
    expect(await getContactImport(t.company.id, id)).toMatchObject({ status: 'uploaded' });
  });

  it("another company's import is not found, nor another plain user's; the company's admin sees it", async () => {
    expect((await api(other.adminToken).get(`/contacts/import/${id}`)).status).toBe(404);
    expect((await api(other.adminToken).get(`/contacts/import/${id}/preview`)).status).toBe(404);
    expect(
      (await api(other.adminToken).post(`/contacts/import/${id}/start`, { columns: ['name', 'number'] })).status,
    ).toBe(404);
    expect((await api(t.adminToken).get(`/contacts/import/${id}`)).body).toMatchObject({ id, status: 'uploaded' });
    expect((await api(t.adminToken).get('/contacts/import/not-an-id')).status).toBe(400);
  });

  it('starts once: a second start is a 409', async () => {
    const first = await api(t.attendantToken).post(`/contacts/import/${id}/start`, { columns: ['name', 'number'] });
    expect(first.status).toBe(202);
    const second = await api(t.attendantToken).post(`/contacts/import/${id}/start`, { columns: ['name', 'number'] });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('ERR_IMPORT_STARTED');
    expect(await waitDone(t.attendantToken, id)).toMatchObject({ status: 'done', created: 1 });
  });
});
