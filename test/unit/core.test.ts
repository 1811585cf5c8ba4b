import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../functions/shared/config';
import { Conflict, ServiceUnavailable } from '../../functions/shared/errors';
import { hashPassword, verifyPassword } from '../../functions/core/passwords';
import { mapDynamoErrors } from '../../functions/data/errors';
import { company, pad, searchForm } from '../../functions/data/keys';
import { toErrorResponse } from '../../functions/http/middleware/error-mapper';

describe('configuration', () => {
  it('fails fast naming the missing variable', () => {
    expect(() => parseConfig({ APP_SECRET: 'x'.repeat(32) })).toThrow(/TABLE_NAME/);
    expect(() => parseConfig({ TABLE_NAME: 't' })).toThrow(/APP_SECRET/);
    expect(() => parseConfig({ TABLE_NAME: 't', APP_SECRET: 'x'.repeat(32), QUEUE_URLS: '{bad' })).toThrow(
      /QUEUE_URLS/,
    );
  });

  it('parses queue URLs and defaults', () => {
    const c = parseConfig({ TABLE_NAME: 't', APP_SECRET: 'x'.repeat(32), QUEUE_URLS: '{"inbound":"http://q/1"}' });
    expect(c.QUEUE_URLS).toEqual({ inbound: 'http://q/1' });
    expect(c.APP_VERSION).toBe('7.0.0');
    expect(c.STAGE).toBe('aws');
  });
});

describe('passwords', () => {
  it('verify the right password and refuse a wrong one', async () => {
    const stored = await hashPassword('Segredo@123');
    expect(stored).toMatch(/^scrypt\$/);
    expect(stored).not.toContain('Segredo');
    expect(await verifyPassword('Segredo@123', stored)).toBe(true);
    expect(await verifyPassword('segredo@123', stored)).toBe(false);
    expect(await verifyPassword('Segredo@123', 'garbage')).toBe(false);
  });
});

describe('key conventions', () => {
  it('prefix tenant keys with the company and refuse a bad company id', () => {
    expect(company(42)).toBe('C#42');
    expect(() => company(0)).toThrow();
    expect(() => company(Number.NaN)).toThrow();
  });

  it('pad ids so they sort as strings', () => {
    expect([pad(10), pad(9), pad(100)].sort()).toEqual([pad(9), pad(10), pad(100)]);
  });

  it('search form ignores case, accents and repeated spaces', () => {
    expect(searchForm('  José   ÁLVARES ')).toBe('jose alvares');
  });
});

describe('error mapping', () => {
  it('turns a failed condition into the Conflict the caller names', async () => {
    const err = Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException' });
    await expect(
      mapDynamoErrors(
        () => Promise.reject(err),
        () => new Conflict('ERR_QUEUE_COLOR_ALREADY_EXISTS'),
      ),
    ).rejects.toMatchObject({ status: 409, code: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' });
  });

  it('turns a cancelled transaction with a failed condition into a Conflict', async () => {
    const err = Object.assign(new Error('cancelled'), {
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
    });
    await expect(mapDynamoErrors(() => Promise.reject(err))).rejects.toBeInstanceOf(Conflict);
  });

  it('turns throttling into a retryable 503', async () => {
    const err = Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' });
    await expect(mapDynamoErrors(() => Promise.reject(err))).rejects.toBeInstanceOf(ServiceUnavailable);
    const res = toErrorResponse(new ServiceUnavailable(2));
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['Retry-After']).toBe('2');
  });

  it('a dependency timing out, unreachable or failing on its side is a 503 to retry, not a 500', () => {
    const sdkServerFault = Object.assign(new Error('We encountered an internal error'), {
      name: 'InternalError',
      $fault: 'server',
    });
    const timeout = Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4566'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('fetch failed', { cause: { code: 'ECONNRESET' } });
    for (const err of [sdkServerFault, timeout, refused, wrapped]) {
      const res = toErrorResponse(err);
      expect(res.statusCode).toBe(503);
      expect(JSON.parse(String(res.body))).toMatchObject({ error: 'ERR_SERVICE_UNAVAILABLE' });
    }
    // A bug stays a 500, without internals.
    const bug = toErrorResponse(new TypeError("Cannot read properties of undefined (reading 'id')"));
    expect(bug.statusCode).toBe(500);
    expect(JSON.parse(String(bug.body))).toEqual({ error: 'ERR_INTERNAL', message: 'Internal error' });
  });

  it('answers domain details and fields without internals', () => {
    const res = toErrorResponse(new Conflict('ERR_OTHER_OPEN_TICKET', 'open elsewhere', { uuid: 'u', userId: 2 }));
    expect(res.statusCode).toBe(409);
    expect(JSON.parse(String(res.body))).toEqual({
      error: 'ERR_OTHER_OPEN_TICKET',
      message: 'open elsewhere',
      details: { uuid: 'u', userId: 2 },
    });
  });
});
