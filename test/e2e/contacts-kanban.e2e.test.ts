import { describe, expect, it } from 'vitest';
import { createTag } from '../../functions/data/tag-repository';
import { useBrowser } from './browser';
import {
  apiAs,
  customerWrites,
  PASSWORD,
  waitUntil,
  workspaceCompany,
  appOrigin,
  logIn,
  manager,
} from './workspace-company';

/**
 * Issue 15 item 11: an admin imports a spreadsheet through the mapping screen and finds the contacts; one
 * admin drags a ticket's card between two kanban lanes and another, with the ticket's contact drawer open
 * in a second browser, sees its kanban stage change without a reload.
 */
const { session } = useBrowser();

const LIVE = { timeout: 60_000 };

const suffix = () => Math.random().toString(36).slice(2, 7);

describe('contacts and the kanban board', () => {
  it('imports a spreadsheet through the mapping screen and shows the contacts', async () => {
    const company = await workspaceCompany();
    const admin = await manager(company, 'Gerente Importação');
    const names = [`Importada ${suffix()}`, `Importado ${suffix()}`];
    const digits = String(10_000_000 + Math.floor(Math.random() * 80_000_000));
    const csv = [
      'Cliente;Celular;Observação',
      `${names[0]};(11) 9${digits.slice(0, 4)}-${digits.slice(4)};VIP`,
      `${names[1]};+55 11 9${Number(digits) + 1};`,
      `;11 9${Number(digits) + 2};sem nome`,
    ].join('\n');

    const { page } = await session();
    await logIn(page, admin);
    await page.goto(`${appOrigin()}/contacts/import`);
    await page.locator('input[type="file"]').setInputFiles({
      name: 'clientes.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv, 'utf8'),
    });
    await page.getByText(names[0]!).waitFor(LIVE);
    await page.getByRole('button', { name: /^Campo da coluna Cliente/ }).click();
    await page.getByRole('option', { name: 'Nome', exact: true }).click();
    await page.getByRole('button', { name: /^Campo da coluna Celular/ }).click();
    await page.getByRole('option', { name: 'Número', exact: true }).click();
    await page.getByRole('button', { name: 'Importar', exact: true }).click();

    await page.getByText('Importação realizada com sucesso').first().waitFor(LIVE);
    expect(await page.getByTestId('import-created').textContent()).toBe('2');
    expect(await page.getByTestId('import-ignored').textContent()).toBe('1');

    await page.getByRole('button', { name: 'Ver contatos' }).click();
    await page.waitForURL('**/contacts');
    for (const name of names) await page.getByText(name).waitFor(LIVE);
  }, 240_000);

  it('a card dragged between lanes in one browser shows its new stage in the contact drawer of another', async () => {
    const company = await workspaceCompany();
    const [mover, watcher] = [await manager(company, 'Gerente Kanban'), await manager(company, 'Gerente Ticket')];
    const proposal = await createTag(company.companyId, { name: 'Proposta', color: '#7b1fa2', kanban: 1 });
    await createTag(company.companyId, { name: 'Fechamento', color: '#ef6c00', kanban: 1 });

    const customer = {
      number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      name: `Cliente ${suffix()}`,
    };
    await customerWrites(company, customer, 'Quero um orçamento');
    const admin = apiAs(company.adminToken);
    const moments = await waitUntil(
      async () => (await admin.get('/dashboard/moments')).body,
      (b) => (b?.tickets ?? []).some((t: { contact: { name: string } }) => t.contact.name === customer.name),
      'the ticket',
    );
    const ticket = moments.tickets.find((t: { contact: { name: string } }) => t.contact.name === customer.name) as {
      id: number;
      uuid: string;
    };
    const watcherApi = apiAs(
      (await apiAs().post('/auth/login', { email: watcher.email, password: PASSWORD })).body.token,
    );
    expect((await watcherApi.put(`/tickets/${ticket.id}`, { status: 'open', userId: watcher.id })).status).toBe(200);

    // The watcher has the ticket open with the contact's data beside it: no stage yet.
    const w = await session();
    await logIn(w.page, watcher);
    await w.page.goto(`${appOrigin()}/tickets/${ticket.uuid}`);
    const conversation = w.page.getByTestId('ticket-conversation');
    await conversation.getByRole('button', { name: `Dados de ${customer.name}` }).click(LIVE);
    const drawer = w.page.getByTestId('contact-drawer');
    const stage = drawer.getByLabel('Etapa do Kanban');
    await drawer.getByText('Etapa do Kanban').waitFor(LIVE);

    // The mover drags the card from 'Em aberto' to 'Proposta' on the board.
    const m = await session();
    await logIn(m.page, mover);
    await m.page.goto(`${appOrigin()}/Kanban`);
    const card = m.page.getByTestId(`kanban-card-${ticket.id}`);
    await m.page.getByTestId('kanban-lane-0').getByTestId(`kanban-card-${ticket.id}`).waitFor(LIVE);
    const target = m.page.getByTestId(`kanban-lane-${proposal.id}`);
    const from = (await card.boundingBox())!;
    const to = (await target.boundingBox())!;
    await m.page.mouse.move(from.x + from.width / 2, from.y + 20);
    await m.page.mouse.down();
    await m.page.mouse.move(from.x + from.width / 2 + 10, from.y + 30, { steps: 5 });
    await m.page.mouse.move(to.x + to.width / 2, to.y + Math.min(120, to.height / 2), { steps: 20 });
    await m.page.mouse.up();
    await target.getByTestId(`kanban-card-${ticket.id}`).waitFor(LIVE);
    await m.page.getByText('Ticket Tag Adicionado com Sucesso!').first().waitFor(LIVE);

    // The watcher's drawer follows without a reload, and the server says the same.
    await expect.poll(async () => (await stage.textContent()) ?? '', LIVE).toContain('Proposta');
    const board = (await admin.get('/ticket/kanban')).body.tickets as { id: number; kanbanTagId: number | null }[];
    expect(board.find((c) => c.id === ticket.id)?.kanbanTagId).toBe(proposal.id);
  }, 240_000);
});
