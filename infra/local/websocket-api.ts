import { randomBytes, randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context } from 'aws-lambda';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { WS_ENTRIES, WS_ROUTES, type WsEntry } from '../../functions/realtime/routes';
import { loadHandler } from './handler-modules';
import { createLambdaContext, gatewayTime, invokeWithTimeout, LOCAL_ACCOUNT_ID } from './lambda-context';
import { clientIp, readBody } from './http-api';
import { describeError, type LocalLog } from './log';

/**
 * The WebSocket API half of the local gateway: the `$connect` / `$disconnect` / message routes of API
 * Gateway's WebSocket API (route selection on `$request.body.action`), and the `@connections`
 * management API that `@aws-sdk/client-apigatewaymanagementapi` posts to.
 */

/** API Gateway WebSocket limits: 128 KB per message, and the same for PostToConnection data. */
export const WS_MAX_MESSAGE_BYTES = 128 * 1024;
const INTEGRATION_TIMEOUT_MS = 29_000;
const STAGE = '$default';

interface WsConnectionState {
  socket: WebSocket;
  connectedAt: number;
  lastActiveAt: number;
  sourceIp: string;
  userAgent: string;
  domainName: string;
}

type WsLambdaHandler = (event: unknown, context: Context) => Promise<unknown>;

/** Named routes a message can select (`$connect` / `$disconnect` are never selected by a message). */
const MESSAGE_ROUTE_KEYS = new Set(
  WS_ROUTES.map((r) => r.routeKey).filter((k) => k !== '$connect' && k !== '$disconnect' && k !== '$default'),
);
const entryFor = (routeKey: string): WsEntry | undefined => WS_ROUTES.find((r) => r.routeKey === routeKey)?.entry;

/** `$request.body.action`: the value of `action` when the body is a JSON object naming a route. */
export const selectMessageRoute = (body: string): string => {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const action = (parsed as { action?: unknown }).action;
      if (typeof action === 'string' && MESSAGE_ROUTE_KEYS.has(action)) return action;
    }
  } catch {
    // not JSON: $default
  }
  return '$default';
};

/** Ids shaped like API Gateway's (`L0SM9cOFvHcCIhw=`), safe in the @connections path. */
const newConnectionId = (): string => `${randomBytes(11).toString('base64url')}=`;

const statusOf = (result: unknown): { statusCode: number; body: string; headers: Record<string, string> } => {
  if (result && typeof result === 'object' && 'statusCode' in result) {
    const r = result as { statusCode?: unknown; body?: unknown; headers?: unknown };
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((r.headers ?? {}) as Record<string, unknown>))
      headers[k.toLowerCase()] = String(v);
    return {
      statusCode: typeof r.statusCode === 'number' ? r.statusCode : 200,
      body: typeof r.body === 'string' ? r.body : '',
      headers,
    };
  }
  return { statusCode: 200, body: '', headers: {} };
};

const isUtf8 = (data: Buffer): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
};

export interface WebSocketApiOptions {
  functionPrefix: string;
  region: string;
  log: LocalLog;
  /** Path of the management API, e.g. `/_ws` (requests come to `/_ws/@connections/{id}`). */
  managementPath: string;
}

export class WebSocketApi {
  private readonly wss: WebSocketServer;
  private readonly connections = new Map<string, WsConnectionState>();
  private readonly pending = new Set<Promise<unknown>>();
  /** Subprotocol the $connect handler answered with, per upgrade request (API Gateway echoes it). */
  private readonly protocols = new WeakMap<IncomingMessage, string>();
  private stopping = false;

  constructor(private readonly options: WebSocketApiOptions) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: WS_MAX_MESSAGE_BYTES,
      handleProtocols: (_offered, req) => this.protocols.get(req) ?? false,
    });
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work)).catch(() => undefined);
    return work;
  }

  private async invoke(entry: WsEntry, event: unknown): Promise<unknown> {
    const fn = {
      functionName: `${this.options.functionPrefix}-ws-${entry}`,
      region: this.options.region,
      timeoutMs: INTEGRATION_TIMEOUT_MS,
    };
    const handler = await loadHandler<WsLambdaHandler>(WS_ENTRIES[entry]);
    return invokeWithTimeout(fn, () => handler(event, createLambdaContext(fn)));
  }

  private requestContext(
    routeKey: string,
    eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT',
    connectionId: string,
    state: Pick<WsConnectionState, 'connectedAt' | 'sourceIp' | 'userAgent' | 'domainName'>,
  ) {
    const now = new Date();
    return {
      routeKey,
      eventType,
      extendedRequestId: randomUUID(),
      requestTime: gatewayTime(now),
      messageDirection: 'IN' as const,
      stage: STAGE,
      connectedAt: state.connectedAt,
      requestTimeEpoch: now.getTime(),
      identity: { sourceIp: state.sourceIp, userAgent: state.userAgent },
      requestId: randomUUID(),
      domainName: state.domainName,
      connectionId,
      apiId: 'local',
      accountId: LOCAL_ACCOUNT_ID,
    };
  }

  /** An HTTP upgrade on /ws: `$connect` decides; a non-2xx answer rejects the upgrade with its status. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    const connectionId = newConnectionId();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const headers: Record<string, string> = {};
    const multiValueHeaders: Record<string, string[]> = {};
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i] ?? '';
      const value = req.rawHeaders[i + 1] ?? '';
      headers[name] = name in headers ? `${headers[name]},${value}` : value;
      (multiValueHeaders[name] ??= []).push(value);
    }
    const queryStringParameters: Record<string, string> = {};
    const multiValueQueryStringParameters: Record<string, string[]> = {};
    for (const [k, v] of url.searchParams) {
      queryStringParameters[k] = v;
      (multiValueQueryStringParameters[k] ??= []).push(v);
    }
    const state = {
      connectedAt: Date.now(),
      sourceIp: clientIp(req),
      userAgent: req.headers['user-agent'] ?? '',
      domainName: req.headers.host ?? 'localhost',
    };
    const hasQuery = Object.keys(queryStringParameters).length > 0;
    const event = {
      headers,
      multiValueHeaders,
      ...(hasQuery ? { queryStringParameters, multiValueQueryStringParameters } : {}),
      requestContext: this.requestContext('$connect', 'CONNECT', connectionId, state),
      isBase64Encoded: false,
    };

    void this.track(
      this.invoke('connect', event)
        .then(statusOf)
        .catch((err: unknown) => {
          this.options.log.error('ws $connect failed', { connectionId, ...describeError(err) });
          const failed: ReturnType<typeof statusOf> = {
            statusCode: 500,
            body: JSON.stringify({ message: 'Internal server error' }),
            headers: {},
          };
          return failed;
        })
        .then((answer) => {
          if (answer.statusCode < 200 || answer.statusCode > 299) {
            this.reject(socket, answer.statusCode, answer.body);
            return;
          }
          if (socket.destroyed || this.stopping) {
            // The client gave up while $connect ran: the connection never opened, forget it.
            socket.destroy();
            void this.track(this.disconnect(connectionId, state, 1006, 'Connection closed before open'));
            return;
          }
          const protocol = answer.headers['sec-websocket-protocol'];
          if (protocol) this.protocols.set(req, protocol);
          this.wss.handleUpgrade(req, socket, head, (ws) => this.open(connectionId, ws, state));
        }),
    );
  }

  private reject(socket: Duplex, statusCode: number, body: string): void {
    if (socket.destroyed) return;
    const payload = Buffer.from(body, 'utf8');
    socket.end(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? 'Error'}\r\n` +
        'Connection: close\r\n' +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${payload.byteLength}\r\n\r\n` +
        payload.toString('utf8'),
    );
  }

  private open(
    connectionId: string,
    socket: WebSocket,
    base: Omit<WsConnectionState, 'socket' | 'lastActiveAt'>,
  ): void {
    const state: WsConnectionState = { ...base, socket, lastActiveAt: Date.now() };
    this.connections.set(connectionId, state);
    socket.on('message', (data: RawData, isBinary: boolean) => {
      state.lastActiveAt = Date.now();
      const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      void this.track(this.message(connectionId, state, buffer, isBinary));
    });
    socket.on('close', (code: number, reason: Buffer) => {
      this.connections.delete(connectionId);
      void this.track(this.disconnect(connectionId, state, code, reason.toString('utf8')));
    });
    socket.on('error', (err) => this.options.log.warn('ws socket error', { connectionId, ...describeError(err) }));
  }

  private async message(
    connectionId: string,
    state: WsConnectionState,
    data: Buffer,
    isBinary: boolean,
  ): Promise<void> {
    const body = isBinary ? data.toString('base64') : data.toString('utf8');
    const routeKey = isBinary ? '$default' : selectMessageRoute(body);
    const entry = entryFor(routeKey) ?? 'message';
    const requestContext = {
      ...this.requestContext(routeKey, 'MESSAGE', connectionId, state),
      messageId: randomUUID(),
    };
    try {
      await this.invoke(entry, { requestContext, body, isBase64Encoded: isBinary });
    } catch (err) {
      this.options.log.error('ws message handler failed', { connectionId, routeKey, ...describeError(err) });
      // What API Gateway sends the client when the integration fails.
      if (state.socket.readyState === WebSocket.OPEN) {
        state.socket.send(
          JSON.stringify({ message: 'Internal server error', connectionId, requestId: requestContext.requestId }),
        );
      }
    }
  }

  private async disconnect(
    connectionId: string,
    state: Pick<WsConnectionState, 'connectedAt' | 'sourceIp' | 'userAgent' | 'domainName'>,
    code: number,
    reason: string,
  ): Promise<void> {
    const requestContext = {
      ...this.requestContext('$disconnect', 'DISCONNECT', connectionId, state),
      disconnectStatusCode: code,
      disconnectReason: reason,
    };
    try {
      await this.invoke('disconnect', { headers: {}, multiValueHeaders: {}, requestContext, isBase64Encoded: false });
    } catch (err) {
      this.options.log.error('ws $disconnect failed', { connectionId, ...describeError(err) });
    }
  }

  /** `/_ws/@connections/{id}`: POST sends, GET describes, DELETE closes; a closed id answers 410 Gone. */
  async handleManagement(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const prefix = `${this.options.managementPath}/@connections/`;
    const send = (status: number, body?: unknown, errorType?: string) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(payload)),
        'x-amzn-requestid': randomUUID(),
        ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
      });
      res.end(payload);
    };
    if (!path.startsWith(prefix) || path.length === prefix.length) {
      send(404, { message: 'Not Found' }, 'NotFoundException');
      return;
    }
    const connectionId = decodeURIComponent(path.slice(prefix.length));
    const state = this.connections.get(connectionId);
    const open = state !== undefined && state.socket.readyState === WebSocket.OPEN;
    const gone = () => send(410, { message: `Connection ${connectionId} is gone` }, 'GoneException');

    switch (req.method) {
      case 'POST': {
        const data = await readBody(req, WS_MAX_MESSAGE_BYTES);
        if (data === null) {
          send(413, { message: 'Payload too large' }, 'PayloadTooLargeException');
          return;
        }
        if (!open) return gone();
        state.socket.send(isUtf8(data) ? data.toString('utf8') : data);
        send(200);
        return;
      }
      case 'GET':
        if (!open) return gone();
        send(200, {
          connectedAt: new Date(state.connectedAt).toISOString(),
          identity: { sourceIp: state.sourceIp, userAgent: state.userAgent },
          lastActiveAt: new Date(state.lastActiveAt).toISOString(),
        });
        return;
      case 'DELETE':
        if (!open) return gone();
        state.socket.close(1000, 'Connection closed by the server');
        send(204);
        return;
      default:
        send(405, { message: 'Method not allowed' }, 'MethodNotAllowedException');
    }
  }

  /** Closes every connection (their $disconnect runs) and waits for in-flight invocations. */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping = true;
    for (const { socket } of this.connections.values()) socket.close(1001, 'Going away');
    const idle = () => this.connections.size === 0 && this.pending.size === 0;
    const waitIdle = async (until: number) => {
      while (!idle() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    };
    await waitIdle(Date.now() + graceMs);
    for (const { socket } of this.connections.values()) socket.terminate();
    await waitIdle(Date.now() + 1_000);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
