import { randomBytes, randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { addMonths } from '../../functions/core/billing/billing-service';
import { FAKE_EFI_CREDENTIALS } from '../../functions/core/billing/fake-credentials';
import { hashPassword } from '../../functions/core/passwords';
import { getInvoice } from '../../functions/data/invoice-repository';
import { listPlans } from '../../functions/data/plan-repository';
import { createUser } from '../../functions/data/user-repository';
import { DEMO_PASSWORD } from '../../infra/local/seed';
import { useBrowser } from './browser';
import { apiAs, appOrigin, logIn, PASSWORD, waitUntil } from './workspace-company';

/**
 * Issue 19 item 12: the platform in the browser. The platform owner creates a plan and a company on it whose
 * due date is a few days ahead; the billing tick makes its invoice; the company's admin pays it by PIX
 * through the checkout against the local fake Efí and sees the new due date. An announcement the owner
 * publishes reaches a company admin's top bar without a reload, and two attendants chat internally.
 */
const { session } = useBrowser();

/** Waits for what the servers do in the background (ticks, webhooks, events): generous on a busy machine. */
const LIVE = { timeout: 60_000 };

/** The platform owner of the demo seed (the super admin of company 1). */
const OWNER = { email: 'owner@zapdesk.local', password: DEMO_PASSWORD };

const suffix = () => randomUUID().slice(0, 6);

/** The owner's API, from a fresh login (a later login in the browser ends this session: use it at once). */
const ownerApi = async () => {
  const login = await apiAs().post('/auth/login', OWNER);
  if (login.status !== 200) throw new Error(`owner login: ${login.status} ${JSON.stringify(login.body)}`);
  return { token: login.body.token as string, api: apiAs(login.body.token as string) };
};

/** yyyy-mm-dd `days` after today (UTC). */
const dayFromToday = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** dd/mm/yyyy, as the screens show a due date. */
const shown = (day: string): string => day.split('-').reverse().join('/');

/** The fake payment provider's control routes (infra/local/fake-payment-provider.ts). */
const fakeProvider = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${inject('localCloudEnv').EFI_API_URL}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/**
 * The owner's Efí settings, through the API (their screens are tested by the settings page's tests): the
 * fake's client id and secret, a PIX key, and a certificate shaped like a .p12 (a DER sequence).
 */
const configurePix = async () => {
  const { token, api } = await ownerApi();
  const values = {
    efiClientId: FAKE_EFI_CREDENTIALS.clientId,
    efiClientSecret: FAKE_EFI_CREDENTIALS.clientSecret,
    efiPixKey: FAKE_EFI_CREDENTIALS.pixKey,
  };
  for (const [key, value] of Object.entries(values)) {
    const put = await api.put(`/settings/${key}`, { value });
    if (put.status !== 200) throw new Error(`PUT /settings/${key}: ${put.status} ${JSON.stringify(put.body)}`);
  }
  const form = new FormData();
  const p12 = Buffer.concat([Buffer.from([0x30, 0x82, 0x04, 0x00]), randomBytes(1020)]);
  form.append('file', new Blob([p12]), 'efi-e2e.p12');
  const upload = await fetch(`${inject('appUrl')}/api/settings/cert-upload?ref=certificadoEfi`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (upload.status !== 200) throw new Error(`cert-upload: ${upload.status} ${await upload.text()}`);
};

/** A company made by the owner through the API on the demo's Profissional plan; its admin signs in with PASSWORD. */
const apiCompany = async () => {
  const plan = (await listPlans()).find((p) => p.name === 'Profissional');
  if (!plan) throw new Error('the demo seed has no Profissional plan');
  const s = suffix();
  const email = `admin-${s}@e2e.zapdesk.local`;
  const { api } = await ownerApi();
  const created = await api.post('/companies', {
    name: `Empresa ${s}`,
    email,
    passwordDefault: PASSWORD,
    planId: plan.id,
    dueDate: dayFromToday(60),
  });
  if (created.status !== 201) throw new Error(`POST /companies: ${created.status} ${JSON.stringify(created.body)}`);
  return { companyId: created.body.id as number, admin: { email, password: PASSWORD }, suffix: s };
};

/** Picks `option` in the Cloudscape select or multiselect of `scope` whose trigger reads `trigger`. */
const choose = async (page: Page, scope: Locator, trigger: RegExp, option: string) => {
  await scope.getByRole('button', { name: trigger }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
};

/** Reloads `page` until `what` shows: something a server job makes and no event announces. */
const reloadUntilVisible = async (page: Page, what: Locator, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await what.waitFor({ timeout: 10_000 });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await page.reload({ waitUntil: 'domcontentloaded' });
    }
  }
};

beforeAll(async () => {
  await configurePix();
});

describe('the platform', () => {
  it('the owner creates a plan and a company; its admin pays the invoice by PIX and sees the new due date', async () => {
    const s = suffix();
    const planName = `Plano E2E ${s}`;
    const companyName = `Empresa ${s}`;
    const admin = { email: `financeiro-${s}@e2e.zapdesk.local`, password: PASSWORD };
    // Due in a few days: inside the renewal lead, so the billing tick makes its invoice at once.
    const dueDate = dayFromToday(3);

    // The owner creates a plan on the Planos tab of /settings.
    const owner = await session();
    await logIn(owner.page, OWNER);
    await owner.page.goto(`${appOrigin()}/settings`);
    await owner.page.getByRole('tab', { name: 'Planos' }).click();
    await owner.page.getByRole('button', { name: 'Adicionar' }).click();
    const planDialog = owner.page.getByRole('dialog').filter({ hasText: 'Novo plano' });
    await planDialog.getByLabel('Nome').fill(planName);
    await planDialog.getByLabel('Usuários').fill('5');
    await planDialog.getByLabel('Conexões').fill('2');
    await planDialog.getByLabel('Filas').fill('4');
    await planDialog.getByLabel('Valor').fill('30');
    await planDialog.getByRole('button', { name: 'Salvar' }).click();
    await owner.page.getByText('Operação realizada com sucesso!').first().waitFor(LIVE);
    const planRow = owner.page.getByRole('row').filter({ hasText: planName });
    await planRow.waitFor(LIVE);
    await expect.poll(() => planRow.textContent()).toMatch(/R\$\s30,00/);

    // … and a company on it, on /companies, due in three days.
    await owner.page.goto(`${appOrigin()}/companies`);
    await owner.page.getByRole('button', { name: 'Adicionar' }).click();
    const companyDialog = owner.page.getByRole('dialog').filter({ hasText: 'Adicionar empresa' });
    await companyDialog.getByLabel('Nome').fill(companyName);
    await companyDialog.getByLabel('E-mail').fill(admin.email);
    await companyDialog.getByRole('textbox', { name: 'Senha padrão' }).fill(admin.password);
    await choose(owner.page, companyDialog, /Selecione um plano/, planName);
    await companyDialog.getByPlaceholder('YYYY/MM/DD').fill(dueDate.replaceAll('-', '/'));
    const createdCompany = owner.page.waitForResponse(
      (r) => r.url().endsWith('/api/companies') && r.request().method() === 'POST',
      LIVE,
    );
    await companyDialog.getByRole('button', { name: 'Salvar' }).click();
    const companyId = ((await (await createdCompany).json()) as { id: number }).id;
    await owner.page.getByText('Operação realizada com sucesso!').first().waitFor(LIVE);
    const companyRow = owner.page.getByRole('row').filter({ hasText: admin.email });
    await companyRow.waitFor(LIVE);
    await expect.poll(() => companyRow.textContent()).toContain(planName);
    await expect.poll(() => companyRow.textContent()).toContain(`${shown(dueDate)} · Mensal`);
    await owner.context.close();

    // The company's admin (the company's e-mail and default password) opens /financeiro: the billing tick
    // makes the period's invoice within about a minute.
    const a = await session();
    await logIn(a.page, admin);
    await a.page.goto(`${appOrigin()}/financeiro`);
    const invoiceRow = a.page.getByRole('row').filter({ hasText: planName });
    await reloadUntilVisible(a.page, invoiceRow, 150_000);
    await expect.poll(() => invoiceRow.textContent()).toMatch(/R\$\s30,00/);
    await expect.poll(() => invoiceRow.textContent()).toContain(shown(dueDate));
    await invoiceRow.getByText('Em Aberto').waitFor();

    // The checkout: it opens on Personalizar; Dados first, then Personalizar and Revisar, then PAGAR.
    await invoiceRow.getByRole('button', { name: /^Pagar a fatura/ }).click();
    const checkout = a.page.getByRole('dialog').filter({ hasText: 'Assinatura' });
    await checkout.getByRole('button', { name: 'Voltar' }).click();
    await checkout.getByLabel('Nome completo').fill('Marina Lopes');
    await checkout.getByLabel('CPF/CNPJ').fill('123.456.789-09');
    await checkout.getByLabel('Endereço').fill('Rua das Flores, 10');
    await checkout.getByLabel('Cidade').fill('São Paulo');
    await checkout.getByLabel('Estado').fill('SP');
    await checkout.getByRole('button', { name: 'Próximo' }).click();
    await checkout.getByText(planName).first().waitFor();
    await checkout.getByRole('button', { name: 'Próximo' }).click();
    await checkout.getByText('Marina Lopes').waitFor();
    // Every provider is offered (the local cloud's fakes); the admin pays by PIX.
    await checkout.getByRole('radio', { name: 'PIX', exact: true }).check();
    const subscribed = a.page.waitForResponse(
      (r) => r.url().endsWith('/api/subscription') && r.request().method() === 'POST',
      LIVE,
    );
    await checkout.getByRole('button', { name: 'PAGAR' }).click();
    const answer = await subscribed;
    expect(answer.status()).toBe(200);
    const { invoiceId } = (await answer.json()) as { invoiceId: number };

    // The PIX QR code and its copy-and-paste code.
    await checkout.getByText('Pague R$ 30.00 com PIX').waitFor(LIVE);
    await checkout.getByRole('img', { name: 'QR Code do PIX' }).waitFor();
    expect(await checkout.getByLabel('PIX copia e cola').inputValue()).toContain('BR.GOV.BCB.PIX');
    await checkout.getByText('Aguardando a confirmação do pagamento...').waitFor();

    // The payer pays the charge at the (fake) bank, which sends Efí's webhook.
    const txid = await waitUntil(
      async () => (await getInvoice(companyId, invoiceId))?.payment?.chargeId,
      (id) => typeof id === 'string',
      'the invoice to hold its PIX charge',
    );
    const paid = await fakeProvider('POST', `/__fake/efi/pay/${txid}`, {});
    expect(paid.status).toBe(200);
    expect(paid.body.delivered).toBe(200);

    // The admin sees the payment confirmed with the new due date, then is taken home.
    const newDue = addMonths(dueDate, 1);
    await checkout.getByText('Pagamento confirmado!').waitFor(LIVE);
    await checkout.getByText(`Sua licença agora vence em ${shown(newDue)}.`).waitFor();
    await a.page.waitForURL(`${appOrigin()}/`, LIVE);
    await a.page.getByText(`Ativo até ${shown(newDue)}`).waitFor(LIVE);

    // /financeiro shows the invoice paid, with no pay button.
    await a.page.goto(`${appOrigin()}/financeiro`);
    await invoiceRow.getByText('Pago', { exact: true }).waitFor(LIVE);
    expect(await invoiceRow.getByRole('button', { name: /^Pagar a fatura/ }).count()).toBe(0);
    await a.context.close();
  }, 300_000);

  it("an announcement the owner publishes appears in a company admin's top bar without a reload", async () => {
    const company = await apiCompany();
    const title = `Manutenção programada ${company.suffix}`;
    const text = 'O sistema ficará fora do ar no domingo, das 2h às 4h.';

    // The admin is on the app before the owner publishes.
    const a = await session();
    await logIn(a.page, company.admin);
    const announcementsButton = a.page.getByRole('button', { name: /^Informativos/ });
    await announcementsButton.waitFor(LIVE);

    // The owner publishes a high-priority announcement on /announcements.
    const owner = await session();
    await logIn(owner.page, OWNER);
    await owner.page.goto(`${appOrigin()}/announcements`);
    await owner.page.getByRole('button', { name: 'Adicionar' }).click();
    const dialog = owner.page.getByRole('dialog').filter({ hasText: 'Novo informativo' });
    await dialog.getByLabel('Título').fill(title);
    await dialog.getByLabel('Texto').fill(text);
    await choose(owner.page, dialog, /Baixa/, 'Alta');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await owner.page.getByText('Informativo salvo com sucesso!').waitFor(LIVE);
    await owner.page.getByRole('row').filter({ hasText: title }).waitFor(LIVE);

    // The admin's top bar has it, still on the same page: the popover shows it in the high-priority colour.
    await announcementsButton.click();
    const shownAnnouncement = a.page.getByTestId('announcement').filter({ hasText: title });
    await shownAnnouncement.waitFor(LIVE);
    await shownAnnouncement.getByText(text).waitFor();
    expect(await shownAnnouncement.getAttribute('data-priority')).toBe('1');
    await Promise.all([a.context.close(), owner.context.close()]);
  });

  it('two attendants of a company chat internally: the other sees the chat and its messages arrive live', async () => {
    const company = await apiCompany();
    const passwordHash = await hashPassword(PASSWORD);
    const attendant = async (name: string) => ({
      ...(await createUser(company.companyId, {
        name,
        email: `${name.split(' ')[0]!.toLowerCase()}-${company.suffix}@e2e.zapdesk.local`,
        passwordHash,
        profile: 'user',
      })),
      password: PASSWORD,
    });
    const ana = await attendant('Ana Chat');
    const bruno = await attendant('Bruno Chat');
    const title = `Escala de sábado ${company.suffix}`;

    // Both are on /chats.
    const b = await session();
    await logIn(b.page, bruno);
    await b.page.goto(`${appOrigin()}/chats`);
    await b.page.getByText('Nenhum chat').waitFor(LIVE);
    const a = await session();
    await logIn(a.page, ana);
    await a.page.goto(`${appOrigin()}/chats`);

    // Ana creates a chat with Bruno and opens it.
    await a.page.getByRole('button', { name: 'Novo' }).click();
    const dialog = a.page.getByRole('dialog').filter({ hasText: 'Novo chat' });
    await dialog.getByLabel('Título').fill(title);
    await choose(a.page, dialog, /Escolha os usuários/, bruno.name);
    // The user list stays open for more choices; leaving the field closes it.
    await a.page.keyboard.press('Tab');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await a.page.waitForURL(/\/chats\/[0-9a-f-]{36}$/, LIVE);

    // The chat appears in Bruno's list; Ana writes and Bruno's list counts it unread.
    const brunosChat = b.page
      .getByRole('navigation', { name: 'Chats' })
      .getByRole('button', { name: new RegExp(title) });
    await brunosChat.waitFor(LIVE);
    const composer = a.page.getByLabel('Mensagem', { exact: true });
    await composer.fill('Bruno, você cobre o sábado?');
    await composer.press('Enter');
    await a.page.getByTestId('chat-message').filter({ hasText: 'Bruno, você cobre o sábado?' }).waitFor(LIVE);
    await b.page.getByRole('button', { name: `${title} (1 não lidas)` }).waitFor(LIVE);

    // Bruno opens it and reads it; Ana's next message arrives in his open chat.
    await brunosChat.click();
    const brunosMessages = b.page.getByTestId('chat-messages');
    await brunosMessages.getByText('Bruno, você cobre o sábado?').waitFor(LIVE);
    await composer.fill('Das 8h às 12h.');
    await composer.press('Enter');
    await brunosMessages.getByTestId('chat-message').filter({ hasText: 'Das 8h às 12h.' }).waitFor(LIVE);
    expect(await brunosMessages.getByTestId('chat-message').first().textContent()).toContain(ana.name);
    await Promise.all([a.context.close(), b.context.close()]);
  });
});
