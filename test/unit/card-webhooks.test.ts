import { describe, expect, it } from 'vitest';
import { asaasProvider } from '../../functions/core/billing/asaas-provider';
import { mercadoPagoProvider, mercadoPagoSignature } from '../../functions/core/billing/mercadopago-provider';
import { stripeProvider, stripeSignature } from '../../functions/core/billing/stripe-provider';

/**
 * The card providers' webhook checks (decisions D167), as each provider signs: what is a notice, what is
 * refused with 401 ERR_INVALID_SIGNATURE. Nothing here reaches a provider (Mercado Pago's refusals happen
 * before its payment is read).
 */
const NOW = 1_790_000_000_000;
const NOWHERE = 'http://127.0.0.1:9';
const request = (headers: Record<string, string>, rawBody: string, query: Record<string, string> = {}) => ({
  headers,
  query,
  rawBody,
});
const refused = { status: 401, code: 'ERR_INVALID_SIGNATURE' };

describe('Stripe-Signature', () => {
  const stripe = stripeProvider({ secretKey: 'sk', webhookSecret: 'whsec_unit' }, NOWHERE, 'http://app', () => NOW);
  const event = (type: string, paymentStatus: string) =>
    JSON.stringify({ id: 'evt_1', type, data: { object: { id: 'cs_1', payment_status: paymentStatus } } });
  const t = Math.floor(NOW / 1000);

  it('turns the paid events into notices and ignores the others', async () => {
    const paid = event('checkout.session.completed', 'paid');
    expect(
      await stripe.parseWebhook(request({ 'stripe-signature': stripeSignature('whsec_unit', paid, t) }, paid)),
    ).toEqual([{ eventId: 'evt_1', chargeId: 'cs_1' }]);
    const later = event('checkout.session.async_payment_succeeded', 'paid');
    expect(
      await stripe.parseWebhook(request({ 'Stripe-Signature': stripeSignature('whsec_unit', later, t) }, later)),
    ).toHaveLength(1);
    const unpaid = event('checkout.session.completed', 'unpaid');
    expect(
      await stripe.parseWebhook(request({ 'stripe-signature': stripeSignature('whsec_unit', unpaid, t) }, unpaid)),
    ).toEqual([]);
  });

  it('refuses another secret, a changed body, and a signature older than 5 minutes', async () => {
    const paid = event('checkout.session.completed', 'paid');
    await expect(
      stripe.parseWebhook(request({ 'stripe-signature': stripeSignature('whsec_other', paid, t) }, paid)),
    ).rejects.toMatchObject(refused);
    await expect(
      stripe.parseWebhook(request({ 'stripe-signature': stripeSignature('whsec_unit', paid, t) }, `${paid} `)),
    ).rejects.toMatchObject(refused);
    await expect(
      stripe.parseWebhook(request({ 'stripe-signature': stripeSignature('whsec_unit', paid, t - 301) }, paid)),
    ).rejects.toMatchObject(refused);
    await expect(stripe.parseWebhook(request({}, paid))).rejects.toMatchObject(refused);
  });
});

describe('asaas-access-token', () => {
  const asaas = asaasProvider({ apiKey: 'k', webhookToken: 'tok-unit' }, NOWHERE);
  const body = (event: string) => JSON.stringify({ id: 'evt_a', event, payment: { id: 'pay_1' } });

  it('accepts PAYMENT_RECEIVED and PAYMENT_CONFIRMED with the token, ignores other events', async () => {
    for (const event of ['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED']) {
      expect(await asaas.parseWebhook(request({ 'asaas-access-token': 'tok-unit' }, body(event)))).toEqual([
        { eventId: 'evt_a', chargeId: 'pay_1' },
      ]);
    }
    expect(await asaas.parseWebhook(request({ 'asaas-access-token': 'tok-unit' }, body('PAYMENT_CREATED')))).toEqual(
      [],
    );
  });

  it('refuses a missing or different token', async () => {
    await expect(asaas.parseWebhook(request({}, body('PAYMENT_RECEIVED')))).rejects.toMatchObject(refused);
    await expect(
      asaas.parseWebhook(request({ 'asaas-access-token': 'tok-unit2' }, body('PAYMENT_RECEIVED'))),
    ).rejects.toMatchObject(refused);
  });
});

describe('Mercado Pago x-signature', () => {
  const mp = mercadoPagoProvider({ accessToken: 'a', webhookSecret: 'mp-unit' }, NOWHERE, undefined);
  const body = JSON.stringify({ id: 9, type: 'merchant_order', data: { id: 'ABC123' } });

  it('signs the manifest id:<data.id>;request-id:<x-request-id>;ts:<ts>; with the id lower-cased', async () => {
    // A verified notice that is not about a payment: nothing to read, no notice.
    const headers = { 'x-request-id': 'r-9', 'x-signature': mercadoPagoSignature('mp-unit', 'abc123', 'r-9', '1700') };
    expect(await mp.parseWebhook(request(headers, body, { 'data.id': 'ABC123', type: 'merchant_order' }))).toEqual([]);
  });

  it('refuses another secret, another request id, or no signature', async () => {
    const query = { 'data.id': '123', type: 'payment' };
    const good = mercadoPagoSignature('mp-unit', '123', 'r-1', '1700');
    await expect(
      mp.parseWebhook(
        request({ 'x-request-id': 'r-1', 'x-signature': mercadoPagoSignature('x', '123', 'r-1', '1700') }, body, query),
      ),
    ).rejects.toMatchObject(refused);
    await expect(
      mp.parseWebhook(request({ 'x-request-id': 'r-2', 'x-signature': good }, body, query)),
    ).rejects.toMatchObject(refused);
    await expect(mp.parseWebhook(request({ 'x-request-id': 'r-1' }, body, query))).rejects.toMatchObject(refused);
  });
});
