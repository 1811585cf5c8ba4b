import { EventEmitter } from 'node:events';
import { proto, type WAMessage, type WAMessageUpdate } from '@whiskeysockets/baileys';
import { describe, expect, it, vi } from 'vitest';
import {
  createBaileysDriver,
  toBaileysSend,
  type BaileysSocket,
} from '../../functions/channels/whatsapp/baileys-driver';
import {
  ackOfStatus,
  inboundMediaKey,
  mapCall,
  mapMessageUpdate,
  mapUpsertMessage,
  type BaileysInboundContext,
} from '../../functions/channels/whatsapp/baileys-inbound';
import type { OutboundMessage } from '../../functions/channels/whatsapp/driver';
import { inboundEventSchema } from '../../functions/core/pipeline/inbound-event';
import { outboundChangeId, outboundJobSchema, type OutboundChange } from '../../functions/core/pipeline/outbound-queue';

/**
 * Baileys' events as the inbound contract (D31) and our sends as Baileys' sendMessage (D34, D41). Messages
 * are built with Baileys' own protobuf types (`proto.WebMessageInfo.fromObject`), as the socket emits them;
 * the media download is the seam the tests fake.
 */
const PHONE = '5511987654321';
const CHAT = `${PHONE}@s.whatsapp.net`;
const T = 1_763_900_000; // seconds

const stored: { key: string; mimetype: string; id: string }[] = [];
const context: BaileysInboundContext = {
  companyId: 7,
  whatsappId: 42,
  storeMedia: async (message, media) => {
    stored.push({ ...media, id: message.key.id! });
    return { size: 1234 };
  },
};

const wa = (message: Record<string, unknown>, key: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  proto.WebMessageInfo.fromObject({
    key: { remoteJid: CHAT, fromMe: false, id: '3A0123456789ABCDEF01', ...key },
    messageTimestamp: T,
    pushName: 'Maria',
    message,
    ...extra,
  }) as WAMessage;

/** Maps, checks the result against the contract's schema, and answers it. */
const mapped = async (message: WAMessage) => {
  const event = await mapUpsertMessage(message, context);
  if (event) expect(inboundEventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
  return event as Record<string, unknown> & { content: Record<string, unknown> };
};

describe('the download limit on inbound media (D172)', () => {
  const limited = (limitMb: number): BaileysInboundContext => ({
    ...context,
    maxMediaBytes: async () => limitMb * 1024 * 1024,
  });

  it('a file above the limit is not downloaded: the message names it and says why, with its caption', async () => {
    const before = stored.length;
    const big = wa(
      {
        documentMessage: {
          mimetype: 'video/mp4',
          fileName: 'festa.mp4',
          fileLength: 40 * 1024 * 1024,
          caption: 'olha',
        },
      },
      { id: '3A0LIMIT000000000001' },
    );
    const event = (await mapUpsertMessage(big, limited(32))) as { content: Record<string, unknown> };
    expect(inboundEventSchema.safeParse(event).success).toBe(true);
    expect(event.content).toEqual({
      type: 'text',
      body: '📎 festa.mp4\n(Arquivo não baixado: maior que o limite de download de 32 MB.)\nolha',
    });
    expect(stored.length).toBe(before);
  });

  it('a file within the limit is downloaded as before', async () => {
    const small = wa(
      { documentMessage: { mimetype: 'application/pdf', fileName: 'boleto.pdf', fileLength: 2 * 1024 * 1024 } },
      { id: '3A0LIMIT000000000002' },
    );
    const event = (await mapUpsertMessage(small, limited(32))) as { content: Record<string, unknown> };
    expect(event.content).toMatchObject({ type: 'document', filename: 'boleto.pdf' });
    expect(stored.at(-1)?.id).toBe('3A0LIMIT000000000002');
  });
});

describe('Baileys messages.upsert as inbound messages', () => {
  it('a text from a phone: the contact by phone and push name, provider id and time', async () => {
    expect(await mapped(wa({ conversation: 'Olá!' }))).toEqual({
      kind: 'message',
      companyId: 7,
      whatsappId: 42,
      chat: { id: CHAT, isGroup: false },
      providerMessageId: '3A0123456789ABCDEF01',
      fromMe: false,
      timestamp: new Date(T * 1000).toISOString(),
      contact: { phone: PHONE, pushName: 'Maria' },
      isForwarded: false,
      content: { type: 'text', body: 'Olá!' },
    });
  });

  it('an extended text quoting a message, forwarded', async () => {
    const event = await mapped(
      wa({
        extendedTextMessage: {
          text: 'sobre isso',
          contextInfo: { stanzaId: '3EB0AAAAAAAAAAAAAAAAAA', participant: CHAT, isForwarded: true },
        },
      }),
    );
    expect(event).toMatchObject({
      quotedProviderMessageId: '3EB0AAAAAAAAAAAAAAAAAA',
      isForwarded: true,
      content: { type: 'text', body: 'sobre isso' },
    });
  });

  it('an image with caption: stored under the company’s inbound prefix first, view-once kept', async () => {
    const event = await mapped(
      wa({
        viewOnceMessageV2: {
          message: { imageMessage: { mimetype: 'image/jpeg', caption: 'olha', fileLength: 1234 } },
        },
      }),
    );
    const key = inboundMediaKey(7, 42, '3A0123456789ABCDEF01', 'image.jpg');
    expect(key).toMatch(/^c\/7\/inbound\/42\/[0-9a-f]{32}\/image\.jpg$/);
    expect(event.content).toEqual({
      type: 'image',
      mediaKey: key,
      mimetype: 'image/jpeg',
      size: 1234,
      body: 'olha',
      viewOnce: true,
    });
    expect(stored.at(-1)).toEqual({ key, mimetype: 'image/jpeg', id: '3A0123456789ABCDEF01' });
  });

  it.each([
    [
      'a voice note (ptt)',
      { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 3 } },
      { type: 'audio', mimetype: 'audio/ogg', voice: true },
    ],
    ['an audio file', { audioMessage: { mimetype: 'audio/mpeg', ptt: false } }, { type: 'audio', voice: false }],
    ['a video', { videoMessage: { mimetype: 'video/mp4', caption: 'vídeo' } }, { type: 'video', body: 'vídeo' }],
    [
      'a document',
      { documentMessage: { mimetype: 'application/pdf', fileName: 'boleto.pdf' } },
      { type: 'document', filename: 'boleto.pdf', mediaKey: expect.stringMatching(/\/boleto\.pdf$/) },
    ],
    [
      'a document with caption',
      {
        documentWithCaptionMessage: {
          message: { documentMessage: { mimetype: 'application/pdf', fileName: 'nota.pdf', caption: 'segue' } },
        },
      },
      { type: 'document', filename: 'nota.pdf', body: 'segue' },
    ],
    ['a sticker', { stickerMessage: { mimetype: 'image/webp' } }, { type: 'sticker', mimetype: 'image/webp' }],
    [
      'a location',
      { locationMessage: { degreesLatitude: -23.55, degreesLongitude: -46.63, name: 'Loja', address: 'Av. Paulista' } },
      { type: 'location', latitude: -23.55, longitude: -46.63, name: 'Loja', address: 'Av. Paulista' },
    ],
    [
      'a contact card',
      { contactMessage: { displayName: 'João', vcard: 'BEGIN:VCARD\nVERSION:3.0\nFN:João\nEND:VCARD' } },
      { type: 'contact', displayName: 'João', vCard: expect.stringContaining('FN:João') },
    ],
    [
      'several contact cards',
      {
        contactsArrayMessage: {
          displayName: '2 contatos',
          contacts: [{ vcard: 'BEGIN:VCARD\nFN:A\nEND:VCARD' }, { vcard: 'BEGIN:VCARD\nFN:B\nEND:VCARD' }],
        },
      },
      { type: 'contact', vCard: 'BEGIN:VCARD\nFN:A\nEND:VCARD\nBEGIN:VCARD\nFN:B\nEND:VCARD' },
    ],
    [
      'a reaction',
      { reactionMessage: { key: { remoteJid: CHAT, fromMe: true, id: '3EB0BBBBBBBBBBBBBBBBBB' }, text: '❤️' } },
      { type: 'reaction', emoji: '❤️', targetProviderMessageId: '3EB0BBBBBBBBBBBBBBBBBB' },
    ],
    [
      'a poll',
      {
        pollCreationMessageV3: {
          name: 'Melhor horário?',
          options: [{ optionName: 'Manhã' }, { optionName: 'Tarde' }],
          selectableOptionsCount: 1,
        },
      },
      { type: 'poll', name: 'Melhor horário?', options: ['Manhã', 'Tarde'], selectableCount: 1 },
    ],
    [
      'a list',
      {
        listMessage: {
          title: 'Menu',
          description: 'Escolha',
          buttonText: 'Ver',
          sections: [{ title: 'Setores', rows: [{ rowId: 'v', title: 'Vendas', description: 'Comprar' }] }],
        },
      },
      {
        type: 'list',
        title: 'Menu',
        body: 'Escolha',
        buttonText: 'Ver',
        sections: [{ title: 'Setores', rows: [{ id: 'v', title: 'Vendas', description: 'Comprar' }] }],
      },
    ],
    [
      'a list answer',
      { listResponseMessage: { title: 'Vendas', singleSelectReply: { selectedRowId: 'v' } } },
      { type: 'text', body: 'Vendas' },
    ],
    [
      'a button answer',
      { buttonsResponseMessage: { selectedButtonId: 'b1', selectedDisplayText: 'Sim' } },
      { type: 'text', body: 'Sim' },
    ],
    [
      'a disappearing text',
      { ephemeralMessage: { message: { extendedTextMessage: { text: 'some em 24h' } } } },
      { type: 'text', body: 'some em 24h' },
    ],
  ])('%s', async (_name, message, content) => {
    expect((await mapped(wa(message))).content).toMatchObject(content);
  });

  it('a group message: the group chat and the participant (by LID), who is not the contact', async () => {
    const event = await mapped(
      wa(
        { conversation: 'bom dia, grupo' },
        { remoteJid: '120363025246125486@g.us', participant: '98765432101234@lid' },
      ),
    );
    expect(event).toMatchObject({
      chat: { id: '120363025246125486@g.us', isGroup: true },
      participant: { lid: '98765432101234', pushName: 'Maria' },
    });
    expect(event).not.toHaveProperty('contact');
  });

  it('a chat by LID, and the phone beside it when a later Baileys gives it (senderPn)', async () => {
    expect(await mapped(wa({ conversation: 'oi' }, { remoteJid: '98765432101234@lid' }))).toMatchObject({
      chat: { id: '98765432101234@lid' },
      contact: { lid: '98765432101234' },
    });
    // Not a protobuf field: later Baileys versions set it on the decoded key.
    const withPhone = wa({ conversation: 'oi' }, { remoteJid: '98765432101234@lid' });
    Object.assign(withPhone.key, { senderPn: `${PHONE}@s.whatsapp.net` });
    expect(await mapped(withPhone)).toMatchObject({ contact: { lid: '98765432101234', phone: PHONE } });
  });

  it('a message the phone sent (fromMe) names the contact without a push name; a device suffix is dropped', async () => {
    const event = await mapped(
      wa({ conversation: 'respondi pelo celular' }, { fromMe: true, remoteJid: `${PHONE}:3@s.whatsapp.net` }),
    );
    expect(event).toMatchObject({ fromMe: true, contact: { phone: PHONE } });
    expect((event.contact as Record<string, unknown>).pushName).toBeUndefined();
  });

  it('statuses, channels, protocol messages and empty stubs are not messages', async () => {
    expect(
      await mapped(wa({ conversation: 'meu status' }, { remoteJid: 'status@broadcast', participant: CHAT })),
    ).toBeNull();
    expect(await mapped(wa({ conversation: 'canal' }, { remoteJid: '120363000000000000@newsletter' }))).toBeNull();
    expect(
      await mapped(wa({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: 'X' } } })),
    ).toBeNull();
    expect(await mapped(wa({}, {}, { messageStubType: 2 }))).toBeNull();
  });
});

describe('Baileys messages.update: acks, edits, deletes', () => {
  const update = (u: WAMessageUpdate['update'], key: Record<string, unknown> = {}) =>
    mapMessageUpdate(
      { key: { remoteJid: CHAT, id: '3EB0CCCCCCCCCCCCCCCCCC', fromMe: true, ...key }, update: u },
      context,
    );

  it('statuses of our messages become acks 1–4', () => {
    const S = proto.WebMessageInfo.Status;
    expect([S.SERVER_ACK, S.DELIVERY_ACK, S.READ, S.PLAYED].map((s) => ackOfStatus(s))).toEqual([1, 2, 3, 4]);
    expect(ackOfStatus(S.PENDING)).toBeNull();
    expect(update({ status: S.READ })).toEqual({
      kind: 'ack',
      companyId: 7,
      whatsappId: 42,
      chat: { id: CHAT, isGroup: false },
      providerMessageId: '3EB0CCCCCCCCCCCCCCCCCC',
      ack: 3,
    });
    expect(update({ status: S.READ }, { fromMe: false })).toBeNull();
  });

  it('an edit by the sender carries the new text; a revoke is a delete', () => {
    const edit = update(
      { message: { editedMessage: { message: { conversation: 'corrigido' } } }, messageTimestamp: T },
      { fromMe: false },
    );
    expect(edit).toMatchObject({ kind: 'edit', body: 'corrigido', editId: `E${T}` });
    expect(inboundEventSchema.safeParse(edit).success).toBe(true);
    expect(update({ message: null, messageStubType: 1 }, { fromMe: false })).toMatchObject({ kind: 'delete' });
  });
});

describe('Baileys call events as call logs', () => {
  const call = (status: string, isVideo = false) =>
    mapCall(
      {
        chatId: CHAT,
        from: CHAT,
        id: 'ABCDEF123',
        date: new Date(T * 1000),
        status: status as never,
        offline: false,
        isVideo,
      },
      context,
    );

  it('the outcome is stored once per call; offers and rings are not', () => {
    expect(call('offer')).toBeNull();
    expect(call('ringing')).toBeNull();
    expect(call('timeout')).toMatchObject({
      providerMessageId: 'CALL-ABCDEF123',
      contact: { phone: PHONE },
      content: { type: 'call_log', isVideo: false, status: 'missed' },
    });
    expect(call('accept', true)).toMatchObject({ content: { isVideo: true, status: 'accepted' } });
    expect(call('reject')).toMatchObject({ content: { status: 'rejected' } });
    expect(inboundEventSchema.safeParse(call('terminate')).success).toBe(true);
  });
});

describe('our sends as Baileys sendMessage', () => {
  const base = { chatId: CHAT, providerMessageId: '3EB0DDDDDDDDDDDDDDDDDD' };
  const bytes = Buffer.from('x');
  const send = (m: Omit<OutboundMessage, 'chatId' | 'providerMessageId'>) => toBaileysSend({ ...base, ...m });

  it('always with the message id chosen before sending', () => {
    expect(send({ content: { type: 'text', body: 'Olá' } })).toEqual({
      jid: CHAT,
      content: { text: 'Olá' },
      options: { messageId: '3EB0DDDDDDDDDDDDDDDDDD' },
    });
  });

  it.each<[string, OutboundMessage['content'], unknown]>([
    [
      'an image with caption',
      { type: 'image', media: { key: 'c/7/x.jpg', mimetype: 'image/jpeg', bytes }, caption: 'foto' },
      { image: bytes, mimetype: 'image/jpeg', caption: 'foto' },
    ],
    [
      'a voice note',
      { type: 'audio', media: { key: 'c/7/a.ogg', mimetype: 'audio/ogg', bytes }, voice: true },
      { audio: bytes, mimetype: 'audio/ogg', ptt: true },
    ],
    [
      'a document',
      { type: 'document', media: { key: 'c/7/b.pdf', mimetype: 'application/pdf', filename: 'b.pdf', bytes } },
      { document: bytes, mimetype: 'application/pdf', fileName: 'b.pdf' },
    ],
    [
      'a contact card',
      { type: 'contact', vCard: 'BEGIN:VCARD\nEND:VCARD', displayName: 'Ana' },
      { contacts: { displayName: 'Ana', contacts: [{ vcard: 'BEGIN:VCARD\nEND:VCARD' }] } },
    ],
    [
      'a location',
      { type: 'location', latitude: 1.5, longitude: 2.5, name: 'Aqui' },
      { location: { degreesLatitude: 1.5, degreesLongitude: 2.5, name: 'Aqui' } },
    ],
    [
      'an edit',
      { type: 'edit', targetProviderMessageId: '3EB0EEEEEEEEEEEEEEEEEE', body: 'novo texto' },
      { text: 'novo texto', edit: { remoteJid: CHAT, fromMe: true, id: '3EB0EEEEEEEEEEEEEEEEEE' } },
    ],
    [
      'a delete',
      { type: 'delete', targetProviderMessageId: '3EB0EEEEEEEEEEEEEEEEEE' },
      { delete: { remoteJid: CHAT, fromMe: true, id: '3EB0EEEEEEEEEEEEEEEEEE' } },
    ],
  ])('%s', (_name, content, expected) => {
    expect(send({ content }).content).toEqual(expected);
  });

  it('an edit or delete goes with its own id, the same for a retry, and names our earlier message', () => {
    const change: OutboundChange = {
      kind: 'edit',
      companyId: 7,
      whatsappId: 42,
      channel: 'whatsapp',
      ticketId: 3,
      messageId: '3-01J0000000000000000000000A',
      chatId: CHAT,
      providerMessageId: '3EB0EEEEEEEEEEEEEEEEEE',
      changedAt: '2026-11-23T10:00:00.000Z',
      requestedAt: '2026-11-23T10:00:01.000Z',
    };
    const editId = outboundChangeId(change);
    expect(editId).toMatch(/^3EB0[0-9A-F]{18}$/);
    expect(outboundChangeId({ ...change, requestedAt: '2026-11-23T10:05:00.000Z' })).toBe(editId);
    expect(outboundChangeId({ ...change, changedAt: '2026-11-23T10:01:00.000Z' })).not.toBe(editId);
    const deleteId = outboundChangeId({ ...change, kind: 'delete' });
    expect(deleteId).not.toBe(editId);
    const key = { remoteJid: CHAT, fromMe: true, id: '3EB0EEEEEEEEEEEEEEEEEE' };
    expect(
      toBaileysSend({
        chatId: CHAT,
        providerMessageId: editId,
        content: { type: 'edit', targetProviderMessageId: change.providerMessageId, body: 'novo' },
      }),
    ).toEqual({ jid: CHAT, content: { text: 'novo', edit: key }, options: { messageId: editId } });
    expect(
      toBaileysSend({
        chatId: CHAT,
        providerMessageId: deleteId,
        content: { type: 'delete', targetProviderMessageId: change.providerMessageId },
      }),
    ).toEqual({ jid: CHAT, content: { delete: key }, options: { messageId: deleteId } });
    expect(outboundJobSchema.safeParse(change).success).toBe(true);
    // Meta channels have no edit or delete (D75): such a job does not parse.
    expect(outboundJobSchema.safeParse({ ...change, channel: 'facebook' }).success).toBe(false);
  });

  it('a quoted reply quotes the provider’s message', () => {
    const out = send({
      content: { type: 'text', body: 'isso' },
      quoted: { providerMessageId: '3A0123456789ABCDEF01', fromMe: false, body: 'pergunta' },
    });
    expect(out.options).toEqual({
      messageId: '3EB0DDDDDDDDDDDDDDDDDD',
      quoted: {
        key: { remoteJid: CHAT, fromMe: false, id: '3A0123456789ABCDEF01' },
        message: { conversation: 'pergunta' },
      },
    });
  });
});

describe('the Baileys session: its events reach the inbound sink, its sends carry our message id', () => {
  const session = () => {
    const ev = new EventEmitter();
    const sendMessage = vi.fn(async (jid: string, _content: unknown, options: { messageId?: string }) => ({
      key: { remoteJid: jid, fromMe: true, id: options.messageId },
    }));
    const socket = { ev, logout: vi.fn(async () => undefined), end: vi.fn(), sendMessage };
    const received: unknown[] = [];
    const driver = createBaileysDriver({ makeSocket: () => socket as unknown as BaileysSocket });
    const noop = () => undefined;
    const s = driver.start(
      { creds: null, keys: { get: async () => ({}), set: async () => undefined } },
      { qr: noop, pairing: noop, connected: noop, disconnected: noop, credsUpdate: noop },
      { companyId: 7, whatsappId: 42, inbound: async (e) => void received.push(e) },
    );
    return { ev, sendMessage, received, s };
  };

  it('new messages, acks and calls go to the sink; history sync does not', async () => {
    const { ev, received } = session();
    ev.emit('messages.upsert', { messages: [wa({ conversation: 'ao vivo' })], type: 'notify' });
    ev.emit('messages.upsert', { messages: [wa({ conversation: 'do histórico' })], type: 'append' });
    ev.emit('messages.update', [
      { key: { remoteJid: CHAT, id: '3EB0CCCCCCCCCCCCCCCCCC', fromMe: true }, update: { status: 3 } },
    ]);
    await vi.waitFor(() => expect(received).toHaveLength(2));
    expect(received).toEqual([
      expect.objectContaining({ kind: 'message', content: { type: 'text', body: 'ao vivo' } }),
      expect.objectContaining({ kind: 'ack', ack: 2 }),
    ]);
  });

  it('sends with the id chosen before sending', async () => {
    const { s, sendMessage } = session();
    await expect(
      s.send!({ chatId: CHAT, providerMessageId: '3EB0DDDDDDDDDDDDDDDDDD', content: { type: 'text', body: 'oi' } }),
    ).resolves.toEqual({ providerMessageId: '3EB0DDDDDDDDDDDDDDDDDD' });
    expect(sendMessage).toHaveBeenCalledWith(CHAT, { text: 'oi' }, { messageId: '3EB0DDDDDDDDDDDDDDDDDD' });
  });
});
