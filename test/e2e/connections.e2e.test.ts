import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { listPlans } from '../../functions/data/plan-repository';
import { fakeGraph } from '../helpers/fake-graph';
import { useBrowser } from './browser';
import { apiAs, PASSWORD } from './workspace-company';

/**
 * Issue 4, item 9 (first half): an admin creates a WhatsApp connection, the worker of the local cloud (the
 * simulator driver) shows its QR code live, the simulated phone scans it, and the connection turns
 * CONNECTED in the browser without a reload; the menu's attention badge follows.
 */
const { session } = useBrowser();

/**
 * A company of its own, signed up on a plan with room for a connection, its admin signed in: the menu's
 * attention badge then follows only this test's connection (the demo's own "WhatsApp Demo" waits for its
 * QR code to be scanned, so it keeps the demo's badge on).
 */
const logInAsNewAdmin = async (page: Page) => {
  const plan = (await listPlans()).find((p) => p.isPublic && p.name === 'Profissional')!;
  const email = `conn-${Math.random().toString(36).slice(2, 8)}@e2e.zapdesk.local`;
  const signup = await apiAs().post('/auth/signup', {
    name: 'Davi Lima',
    companyName: `Loja ${email.slice(5, 11)}`,
    email,
    password: PASSWORD,
    phone: '(11) 98765-4321',
    planId: plan.id,
  });
  expect(signup.status).toBe(201);
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/tickets');
};

describe('connections in the browser', () => {
  it('create a WhatsApp connection, see the QR code, scan it with the simulator, see it connected', async () => {
    const { page, context } = await session();
    await logInAsNewAdmin(page);
    await page.goto('/connections');
    await page.getByRole('heading', { name: 'Conexões', level: 1 }).waitFor();

    const name = `Loja ${Math.random().toString(36).slice(2, 7)}`;
    await page.getByRole('button', { name: 'Nova conexão' }).click();
    await page.getByRole('menuitem', { name: 'WhatsApp', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome', { exact: true }).fill(name);
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await page.getByText('Conexão salva com sucesso!').waitFor();

    // The worker takes the new connection and shows a QR code: the row offers it, live.
    await page.getByRole('button', { name: `QR CODE – ${name}`, exact: true }).click({ timeout: 30_000 });
    const qr = page.getByRole('dialog').filter({ hasText: `QR Code de ${name}` });
    await qr.getByRole('img', { name: `QR Code da conexão ${name}` }).waitFor();
    // The attention badge is on while a connection waits for its QR code.
    await page.getByLabel('Alguma conexão precisa de atenção').waitFor();

    // The simulated phone reads the code: the dialog closes by itself and the row says connected.
    await qr.getByRole('button', { name: 'Simular leitura' }).click();
    await qr.waitFor({ state: 'hidden', timeout: 30_000 });
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText('Conectado', { exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByLabel('Alguma conexão precisa de atenção').count()).toBe(0);
    await context.close();
  });

  it('connect a WhatsApp Cloud API number with its id and token: the row appears connected, the token never shows', async () => {
    const phoneNumberId = String(Date.now()).slice(-13);
    const token = `EAAE2E${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
    await fakeGraph(inject('fakeGraphUrl')).addPhoneNumber(phoneNumberId, token, '+55 11 4000-1234', 'Loja Oficial');
    // A company of its own, signed up on a plan with room for the connection (the demo's has one seat).
    const plan = (await listPlans()).find((p) => p.isPublic && p.name === 'Profissional')!;
    const email = `cloud-${Math.random().toString(36).slice(2, 8)}@e2e.zapdesk.local`;
    const signup = await apiAs().post('/auth/signup', {
      name: 'Carla Nunes',
      companyName: `Loja Oficial ${email.slice(6, 12)}`,
      email,
      password: PASSWORD,
      phone: '(11) 98765-4321',
      planId: plan.id,
    });
    expect(signup.status).toBe(201);
    const { page, context } = await session();
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL('**/tickets');
    await page.goto('/connections');
    await page.getByRole('heading', { name: 'Conexões', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Nova conexão' }).click();
    await page.getByRole('menuitem', { name: 'WhatsApp Cloud API' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Conectar WhatsApp Cloud API' });
    // A wrong id is refused before anything is sent.
    await dialog.getByLabel('ID do número de telefone').fill('12ab');
    await dialog.getByLabel('Token de acesso').fill(token);
    await dialog.getByRole('button', { name: 'Conectar' }).click();
    await dialog.getByText('Informe só os dígitos do ID (de 5 a 30).').waitFor();
    await dialog.getByLabel('ID do número de telefone').fill(phoneNumberId);
    await dialog.getByRole('button', { name: 'Conectar' }).click();
    await page.getByText('Número do WhatsApp Cloud API conectado!').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const row = page.getByRole('row').filter({ hasText: 'Loja Oficial' });
    await row.getByText('Conectado', { exact: true }).waitFor();
    await row.getByText('551140001234').waitFor();
    expect(await page.content()).not.toContain(token);
    await context.close();
  });
});
