import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { createMetaConnection } from '../../functions/core/connections/meta-connections';
import { reserveSendSlot } from '../../functions/core/outbound/send-governor';
import { sendMetaMessage } from '../../functions/channels/meta/send-meta-message';
import { metaSignature } from '../../functions/channels/meta/signature';
import { decryptToken } from '../../functions/shared/token-cipher';
import { countConnections, getConnection } from '../../functions/data/connection-repository';
import { findContactIdsByIdentities } from '../../functions/data/contact-repository';
import { putMediaObject } from '../../functions/data/media-store';
import {
  getProviderRef,
  listTicketMessages,
  storeMessage,
  type StoredMessage,
} from '../../functions/data/message-repository';
import { getMetaCredentials, getMetaTarget } from '../../functions/data/meta-repository';
import { getTicket, listContactTicketIds, type Ticket } from '../../functions/data/ticket-repository';
import { newUlid } from '../../functions/data/ulids';
import { createUser } from '../../functions/data/user-repository';
import { signAccessToken } from '../../functions/core/access-token';
import { enqueueOutbound } from '../../functions/core/pipeline/outbound-queue';
import { waitFor } from '../helpers/connections';
import { fakeGraph, type FakePage } from '../helpers/fake-graph';
import { api, channelPlan as plan, freshCompany } from '../helpers/fixtures';

/** Meta: webhooks, POST /facebook and sends against the fake Graph API (decisions D40). */
const env = inject('localCloudEnv');
const graph = fakeGraph(inject('fakeGraphUrl'));
const APP_SECRET = env.META_APP_SECRET!;
const VERIFY_TOKEN = env.META_VERIFY_TOKEN!;

const digits = (n: number) =>
  Array.from({ length: n }, () => Math.floor(Math.random() * 10))
    .join('')
    .replace(/^0/, '1');
const webhookUrl = `${inject('gatewayUrl')}/api/webhooks/meta`;

/** POSTs a payload as Meta would: the exact bytes, signed with the app secret (or the signature given). */
const deliver = async (payload: unknown, signature?: string | null) => {
  const body = Buffer.from(JSON.stringify(payload));
  const res = await fetch(webhookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-hub-signature-256': signature ?? metaSignature(body, APP_SECRET) }),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const messenger = (object: 'page' | 'instagram', accountId: string, messaging: unknown[]) => ({
  object,
  entry: [{ id: accountId, time: Date.now(), messaging }],
});
const fromPerson = (psid: string, accountId: string) => ({
  sender: { id: psid },
  recipient: { id: accountId },
  timestamp: Date.now(),
});

const page = (name: string, withInstagram = false): FakePage => ({
  id: digits(15),
  name,
  access_token: `EAAPAGE${randomUUID().replace(/-/g, '')}`,
  ...(withInstagram ? { instagram_business_account: { id: digits(17), username: `loja_${digits(4)}` } } : {}),
});

/** A Facebook user registered with the fake, and the POST /facebook body the browser's login would give. */
const facebookUser = async (pages: FakePage[]) => {
  const userId = digits(16);
  const userToken = `EAAUSER${randomUUID().replace(/-/g, '')}`;
  await graph.addUser(userId, userToken, pages);
  return { facebookUserId: userId, facebookUserToken: userToken };
};

/** The ticket and messages a contact's identity led to so far (null before its first ticket). */
const readStored = async (companyId: number, identity: string) => {
  const contactId = (await findContactIdsByIdentities(companyId, [identity])).get(identity);
  if (!contactId) return null;
  const [ticketId] = await listContactTicketIds(companyId, contactId);
  if (!ticketId) return null;
  // Messages first: a ticket read after them has seen their (transactional) ticket update.
  const messages = await listTicketMessages(companyId, ticketId);
  return { contactId, messages, ticket: (await getTicket(companyId, ticketId))! };
};

/** The ticket and messages a contact's identity led to, once the inbound job stored `count` messages. */
const storedFor = async (companyId: number, identity: string, count = 1) =>
  waitFor(
    () => readStored(companyId, identity),
    (v) => v !== null && v.messages.length >= count,
    { what: `messages for ${identity}` },
  ).then((v) => v!);

/** The same, once the inbound job stored the message with this text (and all its chat had before it). */
const storedWith = async (companyId: number, identity: string, text: string) =>
  waitFor(
    () => readStored(companyId, identity),
    (v) => v !== null && v.messages.some((m) => m.body === text),
    { what: `the message '${text}' for ${identity}` },
  ).then((v) => v!);

describe('GET /webhooks/meta (verification)', () => {
  it('echoes hub.challenge as text for subscribe with our verify token', async () => {
    const res = await fetch(
      `${webhookUrl}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=challenge-1158201444`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toBe('challenge-1158201444');
  });

  it('answers 403 for another token or mode', async () => {
    const wrong = await api().get('/webhooks/meta', {
      'hub.mode': 'subscribe',
      'hub.verify_token': 'not-ours-at-all',
      'hub.challenge': 'x',
    });
    expect(wrong.status).toBe(403);
    const mode = await api().get('/webhooks/meta', {
      'hub.mode': 'other',
      'hub.verify_token': VERIFY_TOKEN,
      'hub.challenge': 'x',
    });
    expect(mode.status).toBe(403);
  });
});

describe('POST /facebook', () => {
  it('makes a facebook connection per page and an instagram one per linked account, subscribes the app, stores tokens encrypted and never answers them', async () => {
    const c = await freshCompany(undefined, { planId: (await plan()).id });
    const pages = [page('Loja Centro', true), page('Loja Norte')];
    const login = await facebookUser(pages);
    const res = await api(c.adminToken).post('/facebook', { ...login, addInstagram: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(
      res.body.created.map((w: { channel: string; name: string; status: string }) => [w.channel, w.name, w.status]),
    ).toEqual([
      ['facebook', 'Loja Centro', 'CONNECTED'],
      ['instagram', pages[0]!.instagram_business_account!.username, 'CONNECTED'],
      ['facebook', 'Loja Norte', 'CONNECTED'],
    ]);
    const text = JSON.stringify(res.body);
    for (const p of pages) expect(text).not.toContain(p.access_token);
    expect(text).not.toContain(login.facebookUserToken);

    // Webhook routing pointers and encrypted credentials
    const fbTarget = await getMetaTarget('page', pages[0]!.id);
    expect(fbTarget).toEqual({ companyId: c.company.id, whatsappId: res.body.created[0].id });
    const igTarget = await getMetaTarget('ig', pages[0]!.instagram_business_account!.id);
    expect(igTarget?.whatsappId).toBe(res.body.created[1].id);
    const credentials = (await getMetaCredentials(c.company.id, fbTarget!.whatsappId))!;
    expect(credentials.tokenCipher).not.toContain(pages[0]!.access_token);
    expect(await decryptToken(credentials.tokenCipher)).toBe(pages[0]!.access_token);
    // A connection read never carries them either
    const read = await api(c.adminToken).get(`/whatsapp/${fbTarget!.whatsappId}`);
    expect(JSON.stringify(read.body)).not.toContain('tokenCipher');

    // The long-lived exchange, then the pages listed with it, then each page subscribed
    const exchange = await graph.calls(login.facebookUserToken);
    expect(exchange[0]).toMatchObject({ path: '/oauth/access_token', query: { grant_type: 'fb_exchange_token' } });
    expect(exchange[1]).toMatchObject({ path: `/${login.facebookUserId}/accounts` });
    for (const p of pages) {
      expect((await graph.calls(`/${p.id}/subscribed_apps`)).length).toBe(1);
    }
  });

  it('is idempotent: a second login updates the same connections (new token), creates none', async () => {
    const c = await freshCompany(undefined, { planId: (await plan()).id });
    const p = page('Padaria', true);
    const first = await api(c.adminToken).post('/facebook', { ...(await facebookUser([p])), addInstagram: true });
    expect(first.body.created).toHaveLength(2);
    const renewed = { ...p, access_token: `EAAPAGE${randomUUID().replace(/-/g, '')}` };
    const second = await api(c.adminToken).post('/facebook', {
      ...(await facebookUser([renewed])),
      addInstagram: true,
    });
    expect(second.status).toBe(200);
    expect(second.body.created).toEqual([]);
    expect(second.body.updated.map((w: { id: number }) => w.id)).toEqual(
      first.body.created.map((w: { id: number }) => w.id),
    );
    expect(await countConnections(c.company.id)).toBe(2);
    const credentials = (await getMetaCredentials(c.company.id, first.body.created[0].id))!;
    expect(await decryptToken(credentials.tokenCipher)).toBe(renewed.access_token);

    // Another company logging in with the same page gets it skipped, not stolen
    const other = await freshCompany(undefined, { planId: (await plan()).id });
    const stolen = await api(other.adminToken).post('/facebook', {
      ...(await facebookUser([renewed])),
      addInstagram: false,
    });
    expect(stolen.body.created).toEqual([]);
    expect(stolen.body.skipped).toEqual([
      { channel: 'facebook', externalId: p.id, name: 'Padaria', reason: 'connected-elsewhere' },
    ]);
    expect((await getMetaTarget('page', p.id))?.companyId).toBe(c.company.id);
  });

  it('needs useFacebook, and useInstagram when adding Instagram; plain users without allowConnections get 403', async () => {
    const noFacebook = await freshCompany(undefined, { planId: (await plan({ useFacebook: false })).id });
    const login = await facebookUser([page('Sem plano', true)]);
    const a = await api(noFacebook.adminToken).post('/facebook', { ...login, addInstagram: false });
    expect([a.status, a.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);

    const noInstagram = await freshCompany(undefined, { planId: (await plan({ useInstagram: false })).id });
    const b = await api(noInstagram.adminToken).post('/facebook', { ...login, addInstagram: true });
    expect([b.status, b.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    const c = await api(noInstagram.attendantToken).post('/facebook', { ...login, addInstagram: false });
    expect([c.status, c.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    expect(await countConnections(noFacebook.company.id)).toBe(0);
    expect(await countConnections(noInstagram.company.id)).toBe(0);

    // A plain user with allowConnections may
    const manager = await createUser(noInstagram.company.id, {
      name: 'Gestora',
      email: `gestora-${randomUUID()}@test.local`,
      passwordHash: 'x',
      profile: 'user',
      allowConnections: 'enabled',
    });
    const token = await signAccessToken({
      companyId: noInstagram.company.id,
      userId: manager.id,
      profile: 'user',
      super: false,
    });
    const d = await api(token).post('/facebook', { ...login, addInstagram: false });
    expect(d.status).toBe(200);
    expect(d.body.created).toHaveLength(1);
  });

  it("respects the plan's connection limit", async () => {
    const c = await freshCompany(undefined, { planId: (await plan({ connections: 2 })).id });
    const res = await api(c.adminToken).post('/facebook', {
      ...(await facebookUser([page('A'), page('B'), page('C')])),
      addInstagram: false,
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'ERR_PLAN_LIMIT_CONNECTIONS', details: { limit: 2 } });
    expect(await countConnections(c.company.id)).toBe(2);
  });

  it('takes `me` for the user id (the OAuth popup gives no id): the pages are listed for the token', async () => {
    const c = await freshCompany(undefined, { planId: (await plan()).id });
    const p = page('Loja Popup');
    const login = await facebookUser([p]);
    const res = await api(c.adminToken).post('/facebook', { ...login, facebookUserId: 'me', addInstagram: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.created.map((w: { name: string; channel: string }) => [w.channel, w.name])).toEqual([
      ['facebook', 'Loja Popup'],
    ]);
    expect((await graph.calls(login.facebookUserToken))[1]).toMatchObject({ path: '/me/accounts' });
    // `me` names no one else: another token is Meta's refusal, and nothing is created.
    const stranger = await api(c.adminToken).post('/facebook', {
      facebookUserId: 'me',
      facebookUserToken: `EAAUSER${randomUUID().replace(/-/g, '')}`,
      addInstagram: false,
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error).toBe('ERR_META_GRAPH');
    expect(await countConnections(c.company.id)).toBe(1);
  });

  it("answers a Graph refusal as a 400 with Meta's message, never a 500", async () => {
    const c = await freshCompany(undefined, { planId: (await plan()).id });
    const res = await api(c.adminToken).post('/facebook', {
      facebookUserId: digits(16),
      facebookUserToken: `expired${randomUUID()}`,
      addInstagram: false,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'ERR_META_GRAPH',
      message: expect.stringContaining('Session has expired'),
    });
    const bad = await api(c.adminToken).post('/facebook', { facebookUserId: 'abc', facebookUserToken: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'body.facebookUserId',
      'body.facebookUserToken',
    ]);
  });
});

/** A company with a Facebook page (and its Instagram account) connected through POST /facebook. */
const metaWorld = async () => {
  const c = await freshCompany(undefined, { planId: (await plan()).id });
  const p = page('Atendimento', true);
  const res = await api(c.adminToken).post('/facebook', { ...(await facebookUser([p])), addInstagram: true });
  const [facebook, instagram] = res.body.created as { id: number }[];
  return {
    c,
    companyId: c.company.id,
    page: p,
    igId: p.instagram_business_account!.id,
    facebook: facebook!,
    instagram: instagram!,
  };
};

describe('POST /webhooks/meta', () => {
  it('stores a Messenger text through the inbound pipeline: contact by page-scoped id, ticket, message', async () => {
    const w = await metaWorld();
    const psid = digits(16);
    const mid = `m_${randomUUID()}`;
    const res = await deliver(
      messenger('page', w.page.id, [{ ...fromPerson(psid, w.page.id), message: { mid, text: 'Bom dia!' } }]),
    );
    expect(res.status).toBe(200);
    const stored = await storedFor(w.companyId, `fb#${w.page.id}:${psid}`);
    expect(stored.ticket).toMatchObject({
      channel: 'facebook',
      whatsappId: w.facebook.id,
      status: 'pending',
      chatId: psid,
    });
    expect(stored.ticket.lastInboundAt).toBeDefined();
    expect(stored.messages[0]).toMatchObject({ body: 'Bom dia!', fromMe: false, providerId: mid });
  });

  it('downloads an Instagram image through the Graph adapter and stores it under the company prefix', async () => {
    const w = await metaWorld();
    const igsid = digits(16);
    const url = await graph.addMedia(
      `ig-${randomUUID()}`,
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]),
      'image/jpeg',
    );
    const mid = `aWdfZAG${randomUUID().replace(/-/g, '')}`;
    await deliver(
      messenger('instagram', w.igId, [
        { ...fromPerson(igsid, w.igId), message: { mid, attachments: [{ type: 'image', payload: { url } }] } },
      ]),
    );
    const stored = await storedFor(w.companyId, `ig#${w.igId}:${igsid}`);
    expect(stored.ticket.channel).toBe('instagram');
    expect(stored.messages[0]).toMatchObject({ mediaType: 'image', mimetype: 'image/jpeg', size: 8 });
    expect(stored.messages[0]!.mediaKey).toMatch(
      new RegExp(`^c/${w.companyId}/inbound/${w.instagram.id}/[0-9a-f]{32}/image\\.jpeg$`),
    );
    const media = await fetch(`${inject('gatewayUrl')}/media/${stored.messages[0]!.mediaKey}`);
    expect(Buffer.from(await media.arrayBuffer())).toEqual(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]));
  });

  it('stores a Cloud API text and document (media fetched with the number token), and applies its statuses as acks', async () => {
    const c = await freshCompany(undefined, { planId: (await plan()).id });
    const phoneNumberId = digits(15);
    const cloudToken = `EAACLOUD${randomUUID().replace(/-/g, '')}`;
    const connection = await createMetaConnection(c.company.id, {
      channel: 'whatsappapi',
      kind: 'waphone',
      externalId: phoneNumberId,
      name: 'Cloud API',
      token: cloudToken,
    });
    const from = `55119${digits(8)}`;
    const mediaId = digits(16);
    await graph.addMedia(mediaId, Buffer.from('%PDF-1.4\n%boleto\n'), 'application/pdf');
    const value = (messages: unknown[]) => ({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: digits(15),
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
                contacts: [{ profile: { name: 'Cliente Cloud' }, wa_id: from }],
                messages,
              },
            },
          ],
        },
      ],
    });
    const ts = String(Math.floor(Date.now() / 1000));
    expect(
      (
        await deliver(
          value([
            { from, id: `wamid.${randomUUID()}`, timestamp: ts, type: 'text', text: { body: 'Quero meu boleto' } },
            {
              from,
              id: `wamid.${randomUUID()}`,
              timestamp: ts,
              type: 'document',
              document: { id: mediaId, mime_type: 'application/pdf', filename: 'boleto.pdf' },
            },
          ]),
        )
      ).status,
    ).toBe(200);
    const stored = await storedFor(c.company.id, `wa#${from}`, 2);
    expect(stored.ticket).toMatchObject({ channel: 'whatsappapi', whatsappId: connection.id, chatId: from });
    expect(stored.messages.map((m) => m.mediaType).sort()).toEqual(['application', 'chat']);
    const doc = stored.messages.find((m) => m.mediaType === 'application')!;
    expect(doc).toMatchObject({ filename: 'boleto.pdf', mimetype: 'application/pdf' });
    expect((await graph.calls(`/${mediaId}`))[0]).toMatchObject({ authorization: `Bearer ${cloudToken}` });

    // A reply through the Cloud API, then Meta's statuses for it
    const reply = await outbound(c.company.id, stored.ticket, 'Segue o boleto');
    const sent = await sendMetaMessage(reply.send);
    expect(sent.outcome).toBe('sent');
    const call = (await graph.calls(`/${phoneNumberId}/messages`))[0]!;
    expect(call).toMatchObject({
      authorization: `Bearer ${cloudToken}`,
      body: { messaging_product: 'whatsapp', to: from, type: 'text', text: { body: 'Segue o boleto' } },
    });
    const wamid = (sent as { providerMessageId: string }).providerMessageId;
    await deliver({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '1',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { phone_number_id: phoneNumberId },
                statuses: [{ id: wamid, status: 'read', timestamp: ts, recipient_id: from }],
              },
            },
          ],
        },
      ],
    });
    await waitFor(
      async () => (await listTicketMessages(c.company.id, stored.ticket.id)).find((m) => m.ulid === reply.ulid)?.ack,
      (ack) => ack === 3,
      { what: 'the read status' },
    );
  });

  it('a bad or missing signature is a 401 and stores nothing', async () => {
    const w = await metaWorld();
    const psid = digits(16);
    const payload = messenger('page', w.page.id, [
      { ...fromPerson(psid, w.page.id), message: { mid: `m_${randomUUID()}`, text: 'forjada' } },
    ]);
    const missing = await deliver(payload, null);
    expect([missing.status, missing.body.error]).toEqual([401, 'ERR_INVALID_SIGNATURE']);
    const wrong = await deliver(payload, metaSignature(Buffer.from(JSON.stringify(payload)), 'not-the-app-secret'));
    expect(wrong.status).toBe(401);
    // A genuine message on the same chat afterwards: the FIFO group would have handled the forged ones first.
    await deliver(
      messenger('page', w.page.id, [
        { ...fromPerson(psid, w.page.id), message: { mid: `m_${randomUUID()}`, text: 'verdadeira' } },
      ]),
    );
    // Waiting for the genuine one itself (not for any first message) proves everything before it was handled.
    const stored = await storedWith(w.companyId, `fb#${w.page.id}:${psid}`, 'verdadeira');
    expect(stored.messages.map((m) => m.body)).toEqual(['verdadeira']);
  });

  it('an unknown page is a 200 that stores nothing', async () => {
    const w = await metaWorld();
    const strangerPage = digits(15);
    const psid = digits(16);
    const res = await deliver(
      messenger('page', strangerPage, [
        { ...fromPerson(psid, strangerPage), message: { mid: `m_${randomUUID()}`, text: 'oi' } },
      ]),
    );
    expect(res.status).toBe(200);
    // The webhook answers after enqueueing what it routed. Had it routed the stranger's message to this
    // company's page, it went to the FIFO group of that page's connection and this person's chat; a later
    // message of the same person to the page goes to that group too, so once it is stored the other was handled.
    await deliver(
      messenger('page', w.page.id, [
        { ...fromPerson(psid, w.page.id), message: { mid: `m_${randomUUID()}`, text: 'para a página certa' } },
      ]),
    );
    const stored = await storedWith(w.companyId, `fb#${w.page.id}:${psid}`, 'para a página certa');
    expect(stored.messages.map((m) => m.body)).toEqual(['para a página certa']);
    expect((await findContactIdsByIdentities(w.companyId, [`fb#${strangerPage}:${psid}`])).size).toBe(0);
  });
});

/** An outbound message written as D34 says (fromMe, ack 0), and the send job for it. */
const outbound = async (companyId: number, ticket: Ticket, body: string, media?: { key: string; type: string }) => {
  const ulid = newUlid();
  const message: StoredMessage = {
    ulid,
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    body,
    fromMe: true,
    isPrivate: false,
    isDeleted: false,
    isEdited: false,
    isForwarded: false,
    mediaType: media?.type ?? 'chat',
    ...(media ? { mediaKey: media.key, mimetype: 'image/png', filename: 'foto.png' } : {}),
    queueId: ticket.queueId,
    ack: 0,
    createdAt: new Date().toISOString(),
    userId: null,
  };
  await storeMessage(message, { lastMessage: body, updatedAt: message.createdAt, unread: 'reset' });
  return {
    ulid,
    send: {
      kind: 'send' as const,
      companyId,
      whatsappId: ticket.whatsappId,
      channel: ticket.channel,
      ticketId: ticket.id,
      messageId: `${ticket.id}-${ulid}`,
      chatId: ticket.chatId!,
      requestedAt: new Date().toISOString(),
    },
  };
};

describe('sendMetaMessage', () => {
  const ticketFor = async () => {
    const w = await metaWorld();
    const psid = digits(16);
    await deliver(
      messenger('page', w.page.id, [
        { ...fromPerson(psid, w.page.id), message: { mid: `m_${randomUUID()}`, text: 'Oi' } },
      ]),
    );
    const { ticket } = await storedFor(w.companyId, `fb#${w.page.id}:${psid}`);
    return { ...w, psid, ticket };
  };

  it('sends text to /me/messages with the page token, pins the returned id and raises the ack to 1; a repeat sends nothing', async () => {
    const t = await ticketFor();
    const reply = await outbound(t.companyId, t.ticket, 'Olá, como posso ajudar?');
    const result = await sendMetaMessage(reply.send);
    expect(result.outcome).toBe('sent');
    const calls = await graph.calls(`"recipient":{"id":"${t.psid}"}`);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      path: '/me/messages',
      authorization: `Bearer ${t.page.access_token}`,
      body: { messaging_type: 'RESPONSE', message: { text: 'Olá, como posso ajudar?' } },
    });
    const mid = (result as { providerMessageId: string }).providerMessageId;
    expect(await getProviderRef(t.companyId, t.facebook.id, mid)).toMatchObject({
      ticketId: t.ticket.id,
      ulid: reply.ulid,
    });
    expect((await listTicketMessages(t.companyId, t.ticket.id)).find((m) => m.ulid === reply.ulid)?.ack).toBe(1);

    expect((await sendMetaMessage(reply.send)).outcome).toBe('skipped');
    expect(await graph.calls(`"recipient":{"id":"${t.psid}"}`)).toHaveLength(1);

    // Messenger's delivery webhook for it reaches the message
    await deliver(
      messenger('page', t.page.id, [
        { ...fromPerson(t.psid, t.page.id), delivery: { mids: [mid], watermark: Date.now() } },
      ]),
    );
    await waitFor(
      async () => (await listTicketMessages(t.companyId, t.ticket.id)).find((m) => m.ulid === reply.ulid)?.ack,
      (ack) => ack === 2,
      { what: 'the delivery ack' },
    );
  });

  it('sends media as an attachment by a presigned URL Meta can fetch', async () => {
    const t = await ticketFor();
    const key = `c/${t.companyId}/tickets/${t.ticket.id}/${randomUUID()}/foto.png`;
    await putMediaObject(key, Buffer.from('png'), 'image/png');
    const reply = await outbound(t.companyId, t.ticket, '', { key, type: 'image' });
    expect((await sendMetaMessage(reply.send)).outcome).toBe('sent');
    const [call] = await graph.calls(`"recipient":{"id":"${t.psid}"}`);
    const attachment = (call!.body as { message: { attachment: { type: string; payload: { url: string } } } }).message
      .attachment;
    expect(attachment.type).toBe('image');
    expect(attachment.payload.url).toContain(encodeURIComponent(key).replace(/%2F/g, '/'));
    expect(attachment.payload.url).toContain('X-Amz-Signature=');
  });

  it('refuses a send 24 hours after the customer last wrote (ERR_META_WINDOW_CLOSED), without calling Meta', async () => {
    const t = await ticketFor();
    const reply = await outbound(t.companyId, t.ticket, 'Tarde demais');
    const later = new Date(Date.parse(t.ticket.lastInboundAt!) + 24 * 3600 * 1000 + 1000);
    expect(await sendMetaMessage(reply.send, later)).toEqual({ outcome: 'refused', code: 'ERR_META_WINDOW_CLOSED' });
    expect(await graph.calls(`"recipient":{"id":"${t.psid}"}`)).toHaveLength(0);
    expect((await listTicketMessages(t.companyId, t.ticket.id)).find((m) => m.ulid === reply.ulid)).toMatchObject({
      ack: 0,
      sendError: 'ERR_META_WINDOW_CLOSED',
    });
    // Within the window it goes
    const another = await outbound(t.companyId, t.ticket, 'A tempo');
    const inTime = new Date(Date.parse(t.ticket.lastInboundAt!) + 23 * 3600 * 1000);
    expect(await sendMetaMessage(another.send, inTime)).toMatchObject({ outcome: 'sent' });
  });

  it('Meta throttling is no refusal: the send is retried, the message keeps no error, automatic sends pause (D166)', async () => {
    const t = await ticketFor();
    const reply = await outbound(t.companyId, t.ticket, 'Devagar');
    // Messenger's rate limit (code 80007) arrives as an HTTP 400, like a refusal would.
    await graph.failOn(`"id":"${t.psid}"`, 400, '(#80007) There have been too many messages sent', 80007, 1);
    await expect(sendMetaMessage(reply.send)).rejects.toMatchObject({ graphCode: 80007 });
    const held = (await listTicketMessages(t.companyId, t.ticket.id)).find((m) => m.ulid === reply.ulid)!;
    expect(held.ack).toBe(0);
    expect(held.sendError).toBeUndefined();
    const slot = await reserveSendSlot({
      companyId: t.companyId,
      whatsappId: t.facebook.id,
      kind: 'api',
      maxWaitMs: 5_000,
    });
    expect(slot).toMatchObject({ reason: 'throttled' });
    expect((slot as { deferredUntil: Date }).deferredUntil.getTime()).toBeGreaterThan(Date.now() + 20_000);
    // The retry goes through once Meta takes it.
    expect(await sendMetaMessage(reply.send)).toMatchObject({ outcome: 'sent' });
    expect((await listTicketMessages(t.companyId, t.ticket.id)).find((m) => m.ulid === reply.ulid)?.ack).toBe(1);
  });

  it('the outbound job dispatches Meta channels to the Graph API', async () => {
    const t = await ticketFor();
    const reply = await outbound(t.companyId, t.ticket, 'Pela fila');
    await enqueueOutbound(reply.send);
    await waitFor(
      async () => (await listTicketMessages(t.companyId, t.ticket.id)).find((m) => m.ulid === reply.ulid)?.ack,
      (ack) => ack === 1,
      { what: 'the job to send' },
    );
    expect(await graph.calls(`"recipient":{"id":"${t.psid}"}`)).toHaveLength(1);
  });

  it('a deleted connection stops routing its page', async () => {
    const w = await metaWorld();
    expect((await api(w.c.adminToken).delete(`/whatsapp/${w.instagram.id}`)).status).toBe(200);
    expect(await getMetaTarget('ig', w.igId)).toBeNull();
    expect(await getMetaCredentials(w.companyId, w.instagram.id)).toBeNull();
    expect(await getConnection(w.companyId, w.instagram.id)).toBeNull();
  });
});
