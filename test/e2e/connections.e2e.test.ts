import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';

/**
 * Issue 4, item 9 (first half): an admin creates a WhatsApp connection, the worker of the local cloud (the
 * simulator driver) shows its QR code live, the simulated phone scans it, and the connection turns
 * CONNECTED in the browser without a reload; the menu's attention badge follows.
 */
const { session } = useBrowser();

const logInAsDemoAdmin = async (page: Page) => {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill('admin@demo.zapdesk.local');
  await page.getByLabel('Senha', { exact: true }).fill('Zapdesk@2026');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/tickets');
};

describe('connections in the browser', () => {
  it('create a WhatsApp connection, see the QR code, scan it with the simulator, see it connected', async () => {
    const { page, context } = await session();
    await logInAsDemoAdmin(page);
    await page.goto('/connections');
    await page.getByRole('heading', { name: 'Conexões', level: 1 }).waitFor();

    const name = `Loja ${Math.random().toString(36).slice(2, 7)}`;
    await page.getByRole('button', { name: 'Nova conexão' }).click();
    await page.getByRole('menuitem', { name: 'WhatsApp' }).click();
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
});
