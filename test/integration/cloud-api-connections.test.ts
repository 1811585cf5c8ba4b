import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { decryptToken } from '../../functions/shared/token-cipher';
import { countConnections } from '../../functions/data/connection-repository';
import { getMetaCredentials, getMetaTarget } from '../../functions/data/meta-repository';
import { fakeGraph } from '../helpers/fake-graph';
import { api, channelPlan as plan, freshCompany } from '../helpers/fixtures';

/**
 * POST /whatsapp/cloud-api (decisions D76): a WhatsApp Cloud API number becomes a `whatsappapi`
 * connection once its token reads the number on the (fake) Graph API; nothing is stored otherwise.
 */
const graph = fakeGraph(inject('fakeGraphUrl'));

const digits = (n: number) =>
  Array.from({ length: n }, () => Math.floor(Math.random() * 10))
    .join('')
    .replace(/^0/, '1');
const token = () => `EAACLOUD${randomUUID().replace(/-/g, '')}`;

/** A number the fake Graph knows, answering to its own token. */
const cloudNumber = async (display = '+55 11 98765-4321', name = 'Loja Oficial') => {
  const number = { phoneNumberId: digits(15), accessToken: token() };
  await graph.addPhoneNumber(number.phoneNumberId, number.accessToken, display, name);
  return number;
};

describe('WhatsApp Cloud API connections', () => {
  it('creates a CONNECTED whatsappapi connection named after the number, with its token stored encrypted and never answered', async () => {
    const c = await freshCompany(undefined, { planId: (await plan()).id });
    const number = await cloudNumber();
    const waba = digits(15);
    const res = await api(c.adminToken).post('/whatsapp/cloud-api', { ...number, businessAccountId: waba });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      channel: 'whatsappapi',
      status: 'CONNECTED',
      name: 'Loja Oficial',
      number: '5511987654321',
    });
    expect(JSON.stringify(res.body)).not.toContain(number.accessToken);
    // The number routes its webhooks to this connection; the token is kept encrypted beside it.
    expect(await getMetaTarget('waphone', number.phoneNumberId)).toMatchObject({
      companyId: c.company.id,
      whatsappId: res.body.id,
    });
    const credentials = await getMetaCredentials(c.company.id, res.body.id as number);
    expect(credentials?.tokenCipher).not.toContain(number.accessToken);
    expect(await decryptToken(credentials!.tokenCipher)).toBe(number.accessToken);
    // Our app was subscribed to the business account's webhooks with the number's token.
    const subscribed = await graph.calls(`/${waba}/subscribed_apps`);
    expect(subscribed).toHaveLength(1);
    expect(subscribed[0]!.authorization).toBe(`Bearer ${number.accessToken}`);
    // Listed like any other connection, never with the Meta token.
    const list = await api(c.adminToken).get('/whatsapp');
    const listed = (list.body as { id: number; channel: string }[]).find((w) => w.id === res.body.id);
    expect(listed?.channel).toBe('whatsappapi');
    expect(JSON.stringify(list.body)).not.toContain(number.accessToken);
    // The name given wins over Meta's verified name.
    const named = await api(c.adminToken).post('/whatsapp/cloud-api', { ...(await cloudNumber()), name: 'Vendas API' });
    expect(named.body.name).toBe('Vendas API');
  });

  it('refuses a token that does not read the number, and stores nothing', async () => {
    const c = await freshCompany(undefined, { planId: (await plan()).id });
    const number = await cloudNumber();
    const res = await api(c.adminToken).post('/whatsapp/cloud-api', { ...number, accessToken: token() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_META_GRAPH', details: { graphCode: 190 } });
    expect(await countConnections(c.company.id)).toBe(0);
    expect(await getMetaTarget('waphone', number.phoneNumberId)).toBeNull();
  });

  it('names each bad field, and writes nothing', async () => {
    const c = await freshCompany(undefined, { planId: (await plan()).id });
    const res = await api(c.adminToken).post('/whatsapp/cloud-api', { phoneNumberId: '+55 11', accessToken: 'abc' });
    expect(res.status).toBe(400);
    expect((res.body.fields as { field: string }[]).map((f) => f.field).sort()).toEqual([
      'body.accessToken',
      'body.phoneNumberId',
    ]);
    const missing = await api(c.adminToken).post('/whatsapp/cloud-api', {});
    expect((missing.body.fields as { field: string }[]).map((f) => f.field).sort()).toEqual([
      'body.accessToken',
      'body.phoneNumberId',
    ]);
    expect(await countConnections(c.company.id)).toBe(0);
  });

  it('a number connected anywhere cannot be connected again; the plan limit and flag hold', async () => {
    const owner = await freshCompany(undefined, { planId: (await plan()).id });
    const number = await cloudNumber();
    expect((await api(owner.adminToken).post('/whatsapp/cloud-api', number)).status).toBe(201);
    const again = await api(owner.adminToken).post('/whatsapp/cloud-api', number);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_META_ALREADY_CONNECTED');

    const other = await freshCompany(undefined, { planId: (await plan()).id });
    const elsewhere = await api(other.adminToken).post('/whatsapp/cloud-api', number);
    expect(elsewhere.status).toBe(409);
    // Nothing names the company that has it.
    expect(elsewhere.body).toEqual({
      error: 'ERR_META_ALREADY_CONNECTED',
      message: 'This WhatsApp number is already connected',
      details: { externalId: number.phoneNumberId },
    });
    expect(await countConnections(other.company.id)).toBe(0);

    const full = await freshCompany(undefined, { planId: (await plan({ connections: 1 })).id });
    expect((await api(full.adminToken).post('/whatsapp/cloud-api', await cloudNumber())).status).toBe(201);
    const over = await api(full.adminToken).post('/whatsapp/cloud-api', await cloudNumber());
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ error: 'ERR_PLAN_LIMIT_CONNECTIONS', details: { limit: 1 } });

    const noWhatsapp = await freshCompany(undefined, { planId: (await plan({ useWhatsapp: false })).id });
    const refused = await api(noWhatsapp.adminToken).post('/whatsapp/cloud-api', await cloudNumber());
    expect(refused.status).toBe(403);
    expect(await countConnections(noWhatsapp.company.id)).toBe(0);

    // A plain user (without allowConnections) may not.
    const plain = await api(owner.attendantToken).post('/whatsapp/cloud-api', await cloudNumber());
    expect(plain.status).toBe(403);
  });
});
