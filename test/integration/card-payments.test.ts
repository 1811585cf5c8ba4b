import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { addMonths, runInvoiceTick, runReconcile } from '../../functions/core/billing/billing-service';
import { getCompany } from '../../functions/data/company-repository';
import { armRenewal, getInvoice } from '../../functions/data/invoice-repository';
import { findUserIdByEmail } from '../../functions/data/user-repository';
import { eventsUntil } from '../helpers/connections';
import { api, freshCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

/**
 * Card payments through Stripe, Asaas and Mercado Pago against the local fake provider, which signs its
 * webhooks as each provider does (administration §3 Payment result, §7; decisions D167, D168).
 */
type Card = 'stripe' | 'asaas' | 'mercadopago';
const URL_FIELD: Record<Card, string> = { stripe: 'stripeURL', asaas: 'asaasURL', mercadopago: 'mercadopagoURL' };

let superToken: string;
const fake = () => inject('localCloudEnv').STRIPE_API_URL!;
const fakeCall = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${fake()}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const checkout = (invoiceId: number, provider: Card) => ({
  invoiceId,
  provider,
  firstName: 'Marina Lopes',
  address2: 'Rua das Flores, 10',
  city: 'São Paulo',
  zipcode: '123.456.789-09',
  country: 'BR',
});
const onPayment = (e: { channel?: unknown; action?: unknown }) =>
  typeof e.channel === 'string' && e.channel.endsWith('-payment') && e.action === 'CONCLUIDA';

/** A company seven days from its due date (a trial's end) with its period's invoice made. */
const companyWithInvoice = async (amount: number) => {
  const plan = (
    await api(superToken).post('/plans', {
      name: `Plano ${randomUUID().slice(0, 8)}`,
      users: 3,
      connections: 2,
      queues: 4,
      amount,
    })
  ).body;
  const due = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const a = await freshCompany(undefined, { planId: plan.id, dueDate: due });
  await armRenewal(a.company.id, due);
  await runInvoiceTick();
  const [invoice] = (await api(a.adminToken).get('/invoices/all')).body.invoices;
  expect(invoice).toMatchObject({ value: amount, dueDate: due, status: 'open' });
  return { ...a, plan, due, invoiceId: invoice.id as number };
};

/** A webhook to our route with a wrong signature or token, as a forger would send it. */
const forged = (provider: Card, chargeId: string) => {
  if (provider === 'stripe') {
    const body = JSON.stringify({
      id: 'evt_forged',
      type: 'checkout.session.completed',
      data: { object: { id: chargeId, payment_status: 'paid' } },
    });
    const t = Math.floor(Date.now() / 1000);
    return api(undefined, { headers: { 'stripe-signature': `t=${t},v1=${'0'.repeat(64)}` } }).post(
      '/webhooks/stripe',
      body,
    );
  }
  if (provider === 'asaas') {
    return api(undefined, { headers: { 'asaas-access-token': 'not-the-token' } }).post('/webhooks/asaas', {
      id: 'evt_forged',
      event: 'PAYMENT_RECEIVED',
      payment: { id: chargeId },
    });
  }
  return api(undefined, { headers: { 'x-request-id': 'r-1', 'x-signature': `ts=1,v1=${'0'.repeat(64)}` } }).post(
    '/webhooks/mercadopago?data.id=123&type=payment',
    { id: 1, type: 'payment', data: { id: '123' } },
  );
};

beforeAll(async () => {
  const owner = await findUserIdByEmail('owner@zapdesk.local');
  superToken = await signAccessToken({ companyId: 1, userId: owner!.userId, profile: 'admin', super: true });
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

describe('what the checkout offers', () => {
  it('lists PIX and the three card providers off AWS, and refuses a provider that is switched off', async () => {
    const a = await companyWithInvoice(10);
    const offered = await api(a.adminToken).get('/subscription/providers');
    expect(offered.status).toBe(200);
    expect(offered.body).toEqual({ providers: ['efi', 'stripe', 'asaas', 'mercadopago'] });
    const bad = await api(a.adminToken).post('/subscription', {
      ...checkout(a.invoiceId, 'stripe'),
      provider: 'paypal',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([{ field: 'body.provider', reason: 'Forma de pagamento indisponível' }]);
    expect((await getInvoice(a.company.id, a.invoiceId))?.payment).toBeUndefined();
  });
});

describe.each<Card>(['stripe', 'asaas', 'mercadopago'])('card payments through %s', (provider) => {
  it('charges the invoice, follows a plan change, refuses a forged webhook, and pays once for repeated webhooks', async () => {
    const a = await companyWithInvoice(30);
    const paid = await api(a.adminToken).post('/subscription', checkout(a.invoiceId, provider));
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toEqual({
      invoiceId: a.invoiceId,
      valorext: '30.00',
      [URL_FIELD[provider]]: expect.stringContaining(`/__fake/pay/${provider}/`),
    });
    const first = (await getInvoice(a.company.id, a.invoiceId))!.payment!;
    expect(first).toMatchObject({ provider, amount: 30 });
    expect((await fakeCall('GET', `/__fake/${provider}/charge/${first.chargeId}`)).body).toMatchObject({
      amount: 30,
      paid: false,
    });

    // A plan change before payment: the invoice and its charge at the provider take the new value together
    // (Stripe cannot revise a session: the old one is expired and the invoice keeps the new one).
    expect((await api(superToken).put(`/plans/${a.plan.id}`, { amount: 45 })).status).toBe(200);
    expect((await api(a.adminToken).get('/invoices/all')).body.invoices[0].value).toBe(45);
    const current = (await getInvoice(a.company.id, a.invoiceId))!.payment!;
    expect(current.amount).toBe(45);
    expect((await fakeCall('GET', `/__fake/${provider}/charge/${current.chargeId}`)).body).toMatchObject({
      amount: 45,
      closed: false,
    });
    if (provider === 'stripe') {
      expect(current.chargeId).not.toBe(first.chargeId);
      expect((await fakeCall('GET', `/__fake/stripe/charge/${first.chargeId}`)).body).toMatchObject({ closed: true });
    } else {
      expect(current.chargeId).toBe(first.chargeId);
    }

    // A webhook with a bad signature or token is refused and changes nothing.
    const refused = await forged(provider, current.chargeId);
    expect(refused.status).toBe(401);
    expect((await getInvoice(a.company.id, a.invoiceId))?.status).toBe('open');
    expect((await getCompany(a.company.id))?.dueDate).toBe(a.due);

    const socket = await connectSocket(`${inject('wsUrl')}?token=${a.adminToken}`);
    const payer = await fakeCall('POST', `/__fake/${provider}/pay/${current.chargeId}`, {});
    expect(payer.body.delivered).toBe(200);
    // The provider retries: twice at once, then once more, each replaying its events newest first (the paid
    // event before the one it sent first: out of order).
    const retries = await Promise.all([
      fakeCall('POST', `/__fake/${provider}/resend/${current.chargeId}`),
      fakeCall('POST', `/__fake/${provider}/resend/${current.chargeId}`),
    ]);
    expect(retries.map((r) => r.body.delivered)).toEqual([
      [200, 200],
      [200, 200],
    ]);
    expect((await fakeCall('POST', `/__fake/${provider}/resend/${current.chargeId}`)).body.delivered).toEqual([
      200, 200,
    ]);
    await runReconcile();

    const newDue = addMonths(a.due, 1);
    const [event] = (await eventsUntil(socket, onPayment)).slice(-1);
    expect(event).toMatchObject({
      action: 'CONCLUIDA',
      company: { id: a.company.id, dueDate: newDue },
      invoiceId: a.invoiceId,
    });
    expect((await getCompany(a.company.id))?.dueDate).toBe(newDue);
    expect((await api(a.adminToken).get('/invoices/all')).body.invoices).toEqual([
      expect.objectContaining({ id: a.invoiceId, status: 'paid', displayStatus: 'Pago', value: 45 }),
    ]);
    expect((await api(a.adminToken).post('/subscription', checkout(a.invoiceId, provider))).status).toBe(409);
  });

  it('a dropped webhook is reconciled by the job, once', async () => {
    const a = await companyWithInvoice(20);
    expect((await api(a.adminToken).post('/subscription', checkout(a.invoiceId, provider))).status).toBe(200);
    const { chargeId } = (await getInvoice(a.company.id, a.invoiceId))!.payment!;
    expect((await fakeCall('POST', `/__fake/${provider}/pay/${chargeId}`, { webhook: 'drop' })).body.delivered).toBe(0);
    expect((await getInvoice(a.company.id, a.invoiceId))?.status).toBe('open');

    await runReconcile();
    await runReconcile();
    expect((await getInvoice(a.company.id, a.invoiceId))?.status).toBe('paid');
    expect((await getCompany(a.company.id))?.dueDate).toBe(addMonths(a.due, 1));
  });
});
