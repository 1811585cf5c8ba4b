import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';

const { session } = useBrowser();
const heading = (page: import('playwright-core').Page) => page.getByRole('heading', { level: 1 });

describe('the app served by the local cloud', () => {
  it('opens in Portuguese, shows the server version and switches to English', async () => {
    const { page, context } = await session();
    await page.goto('/');
    await page.waitForURL('**/status');
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

  it('answers an unknown page with the not-found screen, not a blank page', async () => {
    const { page, context } = await session();
    const response = await page.goto('/nao-existe');
    expect(response?.status()).toBe(200);
    await expect.poll(() => heading(page).textContent()).toBe('Página não encontrada');
    await context.close();
  });
});
