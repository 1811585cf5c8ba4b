import { describe, expect, it } from 'vitest';
import {
  CONNECTION_MESSAGES,
  connectionRuleErrors,
  type RuleInput,
} from '../../functions/core/connections/connection-rules';
import { detectAttachmentType, safeFileName } from '../../functions/core/media/attachments';
import { CONNECTION_DEFAULTS, newConnectionToken } from '../../functions/data/connection-repository';

const base: RuleInput = { ...CONNECTION_DEFAULTS, queueIds: [] };
const NOW = new Date('2026-06-15T12:00:00Z');
const fieldsOf = (c: Partial<RuleInput>, ctx: Partial<Parameters<typeof connectionRuleErrors>[1]> = {}) =>
  Object.fromEntries(
    connectionRuleErrors({ ...base, ...c }, { npsInUse: false, now: NOW, ...ctx }).map((e) => [e.field, e.reason]),
  );

describe('connection rules (core spec §5)', () => {
  it('the defaults pass', () => {
    expect(fieldsOf({})).toEqual({});
  });

  it('a redirect time needs a redirect queue and the reverse, with the spec text on both fields', () => {
    const pair = {
      'body.sendIdQueue': CONNECTION_MESSAGES.sendQueuePair,
      'body.timeSendQueue': CONNECTION_MESSAGES.sendQueuePair,
    };
    expect(fieldsOf({ timeSendQueue: 5 })).toEqual(pair);
    expect(fieldsOf({ sendIdQueue: 3 })).toEqual(pair);
    expect(fieldsOf({ sendIdQueue: 3, timeSendQueue: 5 })).toEqual({});
  });

  it('NPS needs a wait time and a rating message only when the company rates tickets', () => {
    expect(fieldsOf({}, { npsInUse: true })).toEqual({
      'body.expiresTicketNPS': 'É obrigado informar um tempo para avaliação quando se utiliza o NPS.',
      'body.ratingMessage': 'É obrigado informar uma mensagem de avaliação quando se utiliza o NPS.',
    });
    expect(fieldsOf({ expiresTicketNPS: 10, ratingMessage: 'Nota?' }, { npsInUse: true })).toEqual({});
  });

  it('a greeting is required with more than one queue', () => {
    expect(fieldsOf({ queueIds: [1] })).toEqual({});
    expect(fieldsOf({ queueIds: [1, 2], greetingMessage: '  ' })).toEqual({
      'body.greetingMessage': CONNECTION_MESSAGES.greetingRequired,
    });
  });

  it('a vacation message needs both dates, in order', () => {
    expect(fieldsOf({ collectiveVacationMessage: 'Férias' })).toEqual({
      'body.collectiveVacationStart': CONNECTION_MESSAGES.vacationDates,
      'body.collectiveVacationEnd': CONNECTION_MESSAGES.vacationDates,
    });
    expect(fieldsOf({ collectiveVacationStart: '2026-12-20', collectiveVacationEnd: '2026-12-01' })).toEqual({
      'body.collectiveVacationEnd': CONNECTION_MESSAGES.vacationOrder,
    });
  });

  it('import dates: not in the future, at most 2 years back, recent not before old', () => {
    expect(fieldsOf({ importOldMessages: '2026-06-16' })).toEqual({
      'body.importOldMessages': CONNECTION_MESSAGES.importFuture,
    });
    expect(fieldsOf({ importOldMessages: '2024-06-14' })).toEqual({
      'body.importOldMessages': CONNECTION_MESSAGES.importTooOld,
    });
    expect(fieldsOf({ importOldMessages: '2024-06-15', importRecentMessages: '2026-06-15' })).toEqual({});
    expect(fieldsOf({ importOldMessages: '2026-01-10', importRecentMessages: '2026-01-09' })).toEqual({
      'body.importRecentMessages': CONNECTION_MESSAGES.importRecentBeforeOld,
    });
  });

  it('an update checks only the rules whose fields it touches', () => {
    const stale = { importOldMessages: '2020-01-01', timeSendQueue: 5 };
    expect(fieldsOf(stale, { npsInUse: true, touched: new Set(['name']) })).toEqual({});
    expect(Object.keys(fieldsOf(stale, { npsInUse: true, touched: new Set(['ratingMessage']) }))).toEqual([
      'body.expiresTicketNPS',
      'body.ratingMessage',
    ]);
  });
});

describe('connection token and attachments', () => {
  it('tokens are 30 alphanumeric characters and differ every time', () => {
    const tokens = Array.from({ length: 200 }, newConnectionToken);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9]{30}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('attachment types come from the bytes; anything unknown is a download', () => {
    expect(detectAttachmentType(Buffer.from('%PDF-1.7\n')).contentType).toBe('application/pdf');
    expect(detectAttachmentType(Buffer.from('OggS\0\x02')).contentType).toBe('audio/ogg');
    expect(detectAttachmentType(Buffer.from('\0\0\0\x18ftypmp42')).contentType).toBe('video/mp4');
    expect(detectAttachmentType(Buffer.from('<svg onload=alert(1)>')).contentType).toBe('application/octet-stream');
    expect(detectAttachmentType(Buffer.from('<html>')).contentType).toBe('application/octet-stream');
  });

  it('file names become one safe key segment', () => {
    expect(safeFileName('Boas-vindas à loja.pdf')).toBe('Boas-vindas_a_loja.pdf');
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\fotos\\.env')).toBe('env');
    expect(safeFileName('')).toBe('file');
    expect(safeFileName('a'.repeat(300)).length).toBe(100);
  });
});
