import { describe, expect, it } from 'vitest';
import { isValidMetaSignature, metaSignature, verificationChallenge } from '../../functions/channels/meta/signature';
import { mapMetaWebhook } from '../../functions/channels/meta/webhook-mappers';
import {
  assertReplyWindowOpen,
  isReplyWindowOpen,
  replyWindowEndsAt,
} from '../../functions/core/pipeline/reply-window';

/** Meta webhooks (decisions D40): the signature check and the payload mappers, on payloads shaped like Meta's docs. */
describe('X-Hub-Signature-256', () => {
  const body = Buffer.from('{"object":"page","entry":[]}');
  const secret = 'app-secret';

  it('accepts the HMAC-SHA256 of the exact bytes with the app secret', () => {
    expect(isValidMetaSignature(body, metaSignature(body, secret), secret)).toBe(true);
  });

  it('refuses a missing, malformed, other-secret or other-body signature', () => {
    expect(isValidMetaSignature(body, undefined, secret)).toBe(false);
    expect(isValidMetaSignature(body, 'sha1=abc', secret)).toBe(false);
    expect(isValidMetaSignature(body, 'sha256=zz', secret)).toBe(false);
    expect(isValidMetaSignature(body, metaSignature(body, 'other'), secret)).toBe(false);
    expect(
      isValidMetaSignature(Buffer.from('{"object":"page","entry":[] }'), metaSignature(body, secret), secret),
    ).toBe(false);
  });

  it('answers the challenge only for subscribe with our verify token', () => {
    const q = { 'hub.mode': 'subscribe', 'hub.verify_token': 'ours-123', 'hub.challenge': '1158201444' };
    expect(verificationChallenge(q, 'ours-123')).toBe('1158201444');
    expect(verificationChallenge({ ...q, 'hub.verify_token': 'theirs' }, 'ours-123')).toBeNull();
    expect(verificationChallenge({ ...q, 'hub.mode': 'unsubscribe' }, 'ours-123')).toBeNull();
    expect(verificationChallenge({ 'hub.mode': 'subscribe', 'hub.challenge': 'x' }, 'ours-123')).toBeNull();
  });
});

describe('Messenger and Instagram payloads', () => {
  const page = (messaging: unknown[], object = 'page') => ({
    object,
    entry: [{ id: '1061234567890', time: 1_735_689_600_000, messaging }],
  });
  const from = { sender: { id: '7012345678901234' }, recipient: { id: '1061234567890' }, timestamp: 1_735_689_600_000 };

  it('maps a text message to a facebook message from the page-scoped id', () => {
    const [draft] = mapMetaWebhook(page([{ ...from, message: { mid: 'm_AbC-1', text: 'Olá!' } }]));
    expect(draft).toEqual({
      target: { kind: 'page', id: '1061234567890' },
      event: {
        kind: 'message',
        channel: 'facebook',
        chat: { id: '7012345678901234', isGroup: false },
        providerMessageId: 'm_AbC-1',
        fromMe: false,
        timestamp: '2025-01-01T00:00:00.000Z',
        contact: { externalId: '7012345678901234', accountId: '1061234567890' },
        content: { type: 'text', body: 'Olá!' },
      },
    });
  });

  it('maps attachments to media drafts (one event each) and quotes to the quoted id', () => {
    const drafts = mapMetaWebhook(
      page(
        [
          {
            ...from,
            message: {
              mid: 'm_media',
              reply_to: { mid: 'm_before' },
              attachments: [
                { type: 'image', payload: { url: 'https://cdn.example/i.jpg' } },
                { type: 'file', payload: { url: 'https://cdn.example/f.pdf' } },
              ],
            },
          },
        ],
        'instagram',
      ),
    );
    expect(
      drafts.map((d) => [d.target.kind, d.event.kind === 'message' && d.event.content.type, d.media?.source]),
    ).toEqual([
      ['ig', 'image', { kind: 'url', url: 'https://cdn.example/i.jpg' }],
      ['ig', 'document', { kind: 'url', url: 'https://cdn.example/f.pdf' }],
    ]);
    expect(drafts.map((d) => (d.event as { providerMessageId: string }).providerMessageId)).toEqual([
      'm_media',
      'm_media_1',
    ]);
    expect(drafts[0]!.event).toMatchObject({ channel: 'instagram', quotedProviderMessageId: 'm_before' });
  });

  it('maps reactions, edits, unsends, deliveries, Instagram reads and postbacks; skips our own echoes', () => {
    const drafts = mapMetaWebhook(
      page([
        { ...from, reaction: { mid: 'm_1', action: 'react', reaction: 'love', emoji: '❤️' } },
        { ...from, message_edit: { mid: 'm_1', text: 'corrigido', num_edit: 1 } },
        { ...from, message: { mid: 'm_2', is_deleted: true } },
        { ...from, delivery: { mids: ['m_3', 'm_4'], watermark: 1 } },
        { ...from, read: { mid: 'm_5' } },
        { ...from, postback: { mid: 'm_pb', title: 'Falar com atendente', payload: 'HUMAN' } },
        { ...from, read: { watermark: 1_735_689_600_000 } },
        {
          sender: from.recipient,
          recipient: from.sender,
          timestamp: 1,
          message: { mid: 'm_echo', is_echo: true, app_id: 700000000000001, text: 'our send' },
        },
        {
          sender: from.recipient,
          recipient: from.sender,
          timestamp: 1,
          message: { mid: 'm_inbox', is_echo: true, app_id: 263902037430900, text: 'typed in the inbox' },
        },
      ]),
      { appId: '700000000000001' },
    );
    expect(drafts.map((d) => d.event)).toMatchObject([
      { kind: 'message', content: { type: 'reaction', emoji: '❤️', targetProviderMessageId: 'm_1' } },
      { kind: 'edit', providerMessageId: 'm_1', body: 'corrigido', editId: 'm_1_e1' },
      { kind: 'delete', providerMessageId: 'm_2' },
      { kind: 'ack', providerMessageId: 'm_3', ack: 2 },
      { kind: 'ack', providerMessageId: 'm_4', ack: 2 },
      { kind: 'ack', providerMessageId: 'm_5', ack: 3 },
      { kind: 'message', providerMessageId: 'm_pb', content: { type: 'text', body: 'Falar com atendente' } },
      { kind: 'message', fromMe: true, providerMessageId: 'm_inbox', chat: { id: '7012345678901234' } },
    ]);
  });
});

describe('WhatsApp Cloud API payloads', () => {
  const cloud = (value: Record<string, unknown>) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
              ...value,
            },
          },
        ],
      },
    ],
  });
  const msg = (m: Record<string, unknown>) => ({
    from: '16505551234',
    id: 'wamid.HBgL1',
    timestamp: '1735689600',
    ...m,
  });

  it('maps text, media, location, contacts and reactions from the phone number', () => {
    const drafts = mapMetaWebhook(
      cloud({
        messages: [
          msg({ type: 'text', text: { body: 'Oi' } }),
          msg({
            id: 'wamid.2',
            type: 'image',
            image: { id: '1479537139650973', mime_type: 'image/jpeg', caption: 'foto' },
          }),
          msg({ id: 'wamid.3', type: 'audio', audio: { id: '55', mime_type: 'audio/ogg; codecs=opus', voice: true } }),
          msg({
            id: 'wamid.4',
            type: 'document',
            document: { id: '56', mime_type: 'application/pdf', filename: 'boleto.pdf' },
          }),
          msg({ id: 'wamid.5', type: 'location', location: { latitude: -23.5, longitude: -46.6, name: 'Loja' } }),
          msg({
            id: 'wamid.6',
            type: 'contacts',
            contacts: [
              { name: { formatted_name: 'Ana' }, phones: [{ phone: '+55 11 9999', wa_id: '55119999', type: 'CELL' }] },
            ],
          }),
          msg({ id: 'wamid.7', type: 'reaction', reaction: { message_id: 'wamid.2', emoji: '👍' } }),
          msg({ id: 'wamid.8', type: 'unsupported' }),
        ],
      }),
    );
    expect(drafts.every((d) => d.target.kind === 'waphone' && d.target.id === '106540352242922')).toBe(true);
    expect(drafts[0]!.event).toMatchObject({
      channel: 'whatsappapi',
      chat: { id: '16505551234' },
      contact: { phone: '16505551234', pushName: 'Sheena Nelson' },
      timestamp: '2025-01-01T00:00:00.000Z',
      content: { type: 'text', body: 'Oi' },
    });
    expect(drafts.slice(1, 4).map((d) => [d.media?.source, d.media?.mimetype])).toEqual([
      [{ kind: 'cloud', mediaId: '1479537139650973' }, 'image/jpeg'],
      [{ kind: 'cloud', mediaId: '55' }, 'audio/ogg; codecs=opus'],
      [{ kind: 'cloud', mediaId: '56' }, 'application/pdf'],
    ]);
    expect(drafts.slice(1, 4).map((d) => d.event.kind === 'message' && d.event.content)).toEqual([
      { type: 'image', body: 'foto' },
      { type: 'audio', voice: true },
      { type: 'document', filename: 'boleto.pdf' },
    ]);
    expect(drafts.slice(4).map((d) => d.event.kind === 'message' && d.event.content)).toEqual([
      { type: 'location', latitude: -23.5, longitude: -46.6, name: 'Loja' },
      {
        type: 'contact',
        displayName: 'Ana',
        vCard: expect.stringContaining('TEL;type=CELL;waid=55119999:+55 11 9999'),
      },
      { type: 'reaction', emoji: '👍', targetProviderMessageId: 'wamid.2' },
    ]);
  });

  it('maps statuses sent, delivered and read to acks 1–3 and ignores failed ones', () => {
    const status = (id: string, s: string) => ({ id, status: s, timestamp: '1735689600', recipient_id: '16505551234' });
    const drafts = mapMetaWebhook(
      cloud({
        statuses: [
          status('wamid.a', 'sent'),
          status('wamid.a', 'delivered'),
          status('wamid.a', 'read'),
          status('wamid.b', 'failed'),
        ],
      }),
    );
    expect(drafts.map((d) => d.event)).toMatchObject([
      { kind: 'ack', ack: 1, chat: { id: '16505551234' } },
      { kind: 'ack', ack: 2 },
      { kind: 'ack', ack: 3 },
    ]);
  });

  it('ignores other objects and malformed payloads', () => {
    expect(mapMetaWebhook({ object: 'user', entry: [{ id: '1' }] })).toEqual([]);
    expect(mapMetaWebhook('nonsense')).toEqual([]);
    expect(mapMetaWebhook({ object: 'page', entry: [{ id: 'a#b', messaging: [{}] }] })).toEqual([]);
  });
});

describe('the 24-hour reply window', () => {
  const at = '2025-01-01T10:00:00.000Z';
  it('ends 24 h after the contact last wrote, on Meta channels only', () => {
    expect(replyWindowEndsAt({ channel: 'facebook', lastInboundAt: at })).toBe('2025-01-02T10:00:00.000Z');
    expect(replyWindowEndsAt({ channel: 'whatsapp', lastInboundAt: at })).toBeNull();
    expect(replyWindowEndsAt({ channel: 'instagram' })).toBeNull();
    expect(isReplyWindowOpen({ channel: 'instagram', lastInboundAt: at }, new Date('2025-01-02T09:59:59Z'))).toBe(true);
    expect(isReplyWindowOpen({ channel: 'whatsappapi', lastInboundAt: at }, new Date('2025-01-02T10:00:00Z'))).toBe(
      false,
    );
    expect(isReplyWindowOpen({ channel: 'facebook' })).toBe(false);
    expect(isReplyWindowOpen({ channel: 'whatsapp' })).toBe(true);
  });

  it('refuses with ERR_META_WINDOW_CLOSED and says when it closed', () => {
    expect(() =>
      assertReplyWindowOpen({ channel: 'facebook', lastInboundAt: at }, new Date('2025-01-03T00:00:00Z')),
    ).toThrow(
      expect.objectContaining({
        status: 403,
        code: 'ERR_META_WINDOW_CLOSED',
        details: { replyWindowEndsAt: '2025-01-02T10:00:00.000Z' },
      }),
    );
  });
});
