import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from './browser';
import { apiAs, customerReceived, customerWrites, waitUntil, workspaceCompany } from './workspace-company';

/**
 * Issue 17 item 10 (decisions D138, D159, D160): an admin draws start → content → menu → ticket in the
 * editor by mouse, saves it, makes it the welcome flow of a simulated connection in the connection dialog,
 * and a customer walks it to Vendas, where attendant A sees the ticket and accepts it.
 */
const { session } = useBrowser();

const LIVE = { timeout: 60_000 };
const appOrigin = () => inject('appUrl').replace('127.0.0.1', 'localhost');

const logIn = async (page: Page, who: { email: string; password: string }) => {
  await page.goto(`${appOrigin()}/login`, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Senha', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/tickets');
};

/** Adds a node of `kind` from the node menu; its dialog (if any) is answered by `fill`. */
const addNode = async (page: Page, kind: string, fill: (dialog: Locator) => Promise<void>) => {
  await page.getByRole('button', { name: 'Adicionar nó' }).click();
  await page.getByRole('menuitem', { name: kind, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await fill(dialog);
  await dialog.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
};

/** Drags a connection from one handle to another with the mouse, in steps (xyflow follows the pointer). */
const drawEdge = async (page: Page, from: Locator, to: Locator) => {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('a handle is not on screen');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2 + 20, { steps: 8 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
};

const node = (page: Page, type: string) => page.getByTestId(`flow-node-${type}`);
const source = (n: Locator, handle?: string) =>
  n.locator(handle ? `.react-flow__handle.source[data-handleid="${handle}"]` : '.react-flow__handle.source');
const target = (n: Locator) => n.locator('.react-flow__handle.target');

describe('the flow editor', () => {
  it('draws start → content → menu → ticket, saves, attaches it to a connection, and a customer reaches an attendant', async () => {
    const company = await workspaceCompany();
    const admin = apiAs(company.adminToken);
    const created = await admin.post('/flowbuilder', { name: 'Boas-vindas da loja' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const flowId = created.body.id as number;
    const connectionName = (await admin.get(`/whatsapp/${company.whatsappId}`)).body.name as string;
    const adminEmail = (await admin.get('/auth/me')).body?.email as string;

    // ------------------------------------------------------------------------------ draw it in the editor
    const { page } = await session();
    await page.setViewportSize({ width: 1600, height: 1000 });
    await logIn(page, { email: adminEmail, password: 'Loja@2026' });
    await page.goto(`${appOrigin()}/flowbuilders`);
    await page.getByRole('button', { name: 'Editar fluxo', exact: true }).first().click();
    await page.waitForURL(`**/flowbuilder/${flowId}`);
    await page.getByRole('heading', { name: 'Desenhe seu fluxo' }).waitFor(LIVE);
    await node(page, 'start').waitFor();

    await addNode(page, 'Conteúdo', async (dialog) => {
      await dialog.getByRole('button', { name: 'Texto', exact: true }).click();
      await dialog.getByLabel('Mensagem', { exact: true }).fill('Bem-vindo à loja!');
    });
    await addNode(page, 'Menu', async (dialog) => {
      await dialog.getByLabel('Mensagem', { exact: true }).fill('Como podemos ajudar?');
      await dialog.getByLabel('Opção 1', { exact: true }).fill('Comprar');
    });
    await addNode(page, 'Ticket', async (dialog) => {
      await dialog.getByRole('button', { name: /^Fila/ }).click();
      await page.getByRole('option', { name: 'Vendas', exact: true }).click();
    });
    await page.getByText('Não se esqueça de salvar seu fluxo!').waitFor();
    // Every node in view before drawing.
    await page.locator('.react-flow__controls-fitview').click();

    await drawEdge(page, source(node(page, 'start')), target(node(page, 'singleBlock')));
    await drawEdge(page, source(node(page, 'singleBlock')), target(node(page, 'menu')));
    // Refused while drawing: nothing goes into the start node.
    await drawEdge(page, source(node(page, 'ticket')), target(node(page, 'start')).or(node(page, 'start')).first());
    await drawEdge(page, source(node(page, 'menu'), 'a1'), target(node(page, 'ticket')));
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(3);

    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await page.getByText('Fluxo salvo com sucesso').first().waitFor(LIVE);
    // --------------------------------------------------------- the welcome flow, in the connection dialog
    await page.goto(`${appOrigin()}/connections`);
    await page.getByRole('button', { name: `Editar ${connectionName}`, exact: true }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Editar conexão WhatsApp' });
    await dialog.getByRole('tab', { name: 'Integrações' }).click();
    await dialog.getByRole('button', { name: /^Fluxo de boas-vindas/ }).click();
    await page.getByRole('option', { name: 'Boas-vindas da loja', exact: true }).click();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Conexão salva com sucesso!').waitFor(LIVE);
    // Signing in in the browser ended the API session of the same admin (one session per user): sign in again.
    const again = await apiAs().post('/auth/login', { email: adminEmail, password: 'Loja@2026' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const api = apiAs(again.body.token as string);
    const phone = { adminToken: again.body.token as string, whatsappId: company.whatsappId };
    const saved = (await api.get(`/flowbuilder/flow/${flowId}`)).body.flow.flow as {
      nodes: { id: string; type: string }[];
      connections: { source: string; sourceHandle: string | null; target: string }[];
    };
    const typeOf = (id: string) => saved.nodes.find((n) => n.id === id)?.type;
    expect(saved.connections.map((c) => [typeOf(c.source), c.sourceHandle ?? '', typeOf(c.target)]).sort()).toEqual([
      ['menu', 'a1', 'ticket'],
      ['singleBlock', '', 'menu'],
      ['start', '', 'singleBlock'],
    ]);

    // The inbound job may reuse the connection it read for up to a second (decisions D67).
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    // ------------------------------------------------ the customer walks it; attendant A picks the ticket up
    const customer = {
      number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      name: 'Rita Flores',
    };
    const a = await session();
    await logIn(a.page, company.attendantA);
    await customerWrites(phone, customer, 'Oi');
    await waitUntil(
      () => customerReceived(phone, customer.number),
      (messages) => messages.some((m) => m.body === 'Como podemos ajudar?\n\n*1* - Comprar'),
      'the content and the menu on the phone',
      60_000,
    );
    const received = await customerReceived(phone, customer.number);
    expect(received.map((m) => m.body)).toEqual(['Bem-vindo à loja!', 'Como podemos ajudar?\n\n*1* - Comprar']);
    await customerWrites(phone, customer, '1');

    await a.page
      .getByRole('tab', { name: /^Aguardando/ })
      .first()
      .click();
    const row = a.page.getByTestId('ticket-item').filter({ hasText: customer.name });
    await row.waitFor(LIVE);
    await row.getByRole('button', { name: `Aceitar ${customer.name}` }).click();
    await a.page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/, LIVE);
    await a.page
      .getByTestId('ticket-conversation')
      .getByText('Como podemos ajudar?', { exact: false })
      .first()
      .waitFor(LIVE);
  }, 400_000);
});
