import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { AttendantRow } from '../../functions/contracts/dashboard';
import { hashPassword } from '../../functions/core/passwords';
import { createUser } from '../../functions/data/user-repository';
import { useBrowser } from './browser';
import { apiAs, customerWrites, PASSWORD, waitUntil, workspaceCompany } from './workspace-company';

/**
 * Issue 18 item 8: a manager watches the dashboard (/) and another the live panel (/moments) while a
 * customer writes through the simulator and an attendant takes and resolves the ticket: the cards and the
 * panel change without a reload. Then the Atendentes tab's Excel export is downloaded and read back: its
 * row for the attendant holds what GET /dashboard says (decisions D127, D128).
 */
const { session } = useBrowser();

/** Waits for what the servers do in the background (inbound, events, the export job). */
const LIVE = { timeout: 60_000 };

/** The app as `npm start` prints it (localhost): the presigned links name that host (S3_ENDPOINT). */
const appOrigin = () => inject('appUrl').replace('127.0.0.1', 'localhost');

const logIn = async (page: Page, who: { email: string; password: string }) => {
  await page.goto(`${appOrigin()}/login`);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Senha', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/tickets');
};

/** A card of the Indicadores tab holds `value` (its label, then the number). */
const cardShows = (page: Page, key: string, value: string) =>
  page
    .getByTestId(`card-${key}`)
    .locator('p', { hasText: new RegExp(`^${value}$`) })
    .waitFor(LIVE);

describe('the dashboard and the live panel', () => {
  it('follow a ticket through the simulator without a reload, and the attendants sheet downloads', async () => {
    const company = await workspaceCompany();
    const passwordHash = await hashPassword(PASSWORD);
    const manager = async (name: string) => ({
      ...(await createUser(company.companyId, {
        name,
        email: `${name.split(' ')[1]!.toLowerCase()}-${company.companyId}@e2e.zapdesk.local`,
        passwordHash,
        profile: 'admin',
      })),
      password: PASSWORD,
    });
    const dashboardViewer = await manager('Gerente Dashboard');
    const panelViewer = await manager('Gerente Painel');

    const d = await session();
    await logIn(d.page, dashboardViewer);
    await d.page.goto(`${appOrigin()}/`);
    await cardShows(d.page, 'tickets', '0');

    const p = await session();
    await logIn(p.page, panelViewer);
    await p.page.goto(`${appOrigin()}/moments`);
    const pending = p.page.getByRole('list', { name: 'Pendentes' });
    await pending.waitFor({ state: 'attached', ...LIVE });

    // The customer writes: a pending ticket in Vendas, on both screens without a reload.
    const customer = {
      number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      name: `Cliente ${Math.random().toString(36).slice(2, 7)}`,
    };
    await customerWrites(company, customer, 'Bom dia, preciso de ajuda');
    await cardShows(d.page, 'tickets', '1');
    await cardShows(d.page, 'supportPending', '1');
    await pending.getByText(customer.name).waitFor(LIVE);

    // Attendant A accepts it: it leaves Pendentes for A's card, and the dashboard counts it as in service.
    const a = apiAs(
      (await apiAs().post('/auth/login', { email: company.attendantA.email, password: PASSWORD })).body.token,
    );
    const admin = apiAs(company.adminToken);
    const moments = await waitUntil(
      async () => (await admin.get('/dashboard/moments')).body,
      (b) => (b?.tickets ?? []).some((t: { contact: { name: string } }) => t.contact.name === customer.name),
      'the ticket on the panel',
    );
    const ticket = moments.tickets.find((t: { contact: { name: string } }) => t.contact.name === customer.name);
    const accepted = await a.put(`/tickets/${ticket.id}`, { status: 'open', userId: company.attendantA.id });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    await p.page.getByRole('list', { name: company.attendantA.name }).getByText(customer.name).waitFor(LIVE);
    await cardShows(d.page, 'supportHappening', '1');
    await cardShows(d.page, 'supportPending', '0');

    // A resolves it: the panel empties, the dashboard counts it as finished.
    const closed = await a.put(`/tickets/${ticket.id}`, { status: 'closed', userId: company.attendantA.id });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    await cardShows(d.page, 'supportFinished', '1');
    await cardShows(d.page, 'supportHappening', '0');
    await p.page.getByRole('list', { name: company.attendantA.name }).waitFor({ state: 'detached', ...LIVE });

    // The Atendentes tab's Excel export: progress, then the browser downloads the sheet.
    await d.page.getByRole('tab', { name: 'Atendentes' }).click();
    const download = d.page.waitForEvent('download', LIVE);
    await d.page.getByRole('button', { name: 'Exportar Excel' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('relatorio-de-atendentes.xlsx');
    await d.page.getByText('relatorio-de-atendentes.xlsx pronto').waitFor(LIVE);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await readFile((await file.path())!)) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const today = new Date().toISOString().slice(0, 10);
    const shown = await admin.get(`/dashboard?date_from=${today.slice(0, 8)}01&date_to=${today}`);
    const row = (shown.body.attendants as AttendantRow[]).find((r) => r.id === company.attendantA.id)!;
    expect(row.tickets).toBe(1);
    const sheetRow = rows.find((r) => r[0] === company.attendantA.name)!;
    expect(sheetRow.slice(0, 4)).toEqual([row.name, row.rating, row.countRating, row.tickets]);
    expect(rows[0]).toEqual([
      'Nome',
      'Avaliação',
      'Avaliações',
      'Atendimentos',
      'T.M. de espera',
      'T.M. de atendimento',
      'Status',
    ]);
  }, 300_000);
});
