import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { listReceived } from '../../functions/data/simulator-phone-repository';
import { useBrowser } from './browser';
import {
  apiAs,
  customerWrites,
  waitUntil,
  workspaceCompany,
  type WorkspaceCompany,
  appOrigin,
  logIn,
  manager,
} from './workspace-company';

/**
 * Issue 16 item 12: an admin imports a contact list from a spreadsheet, creates a campaign with two message
 * variants on it and watches its report fill live while the simulated phones receive their variant; then
 * schedules a message from a ticket's composer and sees it reach the customer's phone.
 */
const { session } = useBrowser();

const LIVE = { timeout: 90_000 };

const suffix = () => Math.random().toString(36).slice(2, 7);
const phoneNumber = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** What the connection's simulated phones received (the first 500). */
const received = async (company: WorkspaceCompany) =>
  (await listReceived(company.companyId, company.whatsappId, { limit: 500 })).messages;

/** `YYYY-MM-DDTHH:MM` of `at` on the clock of `timeZone` (a datetime-local field's value). */
const wallTime = (at: Date, timeZone: string): string => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
};

/** Picks `option` in the Cloudscape select of the form field labelled `label`. */
const choose = async (page: Page, label: string, option: RegExp | string) => {
  await page.getByRole('button', { name: new RegExp(`^${label}`) }).click();
  await page.getByRole('option', { name: option }).first().click();
};

describe('messages that go out on their own', () => {
  it('imports a contact list, runs a two-variant campaign, and the report fills live as the phones receive it', async () => {
    const company = await workspaceCompany();
    const admin = await manager(company, 'Gerente Campanhas');
    const api = apiAs(company.adminToken);
    // Campaigns keep office hours: every day, all the allowed hours, no pacing, in a zone where it is noon.
    const offset = 12 - new Date().getUTCHours();
    const noon = offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
    expect((await api.put('/companySettings', { column: 'timezone', data: noon })).status).toBe(200);
    const settings = await api.post('/campaign-settings', {
      settings: {
        messageInterval: 0,
        longerIntervalAfter: 0,
        greaterInterval: 0,
        sabado: true,
        domingo: true,
        startHour: '08:00',
        endHour: '19:00',
      },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);

    const tag = suffix();
    const people = [0, 1, 2, 3].map((i) => ({ name: `Pessoa ${tag} ${i}`, number: phoneNumber() }));
    const { page } = await session();
    await logIn(page, admin);

    // A contact list, filled from a spreadsheet.
    const listName = `Clientes ${tag}`;
    await page.goto(`${appOrigin()}/contact-lists`);
    await page.getByRole('button', { name: 'Adicionar', exact: true }).click(LIVE);
    const listDialog = page.getByRole('dialog');
    await listDialog.getByLabel('Nome').fill(listName);
    await listDialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Lista de contatos salva com sucesso!').first().waitFor(LIVE);
    await page.getByRole('button', { name: `Contatos de ${listName}` }).click(LIVE);
    const csv = ['nome;numero', ...people.map((p) => `${p.name};${p.number}`)].join('\n');
    await page.locator('input[type="file"]').setInputFiles({
      name: 'clientes.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv, 'utf8'),
    });
    for (const p of people) await page.getByText(p.name).waitFor(LIVE);

    // A campaign with two variants on that list, starting now.
    const campaignName = `Promoção ${tag}`;
    await page.goto(`${appOrigin()}/campaigns`);
    await page.getByRole('button', { name: 'Nova campanha' }).click(LIVE);
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome', { exact: true }).fill(campaignName);
    await choose(page, 'Lista de contatos', listName);
    await choose(page, 'Conexão', /CONNECTED/);
    await dialog.getByRole('textbox', { name: 'Mensagem 1', exact: true }).fill(`${tag} A: Olá {nome}`);
    await dialog.getByRole('tab', { name: 'Mensagem 2' }).click();
    await dialog.getByRole('textbox', { name: 'Mensagem 2', exact: true }).fill(`${tag} B: Oi {nome}`);
    const now = await page.evaluate(() => {
      const d = new Date();
      const two = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
    });
    await dialog.getByLabel('Agendamento').fill(now);
    await dialog.getByRole('button', { name: /^(Adicionar|Salvar)$/ }).click();
    await page.getByText('Campanha salva com sucesso!').first().waitFor(LIVE);

    // Its report fills live, without a reload, until every contact is done.
    await page.getByRole('button', { name: `Relatório de ${campaignName}` }).click(LIVE);
    await page.getByText(`Relatório de ${campaignName}`).first().waitFor(LIVE);
    await page.getByText('4 de 4 contatos').waitFor(LIVE);
    await page.getByText('Status: Finalizada').waitFor(LIVE);

    // Every phone got one message, its variant's, with its name filled in.
    const mine = await waitUntil(
      async () => (await received(company)).filter((m) => (m.body ?? '').startsWith(tag)),
      (ms) => ms.length >= 4,
      'the campaign on the phones',
      90_000,
    );
    expect(mine).toHaveLength(4);
    const variants = new Set<string>();
    for (const p of people) {
      const got = mine.filter((m) => m.chatId === `${p.number}@s.whatsapp.net`).map((m) => m.body);
      expect(got).toHaveLength(1);
      expect(got[0]).toMatch(new RegExp(`^${tag} [AB]: (Olá|Oi) ${p.name}$`));
      variants.add(got[0]!.slice(tag.length + 1, tag.length + 2));
    }
    expect([...variants].every((v) => v === 'A' || v === 'B')).toBe(true);
  }, 360_000);

  it('schedules a message from the composer, and it reaches the customer', async () => {
    const company = await workspaceCompany();
    const admin = await manager(company, 'Gerente Agenda');
    const customer = { number: phoneNumber(), name: `Cliente ${suffix()}` };
    await customerWrites(company, customer, 'Me lembra amanhã?');
    const api = apiAs(company.adminToken);
    const moments = await waitUntil(
      async () => (await api.get('/dashboard/moments')).body,
      (b) => (b?.tickets ?? []).some((t: { contact: { name: string } }) => t.contact.name === customer.name),
      'the ticket',
    );
    const ticket = moments.tickets.find((t: { contact: { name: string } }) => t.contact.name === customer.name) as {
      id: number;
      uuid: string;
    };
    expect((await api.put(`/tickets/${ticket.id}`, { status: 'open', userId: admin.id })).status).toBe(200);

    const { page } = await session();
    await logIn(page, admin);
    await page.goto(`${appOrigin()}/tickets/${ticket.uuid}`);
    await page.getByTestId('composer').getByRole('button', { name: 'Mais', exact: true }).click(LIVE);
    await page.getByRole('menuitem', { name: 'Agendar mensagem' }).click();
    const dialog = page.getByRole('dialog');
    const text = `Lembrete ${suffix()}: seu horário é amanhã`;
    await dialog.getByLabel('Mensagem', { exact: true }).fill(text);
    // The next minute on the company's clock (America/Sao_Paulo, the sign-up default).
    await dialog.getByLabel('Data de envio').fill(wallTime(new Date(Date.now() + 60_000), 'America/Sao_Paulo'));
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Agendamento salvo com sucesso!').first().waitFor(LIVE);

    // The minute tick sends it: it shows in the conversation and reaches the phone.
    await page.getByText(text).first().waitFor({ timeout: 150_000 });
    const got = await waitUntil(
      async () => (await received(company)).filter((m) => m.chatId === `${customer.number}@s.whatsapp.net`),
      (ms) => ms.some((m) => m.body === text),
      'the scheduled message on the phone',
      150_000,
    );
    expect(got.filter((m) => m.body === text)).toHaveLength(1);
  }, 300_000);
});
