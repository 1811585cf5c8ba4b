import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

/**
 * The built frontend (frontend/dist), as CloudFront serves it from the web bucket: files by path,
 * `index.html` for any extension-less path (client-side routes), hashed `/assets/*` cached for good.
 * The directory is looked at on every request, so a `npm run build:web` while the cloud runs is live.
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
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': String(info.size),
    'last-modified': info.mtime.toUTCString(),
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (head) {
    res.end();
    return;
  }
  await new Promise<void>((done, fail) => {
    createReadStream(file).on('error', fail).pipe(res).on('finish', done).on('error', fail);
  });
};
