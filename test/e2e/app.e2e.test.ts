import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';

const { session } = useBrowser();
const heading = (page: Page) => page.getByRole('heading', { level: 1 });

describe('the app served by the local cloud', () => {
  it('/status opens in Portuguese, shows the server version and switches to English', async () => {
    const { page, context } = await session();
    await page.goto('/status');
    await expect.poll(() => heading(page).textContent()).toBe('Status do sistema');
    // The version comes from GET /api/version through the gateway and the real handler.
    await page.getByText('7.0.0', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Idioma' }).click();
    await page.getByText('English', { exact: true }).click();
    await expect.poll(() => heading(page).textContent()).toBe('System status');

    // The choice is remembered on the next visit.
    await page.reload();
    await expect.poll(() => heading(page).textContent()).toBe('System status');
    await context.close();
  });

  it('an anonymous visitor of a private page lands on the login page', async () => {
    const { page, context } = await session();
    await page.goto('/');
    await page.waitForURL('**/login');
    await expect.poll(() => heading(page).textContent()).toBe('Entrar');
    await context.close();
  });

  it('the demo admin logs in with the real API and reaches the app; a wrong password is refused', async () => {
    const { page, context } = await session();
    await page.goto('/login');
    await page.getByLabel('E-mail').fill('admin@demo.zapdesk.local');
    await page.getByLabel('Senha', { exact: true }).fill('abcdef');
    await page.getByRole('button', { name: 'Entrar' }).click();
    // 'abcdef' is weak by the five checks (lower case only): the dialog asks before sending.
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByText('Erro de autenticação. Por favor, tente novamente.').waitFor();
    expect(page.url()).toMatch(/\/login$/);

    await page.getByLabel('Senha', { exact: true }).fill('Zapdesk@2026');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL('**/tickets');
    // Signed in, the public login page sends the visitor back into the app.
    await page.goto('/login');
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    await context.close();
  });

  it('answers an unknown page with the not-found screen, not a blank page', async () => {
    const { page, context } = await session();
    const response = await page.goto('/status/nao-existe');
    expect(response?.status()).toBe(200);
    await expect.poll(() => heading(page).textContent()).toBe('Página não encontrada');
    await context.close();
  });
});
