import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, DEFAULT_META_LOGIN_URL, loadConfig, parseConfig, takeEarlyConfigFetch } from './config';

const respond = (status: number, body: string) => async () => new Response(body, { status });

describe('runtime config', () => {
  it('resolves relative URLs against the page: /api over https, /ws as wss', async () => {
    const config = await loadConfig(
      respond(200, JSON.stringify({ apiBase: '/api', wsUrl: '/ws', mediaBase: '/media', stage: 'aws' })),
      'https://desk.example.com',
    );
    expect(config).toEqual({
      apiBase: 'https://desk.example.com/api',
      wsUrl: 'wss://desk.example.com/ws',
      mediaBase: '/media',
      stage: 'aws',
      metaLoginUrl: 'https://www.facebook.com/v21.0/dialog/oauth',
    });
  });

  it('uses ws:// on a plain http page and keeps absolute URLs', () => {
    expect(
      parseConfig({ apiBase: '/api/', wsUrl: '/ws', mediaBase: '/media/', stage: 'local' }, 'http://localhost:5173'),
    ).toEqual({
      apiBase: 'http://localhost:5173/api',
      wsUrl: 'ws://localhost:5173/ws',
      mediaBase: '/media',
      stage: 'local',
      metaLoginUrl: DEFAULT_META_LOGIN_URL,
    });
    expect(
      parseConfig(
        {
          apiBase: 'https://api.example.com',
          wsUrl: 'https://ws.example.com/prod',
          mediaBase: 'https://cdn.example.com/m',
          stage: 'aws',
        },
        'https://desk.example.com',
      ),
    ).toMatchObject({ apiBase: 'https://api.example.com', wsUrl: 'wss://ws.example.com/prod' });
  });

  it('says which fields are missing', () => {
    expect(() => parseConfig({ apiBase: '/api', wsUrl: '', stage: 3 }, 'https://x')).toThrow(
      '/config.json is missing wsUrl, mediaBase, stage (each a non-empty string)',
    );
    expect(() => parseConfig([], 'https://x')).toThrow('/config.json must be a JSON object');
  });

  it('rejects a WebSocket URL of another scheme', () => {
    expect(() =>
      parseConfig({ apiBase: '/api', wsUrl: 'ftp://x/ws', mediaBase: '/m', stage: 's' }, 'https://x'),
    ).toThrow(ConfigError);
  });

  it('reads the optional Meta app id and login URL; without them there is no app id and the default dialog', () => {
    const base = { apiBase: '/api', wsUrl: '/ws', mediaBase: '/media', stage: 'aws' };
    const without = parseConfig(base, 'https://x');
    expect(without.metaAppId).toBeUndefined();
    expect(without.metaLoginUrl).toBe('https://www.facebook.com/v21.0/dialog/oauth');
    expect(
      parseConfig(
        { ...base, metaAppId: ' 1234567890123456 ', metaLoginUrl: 'https://www.facebook.com/v22.0/dialog/oauth' },
        'https://x',
      ),
    ).toMatchObject({ metaAppId: '1234567890123456', metaLoginUrl: 'https://www.facebook.com/v22.0/dialog/oauth' });
    expect(parseConfig({ ...base, metaAppId: null }, 'https://x').metaAppId).toBeUndefined();
  });

  it('rejects a Meta app id that is not a string of digits and a login URL that is not http(s)', () => {
    const base = { apiBase: '/api', wsUrl: '/ws', mediaBase: '/media', stage: 'aws' };
    for (const metaAppId of ['abc123', '', 1234567890, '12 34']) {
      expect(() => parseConfig({ ...base, metaAppId }, 'https://x')).toThrow(
        new ConfigError("/config.json metaAppId must be a string of digits (the Meta app's id)"),
      );
    }
    for (const metaLoginUrl of ['/dialog/oauth', 'javascript:alert(1)', 42, '']) {
      expect(() => parseConfig({ ...base, metaLoginUrl }, 'https://x')).toThrow(
        new ConfigError('/config.json metaLoginUrl must be an absolute http(s) URL'),
      );
    }
  });

  it('fails clearly when the file is missing, not JSON, or unreachable', async () => {
    await expect(loadConfig(respond(404, 'not found'), 'https://x')).rejects.toThrow('/config.json answered HTTP 404');
    await expect(loadConfig(respond(200, '<!doctype html><html>'), 'https://x')).rejects.toThrow(
      '/config.json is not valid JSON',
    );
    await expect(
      loadConfig(async () => {
        throw new TypeError('Failed to fetch');
      }, 'https://x'),
    ).rejects.toThrow('/config.json could not be fetched (network error)');
  });

  it('asks for a fresh copy every time', async () => {
    let init: RequestInit | undefined;
    await loadConfig(async (_url, i) => {
      init = i;
      return new Response(JSON.stringify({ apiBase: '/api', wsUrl: '/ws', mediaBase: '/media', stage: 's' }));
    }, 'https://x');
    expect(init?.cache).toBe('no-store');
  });
});

describe('config.json asked for before the app runs (public/start-config.js, decisions D177)', () => {
  const script = readFileSync(resolve(__dirname, '../public/start-config.js'), 'utf8');
  afterEach(() => vi.unstubAllGlobals());

  it("the app takes index.html's early request once, and fetches itself when there is none", async () => {
    const fetched: string[] = [];
    vi.stubGlobal('fetch', (input: string) => {
      fetched.push(input);
      return Promise.resolve(
        new Response(JSON.stringify({ apiBase: '/api', wsUrl: '/ws', mediaBase: '/media', stage: 'local' })),
      );
    });
    new Function(script)();
    expect(fetched).toEqual(['/config.json']);

    const config = await loadConfig(takeEarlyConfigFetch(), 'http://localhost:3000');
    expect(config.apiBase).toBe('http://localhost:3000/api');
    expect(fetched).toEqual(['/config.json']);
    expect(takeEarlyConfigFetch()).toBeUndefined();
  });

  it('an early request that failed is the same clear error as a late one', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('offline')));
    new Function(script)();
    await expect(loadConfig(takeEarlyConfigFetch())).rejects.toThrow(ConfigError);
  });
});
