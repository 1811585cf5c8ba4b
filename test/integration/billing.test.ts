import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import {
  addMonths,
  repriceOpenInvoices,
  runInvoiceTick,
  runReconcile,
} from '../../functions/core/billing/billing-service';
import { getCompany } from '../../functions/data/company-repository';
import { armRenewal, getInvoice } from '../../functions/data/invoice-repository';
import { findUserIdByEmail } from '../../functions/data/user-repository';
import { eventsUntil } from '../helpers/connections';
import { api, freshCompany } from '../helpers/fixtures';
import { sessionClient } from '../helpers/session-client';
import { connectSocket, openSockets } from '../helpers/ws-client';

/**
 * Plans, invoices, PIX checkout and payment against the local fake Efí (administration §2 "Invoices and
 * subscription", §4, §7; decisions D151–D153).
 */
let superToken: string;
const fake = () => inject('localCloudEnv').EFI_API_URL!;
const fakeCall = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${fake()}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const planBody = (extra: Record<string, unknown> = {}) => ({
  name: `Plano ${randomUUID().slice(0, 8)}`,
  users: 3,
  connections: 2,
  queues: 4,
  amount: 30,
  isPublic: true,
  ...extra,
});
const checkout = (invoiceId: number, extra: Record<string, unknown> = {}) => ({
  invoiceId,
  firstName: 'Marina Lopes',
  address2: 'Rua das Flores, 10',
  city: 'São Paulo',
  state: 'SP',
  zipcode: '123.456.789-09',
  country: 'BR',
  ...extra,
});
const onPayment = (e: { channel?: unknown; action?: unknown }) =>
  typeof e.channel === 'string' && e.channel.endsWith('-payment') && e.action === 'CONCLUIDA';

beforeAll(async () => {
  const owner = await findUserIdByEmail('owner@zapdesk.local');
  superToken = await signAccessToken({ companyId: 1, userId: owner!.userId, profile: 'admin', super: true });
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

describe('plans (the platform owner)', () => {
  it('creates a plan with every flag on by default, lists it, and refuses a second plan of the same name', async () => {
    const body = planBody({ isPublic: false });
    const created = await api(superToken).post('/plans', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ ...body, id: expect.any(Number), useCampaigns: true, useOpenAi: true });
    const all = await api(superToken).get('/plans/all');
    expect(all.body.map((p: { name: string }) => p.name)).toContain(body.name);
    expect((await api().get('/plans/list')).body.map((p: { name: string }) => p.name)).not.toContain(body.name);

    const twin = await api(superToken).post('/plans', { ...planBody(), name: body.name.toUpperCase() });
    expect(twin.status).toBe(409);
    expect(twin.body.message).toBe('Não foi possível realizar a operação');
    const after = await api(superToken).get('/plans/all');
    expect(after.body.length).toBe(all.body.length);
  });

  it('answers bad input with 400 naming the field; admins of companies may not manage plans', async () => {
    const bad = await api(superToken).post('/plans', { ...planBody(), name: '', amount: -1 });
    expect(bad.status).toBe(400);
    const byField = Object.fromEntries(
      bad.body.fields.map((f: { field: string; reason: string }) => [f.field, f.reason]),
    );
    expect(byField).toMatchObject({ 'body.name': 'Nome é obrigatório', 'body.amount': 'Valor não pode ser negativo' });
    const company = await freshCompany();
    const byAdmin = await api(company.adminToken).post('/plans', planBody());
    expect(byAdmin.status).toBe(403);
    expect((await api(company.adminToken).get('/plans/all')).status).toBe(403);
  });

  it('renames and deletes an unused plan; refuses to delete a plan a company is on', async () => {
    const plan = (await api(superToken).post('/plans', planBody())).body;
    const renamed = await api(superToken).put(`/plans/${plan.id}`, { name: `${plan.name} Plus`, queues: 9 });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: plan.id, name: `${plan.name} Plus`, queues: 9, amount: 30 });
    // The old name is free again.
    const reuse = await api(superToken).post('/plans', planBody({ name: plan.name }));
    expect(reuse.status).toBe(201);

    await freshCompany(undefined, { planId: reuse.body.id });
    const refused = await api(superToken).delete(`/plans/${reuse.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('ERR_PLAN_IN_USE');
    expect((await api(superToken).delete(`/plans/${plan.id}`)).status).toBe(200);
    const names = (await api(superToken).get('/plans/all')).body.map((p: { id: number }) => p.id);
    expect(names).toContain(reuse.body.id);
    expect(names).not.toContain(plan.id);
    expect((await api(superToken).delete(`/plans/${plan.id}`)).status).toBe(404);
  });
});

describe('invoices and PIX checkout', () => {
  it('a company on a 7-day trial gets its invoice once, pays by PIX, duplicate webhooks move the due date once', async () => {
    const plan = (await api(superToken).post('/plans', planBody({ amount: 30 }))).body;
    const client = sessionClient();
    const email = `trial-${randomUUID().slice(0, 8)}@flor.local`;
    const signup = await client.call('POST', '/auth/signup', {
      body: {
        name: 'Marina Lopes',
        companyName: `Floricultura ${randomUUID().slice(0, 6)}`,
        email,
        password: 'Flores123',
        phone: '+55 11 98888-7777',
        planId: plan.id,
      },
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    const trialDue: string = signup.body.dueDate;
    const companyId: number = signup.body.companyId;
    const login = await client.call('POST', '/auth/login', { body: { email, password: 'Flores123' } });
    const token: string = login.body.token;

    await runInvoiceTick();
    await runInvoiceTick();
    const list = await api(token).get('/invoices/all');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ hasMore: false });
    expect(list.body.invoices).toEqual([
      expect.objectContaining({
        detail: plan.name,
        users: 3,
        connections: 2,
        queues: 4,
        value: 30,
        dueDate: trialDue,
        status: 'open',
        displayStatus: 'Em Aberto',
      }),
    ]);
    const invoiceId: number = list.body.invoices[0].id;

    const bad = await api(token).post('/subscription', { invoiceId, firstName: ' ', country: 'BR' });
    expect(bad.status).toBe(400);
    const reasons = Object.fromEntries(
      bad.body.fields.map((f: { field: string; reason: string }) => [f.field, f.reason]),
    );
    expect(reasons).toMatchObject({
      'body.firstName': 'O nome completo é obrigatório',
      'body.zipcode': 'CEP é obrigatório',
    });
    expect((await getInvoice(companyId, invoiceId))?.payment).toBeUndefined();

    const paid = await api(token).post('/subscription', checkout(invoiceId));
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({
      invoiceId,
      valorext: '30.00',
      qrcode: { qrcode: expect.stringContaining('BR.GOV.BCB.PIX') },
    });
    const txid = (await getInvoice(companyId, invoiceId))!.payment!.chargeId;
    expect((await fakeCall('GET', `/__fake/efi/cob/${txid}`)).body.valor).toEqual({ original: '30.00' });

    // A plan change before payment: the invoice and the pending charge take the new value together.
    expect((await api(superToken).put(`/plans/${plan.id}`, { amount: 45 })).status).toBe(200);
    expect((await api(token).get('/invoices/all')).body.invoices[0].value).toBe(45);
    expect((await fakeCall('GET', `/__fake/efi/cob/${txid}`)).body.valor).toEqual({ original: '45.00' });

    // A webhook without our hmac is refused and changes nothing.
    const forged = await api().post(`/webhooks/efi?hmac=forged&ignorar=/pix`, {
      pix: [{ endToEndId: 'E000forged', txid, valor: '45.00', horario: new Date().toISOString() }],
    });
    expect(forged.status).toBe(401);
    expect((await getInvoice(companyId, invoiceId))?.status).toBe('open');
    expect((await getCompany(companyId))?.dueDate).toBe(trialDue);

    const socket = await connectSocket(`${inject('wsUrl')}?token=${token}`);
    const payer = await fakeCall('POST', `/__fake/efi/pay/${txid}`, {});
    expect(payer.body.delivered).toBe(200);
    // The provider retries: twice at once, and once more later.
    const retries = await Promise.all([
      fakeCall('POST', `/__fake/efi/resend/${txid}`),
      fakeCall('POST', `/__fake/efi/resend/${txid}`),
    ]);
    expect(retries.map((r) => r.body.delivered)).toEqual([200, 200]);
    expect((await fakeCall('POST', `/__fake/efi/resend/${txid}`)).body.delivered).toBe(200);
    await runReconcile();

    const newDue = addMonths(trialDue, 1);
    const [event] = (await eventsUntil(socket, onPayment)).slice(-1);
    expect(event).toMatchObject({ action: 'CONCLUIDA', company: { id: companyId, dueDate: newDue }, invoiceId });
    expect((await getCompany(companyId))?.dueDate).toBe(newDue);
    const after = await api(token).get('/invoices/all');
    expect(after.body.invoices).toEqual([
      expect.objectContaining({ id: invoiceId, status: 'paid', displayStatus: 'Pago' }),
    ]);
    // Paying again is refused; the next period's invoice comes ten days before the new due date, not now.
    expect((await api(token).post('/subscription', checkout(invoiceId))).status).toBe(409);
    await runInvoiceTick();
    expect((await api(token).get('/invoices/all')).body.invoices).toHaveLength(1);
  });

  it('a dropped webhook is reconciled by the job, once', async () => {
    const plan = (await api(superToken).post('/plans', planBody({ amount: 20 }))).body;
    const due = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const a = await freshCompany(undefined, { planId: plan.id, dueDate: due });
    await armRenewal(a.company.id, due);
    await runInvoiceTick();
    const [invoice] = (await api(a.adminToken).get('/invoices/all')).body.invoices;
    expect(invoice).toMatchObject({ value: 20, dueDate: due, displayStatus: 'Em Aberto' });
    await api(a.adminToken).post('/subscription', checkout(invoice.id));
    const txid = (await getInvoice(a.company.id, invoice.id))!.payment!.chargeId;
    expect((await fakeCall('POST', `/__fake/efi/pay/${txid}`, { webhook: 'drop' })).body.delivered).toBe(0);

    await runReconcile();
    await runReconcile();
    expect((await getInvoice(a.company.id, invoice.id))?.status).toBe('paid');
    expect((await getCompany(a.company.id))?.dueDate).toBe(addMonths(due, 1));
  });

  it('the Personalizar counters price the invoice by the custom plan rule', async () => {
    const plan = (await api(superToken).post('/plans', planBody({ amount: 20 }))).body;
    const due = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const a = await freshCompany(undefined, { planId: plan.id, dueDate: due });
    await armRenewal(a.company.id, due);
    await runInvoiceTick();
    const [invoice] = (await api(a.adminToken).get('/invoices/all')).body.invoices;
    const tooFew = await api(a.adminToken).post('/subscription', checkout(invoice.id, { users: 2, connections: 3 }));
    expect(tooFew.status).toBe(400);
    expect(tooFew.body.fields[0]).toEqual({ field: 'body.users', reason: 'Mínimo de 3 usuários' });
    const custom = await api(a.adminToken).post('/subscription', checkout(invoice.id, { users: 5, connections: 4 }));
    // 49 + 2 × 11 + 1 × 20
    expect(custom.body.valorext).toBe('91.00');
    expect((await api(a.adminToken).get('/invoices/all')).body.invoices[0]).toMatchObject({
      value: 91,
      users: 5,
      connections: 4,
    });
  });

  it("another company's invoices are invisible; attendants may not; an expired company still may", async () => {
    const plan = (await api(superToken).post('/plans', planBody({ amount: 10 }))).body;
    const expiredDue = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const [a, b] = await Promise.all([
      freshCompany(undefined, { planId: plan.id, dueDate: expiredDue }),
      freshCompany(undefined, { planId: plan.id }),
    ]);
    await armRenewal(a.company.id, expiredDue);
    await runInvoiceTick();
    const mine = await api(a.adminToken).get('/invoices/all');
    expect(mine.status).toBe(200);
    expect(mine.body.invoices).toEqual([expect.objectContaining({ dueDate: expiredDue, displayStatus: 'Vencido' })]);
    expect((await api(a.adminToken).get('/tags')).status).toBe(403);
    expect((await api(b.adminToken).get('/invoices/all')).body.invoices).toEqual([]);
    const foreign = await api(b.adminToken).post('/subscription', checkout(mine.body.invoices[0].id));
    expect(foreign.status).toBe(404);
    expect((await api(a.attendantToken).get('/invoices/all')).status).toBe(403);
  });

  it('a company moved to another plan by the owner has its open invoice repriced (repriceOpenInvoices)', async () => {
    const [cheap, dear] = await Promise.all([
      api(superToken).post('/plans', planBody({ amount: 15 })),
      api(superToken).post('/plans', planBody({ amount: 60, users: 10 })),
    ]);
    const due = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const a = await freshCompany(undefined, { planId: cheap.body.id, dueDate: due });
    await armRenewal(a.company.id, due);
    await runInvoiceTick();
    expect((await api(a.adminToken).get('/invoices/all')).body.invoices[0]).toMatchObject({ value: 15 });
    const moved = await api(superToken).put(`/companies/${a.company.id}`, { planId: dear.body.id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await api(a.adminToken).get('/invoices/all')).body.invoices[0]).toMatchObject({
      value: 60,
      users: 10,
      planId: dear.body.id,
      detail: dear.body.name,
    });
    // Already repriced: a second pass changes nothing.
    expect(await repriceOpenInvoices(a.company.id)).toBe(0);
  });
});
