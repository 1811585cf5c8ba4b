import type { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueInbound } from '../../functions/channels/inbound';
import { resetConfigForTests } from '../../functions/shared/config';
import { ServiceUnavailable } from '../../functions/shared/errors';
import { wellFormed } from '../../functions/core/pipeline/inbound-event';
import { queueJson, sendQueueMessage, setQueueClientForTests } from '../../functions/data/queue-sender';

/**
 * Queue bodies carry any string (the customer's text among them): only characters SQS allows go on the
 * wire, and JSON.parse gives back the value sent. SQS allows #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD |
 * #x10000-#x10FFFF; the local emulator (fauxqs) refuses the last range too, so the body holds none of it.
 */
const SQS_ALLOWED = /^[\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const FAUXQS_ALLOWED = /^[\t\n\r\x20-\uD7FF\uE000-\uFFFD]*$/;

const expectCarried = (value: unknown) => {
  const body = queueJson(value);
  expect(SQS_ALLOWED.test(body), JSON.stringify(body)).toBe(true);
  expect(FAUXQS_ALLOWED.test(body), JSON.stringify(body)).toBe(true);
  expect(JSON.parse(body)).toEqual(value);
  return body;
};

const CLASSES: [string, string][] = [
  ['tab, newline, carriage return', '\t\n\r'],
  ['C0 controls', '\u0000\u0001\u0008\u000b\u000c\u000e\u001b\u001f'],
  ['DEL and C1 controls', '\u007f\u0080\u009f'],
  ['U+FFFE', '\ufffe'],
  ['U+FFFF', '\uffff'],
  ['U+FDD0…U+FDEF noncharacters', '\ufdd0\ufdef'],
  ['a lone high surrogate', '\ud83d'],
  ['a lone low surrogate', '\ude00'],
  ['a low surrogate before a high one', '\ude00\ud83d'],
  ['an astral emoji', '😀'],
  ['astral noncharacters', '\u{1FFFE}\u{10FFFF}'],
  ['text SQS carries as it is', 'Olá, ação! €‰ 中文 \ue000\ufffd'],
];

describe('queueJson: the body of every queue message', () => {
  it.each(CLASSES)('carries %s, and JSON.parse restores them', (_, chars) => {
    expectCarried({ kind: 'message', content: { type: 'text', body: `antes ${chars} depois` } });
  });

  it('keeps tab, newline and CR (escaped by JSON), and what SQS carries, as they are', () => {
    expect(queueJson({ body: 'a\tb\nc\rd' })).toBe('{"body":"a\\tb\\nc\\rd"}');
    expect(queueJson({ body: 'Olá \ufdd0 \ufffd' })).toBe('{"body":"Olá \ufdd0 \ufffd"}');
  });

  it('escapes U+FFFE, U+FFFF, lone surrogates and emoji as \\uXXXX', () => {
    expect(queueJson('\ufffe\uffff')).toBe('"\\ufffe\\uffff"');
    expect(queueJson('\ud83d|\ude00')).toBe('"\\ud83d|\\ude00"');
    expect(queueJson('😀')).toBe('"\\ud83d\\ude00"');
    expect(queueJson('\u0001')).toBe('"\\u0001"');
  });

  it('carries every UTF-16 code unit, alone and next to text', () => {
    for (let unit = 0; unit <= 0xffff; unit += 1) {
      const c = String.fromCharCode(unit);
      const body = queueJson({ b: `x${c}y` });
      if (!FAUXQS_ALLOWED.test(body) || (JSON.parse(body) as { b: string }).b !== `x${c}y`) {
        throw new Error(`U+${unit.toString(16).padStart(4, '0')} is not carried: ${JSON.stringify(body)}`);
      }
    }
  });

  it('carries strings anywhere in the value: nested, in arrays, in keys', () => {
    expectCarried({ a: ['\uffff', { '\ud800key': '\udfff' }], n: 1, t: true, z: null });
  });
});

describe('sendQueueMessage: what goes on the wire', () => {
  const sent: SendMessageCommand['input'][] = [];
  let failWith: Error | undefined;
  const fakeClient = {
    send: async (command: SendMessageCommand) => {
      if (failWith) throw failWith;
      sent.push(command.input);
      return {};
    },
  } as unknown as SQSClient;
  const previous = process.env.QUEUE_URLS;

  beforeAll(() => {
    process.env.QUEUE_URLS = JSON.stringify({ inbound: 'http://sqs.local/000000000000/zapdesk-inbound.fifo' });
    resetConfigForTests();
    setQueueClientForTests(fakeClient);
  });
  afterAll(() => {
    setQueueClientForTests(undefined);
    if (previous === undefined) delete process.env.QUEUE_URLS;
    else process.env.QUEUE_URLS = previous;
    resetConfigForTests();
  });
  beforeEach(() => {
    sent.length = 0;
    failWith = undefined;
  });

  const WRITTEN = 'Olá\t\n\r|\u0000\u001f|\ufffe\uffff\ufdd0|\ud83d|\ude00|😀';

  it('the inbound enqueue (Baileys, Meta, the simulator): a valid body, lone surrogates as U+FFFD', async () => {
    const event = await enqueueInbound({
      kind: 'message',
      companyId: 7,
      whatsappId: 42,
      chat: { id: '5511987654321@s.whatsapp.net' },
      providerMessageId: '3A0123456789ABCDEF01',
      fromMe: false,
      timestamp: new Date().toISOString(),
      contact: { phone: '5511987654321', pushName: 'Maria \ud800' },
      content: { type: 'text', body: WRITTEN },
    });
    const shown = 'Olá\t\n\r|\u0000\u001f|\ufffe\uffff\ufdd0|\ufffd|\ufffd|😀';
    expect(event).toMatchObject({ content: { body: shown }, contact: { pushName: 'Maria \ufffd' } });
    expect(sent).toHaveLength(1);
    const body = sent[0]!.MessageBody!;
    expect(FAUXQS_ALLOWED.test(body), body).toBe(true);
    expect(JSON.parse(body)).toEqual(event);
  });

  it('a failed send is the caller’s error, never swallowed: throttling a 503, the rest as it is', async () => {
    failWith = Object.assign(new Error('Invalid characters found.'), {
      name: 'AWS.SimpleQueueService.InvalidMessageContents',
    });
    await expect(sendQueueMessage('inbound', { b: 'x' })).rejects.toBe(failWith);
    failWith = Object.assign(new Error('slow down'), { name: 'ThrottlingException' });
    await expect(sendQueueMessage('inbound', { b: 'x' })).rejects.toBeInstanceOf(ServiceUnavailable);
  });
});

describe('wellFormed: what is stored and shown', () => {
  it('replaces lone surrogates with U+FFFD and keeps everything else, pairs and noncharacters included', () => {
    expect(wellFormed('a\ud83db\ude00c\ude00\ud83d')).toBe('a\ufffdb\ufffdc\ufffd\ufffd');
    expect(wellFormed('\t\u0000\ufffe\uffff\ufdd0😀')).toBe('\t\u0000\ufffe\uffff\ufdd0😀');
  });

  it('reaches every string of a plain value, and leaves other objects and scalars alone', () => {
    const date = new Date(0);
    expect(wellFormed({ a: ['\ud800', { b: '\udfff' }], n: 1, d: date, u: undefined })).toEqual({
      a: ['\ufffd', { b: '\ufffd' }],
      n: 1,
      d: date,
      u: undefined,
    });
  });
});
