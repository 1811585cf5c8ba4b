import { request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * The gateway's two doors to the S3 emulator (fauxqs has no CORS, so browsers only ever talk to the
 * gateway's own origin):
 * - `/media/<key>`: read-only media, like CloudFront in front of the media bucket;
 * - `/_s3/<bucket>/<key>?...`: the S3 API itself, path-style, for the SDK and for presigned PUT/GET URLs
 *   (S3_ENDPOINT points here, so every URL the functions presign is same-origin for the browser).
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
]);

const forwardable = (headers: IncomingHttpHeaders, keep?: ReadonlySet<string>): Record<string, string | string[]> => {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    if (keep && !keep.has(name)) continue;
    out[name] = value;
  }
  return out;
};

const sendJson = (res: ServerResponse, status: number, body: unknown, head = false) => {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) });
  res.end(head ? undefined : payload);
};

interface Upstream {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: IncomingMessage;
}

const callS3 = (endpoint: URL, up: Upstream): Promise<IncomingMessage> =>
  new Promise((resolve, reject) => {
    const outgoing = request(
      { hostname: endpoint.hostname, port: endpoint.port, method: up.method, path: up.path, headers: up.headers },
      resolve,
    );
    outgoing.on('error', reject);
    if (up.body) up.body.pipe(outgoing);
    else outgoing.end();
  });

const relay = (from: IncomingMessage, to: ServerResponse, keep?: ReadonlySet<string>): Promise<void> =>
  new Promise((resolve, reject) => {
    to.writeHead(from.statusCode ?? 502, forwardable(from.headers, keep));
    from.pipe(to).on('finish', resolve).on('error', reject);
    from.on('error', reject);
  });

/** Encodes a decoded S3 key segment by segment (keys may hold `/`, spaces, accents). */
const encodeKey = (key: string): string => key.split('/').map(encodeURIComponent).join('/');

/** `/_s3/...` -> the emulator, unchanged: method, query, headers (signatures are not checked) and body. */
export const proxyS3Api = async (
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: URL,
  mountPath: string,
): Promise<void> => {
  const target = (req.url ?? '/').slice(mountPath.length) || '/';
  const upstream = await callS3(endpoint, {
    method: req.method ?? 'GET',
    path: target.startsWith('/') ? target : `/${target}`,
    headers: forwardable(req.headers),
    body: req,
  });
  await relay(upstream, res);
};

const MEDIA_REQUEST_HEADERS = new Set([
  'range',
  'if-none-match',
  'if-modified-since',
  'if-match',
  'if-unmodified-since',
]);
const MEDIA_RESPONSE_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-range',
  'content-disposition',
  'content-encoding',
  'cache-control',
  'etag',
  'last-modified',
  'accept-ranges',
]);

/** `/media/<key>` -> GetObject on the media bucket (ranges and conditional requests pass through). */
export const serveMedia = async (
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: URL,
  bucket: string,
  mountPath: string,
): Promise<void> => {
  const head = req.method === 'HEAD';
  if (req.method !== 'GET' && !head) {
    res.setHeader('allow', 'GET, HEAD');
    sendJson(res, 405, { error: 'ERR_METHOD_NOT_ALLOWED', message: 'Method not allowed' });
    return;
  }
  let key: string;
  try {
    key = decodeURIComponent(((req.url ?? '').split('?')[0] ?? '').slice(mountPath.length + 1));
  } catch {
    key = '';
  }
  if (!key) {
    sendJson(res, 404, { error: 'ERR_NOT_FOUND', message: 'Media not found' }, head);
    return;
  }
  const upstream = await callS3(endpoint, {
    method: 'GET',
    path: `/${encodeURIComponent(bucket)}/${encodeKey(key)}`,
    headers: forwardable(req.headers, MEDIA_REQUEST_HEADERS),
  });
  const status = upstream.statusCode ?? 502;
  if (status === 404 || status === 403) {
    upstream.resume();
    sendJson(res, 404, { error: 'ERR_NOT_FOUND', message: 'Media not found' }, head);
    return;
  }
  if (head) {
    upstream.resume();
    res.writeHead(status, forwardable(upstream.headers, MEDIA_RESPONSE_HEADERS));
    res.end();
    return;
  }
  await relay(upstream, res, MEDIA_RESPONSE_HEADERS);
};
