import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

/**
 * The built frontend (frontend/dist), as CloudFront serves it from the web bucket: files by path,
 * `index.html` for any extension-less path (client-side routes), hashed `/assets/*` cached for good.
 * The directory is looked at on every request, so a `npm run build:web` while the cloud runs is live.
 *
 * Compression as CloudFront's CachingOptimized policy does it (the web stack's default behaviour, decisions
 * D114): a compressible type between 1 000 bytes and 10 MB goes brotli when the browser accepts `br`, else
 * gzip when it accepts `gzip`, with `Vary: Accept-Encoding`. Each file is compressed once per
 * (path, size, mtime, encoding) and kept in memory, so the second visitor pays nothing; a rebuild changes the
 * mtime and replaces the entry.
 */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
};

const BUILD_HINT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ZapDesk — frontend not built</title></head>
<body style="font-family: sans-serif; max-width: 40rem; margin: 4rem auto">
<h1>The frontend is not built yet</h1>
<p>The local cloud is running (the API is under <code>/api</code>), but <code>frontend/dist</code> does not exist.</p>
<p>Build it with <code>npm run build:web</code> and reload this page, or start everything with <code>npm start</code>.</p>
</body></html>
`;

/** Types CloudFront compresses (its list, for what Vite emits). */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt', '.webmanifest', '.ico']);
/** CloudFront compresses files of 1 000 bytes to 10 000 000 bytes. */
const MIN_COMPRESS_BYTES = 1_000;
const MAX_COMPRESS_BYTES = 10_000_000;

type Encoding = 'br' | 'gzip';

const compressors: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  // Quality 9: within a few per cent of 11 for JavaScript at a fraction of its time, so a first visit to a
  // freshly built app is not slowed by the compression itself.
  br: (data) =>
    promisify(brotliCompress)(data, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 9,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data) => promisify(gzip)(data, { level: 9 }),
};

/**
 * The encoding to answer with for an `Accept-Encoding` header: brotli first (as CloudFront), then gzip; a
 * coding with `q=0` is refused; `*` accepts both.
 */
export const pickEncoding = (acceptEncoding: string | undefined): Encoding | null => {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find((m) => m !== null);
    accepted.set(name, q ? Number(q[1]) : 1);
  }
  const ok = (coding: Encoding) => (accepted.get(coding) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
};

/** Compressed bodies by file and encoding; `stamp` is the file's size and mtime when it was compressed. */
const compressedCache = new Map<string, { stamp: string; body: Promise<Buffer> }>();

const compressedBody = (file: string, stamp: string, encoding: Encoding): Promise<Buffer> => {
  const key = `${encoding}:${file}`;
  const cached = compressedCache.get(key);
  if (cached?.stamp === stamp) return cached.body;
  const body = readFile(file).then((data) => compressors[encoding](data));
  // A failed read is not kept: the next request tries again.
  body.catch(() => compressedCache.delete(key));
  compressedCache.set(key, { stamp, body });
  return body;
};

const isFile = async (path: string): Promise<boolean> => {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
};

const sendText = (res: ServerResponse, status: number, contentType: string, body: string, head: boolean) => {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
  });
  res.end(head ? undefined : body);
};

export const serveStatic = async (req: IncomingMessage, res: ServerResponse, rootDir: string | null): Promise<void> => {
  const head = req.method === 'HEAD';
  if (req.method !== 'GET' && !head) {
    res.setHeader('allow', 'GET, HEAD');
    sendText(res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed\n', false);
    return;
  }
  const root = rootDir === null ? null : resolve(rootDir);
  const index = root === null ? null : join(root, 'index.html');
  if (root === null || index === null || !(await isFile(index))) {
    sendText(res, 503, 'text/html; charset=utf-8', BUILD_HINT, head);
    return;
  }

  let pathname: string;
  try {
    pathname = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
  } catch {
    sendText(res, 400, 'text/plain; charset=utf-8', 'Bad Request\n', head);
    return;
  }
  const candidate = resolve(root, `.${pathname}`);
  const inside = candidate === root || candidate.startsWith(root + sep);
  let file: string | null = inside && !pathname.includes('\0') && (await isFile(candidate)) ? candidate : null;
  if (!file && inside && extname(pathname) === '') file = index;
  if (!file) {
    sendText(res, 404, 'text/plain; charset=utf-8', 'Not Found\n', head);
    return;
  }

  const info = await stat(file);
  const immutable = file.startsWith(join(root, 'assets') + sep);
  const extension = extname(file).toLowerCase();
  const compressible =
    COMPRESSIBLE.has(extension) && info.size >= MIN_COMPRESS_BYTES && info.size <= MAX_COMPRESS_BYTES;
  const encoding = compressible ? pickEncoding(req.headers['accept-encoding']) : null;
  const headers = {
    'content-type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
    'last-modified': info.mtime.toUTCString(),
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(compressible ? { vary: 'Accept-Encoding' } : {}),
  };
  if (encoding) {
    const body = await compressedBody(file, `${info.size}:${info.mtimeMs}`, encoding);
    res.writeHead(200, { ...headers, 'content-encoding': encoding, 'content-length': String(body.length) });
    res.end(head ? undefined : body);
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': String(info.size) });
  if (head) {
    res.end();
    return;
  }
  await new Promise<void>((done, fail) => {
    createReadStream(file).on('error', fail).pipe(res).on('finish', done).on('error', fail);
  });
};
