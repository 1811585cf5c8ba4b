import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { enqueueInbound } from '../../functions/channels/inbound';
import { createMetaConnection } from '../../functions/core/connections/meta-connections';
import { metaSignature } from '../../functions/channels/meta/signature';
import { createBaileysDriver, type BaileysSocket } from '../../functions/channels/whatsapp/baileys-driver';
import { getConnection } from '../../functions/data/connection-repository';
import { findContactIdsByIdentities } from '../../functions/data/contact-repository';
import { setQueueClientForTests } from '../../functions/data/queue-sender';
import { listContactTicketIds } from '../../functions/data/ticket-repository';
import { handler as connectionsHandler } from '../../functions/http/connections';
import { someConnection, waitFor, waitForConnection } from '../helpers/connections';
import { api, channelPlan, freshCompany, type TestCompany } from '../helpers/fixtures';
import { httpEvent, lambdaContext } from '../helpers/http-event';

/**
 * A customer's text with characters SQS does not carry (SQS allows #x9 | #xA | #xD | #x20-#xD7FF |
 * #xE000-#xFFFD | #x10000-#x10FFFF; fauxqs refuses the same ones, and the astral range too, so a body it
 * takes is one SQS takes) reaches the ticket on every path that puts provider text on the inbound queue:
 * the phone simulator's customer (through the WhatsApp worker), a Baileys socket's message and the Meta
 * webhooks. The attendant reads (GET /messages/{ticketId}) what the customer wrote; only lone surrogates,
 * which UTF-8 and so DynamoDB cannot hold, are shown as U+FFFD.
 */
const WRITTEN =
  'Olá\tcom tab\nnova linha\rCR|\u0000\u0001\u001b\u001f\u007f|\ufffe\uffff\ufdd0\ufdef|alto \ud83d|baixo \ude00|par 😀 fim';
const SHOWN = WRITTEN.replace('\ud83d|', '\ufffd|').replace('\ude00|', '\ufffd|');
/** A provider's name for the customer may hold them too. */
const NAME = 'Cliente \uffff\u0007\ud83d';

let t: TestCompany;
beforeAll(async () => {
  t = await freshCompany(undefined, { planId: (await channelPlan()).id });
});

const suffix = () => String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
const digits = (n: number) =>
  Array.from({ length: n }, () => Math.floor(Math.random() * 10))
    .join('')
    .replace(/^0/, '1');

/** What the attendant reads on the ticket an identity led to, once a message arrived there. */
const shownFor = async (identity: string): Promise<string[]> => {
  const ticketId = await waitFor(
    async () => {
      const contactId = (await findContactIdsByIdentities(t.company.id, [identity])).get(identity);
      return contactId ? ((await listContactTicketIds(t.company.id, contactId))[0] ?? null) : null;
    },
    (id) => id !== null,
    { timeoutMs: 20_000, what: `a ticket for ${identity}` },
  );
  const page = await api(t.adminToken).get(`/messages/${ticketId}`, { pageNumber: '1' });
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  return (page.body.messages as { body: string }[]).map((m) => m.body);
};

/** A connection paired through the simulator route, held by the local cloud's worker (whatsapp-messages.test.ts). */
const simulatedConnection = async (): Promise<number> => {
  const created = await api(t.adminToken).post('/whatsapp', { name: 'Simulador' });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  await waitForConnection(t.company.id, id, (c) => c?.status === 'qrcode', { timeoutMs: 15_000 });
  const deadline = Date.now() + 40_000;
  for (;;) {
    const status = (await getConnection(t.company.id, id))?.status;
    if (status === 'CONNECTED') return id;
    if (status === 'qrcode') await api(t.adminToken).post(`/simulator/${id}/scan`);
    if (Date.now() > deadline) throw new Error(`connection ${id} did not connect; last ${status}`);
    await waitForConnection(t.company.id, id, (c) => c?.status === 'CONNECTED', { timeoutMs: 4_000 }).catch(
      () => undefined,
    );
  }
};

/** A Facebook page and a WhatsApp Cloud API number of the company, and webhook payloads for them. */
const metaTargets = async () => {
  const pageId = digits(15);
  await createMetaConnection(t.company.id, {
    channel: 'facebook',
    kind: 'page',
    externalId: pageId,
    name: 'Página',
    token: `EAAPAGE${randomUUID().replace(/-/g, '')}`,
  });
  const phoneNumberId = digits(15);
  await createMetaConnection(t.company.id, {
    channel: 'whatsappapi',
    kind: 'waphone',
    externalId: phoneNumberId,
    name: 'Cloud API',
    token: `EAACLOUD${randomUUID().replace(/-/g, '')}`,
  });
  const messenger = (psid: string, text: string) => ({
    object: 'page',
    entry: [
      {
        id: pageId,
        time: Date.now(),
        messaging: [
          {
            sender: { id: psid },
            recipient: { id: pageId },
            timestamp: Date.now(),
            message: { mid: `m_${randomUUID()}`, text },
          },
        ],
      },
    ],
  });
  const cloud = (from: string, text: string) => ({
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
              contacts: [{ profile: { name: NAME }, wa_id: from }],
              messages: [
                {
                  from,
                  id: `wamid.${randomUUID()}`,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: 'text',
                  text: { body: text },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  return { pageId, messenger, cloud };
};

/** The bytes Meta would send (JSON: lone surrogates escaped, the rest UTF-8) and their signature. */
const signed = (payload: unknown) => {
  const body = JSON.stringify(payload);
  return { body, signature: metaSignature(Buffer.from(body), inject('localCloudEnv').META_APP_SECRET!) };
};

describe('text with characters SQS does not carry reaches the ticket, visible', () => {
  it('from the phone simulator’s customer (POST /simulator/{id}/messages, enqueued by the worker)', async () => {
    const id = await simulatedConnection();
    const number = `55119${suffix()}`;
    const res = await api(t.adminToken).post(`/simulator/${id}/messages`, { number, name: NAME, body: WRITTEN });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await shownFor(`wa#${number}`)).toEqual([SHOWN]);
  });

  it('from a Baileys socket (messages.upsert, mapped and enqueued by the session)', async () => {
    const connection = await someConnection(t.company.id, { status: 'CONNECTED' });
    const phone = `55119${suffix()}`;
    const ev = new EventEmitter();
    const socket = { ev, logout: async () => undefined, end: () => undefined };
    const noop = () => undefined;
    const session = createBaileysDriver({ makeSocket: () => socket as unknown as BaileysSocket }).start(
      { creds: null, keys: { get: async () => ({}), set: async () => undefined } },
      { qr: noop, pairing: noop, connected: noop, disconnected: noop, credsUpdate: noop },
      { companyId: t.company.id, whatsappId: connection.id, inbound: async (e) => void (await enqueueInbound(e)) },
    );
    const message = proto.WebMessageInfo.fromObject({
      key: { remoteJid: `${phone}@s.whatsapp.net`, fromMe: false, id: `3A${suffix()}${suffix()}00` },
      messageTimestamp: Math.floor(Date.now() / 1000),
      pushName: NAME,
      message: { extendedTextMessage: { text: WRITTEN } },
    }) as WAMessage;
    ev.emit('messages.upsert', { messages: [message], type: 'notify' });
    expect(await shownFor(`wa#${phone}`)).toEqual([SHOWN]);
    await session.close();
  });

  it('from the Meta webhooks (Messenger and the WhatsApp Cloud API), answered 200 once enqueued', async () => {
    const meta = await metaTargets();
    const psid = digits(16);
    const from = `55119${suffix()}`;
    for (const payload of [meta.messenger(psid, WRITTEN), meta.cloud(from, WRITTEN)]) {
      const { body, signature } = signed(payload);
      const res = await fetch(`${inject('gatewayUrl')}/api/webhooks/meta`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body,
      });
      expect(res.status, await res.text()).toBe(200);
    }
    expect(await shownFor(`fb#${meta.pageId}:${psid}`)).toEqual([SHOWN]);
    expect(await shownFor(`wa#${from}`)).toEqual([SHOWN]);
  });
});

describe('an enqueue that still fails is never a 200', () => {
  it('the Meta webhook answers an error (Meta delivers it again): 500, or 503 when SQS throttles', async () => {
    const meta = await metaTargets();
    const post = async (failure: { name: string; message: string }) => {
      const { body, signature } = signed(meta.messenger(digits(16), 'Olá'));
      setQueueClientForTests({
        send: async () => {
          throw Object.assign(new Error(failure.message), { name: failure.name });
        },
      } as unknown as SQSClient);
      try {
        const event = httpEvent('POST', '/webhooks/meta', { body, headers: { 'x-hub-signature-256': signature } });
        return (await connectionsHandler(event, lambdaContext())).statusCode;
      } finally {
        setQueueClientForTests(undefined);
      }
    };
    expect(
      await post({ name: 'AWS.SimpleQueueService.InvalidMessageContents', message: 'Invalid characters found.' }),
    ).toBe(500);
    expect(await post({ name: 'ThrottlingException', message: 'Rate exceeded' })).toBe(503);
  });
});
