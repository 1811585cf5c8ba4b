import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from './browser';
import {
  apiAs,
  customerReceived,
  customerWrites,
  waitUntil,
  workspaceCompany,
  type Received,
} from './workspace-company';

/**
 * Issue 5 item 11 and issue 4 item 9: the attendant's workspace against the real servers. A simulated
 * customer writes; attendant A sees the ticket appear in Aguardando without a reload, accepts it, answers
 * with a text and an image, and the customer's phone (the simulator) receives both; A transfers it to the
 * other queue, where attendant B (another browser) sees it arrive, accepts it, adds a note and a tag and
 * resolves it with the farewell the customer receives; the customer writes again and a new pending ticket
 * of the same contact appears in A's Aguardando.
 */
const { session } = useBrowser();

/** The smallest valid PNG (1x1, transparent): what the attendant attaches. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Waits for what the servers do in the background (inbound, outbound, events): generous on a busy machine. */
const LIVE = { timeout: 60_000 };

/**
 * The app as `npm start` prints it (localhost): the URLs the functions presign for uploads name that host
 * (S3_ENDPOINT), so a browser on 127.0.0.1 would be cross-origin for them.
 */
const appOrigin = () => inject('appUrl').replace('127.0.0.1', 'localhost');

const logIn = async (page: Page, who: { email: string; password: string }) => {
  await page.goto(`${appOrigin()}/login`);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Senha', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL('**/tickets');
};

/** The ticket lists' panel (beside the conversation on a wide screen). */
const listPanel = (page: Page) => page.getByTestId('ticket-list-panel');

/** Opens the 'Aguardando (n)' section of the 'Abertos' tab. */
const openPending = async (page: Page) => {
  await listPanel(page)
    .getByRole('tab', { name: /^Aguardando/ })
    .click();
};

/** The list rows of one contact in the lists' panel. */
const rowsOf = (page: Page, contactName: string): Locator =>
  listPanel(page).getByTestId('ticket-item').filter({ hasText: contactName });

const conversation = (page: Page) => page.getByTestId('ticket-conversation');

/** The received messages of the customer once one satisfies `accept`. */
const customerGets = async (
  company: Awaited<ReturnType<typeof workspaceCompany>>,
  number: string,
  accept: (m: Received) => boolean,
  what: string,
): Promise<Received> => {
  const all = await waitUntil(
    () => customerReceived(company, number),
    (messages) => messages.some(accept),
    what,
  );
  return all.find(accept)!;
};

describe("the attendant's workspace", () => {
  it('customer writes, A accepts and replies (text, image, a large document), transfers; B notes, tags, resolves; a new message reopens', async () => {
    const company = await workspaceCompany();
    const admin = apiAs(company.adminToken);
    const tag = await admin.post('/tags', { name: 'VIP', color: '#aa00aa', kanban: 0 });
    expect(tag.status, JSON.stringify(tag.body)).toBe(201);

    const customer = {
      number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      name: `Cliente ${Math.random().toString(36).slice(2, 7)}`,
    };

    // Both attendants are on the ticket screen before the customer writes.
    const a = await session();
    await logIn(a.page, company.attendantA);
    await openPending(a.page);
    const b = await session();
    await logIn(b.page, company.attendantB);
    await openPending(b.page);

    // The customer writes: the ticket appears in A's Aguardando (Vendas), live.
    await customerWrites(company, customer, 'Olá, quero comprar um produto');
    const pendingRow = rowsOf(a.page, customer.name);
    await pendingRow.waitFor(LIVE);
    await pendingRow.getByText('Olá, quero comprar um produto').waitFor(LIVE);
    const firstTicketId = await pendingRow.getAttribute('data-ticket-id');

    // A accepts: the conversation opens with the customer's message.
    await pendingRow.getByRole('button', { name: `Aceitar ${customer.name}` }).click();
    await a.page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/, LIVE);
    await conversation(a.page).getByTestId('ticket-contact-name').getByText(customer.name).waitFor(LIVE);
    await conversation(a.page).getByText('Olá, quero comprar um produto').waitFor(LIVE);

    // A answers with a text …
    const composer = conversation(a.page).getByLabel('Mensagem', { exact: true });
    await composer.fill('Olá! Temos sim, qual produto?');
    await composer.press('Enter');
    await conversation(a.page).getByTestId('message-list').getByText('Olá! Temos sim, qual produto?').waitFor(LIVE);

    // … and an image with a caption.
    await conversation(a.page).getByTestId('file-input').setInputFiles({
      name: 'catalogo.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    const preview = a.page.getByRole('dialog').filter({ hasText: 'Enviar arquivos' });
    await preview.getByLabel('Legenda de catalogo.png').fill('Nosso catálogo');
    await preview.getByRole('button', { name: 'Enviar', exact: true }).click();
    await preview.waitFor({ state: 'hidden', timeout: 30_000 });
    await conversation(a.page).getByTestId('message-list').getByText('Nosso catálogo').waitFor(LIVE);

    // … and a document over 1 MB, which goes through the presigned upload (D72).
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n% tabela\n'), Buffer.alloc(1_300_000, 0x20)]);
    await conversation(a.page).getByTestId('file-input').setInputFiles({
      name: 'tabela.pdf',
      mimeType: 'application/pdf',
      buffer: pdf,
    });
    await preview.getByRole('button', { name: 'Enviar', exact: true }).click();
    await preview.waitFor({ state: 'hidden', timeout: 30_000 });
    await conversation(a.page).getByTestId('message-list').getByText('tabela.pdf').first().waitFor(LIVE);

    // The customer's phone received all three.
    // (The company signs messages by default: the name comes first.)
    const text = await customerGets(
      company,
      customer.number,
      (m) => m.body?.includes('Olá! Temos sim, qual produto?') === true,
      'the text',
    );
    expect(text.body).toContain(company.attendantA.name);
    const image = await customerGets(company, customer.number, (m) => m.type === 'image', 'the image');
    expect(image.body).toContain('Nosso catálogo');
    expect(image.mediaUrl).toBeTruthy();
    const bytes = Buffer.from(await (await fetch(new URL(image.mediaUrl!, inject('appUrl')))).arrayBuffer());
    expect(bytes.equals(PNG)).toBe(true);
    const document = await customerGets(company, customer.number, (m) => m.filename === 'tabela.pdf', 'the document');
    const documentBytes = Buffer.from(await (await fetch(new URL(document.mediaUrl!, inject('appUrl')))).arrayBuffer());
    expect(documentBytes.equals(pdf)).toBe(true);

    // A transfers the ticket to Suporte (no user): it leaves A's screen …
    await conversation(a.page).getByRole('button', { name: 'Transferir', exact: true }).click();
    const transfer = a.page.getByRole('dialog').filter({ hasText: 'Transferir ticket' });
    await transfer.getByRole('button', { name: /Selecione uma fila/ }).click();
    await transfer.getByRole('option', { name: 'Suporte' }).click();
    await transfer.getByRole('button', { name: 'Transferir', exact: true }).click();
    await a.page.waitForURL(/\/tickets$/, LIVE);

    // … and appears in B's Aguardando, live; B accepts it.
    const atB = rowsOf(b.page, customer.name);
    await atB.waitFor(LIVE);
    expect(await atB.getAttribute('data-ticket-id')).toBe(firstTicketId);
    await atB.getByRole('button', { name: `Aceitar ${customer.name}` }).click();
    await b.page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/, LIVE);
    await conversation(b.page).getByText('Olá! Temos sim, qual produto?').waitFor(LIVE);

    // B opens the contact's data, adds a note and the tag.
    await conversation(b.page)
      .getByRole('button', { name: `Dados de ${customer.name}` })
      .click();
    const drawer = b.page.getByTestId('contact-drawer');
    await drawer.getByLabel('Nova observação').fill('Cliente quer o catálogo completo');
    await drawer.getByRole('button', { name: 'Adicionar observação' }).click();
    await b.page.getByText('Observação adicionada com sucesso!').waitFor(LIVE);
    await drawer.getByRole('list', { name: 'Observações' }).getByText('Cliente quer o catálogo completo').waitFor(LIVE);
    await drawer.getByText('Selecione as tags').click();
    await drawer.getByRole('option', { name: 'VIP' }).click();
    await b.page.keyboard.press('Escape');
    await drawer.getByText('VIP').first().waitFor(LIVE);
    const contacts = await admin.get(`/contacts?searchParam=${encodeURIComponent(customer.name)}&pageNumber=1`);
    const contactId = (contacts.body.contacts as { id: number; number: string }[]).find(
      (c) => c.number === customer.number,
    )!.id;
    await expect
      .poll(async () => (await admin.get(`/contactTags/${contactId}`)).body.tags, LIVE)
      .toEqual(expect.arrayContaining([expect.objectContaining({ name: 'VIP' })]));

    // B resolves with the farewell: the customer receives it.
    await conversation(b.page).getByRole('button', { name: 'Resolver', exact: true }).click();
    await b.page.getByRole('menuitem', { name: 'Resolver com mensagem de despedida' }).click();
    await b.page.waitForURL(/\/tickets$/, LIVE);
    await customerGets(company, customer.number, (m) => m.body?.includes(company.farewell) === true, 'the farewell');

    // The customer writes again: a new pending ticket of the same contact appears in A's Aguardando.
    await customerWrites(company, customer, 'Esqueci de perguntar o prazo');
    // A's list followed the accepted ticket to Atendendo (issue 14): A looks at Aguardando again.
    await openPending(a.page);
    const again = rowsOf(a.page, customer.name).filter({ hasText: 'Esqueci de perguntar o prazo' });
    await again.waitFor(LIVE);
    const secondTicketId = await again.getAttribute('data-ticket-id');
    expect(secondTicketId).not.toBe(firstTicketId);
    await expect.poll(() => rowsOf(a.page, customer.name).count()).toBe(1);

    await a.context.close();
    await b.context.close();
  }, 300_000);
});
