import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { DEFAULT_ROUTE_AREA } from '../../functions/http/areas';
import { startGateway } from '../../infra/local/gateway';
import {
  buildHttpEvent,
  invokeHttpHandler,
  selectRoute,
  toGatewayResponse,
  type HttpRequestSnapshot,
} from '../../infra/local/http-api';
import { createLocalLog } from '../../infra/local/log';
import { restoreBucket, snapshotBucket } from '../../infra/local/s3-snapshot';
import { TEST_META_APP } from '../helpers/test-cloud';

const gatewayUrl = inject('gatewayUrl');
const env = inject('localCloudEnv');

const s3 = new S3Client({ endpoint: env.S3_ENDPOINT, forcePathStyle: true, region: env.AWS_REGION });
afterAll(() => s3.destroy());

const userToken = () => signAccessToken({ companyId: 900_001, userId: 1, profile: 'admin', super: false });

/** A raw request (fetch would normalise `..` and some headers away). */
const rawGet = (path: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const url = new URL(gatewayUrl);
    request({ hostname: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });

describe('HTTP API through the gateway', () => {
  it('GET /api/version answers 200 with the product version and an API Gateway request id', async () => {
    const res = await fetch(`${gatewayUrl}/api/version`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('apigw-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual({ version: '7.0.0' });
  });

  it('treats a trailing slash as the same route', async () => {
    const res = await fetch(`${gatewayUrl}/api/version/`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version: '7.0.0' });
  });

  it('sends unknown paths under /api to the $default route: 404 ERR_NOT_FOUND', async () => {
    const res = await fetch(`${gatewayUrl}/api/no-such-thing/42`);

    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
  });

  it('answers 405 with an Allow header for a known path and another method', async () => {
    const res = await fetch(`${gatewayUrl}/api/version`, { method: 'POST' });

    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(await res.json()).toMatchObject({ error: 'ERR_METHOD_NOT_ALLOWED' });
  });

  it('passes the bearer token: a user route without one is 401', async () => {
    const res = await fetch(`${gatewayUrl}/api/tags`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });

    expect(res.status).toBe(401);
  });

  it('passes the body as sent: malformed JSON on a POST route is 400 ERR_MALFORMED_JSON', async () => {
    const res = await fetch(`${gatewayUrl}/api/tags`, {
      method: 'POST',
      body: '{"name": "Vendas",',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await userToken()}` },
    });

    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'ERR_MALFORMED_JSON' });
  });

  it('answers a malformed %-escape in a path (e.g. a reset link typed by hand) with a 404, never a 5xx', async () => {
    const res = await fetch(`${gatewayUrl}/api/forgetpassword/ana%E0%A4%A@x.com`, { method: 'POST' });

    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
  });

  it('passes path parameters: a non-numeric tag id is a 400 on params.id', async () => {
    const res = await fetch(`${gatewayUrl}/api/tags/abc`, {
      headers: { authorization: `Bearer ${await userToken()}` },
    });

    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; fields: { field: string }[] };
    expect(body.error).toBe('ERR_VALIDATION');
    expect(body.fields.map((f) => f.field)).toContain('params.id');
  });

  it('passes the query string: a bad pageNumber is a 400 on query.pageNumber', async () => {
    const res = await fetch(`${gatewayUrl}/api/tags?pageNumber=abc`, {
      headers: { authorization: `Bearer ${await userToken()}` },
    });

    expect(res.status).toBe(400);
    const body = (await res.json()) as { fields: { field: string }[] };
    expect(body.fields.map((f) => f.field)).toContain('query.pageNumber');
  });

  it("enforces API Gateway's 10 MB request limit with a 413", async () => {
    const res = await fetch(`${gatewayUrl}/api/tags`, {
      method: 'POST',
      body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await userToken()}` },
    });

    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
  });
});

describe('API Gateway v2 event and result mapping', () => {
  const snapshot = (over: Partial<HttpRequestSnapshot> = {}): HttpRequestSnapshot => ({
    method: 'POST',
    target: '/api/tags/7?kanban=1&x=a&x=b&e=%C3%A9',
    rawHeaders: [
      'Host',
      'localhost:3000',
      'Cookie',
      'a=1; b=2',
      'X-Multi',
      'one',
      'x-multi',
      'two',
      'Content-Type',
      'application/json',
      'User-Agent',
      'vitest',
    ],
    body: Buffer.from('{"a":1}'),
    sourceIp: '127.0.0.1',
    protocol: 'HTTP/1.1',
    ...over,
  });

  it('builds a payload 2.0 event: route key, raw path and query, joined repeats, cookies, text body', () => {
    const event = buildHttpEvent(snapshot(), { routeKey: 'POST /api/tags/{id}', pathParameters: { id: '7' } });

    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('POST /api/tags/{id}');
    expect(event.rawPath).toBe('/api/tags/7');
    expect(event.rawQueryString).toBe('kanban=1&x=a&x=b&e=%C3%A9');
    expect(event.queryStringParameters).toEqual({ kanban: '1', x: 'a,b', e: 'é' });
    expect(event.pathParameters).toEqual({ id: '7' });
    expect(event.cookies).toEqual(['a=1', 'b=2']);
    expect(event.headers['x-multi']).toBe('one,two');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(event.body).toBe('{"a":1}');
    expect(event.isBase64Encoded).toBe(false);
    expect(event.requestContext).toMatchObject({
      domainName: 'localhost:3000',
      routeKey: 'POST /api/tags/{id}',
      stage: '$default',
      http: { method: 'POST', path: '/api/tags/7', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
    });
    expect(event.requestContext.time).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
  });

  it('base64-encodes binary bodies and leaves out an empty one', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    const binary = buildHttpEvent(snapshot({ rawHeaders: ['Content-Type', 'image/png'], body: png }), {
      routeKey: '$default',
    });
    const empty = buildHttpEvent(
      snapshot({ method: 'GET', target: '/api/version', rawHeaders: [], body: Buffer.alloc(0) }),
      {
        routeKey: 'GET /api/version',
      },
    );

    expect(binary.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.body ?? '', 'base64')).toEqual(png);
    expect(empty.body).toBeUndefined();
    expect(empty.isBase64Encoded).toBe(false);
    expect(empty.rawQueryString).toBe('');
    expect(empty.queryStringParameters).toBeUndefined();
    expect(empty.cookies).toBeUndefined();
  });

  it('selects the route key API Gateway would, and $default for unknown paths', () => {
    expect(selectRoute('GET', '/api/tags/7')).toEqual({
      routeKey: 'GET /api/tags/{id}',
      pathParameters: { id: '7' },
      area: 'tags',
    });
    expect(selectRoute('DELETE', '/api/version')).toEqual({ routeKey: '$default', area: DEFAULT_ROUTE_AREA });
    expect(selectRoute('GET', '/api/nope')).toEqual({ routeKey: '$default', area: DEFAULT_ROUTE_AREA });
  });

  it('turns cookies into Set-Cookie headers and decodes base64 bodies', () => {
    const response = toGatewayResponse({
      statusCode: 201,
      headers: { 'Content-Type': 'image/png' },
      cookies: ['rt=abc; HttpOnly', 'theme=dark'],
      body: Buffer.from([1, 2, 3]).toString('base64'),
      isBase64Encoded: true,
    });

    expect(response).toEqual({
      statusCode: 201,
      headers: { 'content-type': 'image/png' },
      cookies: ['rt=abc; HttpOnly', 'theme=dark'],
      body: Buffer.from([1, 2, 3]),
    });
  });

  it('reads a result without statusCode as a 200 JSON body, like API Gateway', () => {
    const response = toGatewayResponse({ ok: true });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body.toString('utf8'))).toEqual({ ok: true });
  });

  it('answers 500 ERR_INTERNAL without a stack when a handler throws, and logs it once', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const event = buildHttpEvent(snapshot(), { routeKey: 'POST /api/tags/{id}' });
    try {
      const response = await invokeHttpHandler(
        async () => {
          throw new Error('database exploded at secret place');
        },
        event,
        { functionName: 'test-http', region: 'us-east-1' },
      );

      const body = response.body.toString('utf8');
      expect(response.statusCode).toBe(500);
      expect(JSON.parse(body)).toMatchObject({ error: 'ERR_INTERNAL' });
      expect(body).not.toContain('exploded');
      expect(body).not.toContain('    at ');
      const logged = stderr.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('database exploded'));
      expect(logged).toHaveLength(1);
    } finally {
      stderr.mockRestore();
    }
  });

  it("answers API Gateway's 503 when the handler outlives the integration timeout", async () => {
    const event = buildHttpEvent(snapshot(), { routeKey: 'POST /api/tags/{id}' });

    const response = await invokeHttpHandler(() => new Promise(() => undefined), event, {
      functionName: 'test-http',
      region: 'us-east-1',
      timeoutMs: 20,
    });

    expect(response.statusCode).toBe(503);
    expect(JSON.parse(response.body.toString('utf8'))).toEqual({ message: 'Service Unavailable' });
  });
});

describe('frontend and runtime config', () => {
  it('serves index.html at /', async () => {
    const res = await fetch(`${gatewayUrl}/`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('data-test="zapdesk-index"');
  });

  it('falls back to index.html for client-side routes', async () => {
    const res = await fetch(`${gatewayUrl}/tickets/42`);

    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data-test="zapdesk-index"');
  });

  it('serves hashed assets with their type and a long cache', async () => {
    const res = await fetch(`${gatewayUrl}/assets/index-test.js`);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(await res.text()).toContain('zapdesk');
  });

  it('answers 404 for a missing file and never leaves the frontend directory', async () => {
    const missing = await fetch(`${gatewayUrl}/missing-image.png`);
    const escape = await rawGet('/..%2f..%2f..%2f..%2fetc%2fpasswd');

    expect(missing.status).toBe(404);
    expect(escape.status).toBe(404);
    expect(escape.body).not.toContain('root:');
  });

  it("serves /config.json with the WebSocket URL of the host the browser used and the Meta app's id", async () => {
    const res = await fetch(`${gatewayUrl}/config.json`);
    const host = new URL(gatewayUrl).host;

    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      apiBase: '/api',
      wsUrl: `ws://${host}/ws`,
      mediaBase: '/media',
      stage: 'local',
      // The test cloud runs with a Meta app (for the Facebook login, D81); its secret is never here.
      metaAppId: TEST_META_APP.META_APP_ID,
    });
    expect(JSON.stringify(body)).not.toContain(TEST_META_APP.META_APP_SECRET);
  });

  it('tells people to build the frontend when there is no build', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zapdesk-nofrontend-'));
    const gateway = await startGateway({
      port: 0,
      frontendDir: join(dir, 'dist'),
      s3: { endpoint: 'http://127.0.0.1:9', mediaBucket: 'none' },
      region: 'us-east-1',
      functionPrefix: 'test',
      log: createLocalLog(true),
    });
    try {
      const res = await fetch(`${gateway.url}/`);

      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('npm run build:web');
    } finally {
      await gateway.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('media', () => {
  const key = `test/${randomUUID()}/olá mundo.txt`;
  const mediaUrl = (k: string) => `${gatewayUrl}/media/${k.split('/').map(encodeURIComponent).join('/')}`;

  it('serves an object put with the S3 client under /media, with its type and length', async () => {
    await s3.send(
      new PutObjectCommand({ Bucket: env.MEDIA_BUCKET, Key: key, Body: 'olá, mundo', ContentType: 'text/plain' }),
    );

    const res = await fetch(mediaUrl(key));

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength('olá, mundo')));
    expect(await res.text()).toBe('olá, mundo');
  });

  it('answers ranges, as audio and video players ask', async () => {
    const res = await fetch(mediaUrl(key), { headers: { range: 'bytes=0-1' } });

    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 0-1/${Buffer.byteLength('olá, mundo')}`);
    expect(await res.text()).toBe('ol');
  });

  it('answers 404 for a missing object', async () => {
    const res = await fetch(mediaUrl(`test/${randomUUID()}.png`));

    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
  });

  it('accepts a browser PUT to a presigned URL on the same origin, then serves it', async () => {
    const uploadKey = `uploads/${randomUUID()}.png`;
    const bytes = randomBytes(2048);
    const url = await getSignedUrl(
      s3,
      new PutObjectCommand({ Bucket: env.MEDIA_BUCKET, Key: uploadKey, ContentType: 'image/png' }),
      { expiresIn: 300 },
    );

    const put = await fetch(url, { method: 'PUT', body: bytes, headers: { 'content-type': 'image/png' } });
    const get = await fetch(mediaUrl(uploadKey));

    expect(new URL(url).pathname.startsWith('/_s3/')).toBe(true);
    expect(new URL(url).port).toBe(new URL(gatewayUrl).port);
    expect(put.status).toBe(200);
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await get.arrayBuffer())).toEqual(bytes);
  });

  it('snapshots a bucket to disk and restores it into an empty one', async () => {
    const source = `snapshot-${randomUUID()}`;
    const target = `restore-${randomUUID()}`;
    const dir = await mkdtemp(join(tmpdir(), 'zapdesk-snapshot-'));
    try {
      await s3.send(new CreateBucketCommand({ Bucket: source }));
      await s3.send(new CreateBucketCommand({ Bucket: target }));
      await s3.send(
        new PutObjectCommand({
          Bucket: source,
          Key: 'a/logo.png',
          Body: Buffer.from([1, 2, 3]),
          ContentType: 'image/png',
        }),
      );
      await s3.send(
        new PutObjectCommand({
          Bucket: source,
          Key: 'b c.txt',
          Body: 'texto',
          ContentType: 'text/plain',
          Metadata: { origin: 'whatsapp' },
        }),
      );
      await s3.send(new PutObjectCommand({ Bucket: source, Key: 'gone.txt', Body: 'x' }));
      expect(await snapshotBucket(s3, source, dir)).toBe(3);
      await s3.send(new DeleteObjectCommand({ Bucket: source, Key: 'gone.txt' }));
      expect(await snapshotBucket(s3, source, dir)).toBe(2);

      expect(await restoreBucket(s3, target, dir)).toBe(2);

      const logo = await s3.send(new GetObjectCommand({ Bucket: target, Key: 'a/logo.png' }));
      const text = await s3.send(new GetObjectCommand({ Bucket: target, Key: 'b c.txt' }));
      expect(logo.ContentType).toBe('image/png');
      expect(Buffer.from((await logo.Body?.transformToByteArray()) ?? [])).toEqual(Buffer.from([1, 2, 3]));
      expect(text.Metadata).toEqual({ origin: 'whatsapp' });
      expect(await text.Body?.transformToString()).toBe('texto');
      await expect(s3.send(new GetObjectCommand({ Bucket: target, Key: 'gone.txt' }))).rejects.toMatchObject({
        name: 'NoSuchKey',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('local cloud table', () => {
  it('has the shared table definition with TTL on `ttl`', async () => {
    const dynamo = new DynamoDBClient({ endpoint: env.DYNAMODB_ENDPOINT, region: env.AWS_REGION });
    try {
      const table = await dynamo.send(new DescribeTableCommand({ TableName: env.TABLE_NAME }));
      const ttl = await dynamo.send(new DescribeTimeToLiveCommand({ TableName: env.TABLE_NAME }));

      expect(table.Table?.GlobalSecondaryIndexes?.map((g) => g.IndexName).sort()).toEqual([
        'gsi1',
        'gsi2',
        'gsi3',
        'gsi4',
        'gsi5',
      ]);
      expect(table.Table?.StreamSpecification).toMatchObject({
        StreamEnabled: true,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      });
      expect(ttl.TimeToLiveDescription).toMatchObject({ TimeToLiveStatus: 'ENABLED', AttributeName: 'ttl' });
    } finally {
      dynamo.destroy();
    }
  });
});
