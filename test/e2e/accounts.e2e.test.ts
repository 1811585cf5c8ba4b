import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';

/**
 * Issue 3, item 11: a company's first day, in the real app on the local cloud — sign up, the admin's menu,
 * an attendant created from /users, the attendant's restricted menu in a second browser, a login elsewhere
 * ending the first session with the spec's notice, and the interface switched to English.
 */
const { session } = useBrowser();

const suffix = Math.random().toString(36).slice(2, 8);
const ADMIN = { name: 'Marta Dias', email: `marta-${suffix}@e2e.zapdesk.local`, password: 'Loja@2026' };
const ATTENDANT = { name: 'Caio Lima', email: `caio-${suffix}@e2e.zapdesk.local`, password: 'Caio@2026' };
const COMPANY = `Loja ${suffix}`;

/** The side menu's link texts (Cloudscape's SideNavigation: the navigation drawer's links). */
const sideMenu = (page: Page) =>
  page.getByRole('navigation').filter({ has: page.getByText('Tarefas').or(page.getByText('Tasks')) });
const menuLinks = async (page: Page): Promise<string[]> =>
  (await sideMenu(page).first().getByRole('link').allTextContents()).map((t) => t.trim()).filter(Boolean);
/** The menu once it shows every item expected (it grows as the plan's flags arrive), read again then. */
const settledMenu = async (page: Page, expected: string[]): Promise<string[]> => {
  await expect.poll(() => menuLinks(page), { timeout: 10_000 }).toEqual(expect.arrayContaining(expected));
  return menuLinks(page);
};

const logIn = async (page: Page, who: { email: string; password: string }) => {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Senha', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/tickets');
  // The menu is drawn once the user and the plan are known.
  await sideMenu(page).first().getByRole('link', { name: 'Atendimentos', exact: true }).waitFor();
};

describe("a company's first day", () => {
  it('sign up, admin menu, a new attendant with a restricted menu, a login elsewhere, English', async () => {
    // A visitor signs the company up on a public plan and is sent to log in.
    const admin = await session();
    await admin.page.goto('/signup');
    await admin.page.getByLabel('Nome').fill(ADMIN.name);
    await admin.page.getByLabel('Empresa').fill(COMPANY);
    await admin.page.getByLabel('E-mail').fill(ADMIN.email);
    await admin.page.getByLabel('Senha', { exact: true }).fill(ADMIN.password);
    await admin.page.getByLabel('Telefone').fill('(11) 98765-4321');
    await admin.page.getByRole('button', { name: /Escolha um plano/ }).click();
    await admin.page.getByRole('option', { name: /Profissional/ }).click();
    await admin.page.getByRole('button', { name: 'Cadastrar' }).click();
    await admin.page.getByText('Cadastro realizado com sucesso!', { exact: false }).waitFor();
    await admin.page.waitForURL('**/login');

    // The new admin logs in and sees the administration items of the menu.
    await logIn(admin.page, ADMIN);
    await admin.page.getByText(`Olá ${ADMIN.name}, seja bem-vindo a ${COMPANY}!`).waitFor();
    await settledMenu(admin.page, ['Dashboard', 'Atendimentos', 'Usuários', 'Conexões', 'Configurações', 'Tarefas']);

    // The admin creates an attendant on /users.
    await sideMenu(admin.page).first().getByRole('link', { name: 'Usuários', exact: true }).click();
    await admin.page.waitForURL('**/users');
    await admin.page.getByRole('button', { name: 'Adicionar usuário' }).click();
    const dialog = admin.page.getByRole('dialog');
    await dialog.getByLabel('Nome').fill(ATTENDANT.name);
    await dialog.getByLabel('E-mail').fill(ATTENDANT.email);
    await dialog.getByLabel('Senha', { exact: true }).fill(ATTENDANT.password);
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await admin.page.getByText('Usuário salvo com sucesso!').waitFor();
    await admin.page.getByRole('cell', { name: ATTENDANT.email }).waitFor();

    // The attendant logs in in another browser: no administration items.
    const first = await session();
    await logIn(first.page, ATTENDANT);
    const attendantMenu = await settledMenu(first.page, ['Atendimentos', 'Contatos', 'Tarefas']);
    for (const item of ['Dashboard', 'Usuários', 'Conexões', 'Configurações', 'Financeiro']) {
      expect(attendantMenu).not.toContain(item);
    }
    // /users is not theirs: the 403 screen, not the list.
    await first.page.goto('/users');
    await first.page.getByText('Oops! Acesso Negado!').waitFor();

    // The same attendant logs in elsewhere: the first browser is told and sent to log in again.
    const elsewhere = await session();
    await logIn(elsewhere.page, ATTENDANT);
    await first.page.getByText('Sua conta foi acessada em outro computador.', { exact: true }).waitFor();
    await first.page.waitForURL('**/login');
    // The newer session is unaffected.
    await settledMenu(elsewhere.page, ['Atendimentos']);

    // The admin switches the interface to English: the menu follows.
    await switchToEnglish(admin.page);
    await settledMenu(admin.page, ['Users', 'Connections', 'Tasks']);
    expect(await menuLinks(admin.page)).not.toContain('Usuários');

    await Promise.all([admin.context.close(), first.context.close(), elsewhere.context.close()]);
  });
});

/** The language choice as a person reaches it: the account menu's language items. */
const switchToEnglish = async (page: Page) => {
  await page.getByRole('button', { name: /Conta de/ }).click();
  await page.getByRole('menuitemcheckbox', { name: 'English' }).click();
};
