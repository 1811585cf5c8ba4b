import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { API_BASE } from '../../functions/http/route-matcher';
import { handleApiRequest } from './http-api';
import { describeError, type LocalLog } from './log';
import { proxyS3Api, serveMedia } from './s3-proxy';
import { serveStatic } from './static-files';
import { WebSocketApi } from './websocket-api';

/**
 * The local gateway: one node:http server on loopback that plays CloudFront's single origin (DESIGN §2)
 * and the API Gateway APIs behind it:
 *
 *   /api/*                      HTTP API -> area Lambda handlers, in-process (http-api.ts)
 *   /ws                         WebSocket API -> $connect / $disconnect / message handlers (websocket-api.ts)
 *   /_ws/@connections/{id}      the WebSocket management API (WS_MANAGEMENT_ENDPOINT)
 *   /media/*                    media bucket, read-only (s3-proxy.ts)
 *   /_s3/*                      the S3 API of the emulator, same-origin for presigned URLs (S3_ENDPOINT)
 *   /config.json                runtime config the frontend fetches before rendering
 *   everything else             frontend/dist, with SPA fallback (static-files.ts)
 */
export const WS_PATH = '/ws';
export const WS_MANAGEMENT_PATH = '/_ws';
export const S3_PROXY_PATH = '/_s3';
export const MEDIA_PATH = '/media';

export interface GatewayOptions {
  /** 0 picks a free port. */
  port: number;
  /** Loopback only; the default. */
  host?: string;
  /** Built frontend to serve; null answers the "run npm run build:web" page. */
  frontendDir: string | null;
  /** The S3 emulator (fauxqs) and the media bucket's physical name. */
  s3: { endpoint: string; mediaBucket: string };
  region: string;
  /** Prefix of local function names (`zapdesk-local` -> `zapdesk-local-http-tags`). */
  functionPrefix: string;
  log: LocalLog;
  /** The Meta app's id for the browser's Facebook login (config.json `metaAppId`, decisions D81); none: no login. */
  metaAppId?: string | undefined;
}

export interface Gateway {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `ws://127.0.0.1:<port>/ws` */
  wsUrl: string;
  /** What WS_MANAGEMENT_ENDPOINT must be: `http://127.0.0.1:<port>/_ws` */
  managementEndpoint: string;
  /** What S3_ENDPOINT must be (path-style): `http://localhost:<port>/_s3` */
  s3Endpoint: string;
  stop: () => Promise<void>;
}

const under = (path: string, mount: string): boolean => path === mount || path.startsWith(`${mount}/`);

const runtimeConfig = (req: IncomingMessage, metaAppId: string | undefined) => {
  const host = req.headers.host ?? 'localhost';
  const secure = req.headers['x-forwarded-proto'] === 'https';
  return {
    apiBase: API_BASE,
    wsUrl: `${secure ? 'wss' : 'ws'}://${host}${WS_PATH}`,
    mediaBase: MEDIA_PATH,
    stage: 'local',
    ...(metaAppId ? { metaAppId } : {}),
  };
};

export const startGateway = async (options: GatewayOptions): Promise<Gateway> => {
  const host = options.host ?? '127.0.0.1';
  const s3Endpoint = new URL(options.s3.endpoint);
  const websocket = new WebSocketApi({
    functionPrefix: options.functionPrefix,
    region: options.region,
    log: options.log,
    managementPath: WS_MANAGEMENT_PATH,
  });

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (under(path, API_BASE))
      return handleApiRequest(req, res, { functionPrefix: options.functionPrefix, region: options.region });
    if (under(path, WS_MANAGEMENT_PATH)) return websocket.handleManagement(req, res);
    if (under(path, MEDIA_PATH)) return serveMedia(req, res, s3Endpoint, options.s3.mediaBucket, MEDIA_PATH);
    if (under(path, S3_PROXY_PATH)) return proxyS3Api(req, res, s3Endpoint, S3_PROXY_PATH);
    if (path === WS_PATH) {
      res.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' });
      res.end('Upgrade Required: open a WebSocket to /ws\n');
      return;
    }
    if (path === '/config.json') {
      const body = JSON.stringify(runtimeConfig(req, options.metaAppId));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(body);
      return;
    }
    return serveStatic(req, res, options.frontendDir);
  };

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      options.log.error('gateway request failed', { method: req.method, url: req.url, ...describeError(err) });
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'ERR_INTERNAL', message: 'Local gateway error' }));
      } else {
        res.destroy();
      }
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if ((req.url ?? '').split('?')[0] !== WS_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    websocket.handleUpgrade(req, socket, head);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const base = `http://${host}:${port}`;

  return {
    port,
    url: base,
    wsUrl: `ws://${host}:${port}${WS_PATH}`,
    managementEndpoint: `${base}${WS_MANAGEMENT_PATH}`,
    s3Endpoint: `http://localhost:${port}${S3_PROXY_PATH}`,
    stop: async () => {
      await websocket.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
};
