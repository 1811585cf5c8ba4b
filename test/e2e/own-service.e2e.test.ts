import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { hashPassword } from '../../functions/core/passwords';
import { listPlans } from '../../functions/data/plan-repository';
import { createUser } from '../../functions/data/user-repository';
import { useBrowser } from './browser';
import { apiAs, customerReceived, customerWrites, PASSWORD, waitUntil, type Received } from './workspace-company';

/**
 * Issue 13: a company sets up its own service in the browser and a customer meets it. A new company's
 * admin creates two queues, one with a chatbot option that moves the customer to the other, links both to
 * a simulated WhatsApp connection in the connection dialog (Chatbot tab) with a greeting and an
 * out-of-hours text, and sets the company's hours on /settings. A simulated customer then picks the
 * queue and the option, and the ticket lands in the target queue for its attendant; with the hours closed,
 * a customer who writes twice gets the out-of-hours message once (decisions D90, D91, D98).
 */
const { session } = useBrowser();

/** Waits for what the servers do in the background (inbound, outbound, events): generous on a busy machine. */
const LIVE = { timeout: 60_000 };

const appOrigin = () => inject('appUrl').replace('127.0.0.1', 'localhost');

const ok = <T extends { status: number; body: unknown }>(answer: T, what: string, status = 200): T => {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer;
};

/**
 * The trigger of the Cloudscape select labelled `label` inside `scope`: its name is the label followed by the
 * choice shown (a select named by its label alone would also match one whose current choice reads the same).
 */
const selectNamed = (scope: Locator, label: string) =>
  scope.getByRole('button', { name: new RegExp(`^${label}( |$)`) });

/** Picks `option` in the select labelled `label` inside `scope`. */
const choose = async (page: Page, scope: Locator, label: string, option: string) => {
  await selectNamed(scope, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

const digits = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

describe("a company's own service, set up in the browser", () => {
  it('queues with a chatbot, linked in the connection dialog, hours; the customer is routed, and told once when closed', async () => {
    // ------------------------------------------------------------------ a new company and its connection
    const suffix = randomUUID().slice(0, 6);
    const plan = (await listPlans()).find((p) => p.isPublic && p.name === 'Profissional');
    if (!plan) throw new Error('the demo seed has no Profissional plan');
    const adminEmail = `setup-${suffix}@e2e.zapdesk.local`;
    ok(
      await apiAs().post('/auth/signup', {
        name: 'Paula Reis',
        companyName: `Provedor ${suffix}`,
        email: adminEmail,
        password: PASSWORD,
        phone: '(11) 98765-4321',
        planId: plan.id,
      }),
      'sign-up',
      201,
    );
    const login = ok(await apiAs().post('/auth/login', { email: adminEmail, password: PASSWORD }), 'login');
    let admin = apiAs(login.body.token as string);
    const companyId = login.body.user.companyId as number;
    const connectionName = `Provedor ${suffix}`;
    const created = ok(await admin.post('/whatsapp', { name: connectionName }), 'create connection', 201);
    const whatsappId = created.body.id as number;
    await waitUntil(
      async () => {
        const c = (await admin.get(`/whatsapp/${whatsappId}`)).body;
        if (c?.status === 'qrcode') await admin.post(`/simulator/${whatsappId}/scan`);
        return c?.status as string;
      },
      (status) => status === 'CONNECTED',
      'the connection to be CONNECTED',
    );
    const company = { adminToken: login.body.token as string, whatsappId };

    // ------------------------------------------------------------------ the admin, in the browser
    const { page, context } = await session();
    await page.goto(`${appOrigin()}/login`);
    await page.getByLabel('E-mail').fill(adminEmail);
    await page.getByLabel('Senha', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL('**/tickets');

    // Two queues; Suporte's menu has an option that sends the customer to Vendas.
    await page.goto(`${appOrigin()}/queues`);
    const addQueue = async (name: string, color: string) => {
      await page.getByRole('button', { name: 'Adicionar fila' }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: 'Adicionar fila' });
      await dialog.getByLabel('Nome', { exact: true }).fill(name);
      await dialog.getByRole('textbox', { name: 'Cor', exact: true }).fill(color);
      await dialog.getByLabel('Mensagem de saudação', { exact: true }).fill(`Você está na fila ${name}.`);
      return dialog;
    };
    let dialog = await addQueue('Vendas', '#2e7d32');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Fila salva com sucesso!').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    dialog = await addQueue('Suporte', '#1565c0');
    await dialog.getByRole('tab', { name: 'Opções do chatbot' }).click();
    await dialog.getByRole('button', { name: 'Adicionar opção' }).click();
    await dialog.getByLabel('Nome da opção', { exact: true }).fill('Comprar um plano');
    await dialog.getByLabel('Mensagem do bot', { exact: true }).fill('Vou te passar para Vendas.');
    await choose(page, dialog, 'Tipo', 'Fila');
    await choose(page, dialog, 'Fila', 'Vendas');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Fila salva com sucesso!').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // Both queues on the connection, in the menu's order, with the greeting and the out-of-hours text.
    await page.goto(`${appOrigin()}/connections`);
    await page.getByRole('button', { name: `Editar ${connectionName}`, exact: true }).click();
    dialog = page.getByRole('dialog').filter({ hasText: 'Editar conexão WhatsApp' });
    await dialog.getByRole('tab', { name: 'Chatbot' }).click();
    await selectNamed(dialog, 'Filas').click();
    await page.getByRole('option', { name: 'Vendas', exact: true }).click();
    await page.getByRole('option', { name: 'Suporte', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect
      .poll(() => dialog.getByRole('list', { name: 'Ordem das filas' }).innerText())
      .toMatch(/Vendas\s+Suporte/);
    await dialog.getByRole('tab', { name: 'Mensagens' }).click();
    await dialog.getByLabel('Mensagem de saudação', { exact: true }).fill('Olá! Escolha uma fila:');
    await dialog.getByLabel('Mensagem de fora de expediente', { exact: true }).fill(`Estamos fechados ${suffix}.`);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Conexão salva com sucesso!').waitFor();

    // The company's hours: open all day, every day (in the company's time zone).
    await page.goto(`${appOrigin()}/settings`);
    await choose(page, page.locator('body'), 'Gerenciamento de expediente', 'Empresa');
    await page.getByText('Configurações salvas').first().waitFor();
    await page.getByRole('tab', { name: 'Horários' }).click();
    for (const day of [
      'Segunda-feira',
      'Terça-feira',
      'Quarta-feira',
      'Quinta-feira',
      'Sexta-feira',
      'Sábado',
      'Domingo',
    ]) {
      await page.getByLabel(`${day} Início (turno A)`, { exact: true }).fill('00:00');
      await page.getByLabel(`${day} Fim (turno A)`, { exact: true }).fill('23:59');
      await page.getByLabel(`${day} Início (turno B)`, { exact: true }).fill('');
      await page.getByLabel(`${day} Fim (turno B)`, { exact: true }).fill('');
    }
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Operação realizada com sucesso!').waitFor();
    await context.close();
    // Signing in in the browser ended the API session of the same admin (one session per user): sign in again.
    const again = ok(await apiAs().post('/auth/login', { email: adminEmail, password: PASSWORD }), 'login again');
    company.adminToken = again.body.token as string;
    admin = apiAs(company.adminToken);

    const queues = ok(await admin.get('/queue'), 'queues').body as { id: number; name: string }[];
    const vendas = queues.find((q) => q.name === 'Vendas')!;
    const suporte = queues.find((q) => q.name === 'Suporte')!;
    expect(ok(await admin.get(`/whatsapp/${whatsappId}`), 'connection').body.queueIds).toEqual([vendas.id, suporte.id]);
    // Vendas' attendant.
    const ana = await createUser(companyId, {
      name: 'Ana Vendas',
      email: `ana-${suffix}@e2e.zapdesk.local`,
      passwordHash: await hashPassword(PASSWORD),
      profile: 'user',
      queueIds: [vendas.id],
    });

    // ------------------------------------------------------------------ a customer walks the menu
    const customer = { number: digits(), name: `Rita ${suffix}` };
    const received = (number: string) => customerReceived(company, number);
    const until = (number: string, text: string) =>
      waitUntil(
        () => received(number),
        (all: Received[]) => all.some((m) => m.body?.includes(text)),
        `the customer to receive '${text}'`,
      );
    await customerWrites(company, customer, 'Oi, boa noite');
    await until(customer.number, '*2* - Suporte');
    await customerWrites(company, customer, '2');
    await until(customer.number, 'Comprar um plano');
    await customerWrites(company, customer, '1');
    await until(customer.number, 'Vou te passar para Vendas.');

    // Vendas' attendant finds the ticket waiting in Vendas.
    const anaToken = ok(await apiAs().post('/auth/login', { email: ana.email, password: PASSWORD }), 'Ana').body
      .token as string;
    const ticket = await waitUntil(
      async () => {
        const page1 = ok(await apiAs(anaToken).get('/tickets?status=pending&pageNumber=1'), 'Ana tickets').body;
        return (page1.tickets as { contact: { number: string }; queueId: number; uuid: string }[]).find(
          (t) => t.contact.number === customer.number,
        );
      },
      (found) => found?.queueId === vendas.id,
      "the customer's ticket in Ana's pending list, in Vendas",
      LIVE.timeout,
    );
    // The bot's messages say so on the wire (D99); the customer's do not.
    const messages = ok(await admin.get(`/messages/${ticket!.uuid}?pageNumber=1`), 'messages').body.messages as {
      body: string;
      automatic?: string;
    }[];
    expect(messages.find((m) => m.body.includes('Vou te passar para Vendas.'))?.automatic).toBe('chatBot');
    expect(messages.find((m) => m.body === 'Oi, boa noite')?.automatic).toBeUndefined();

    // ------------------------------------------------------------------ closed now: told once
    const closedAllWeek = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map(
      (weekdayEn, i) => ({
        weekday: ['Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado', 'Domingo'][
          i
        ],
        weekdayEn,
        startTimeA: '',
        endTimeA: '',
        startTimeB: '',
        endTimeB: '',
      }),
    );
    ok(await admin.put(`/companies/${companyId}/schedules`, { id: companyId, schedules: closedAllWeek }), 'hours');
    const late = { number: digits(), name: `Caio ${suffix}` };
    const closedText = `Estamos fechados ${suffix}.`;
    await customerWrites(company, late, 'Tem alguém aí?');
    await until(late.number, closedText); // the first answer: the sentinel
    await customerWrites(company, late, 'Olá??');
    // The second message is stored on the ticket; only then count the out-of-hours answers.
    const stored = await waitUntil(
      async () => {
        const list = ok(await admin.get('/tickets?status=pending&pageNumber=1&showAll=true'), 'tickets').body;
        const t = (list.tickets as { contact: { number: string }; uuid: string }[]).find(
          (x) => x.contact.number === late.number,
        );
        if (!t) return [];
        return ok(await admin.get(`/messages/${t.uuid}?pageNumber=1`), 'messages').body.messages as {
          body: string;
          automatic?: string;
        }[];
      },
      (all) => all.some((m) => m.body === 'Olá??'),
      "the customer's second message to be stored",
    );
    expect(stored.filter((m) => m.automatic === 'outOfHours').map((m) => m.body)).toEqual([closedText]);
    expect((await received(late.number)).filter((m) => m.body === closedText)).toHaveLength(1);
  }, 600_000);
});
