import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AttendantRow, ReportRow } from '../../functions/contracts/dashboard';
import type { ExportView } from '../../functions/contracts/exports';
import type { ContactView } from '../../functions/contracts/contacts';
import { signAccessToken } from '../../functions/core/access-token';
import { runExport } from '../../functions/core/exports/export-job';
import { STATUS_TEXT, wallClock } from '../../functions/core/exports/export-sources';
import { createContact } from '../../functions/data/contact-repository';
import { getExport, putExport, type ExportItem } from '../../functions/data/export-repository';
import { countExportObjects, getExportObject } from '../../functions/data/export-store';
import { createQueue, type Queue } from '../../functions/data/queue-repository';
import { setCompanySetting } from '../../functions/data/settings-repository';
import { createTicket, transitionTicket, type Ticket } from '../../functions/data/ticket-repository';
import { createUser, type User } from '../../functions/data/user-repository';
import { eventsUntil, someConnection, waitFor } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

/**
 * Spreadsheet exports by job (issue 18 item 3, issue 15 item 5; decisions D127–D129): each file, read back
 * with exceljs (or as text for csv), holds exactly what the screen's API answers for the same filters —
 * the attendants table of GET /dashboard, every page of GET /ticketreport/reports, every page of
 * GET /contacts — over a few hundred rows, so both the screen's paging and the job's pages are crossed.
 * A delivery that crashes or is overtaken mid-way still leaves one finished file; an export is its
 * requester's only; bad filters are 400s.
 */
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const ZONE = 'America/Sao_Paulo';
const TICKETS = 330;
let t: TestCompany;
let vendas: Queue;
let suporte: Queue;
let ana: User;
let bia: User;
let whatsappId: number;
let viewerToken: string;

const admin = () => api(t.adminToken);

const at = (day: number, minute: number) => new Date(Date.UTC(2026, 2, day, 12, minute));

beforeAll(async () => {
  t = await freshCompany();
  await setCompanySetting(t.company.id, 'timezone', ZONE);
  vendas = await createQueue(t.company.id, { name: 'Vendas', color: '#1f77b4' });
  suporte = await createQueue(t.company.id, { name: 'Suporte', color: '#ff7f0e' });
  whatsappId = (await someConnection(t.company.id, { status: 'CONNECTED' })).id;
  const person = (name: string, extra: Partial<User> = {}) =>
    createUser(t.company.id, {
      name,
      email: `${randomUUID()}@test.local`,
      passwordHash: 'x',
      profile: 'user',
      queueIds: [vendas.id, suporte.id],
      ...extra,
    });
  ana = await person('Ana');
  bia = await person('Bia', { showDashboard: 'enabled' });
  viewerToken = await signAccessToken({ companyId: t.company.id, userId: bia.id, profile: 'user', super: false });

  // 330 tickets over three days: pending, taken, closed (some rated), each with its own contact.
  const make = async (i: number) => {
    const number = `5511${String(900_000_000 + i * 7919).padStart(9, '0')}`;
    const contact = await createContact(
      t.company.id,
      { name: `Cliente ${String(i).padStart(3, '0')}`, number, isGroup: false, channel: 'whatsapp', whatsappId },
      [`wa#${number}`],
    );
    const day = 1 + (i % 3);
    let ticket: Ticket = await createTicket(
      t.company.id,
      {
        status: 'pending',
        queueId: i % 2 === 0 ? vendas.id : suporte.id,
        userId: null,
        contactId: contact.id,
        whatsappId,
        channel: 'whatsapp',
        isGroup: false,
        origin: 'passive',
      },
      at(day, i % 50),
    );
    if (i % 5 === 0) return;
    const user = i % 3 === 0 ? bia : ana;
    const move = async (change: Parameters<typeof transitionTicket>[1], when: Date) => {
      ticket = await transitionTicket(ticket, change, when);
    };
    await move({ status: 'open', userId: user.id, queueId: ticket.queueId, logs: [] }, at(day, (i % 50) + 3 + (i % 7)));
    if (i % 5 === 1) return;
    await move(
      {
        status: 'closed',
        userId: user.id,
        queueId: ticket.queueId,
        logs: [],
        ...(i % 4 === 0 ? { rating: i % 11, fields: { userRating: Math.max(1, Math.ceil((i % 11) / 2)) } } : {}),
      },
      at(day, (i % 50) + 20 + (i % 13)),
    );
  };
  for (let i = 0; i < TICKETS; i += 10) await Promise.all(Array.from({ length: 10 }, (_, k) => make(i + k)));
});

/** POST /exports, then GET /exports/{id} until it is done; the file fetched by its presigned link. */
const exportFile = async (token: string, body: unknown): Promise<{ view: ExportView; bytes: Buffer }> => {
  const started = await api(token).post('/exports', body);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(started.body).toMatchObject({ status: 'queued', processed: 0 });
  const view = (await waitFor(
    async () => (await api(token).get(`/exports/${started.body.id as string}`)).body as ExportView,
    (b) => b.status === 'done' || b.status === 'failed',
    { timeoutMs: 120_000, intervalMs: 250, what: 'the export to finish' },
  )) as ExportView;
  expect(view.status, JSON.stringify(view)).toBe('done');
  expect(view.downloadUrl).toBeTruthy();
  const res = await fetch(view.downloadUrl!);
  expect(res.status).toBe(200);
  return { view, bytes: Buffer.from(await res.arrayBuffer()) };
};

/** The first sheet's name and its rows as plain values (header first). */
const readXlsx = async (bytes: Buffer): Promise<{ name: string; rows: unknown[][] }> => {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { name: sheet.name, rows };
};

/** An xlsx duration cell back to minutes (exceljs reads a `[h]:mm` cell as a Date from its serial number). */
const minutes = (v: unknown) =>
  v === null || v === undefined
    ? null
    : Math.round((v instanceof Date ? v.getTime() / 86_400_000 + 25_569 : Number(v)) * 1440);
const cell = (v: unknown) => (v === undefined ? null : v);

describe('the attendants sheet', () => {
  it('holds the Atendentes table of GET /dashboard for the same range, with progress on the socket', async () => {
    const socket = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
    const range = { date_from: '2026-03-01', date_to: '2026-03-03' };
    const dashboard = await admin().get('/dashboard', range);
    expect(dashboard.status).toBe(200);
    const attendants = dashboard.body.attendants as AttendantRow[];
    expect(attendants.find((a) => a.id === ana.id)!.tickets).toBeGreaterThan(100);

    const { view, bytes } = await exportFile(t.adminToken, { kind: 'attendants', filters: range });
    expect(view).toMatchObject({
      kind: 'attendants',
      fileName: 'relatorio-de-atendentes.xlsx',
      total: attendants.length,
    });
    const sheet = await readXlsx(bytes);
    expect(sheet.rows[0]).toEqual([
      'Nome',
      'Avaliação',
      'Avaliações',
      'Atendimentos',
      'T.M. de espera',
      'T.M. de atendimento',
      'Status',
    ]);
    expect(
      sheet.rows.slice(1).map((r) => ({
        name: r[0],
        rating: r[1],
        countRating: r[2],
        tickets: r[3],
        avgWaitTime: minutes(r[4]),
        avgSupportTime: minutes(r[5]),
        online: r[6] === 'Online',
      })),
    ).toEqual(attendants.map(({ id: _id, ...row }) => row));

    const events = await eventsUntil(
      socket,
      (e) =>
        e.channel === `company-${t.company.id}-export` &&
        (e.export as ExportView).id === view.id &&
        (e.export as ExportView).status === 'done',
      30_000,
    );
    expect(
      events.some(
        (e) => e.channel === `company-${t.company.id}-export` && (e.export as ExportView).status === 'running',
      ),
    ).toBe(true);
  });

  it('is refused to a plain user without showDashboard (403) and asks for a range (400)', async () => {
    const denied = await api(t.attendantToken).post('/exports', {
      kind: 'attendants',
      filters: { date_from: '2026-03-01', date_to: '2026-03-03' },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('ERR_NO_PERMISSION');
    const unfiltered = await admin().post('/exports', { kind: 'attendants', filters: {} });
    expect(unfiltered.status).toBe(400);
    expect(unfiltered.body.message).toBe('Parametrize o filtro');
  });
});

/** Every row of the report for a filter, page after page of 50 (the screen's biggest page). */
const reportPagesOf = async (token: string, query: Record<string, string>): Promise<ReportRow[]> => {
  const rows: ReportRow[] = [];
  for (let page = 1; ; page += 1) {
    const res = await api(token).get('/ticketreport/reports', { ...query, page: String(page), pageSize: '50' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...(res.body.tickets as ReportRow[]));
    if (!res.body.hasMore) return rows;
  }
};

describe('the tickets report export', () => {
  it('holds every row of the paged report for the same filters, in its order', async () => {
    const filters = { dateFrom: '2026-03-01', dateTo: '2026-03-03', status: '["open","closed"]' };
    const expected = await reportPagesOf(viewerToken, filters);
    expect(expected.length).toBeGreaterThan(200);

    const { view, bytes } = await exportFile(viewerToken, { kind: 'tickets-report', filters });
    expect(view).toMatchObject({ fileName: 'relatorio-de-atendimentos.xlsx', processed: expected.length });
    const sheet = await readXlsx(bytes);
    expect(sheet.name).toBe('RelatorioDeAtendimentos');
    expect(sheet.rows[0]).toEqual([
      'Ticket',
      'Conexão',
      'Contato',
      'Usuário',
      'Fila',
      'Status',
      'Última mensagem',
      'Abertura',
      'Fechamento',
      'T. de atendimento',
      'NPS',
      'UUID',
    ]);
    const asCells = (r: ReportRow) => [
      r.id,
      r.whatsappName,
      r.contactName,
      r.userName,
      r.queueName,
      STATUS_TEXT[r.status],
      r.lastMessage || null,
      wallClock(r.createdAt, ZONE).toISOString(),
      r.closedAt ? wallClock(r.closedAt, ZONE).toISOString() : null,
      r.supportTime,
      r.NPS,
      r.uuid,
    ];
    const read = sheet.rows
      .slice(1)
      .map((r) => [
        r[0],
        r[1],
        r[2],
        cell(r[3]) ?? '',
        r[4],
        r[5],
        cell(r[6]) || null,
        (r[7] as Date).toISOString(),
        r[8] instanceof Date ? r[8].toISOString() : null,
        minutes(r[9]),
        cell(r[10]),
        r[11],
      ]);
    expect(read).toEqual(expected.map(asCells));
  });

  it('bad filters are 400s naming the field', async () => {
    const backwards = await admin().post('/exports', {
      kind: 'tickets-report',
      filters: { dateFrom: '2026-03-03', dateTo: '2026-03-01' },
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.fields).toEqual([expect.objectContaining({ field: 'body.filters.dateTo' })]);
    const noDay = await admin().post('/exports', { kind: 'tickets-report', filters: { dateFrom: '2026-02-30' } });
    expect(noDay.status).toBe(400);
    expect((noDay.body.fields as { field: string }[]).map((f) => f.field).sort()).toEqual([
      'body.filters.dateFrom',
      'body.filters.dateTo',
    ]);
    const badList = await admin().post('/exports', {
      kind: 'tickets-report',
      filters: { dateFrom: '2026-03-01', dateTo: '2026-03-02', status: '["sleeping"]' },
    });
    expect(badList.status).toBe(400);
    const badKind = await admin().post('/exports', { kind: 'everything' });
    expect(badKind.status).toBe(400);
    expect(badKind.body.fields[0].field).toBe('body.kind');
  });
});

/** Every contact of GET /contacts, page after page by cursor. */
const allContacts = async (token: string): Promise<ContactView[]> => {
  const out: ContactView[] = [];
  let cursor: string | undefined;
  do {
    const res = await api(token).get('/contacts', cursor ? { cursor } : {});
    expect(res.status).toBe(200);
    out.push(...(res.body.contacts as ContactView[]));
    cursor = res.body.hasMore ? (res.body.nextCursor as string) : undefined;
  } while (cursor);
  return out;
};

describe('the contacts export', () => {
  it('xlsx: every contact of GET /contacts, in its order', async () => {
    const expected = await allContacts(t.attendantToken);
    expect(expected.length).toBeGreaterThanOrEqual(TICKETS);
    const { view, bytes } = await exportFile(t.attendantToken, { kind: 'contacts', format: 'xlsx' });
    expect(view).toMatchObject({ fileName: 'contatos.xlsx', total: expected.length, processed: expected.length });
    const sheet = await readXlsx(bytes);
    expect(sheet.rows[0]).toEqual(['ID', 'Nome', 'WhatsApp', 'E-mail', 'Canal', 'Grupo', 'Situação', 'Criado em']);
    expect(sheet.rows.slice(1).map((r) => [r[0], r[1], r[2], cell(r[3]) ?? '', (r[7] as Date).toISOString()])).toEqual(
      expected.map((c) => [c.id, c.name, c.number, c.email, wallClock(c.createdAt, ZONE).toISOString()]),
    );
  });

  it('csv: UTF-8 with a BOM, `;` between fields, the same contacts', async () => {
    const expected = await allContacts(t.attendantToken);
    const { view, bytes } = await exportFile(t.attendantToken, { kind: 'contacts', format: 'csv' });
    expect(view.fileName).toBe('contatos.csv');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('ID;Nome;WhatsApp;E-mail;Canal;Grupo;Situação;Criado em');
    expect(lines.slice(1).map((l) => l.split(';').slice(0, 3))).toEqual(
      expected.map((c) => [String(c.id), c.name, c.number]),
    );
  });
});

describe('crashes and redeliveries', () => {
  const stored = async (): Promise<ExportItem> => {
    const id = randomUUID();
    return putExport({
      id,
      companyId: t.company.id,
      userId: t.admin.id,
      kind: 'contacts',
      format: 'xlsx',
      fileName: 'contatos.xlsx',
      key: `c/${t.company.id}/exports/${id}/contatos.xlsx`,
      filters: {},
      auth: {
        companyId: t.company.id,
        userId: t.admin.id,
        profile: 'admin',
        super: false,
        userFlags: {},
        planFlags: {},
      },
    });
  };
  const prefixOf = (e: ExportItem) => `c/${t.company.id}/exports/${e.id}/`;

  it('a delivery that dies after its first page leaves no file; the redelivery writes the one file', async () => {
    const item = await stored();
    await expect(
      runExport(t.company.id, item.id, {
        afterPage: () => {
          throw new Error('injected crash');
        },
      }),
    ).rejects.toThrow('injected crash');
    const halfway = await getExport(t.company.id, item.id);
    expect(halfway).toMatchObject({ status: 'running', attempts: 1 });
    expect(halfway!.processed).toBeGreaterThan(0);
    expect(await countExportObjects(prefixOf(item))).toBe(0);

    expect(await runExport(t.company.id, item.id)).toBe('done');
    const done = await getExport(t.company.id, item.id);
    expect(done).toMatchObject({ status: 'done', attempts: 2, processed: done!.total });
    expect(await countExportObjects(prefixOf(item))).toBe(1);
    const sheet = await readXlsx(await getExportObject(item.key));
    expect(sheet.rows.length - 1).toBe(done!.processed);
    // A late redelivery of the finished export changes nothing.
    expect(await runExport(t.company.id, item.id)).toBe('nothing');
  });

  it('a delivery overtaken by a redelivery mid-way stops; exactly one finished file, the newer one', async () => {
    const item = await stored();
    let newer: Promise<string> | undefined;
    const older = await runExport(t.company.id, item.id, {
      afterPage: async (processed) => {
        // While the first delivery is between pages, SQS hands the message to a second one.
        if (processed > 0 && !newer) {
          newer = runExport(t.company.id, item.id);
          await newer;
        }
      },
    });
    expect(older).toBe('overtaken');
    expect(await newer).toBe('done');
    const done = await getExport(t.company.id, item.id);
    expect(done).toMatchObject({ status: 'done', attempts: 2 });
    expect(await countExportObjects(prefixOf(item))).toBe(1);
    const sheet = await readXlsx(await getExportObject(item.key));
    expect(sheet.rows.length - 1).toBe(done!.processed);
  });
});

describe('whose export it is', () => {
  it('another company, and another user of the same company, get a 404 for the export and never its link', async () => {
    const started = await admin().post('/exports', { kind: 'contacts', format: 'csv' });
    expect(started.status).toBe(202);
    const id = started.body.id as string;
    await waitFor(
      async () => (await admin().get(`/exports/${id}`)).body as ExportView,
      (b) => b.status === 'done',
      { timeoutMs: 60_000, intervalMs: 250, what: 'the export to finish' },
    );
    const other = await freshCompany();
    for (const token of [other.adminToken, t.attendantToken]) {
      const res = await api(token).get(`/exports/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_EXPORT_FOUND');
      expect(JSON.stringify(res.body)).not.toContain('X-Amz');
    }
    const mine = await admin().get(`/exports/${id}`);
    expect(mine.body.downloadUrl).toContain('X-Amz-Expires=300');
  });
});
