import { mkdtemp, rm, utimes, writeFile, mkdir } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickEncoding, serveStatic } from '../../infra/local/static-files';

/** The local gateway's static files answer as CloudFront does for the built frontend (decisions D114). */

let dir: string;
let server: Server;
let base: URL;

// A JavaScript chunk big enough to compress (CloudFront leaves files under 1 000 bytes alone).
const chunk = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"ticket ${i}"`).join(', ')}];\n`;
const tiny = 'export const a = 1;\n';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http, not fetch: fetch would decompress the body and hide what went over the wire. */
const get = (path: string, acceptEncoding?: string, method = 'GET'): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    request({ hostname: base.hostname, port: base.port, path, method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    })
      .on('error', reject)
      .end();
  });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'zapdesk-static-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(
    join(dir, 'index.html'),
    `<!doctype html><html><body>${'<p>ZapDesk</p>'.repeat(100)}</body></html>\n`,
  );
  await writeFile(join(dir, 'assets', 'tickets-page-AbC123.js'), chunk);
  await writeFile(join(dir, 'assets', 'tiny-XyZ.js'), tiny);
  // Scripts at the root keep their names across builds (index.html's start-config.js, the service worker).
  await writeFile(join(dir, 'start-config.js'), tiny);
  await writeFile(join(dir, 'service-worker.js'), chunk);
  await writeFile(join(dir, 'assets', 'logo-Q1.png'), Buffer.alloc(4_000, 7));
  server = createServer((req, res) => void serveStatic(req, res, dir));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
  await rm(dir, { recursive: true, force: true });
});

describe('static files of the local gateway', () => {
  it('sends a hashed chunk brotli-compressed to a browser that accepts br, cached for a year', async () => {
    const res = await get('/assets/tickets-page-AbC123.js', 'gzip, deflate, br, zstd');

    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toContain('javascript');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(chunk.length / 3);
    expect(brotliDecompressSync(res.body).toString('utf8')).toBe(chunk);
  });

  it('sends gzip when the browser accepts only gzip, and the plain file when it accepts nothing', async () => {
    const gz = await get('/assets/tickets-page-AbC123.js', 'gzip');
    const plain = await get('/assets/tickets-page-AbC123.js');

    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(chunk);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(chunk);
    expect(plain.headers.vary).toBe('Accept-Encoding');
  });

  it('compresses index.html for client-side routes but keeps it revalidated (no-cache)', async () => {
    const res = await get('/tickets/42', 'br');

    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.body).toString('utf8')).toContain('<p>ZapDesk</p>');
  });

  it('keeps the scripts whose names do not change between builds revalidated (no-cache), compressed when big', async () => {
    const early = await get('/start-config.js', 'br, gzip');
    const worker = await get('/service-worker.js', 'br, gzip');

    expect(early.headers['cache-control']).toBe('no-cache');
    expect(early.body.toString('utf8')).toBe(tiny);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(worker.body).toString('utf8')).toBe(chunk);
  });

  it('leaves files under 1 000 bytes and images uncompressed', async () => {
    const small = await get('/assets/tiny-XyZ.js', 'br, gzip');
    const image = await get('/assets/logo-Q1.png', 'br, gzip');

    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.toString('utf8')).toBe(tiny);
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.body.length).toBe(4_000);
  });

  it('answers HEAD with the compressed length and no body', async () => {
    const full = await get('/assets/tickets-page-AbC123.js', 'br');
    const head = await get('/assets/tickets-page-AbC123.js', 'br', 'HEAD');

    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.body.length).toBe(0);
  });

  it('serves the new content after a rebuild rewrites a file under the same name', async () => {
    const file = join(dir, 'index.html');
    await get('/', 'gzip');
    await writeFile(file, `<!doctype html><html><body>${'<p>rebuilt</p>'.repeat(100)}</body></html>\n`);
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);

    const res = await get('/', 'gzip');

    expect(gunzipSync(res.body).toString('utf8')).toContain('<p>rebuilt</p>');
  });
});

describe('pickEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.8', 'gzip'],
    ['*', 'br'],
    ['identity', null],
    ['gzip;q=0', null],
    [undefined, null],
  ])('Accept-Encoding %s -> %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});
