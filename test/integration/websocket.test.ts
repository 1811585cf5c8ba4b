import { randomBytes } from 'node:crypto';
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  GetConnectionCommand,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { listCompanyConnections } from '../../functions/data/ws-connection-repository';
import { freshCompany } from '../helpers/fixtures';
import { selectMessageRoute } from '../../infra/local/websocket-api';
import { connectSocket as connect, openSockets, upgradeRejectedWith as rejectedWith } from '../helpers/ws-client';

const wsUrl = inject('wsUrl');
const env = inject('localCloudEnv');
const management = new ApiGatewayManagementApiClient({ endpoint: env.WS_MANAGEMENT_ENDPOINT, region: env.AWS_REGION });

// Connections are stored per company: a company of this file's own keeps the assertions exact.
let companyId: number;
let token: string;

beforeAll(async () => {
  const t = await freshCompany();
  companyId = t.company.id;
  token = t.attendantToken;
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
  management.destroy();
});

const closed = (socket: WebSocket): Promise<number> =>
  new Promise((resolve) => (socket.readyState === WebSocket.CLOSED ? resolve(1006) : socket.once('close', resolve)));

/** The id API Gateway gave the only connection of this file's company. */
const onlyConnectionId = async (): Promise<string> => {
  const connections = await listCompanyConnections(companyId);
  expect(connections).toHaveLength(1);
  return connections[0]!.connectionId;
};

const goneError = (connectionId: string) =>
  management
    .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode('{}') }))
    .then(
      () => null,
      (err: unknown) => err as Error,
    );

describe('WebSocket API', () => {
  it('rejects the upgrade with 401 without a token', async () => {
    expect(await rejectedWith(wsUrl)).toBe(401);
  });

  it('rejects the upgrade with 403 for a forged token (the client refreshes, decisions D9)', async () => {
    const forged = await new SignJWT({ cid: companyId, prf: 'admin', sup: true })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('11')
      .setIssuer('zapdesk')
      .setExpirationTime('10m')
      .sign(randomBytes(32));

    expect(await rejectedWith(`${wsUrl}?token=${forged}`)).toBe(403);
  });

  it('opens with a valid token, registers the connection, answers ping with pong, and forgets it on close', async () => {
    const { socket, next } = await connect(`${wsUrl}?token=${token}`);
    const connectionId = await onlyConnectionId();

    socket.send(JSON.stringify({ action: 'ping' }));
    expect(await next()).toEqual({ action: 'pong' });

    socket.close(1000, 'bye');
    await closed(socket);
    await vi.waitFor(async () => expect(await listCompanyConnections(companyId)).toHaveLength(0), { timeout: 10_000 });
    const err = await goneError(connectionId);
    expect(err?.name).toBe('GoneException');
  });

  it('routes unknown actions and non-JSON messages to $default', async () => {
    const { socket, next } = await connect(`${wsUrl}?token=${token}`);

    socket.send(JSON.stringify({ action: 'no-such-action' }));
    expect(await next()).toMatchObject({ error: 'ERR_UNKNOWN_ACTION' });
    socket.send('not json at all');
    expect(await next()).toMatchObject({ error: 'ERR_UNKNOWN_ACTION' });

    socket.close();
    await closed(socket);
    await vi.waitFor(async () => expect(await listCompanyConnections(companyId)).toHaveLength(0), { timeout: 10_000 });
  });

  it('serves the management API to the real SDK: post, describe, delete', async () => {
    const { socket, next } = await connect(`${wsUrl}?token=${token}`);
    const connectionId = await onlyConnectionId();

    await management.send(
      new PostToConnectionCommand({
        ConnectionId: connectionId,
        Data: new TextEncoder().encode('{"channel":"company-1-ticket"}'),
      }),
    );
    expect(await next()).toEqual({ channel: 'company-1-ticket' });

    const described = await management.send(new GetConnectionCommand({ ConnectionId: connectionId }));
    expect(described.ConnectedAt).toBeInstanceOf(Date);
    expect(described.LastActiveAt).toBeInstanceOf(Date);
    expect(described.Identity?.SourceIp).toBe('127.0.0.1');

    const tooBig = await management
      .send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new Uint8Array(128 * 1024 + 1) }))
      .catch((e: unknown) => e as Error);
    expect(tooBig).toMatchObject({ name: 'PayloadTooLargeException' });

    const closing = closed(socket);
    await management.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    expect(await closing).toBe(1000);
    await vi.waitFor(async () => expect(await listCompanyConnections(companyId)).toHaveLength(0), { timeout: 10_000 });
  });

  it('raises GoneException for a connection id that never existed', async () => {
    const err = await goneError('AAAAAAAAAAAAAAA=');

    expect(err?.name).toBe('GoneException');
    expect((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode).toBe(410);
  });
});

describe('route selection ($request.body.action)', () => {
  it('selects named actions and sends everything else to $default', () => {
    expect(selectMessageRoute('{"action":"ping"}')).toBe('ping');
    expect(selectMessageRoute('{"action":"nope"}')).toBe('$default');
    expect(selectMessageRoute('{"action":"$connect"}')).toBe('$default');
    expect(selectMessageRoute('{"action":42}')).toBe('$default');
    expect(selectMessageRoute('[{"action":"ping"}]')).toBe('$default');
    expect(selectMessageRoute('ping')).toBe('$default');
  });
});
