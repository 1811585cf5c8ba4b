import { describe, expect, it } from 'vitest';
import {
  inboundDeduplicationId,
  inboundEventSchema,
  inboundGroupId,
  type InboundEventInput,
} from '../../functions/channels/inbound';
import { contactSubjectOf } from '../../functions/core/inbound/contact-upsert';
import type { InboundMessage } from '../../functions/core/pipeline/inbound-event';
import { lastMessagePreview, storedContent } from '../../functions/core/pipeline/message-content';
import { route, type RoutingInput } from '../../functions/core/inbound/routing';
import { isWithinServiceHours, localTime } from '../../functions/core/inbound/schedule';
import { outboundSendSchema, whatsappMessageId } from '../../functions/core/pipeline/outbound-queue';
import { defaultSchedules } from '../../functions/data/connection-repository';
import { seededUlid, ulidTime } from '../../functions/data/ulids';

const text = (over: Partial<InboundEventInput> = {}): InboundEventInput =>
  ({
    kind: 'message',
    companyId: 4,
    whatsappId: 9,
    chat: { id: '5511999990000@s.whatsapp.net' },
    providerMessageId: '3EB0ABCDEF',
    fromMe: false,
    timestamp: '2026-03-02T15:00:00.000Z',
    contact: { phone: '5511999990000', pushName: 'Maria' },
    content: { type: 'text', body: 'Olá' },
    ...over,
  }) as InboundEventInput;

describe('the inbound event', () => {
  it('fills the defaults and keeps the parts', () => {
    const event = inboundEventSchema.parse(text());
    expect(event).toMatchObject({ channel: 'whatsapp', chat: { isGroup: false }, isForwarded: false });
  });

  it('accepts every content type the spec stores', () => {
    const media = { mediaKey: 'c/4/inbound/9/abc/foto.jpg', mimetype: 'image/jpeg' };
    const contents = [
      { type: 'text', body: 'oi' },
      { type: 'image', ...media, body: 'legenda' },
      { type: 'video', ...media, mimetype: 'video/mp4' },
      { type: 'audio', ...media, mimetype: 'audio/ogg', voice: true },
      { type: 'document', ...media, mimetype: 'application/pdf', filename: 'boleto.pdf' },
      { type: 'sticker', ...media, mimetype: 'image/webp' },
      { type: 'location', latitude: -23.5, longitude: -46.6, name: 'Loja' },
      { type: 'contact', vCard: 'BEGIN:VCARD\nFN:Ana\nEND:VCARD', displayName: 'Ana' },
      { type: 'reaction', emoji: '👍', targetProviderMessageId: '3EB0X' },
      { type: 'poll', name: 'Qual?', options: ['a', 'b'] },
      { type: 'list', title: 'Menu', sections: [{ rows: [{ title: 'Um' }] }] },
      { type: 'call_log', isVideo: true },
    ];
    for (const content of contents) {
      expect(inboundEventSchema.safeParse(text({ content } as never)).success, content.type).toBe(true);
    }
  });

  it('refuses what the job could not store safely', () => {
    const bad: [string, InboundEventInput][] = [
      ['no contact on a one-to-one chat', text({ contact: undefined })],
      ['an identity without phone, lid or page id', text({ contact: { pushName: 'x' } } as never)],
      ['a page-scoped id without its page', text({ contact: { externalId: '123' } } as never)],
      [
        'media outside the company prefix form',
        text({ content: { type: 'image', mediaKey: '../x', mimetype: 'image/png' } } as never),
      ],
      [
        'a .. segment in a media key',
        text({ content: { type: 'image', mediaKey: 'c/4/../5/x', mimetype: 'image/png' } } as never),
      ],
      ['a provider id with #', text({ providerMessageId: 'a#b' })],
      [
        'an ack of 6',
        { kind: 'ack', companyId: 4, whatsappId: 9, chat: { id: 'x' }, providerMessageId: 'a', ack: 6 } as never,
      ],
      ['an unknown kind', { kind: 'typing', companyId: 4 } as never],
      ['phone with a plus sign', text({ contact: { phone: '+5511999990000' } } as never)],
    ];
    for (const [what, event] of bad) expect(inboundEventSchema.safeParse(event).success, what).toBe(false);
    // A group message needs no contact: the group is the contact.
    expect(
      inboundEventSchema.safeParse(text({ contact: undefined, chat: { id: '1203@g.us', isGroup: true } })).success,
    ).toBe(true);
  });

  it('groups by connection and chat, and deduplicates messages by provider id but edits, deletes and acks apart', () => {
    const message = inboundEventSchema.parse(text());
    const base = {
      companyId: 4,
      whatsappId: 9,
      chat: { id: '5511999990000@s.whatsapp.net' },
      providerMessageId: '3EB0ABCDEF',
    };
    const edit = inboundEventSchema.parse({ kind: 'edit', ...base, body: 'novo' });
    const edit2 = inboundEventSchema.parse({ kind: 'edit', ...base, body: 'outro' });
    const del = inboundEventSchema.parse({ kind: 'delete', ...base });
    const ack2 = inboundEventSchema.parse({ kind: 'ack', ...base, ack: 2 });
    const ack3 = inboundEventSchema.parse({ kind: 'ack', ...base, ack: 3 });

    expect(inboundGroupId(message)).toBe('9:5511999990000@s.whatsapp.net');
    expect(inboundGroupId(ack2)).toBe(inboundGroupId(message));
    const ids = [message, edit, edit2, del, ack2, ack3].map(inboundDeduplicationId);
    expect(new Set(ids).size).toBe(6);
    expect(inboundDeduplicationId(message)).toBe('9:3EB0ABCDEF');
    // Another connection may receive the same provider id (a group both numbers are in): not a duplicate.
    expect(inboundDeduplicationId({ ...message, whatsappId: 10 })).not.toBe(ids[0]);
    for (const id of ids) expect(id).toMatch(/^[\x21-\x7e]{1,128}$/);
    const long = inboundEventSchema.parse(text({ providerMessageId: 'x'.repeat(200) }));
    expect(inboundDeduplicationId(long)).toMatch(/^h:[\w-]{43}$/);
  });
});

describe('contacts named by an event', () => {
  const parse = (over: Partial<InboundEventInput>) => inboundEventSchema.parse(text(over)) as InboundMessage;

  it('phone and LID are two identities of one person; the push name only when the contact wrote', () => {
    expect(contactSubjectOf(parse({ contact: { phone: '5511999990000', lid: '123456', pushName: 'Maria' } }))).toEqual({
      channel: 'whatsapp',
      isGroup: false,
      identities: ['wa#5511999990000', 'wa#lid:123456'],
      number: '5511999990000',
      lid: '123456',
      name: 'Maria',
    });
    expect(contactSubjectOf(parse({ fromMe: true, contact: { lid: '123456', pushName: 'Eu' } }))).toEqual({
      channel: 'whatsapp',
      isGroup: false,
      identities: ['wa#lid:123456'],
      number: '',
      lid: '123456',
    });
  });

  it('a group is a contact named by its id; Meta ids are scoped to their page', () => {
    expect(
      contactSubjectOf(parse({ chat: { id: '120363000@g.us', isGroup: true, name: 'Família' }, contact: undefined })),
    ).toMatchObject({ isGroup: true, identities: ['wa#g:120363000'], number: '120363000', name: 'Família' });
    expect(
      contactSubjectOf(parse({ channel: 'instagram', contact: { externalId: '998', accountId: '17841' } })),
    ).toMatchObject({ channel: 'instagram', identities: ['ig#17841:998'] });
  });
});

describe('stored content', () => {
  it('maps types to the spec media types and previews them', () => {
    const doc = storedContent({
      type: 'document',
      mediaKey: 'c/1/x/a.pdf',
      mimetype: 'application/pdf',
      filename: 'a.pdf',
    });
    expect(doc).toMatchObject({ mediaType: 'application', body: 'a.pdf', filename: 'a.pdf' });
    expect(storedContent({ type: 'sticker', mediaKey: 'c/1/x/s.webp', mimetype: 'image/webp' })).toMatchObject({
      mediaType: 'image',
      dataJson: '{"sticker":true}',
    });
    expect(storedContent({ type: 'audio', mediaKey: 'c/1/x/v.ogg', mimetype: 'audio/ogg', voice: true })).toMatchObject(
      {
        mediaType: 'audio',
        dataJson: '{"voice":true}',
      },
    );
    const location = storedContent({ type: 'location', latitude: 1, longitude: 2 });
    expect(JSON.parse(location.dataJson!)).toEqual({ latitude: 1, longitude: 2 });
    expect(lastMessagePreview(location)).toBe('📍 Localização');
    expect(lastMessagePreview(storedContent({ type: 'call_log', isVideo: false, status: 'missed' }))).toBe(
      '📞 Chamada',
    );
  });

  it('cuts lastMessage to 200 characters without splitting an emoji', () => {
    const long = `${'a'.repeat(199)}😀😀`;
    expect([...lastMessagePreview({ body: long, mediaType: 'chat' })]).toHaveLength(200);
    expect(lastMessagePreview({ body: long, mediaType: 'chat' }).endsWith('😀')).toBe(true);
  });
});

describe('service hours', () => {
  // 2026-03-02 is a Monday. São Paulo is UTC-3.
  const mondayAt = (hhmm: string) => new Date(`2026-03-02T${hhmm}:00-03:00`);

  it('reads the local weekday and minute in the company time zone', () => {
    expect(localTime(new Date('2026-03-03T01:30:00Z'), 'America/Sao_Paulo')).toEqual({
      weekdayEn: 'monday',
      minute: 22 * 60 + 30,
    });
  });

  it('is open inside either shift of the day, closed between and after', () => {
    const week = defaultSchedules();
    expect(isWithinServiceHours(week, mondayAt('08:00'))).toBe(true);
    expect(isWithinServiceHours(week, mondayAt('11:59'))).toBe(true);
    expect(isWithinServiceHours(week, mondayAt('12:00'))).toBe(false);
    expect(isWithinServiceHours(week, mondayAt('13:30'))).toBe(true);
    expect(isWithinServiceHours(week, mondayAt('18:00'))).toBe(false);
    expect(isWithinServiceHours(week, mondayAt('07:59'))).toBe(false);
  });

  it('an empty shift is closed, a missing day is closed, 23:59 covers the last minute', () => {
    const monday = { weekdayEn: 'monday', startTimeA: '00:00', endTimeA: '23:59', startTimeB: '', endTimeB: '' };
    expect(isWithinServiceHours([monday], mondayAt('23:59'))).toBe(true);
    expect(isWithinServiceHours([{ ...monday, startTimeA: '', endTimeA: '' }], mondayAt('10:00'))).toBe(false);
    expect(isWithinServiceHours([], mondayAt('10:00'))).toBe(false);
  });
});

describe('routing: automatic replies', () => {
  const input = (over: Partial<RoutingInput> = {}): RoutingInput => ({
    message: { fromMe: false, isGroup: false },
    ticket: { status: 'pending', userId: null, isNew: true },
    connection: {
      greetingMessage: 'Bem-vindo!',
      outOfHoursMessage: 'Fechados agora.',
      schedules: defaultSchedules(),
      queueIds: [],
    },
    queue: null,
    settings: { scheduleType: 'disabled', sendGreetingMessageOneQueues: 'enabled' },
    now: new Date('2026-03-02T10:00:00-03:00'),
    timeZone: 'America/Sao_Paulo',
    ...over,
  });
  const night = new Date('2026-03-02T22:00:00-03:00');

  const cases: [string, Partial<RoutingInput>, string[]][] = [
    ['greets a new ticket', {}, ['greeting']],
    ['not a later message of the ticket', { ticket: { status: 'pending', userId: null, isNew: false } }, []],
    ['never answers our own messages', { message: { fromMe: true, isGroup: false } }, []],
    ['never answers groups', { message: { fromMe: false, isGroup: true } }, []],
    ['not once an attendant holds the ticket', { ticket: { status: 'open', userId: 3, isNew: true } }, []],
    ['no greeting text, no greeting', { connection: { ...input().connection, greetingMessage: '  ' } }, []],
    [
      'one queue and sendGreetingMessageOneQueues disabled',
      {
        connection: { ...input().connection, queueIds: [5] },
        settings: { scheduleType: 'disabled', sendGreetingMessageOneQueues: 'disabled' },
      },
      [],
    ],
    ['one queue and the setting enabled', { connection: { ...input().connection, queueIds: [5] } }, ['greeting']],
    ['hours not checked when scheduleType is disabled', { now: night }, ['greeting']],
    [
      'out of the connection hours: only the out-of-hours message',
      { now: night, settings: { scheduleType: 'connection', sendGreetingMessageOneQueues: 'enabled' } },
      ['outOfHours'],
    ],
    [
      'out of hours on a later message too',
      {
        now: night,
        ticket: { status: 'pending', userId: null, isNew: false },
        settings: { scheduleType: 'connection', sendGreetingMessageOneQueues: 'enabled' },
      },
      ['outOfHours'],
    ],
    [
      'out of hours without a text: silence',
      {
        now: night,
        connection: { ...input().connection, outOfHoursMessage: '' },
        settings: { scheduleType: 'connection', sendGreetingMessageOneQueues: 'enabled' },
      },
      [],
    ],
    [
      'inside the connection hours: the greeting',
      { settings: { scheduleType: 'connection', sendGreetingMessageOneQueues: 'enabled' } },
      ['greeting'],
    ],
    [
      'queue hours apply to a ticket in a queue',
      {
        now: night,
        queue: { outOfHoursMessage: 'Fila fechada', schedules: defaultSchedules() },
        settings: { scheduleType: 'queue', sendGreetingMessageOneQueues: 'enabled' },
      },
      ['outOfHours'],
    ],
    [
      'queue hours without a queue: not checked',
      { now: night, settings: { scheduleType: 'queue', sendGreetingMessageOneQueues: 'enabled' } },
      ['greeting'],
    ],
    [
      "the company's working hours (scheduleType company): out of them, the connection's out-of-hours text",
      {
        now: night,
        settings: { scheduleType: 'company', sendGreetingMessageOneQueues: 'enabled', schedules: defaultSchedules() },
      },
      ['outOfHours'],
    ],
    [
      "the company's working hours: inside them, the greeting",
      { settings: { scheduleType: 'company', sendGreetingMessageOneQueues: 'enabled', schedules: defaultSchedules() } },
      ['greeting'],
    ],
    [
      // 10:00 in São Paulo is 09:00 in Manaus: still open (08:00–12:00) there.
      'hours are read in the company zone: 09:00 in Manaus is open',
      {
        timeZone: 'America/Manaus',
        settings: { scheduleType: 'company', sendGreetingMessageOneQueues: 'enabled', schedules: defaultSchedules() },
      },
      ['greeting'],
    ],
    [
      // 09:30 in São Paulo is 12:30 in Lisbon (UTC+0 in March): between the shifts, closed.
      'hours are read in the company zone: 12:30 in Lisbon is between the shifts',
      {
        now: new Date('2026-03-02T09:30:00-03:00'),
        timeZone: 'Europe/Lisbon',
        settings: { scheduleType: 'company', sendGreetingMessageOneQueues: 'enabled', schedules: defaultSchedules() },
      },
      ['outOfHours'],
    ],
    [
      // Lisbon moves to UTC+1 on 29 March 2026: 07:30 UTC is 08:30 there (open), not 07:30 (closed).
      'a DST change in the company zone moves the hours with it',
      {
        now: new Date('2026-03-30T07:30:00Z'),
        timeZone: 'Europe/Lisbon',
        settings: { scheduleType: 'company', sendGreetingMessageOneQueues: 'enabled', schedules: defaultSchedules() },
      },
      ['greeting'],
    ],
    [
      'collective vacation wins over everything',
      {
        connection: {
          ...input().connection,
          collectiveVacationStart: '2026-03-01',
          collectiveVacationEnd: '2026-03-02',
          collectiveVacationMessage: 'Férias!',
        },
      },
      ['vacation'],
    ],
    [
      'vacation over: greeting again',
      {
        connection: {
          ...input().connection,
          collectiveVacationStart: '2026-02-01',
          collectiveVacationEnd: '2026-03-01',
          collectiveVacationMessage: 'Férias!',
        },
      },
      ['greeting'],
    ],
  ];

  it.each(cases)('%s', (_what, over, kinds) => {
    expect(route(input(over)).map((r) => r.kind)).toEqual(kinds);
  });

  it('sends the texts trimmed', () => {
    expect(route(input({ connection: { ...input().connection, greetingMessage: '  Oi!\n' } }))).toEqual([
      { kind: 'greeting', body: 'Oi!' },
    ]);
  });
});

describe('ids', () => {
  it('seeded ULIDs are deterministic, sortable by time and carry it', () => {
    const a = seededUlid(1_700_000_000_000, '9:3EB0A');
    expect(seededUlid(1_700_000_000_000, '9:3EB0A')).toBe(a);
    expect(seededUlid(1_700_000_000_000, '9:3EB0B')).not.toBe(a);
    expect(a).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(ulidTime(a)).toBe(1_700_000_000_000);
    expect(seededUlid(1_700_000_000_001, 'zzz') > seededUlid(1_700_000_000_000, 'aaa')).toBe(true);
  });

  it("our WhatsApp ids look like Baileys' and repeat for the same seed", () => {
    expect(whatsappMessageId('1:2:3:greeting')).toMatch(/^3EB0[0-9A-F]{18}$/);
    expect(whatsappMessageId('1:2:3:greeting')).toBe(whatsappMessageId('1:2:3:greeting'));
    expect(
      outboundSendSchema.safeParse({
        kind: 'send',
        companyId: 1,
        whatsappId: 2,
        channel: 'whatsapp',
        ticketId: 3,
        messageId: `3-${seededUlid(1, 'x')}`,
        chatId: '5511@s.whatsapp.net',
        requestedAt: new Date().toISOString(),
      }).success,
    ).toBe(true);
  });
});
