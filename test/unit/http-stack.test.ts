import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { handler as filesHandler } from '../../functions/http/files';
import { handler as systemHandler } from '../../functions/http/system';
import { handler as tagsHandler } from '../../functions/http/tags';
import { handler as usersHandler } from '../../functions/http/users';
import { httpEvent, lambdaContext } from '../helpers/http-event';

const call = async (h: typeof systemHandler, ...args: Parameters<typeof httpEvent>) => {
  const res = await h(httpEvent(...args), lambdaContext());
  return { status: res.statusCode, headers: res.headers ?? {}, body: res.body ? JSON.parse(res.body) : undefined };
};

const userToken = () => signAccessToken({ companyId: 7, userId: 3, profile: 'user', super: false });

describe('the HTTP handler stack', () => {
  it('answers a public route with JSON and no-store caching', async () => {
    const res = await call(systemHandler, 'GET', '/version');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: '7.0.0' });
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown route with 404 in the error format', async () => {
    const res = await call(systemHandler, 'GET', '/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERR_NOT_FOUND', message: 'Route not found' });
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await call(systemHandler, 'DELETE', '/version');
    expect(res.status).toBe(405);
    expect(res.body.error).toBe('ERR_METHOD_NOT_ALLOWED');
    expect(res.headers.Allow).toBe('GET');
  });

  it('rejects a protected route without a token with 401 (the client clears its session)', async () => {
    const res = await call(tagsHandler, 'GET', '/tags');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
  });

  it('rejects a token signed with another key with 403 ERR_INVALID_TOKEN (the client refreshes once)', async () => {
    const forged = await new SignJWT({ cid: 7, prf: 'admin', sup: true })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('3')
      .setIssuer('zapdesk')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('x'.repeat(32)));
    const res = await call(tagsHandler, 'GET', '/tags', { headers: { authorization: `Bearer ${forged}` } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_INVALID_TOKEN');
  });

  it('rejects an expired token with 403 ERR_SESSION_EXPIRED (the client refreshes once)', async () => {
    const expired = await signAccessToken({ companyId: 7, userId: 3, profile: 'user', super: false }, -10);
    const res = await call(tagsHandler, 'GET', '/tags', { headers: { authorization: `Bearer ${expired}` } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_SESSION_EXPIRED');
  });

  it('answers malformed JSON with 400 ERR_MALFORMED_JSON', async () => {
    const res = await call(tagsHandler, 'POST', '/tags', {
      body: '{"name": ',
      headers: { authorization: `Bearer ${await userToken()}` },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_MALFORMED_JSON', fields: [{ field: 'body' }] });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await call(tagsHandler, 'POST', '/tags', {
      body: JSON.stringify({ name: 'x'.repeat(300 * 1024) }),
      headers: { authorization: `Bearer ${await userToken()}` },
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
  });

  it('answers invalid fields with 400 naming each field and reason', async () => {
    const res = await call(tagsHandler, 'POST', '/tags', {
      body: { name: 'ab', color: 'blue', kanban: 3 },
      headers: { authorization: `Bearer ${await userToken()}` },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    const fields = (res.body.fields as { field: string; reason: string }[]).map((f) => f.field).sort();
    expect(fields).toEqual(['body.color', 'body.kanban', 'body.name']);
    expect(res.body.fields.find((f: { field: string }) => f.field === 'body.name').reason).toBe('Mensagem muito curta');
  });

  it('validates path and query parameters', async () => {
    const auth = { authorization: `Bearer ${await userToken()}` };
    const bad = await call(tagsHandler, 'GET', '/tags/abc', { headers: auth });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('params.id');
    const badQuery = await call(tagsHandler, 'GET', '/tags', { headers: auth, query: { pageNumber: '0' } });
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.fields[0].field).toBe('query.pageNumber');
  });

  it('rejects a non-JSON content type with 400', async () => {
    const res = await call(tagsHandler, 'POST', '/tags', {
      body: 'name=abc',
      headers: { authorization: `Bearer ${await userToken()}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers a multipart body that does not parse with 400 ERR_MALFORMED_BODY, before touching storage', async () => {
    const res = await call(usersHandler, 'POST', '/users/3/media-upload', {
      body: 'not a multipart body',
      headers: {
        authorization: `Bearer ${await userToken()}`,
        'content-type': 'multipart/form-data; boundary=abc',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_MALFORMED_BODY', fields: [{ field: 'body' }] });
  });

  it('hands a route its repeated multipart parts as arrays, in order (two files, one option id: a 400 on id)', async () => {
    const form = new FormData();
    form.append('files', new Blob(['%PDF-1.4 a']), 'a.pdf');
    form.append('id', '1');
    form.append('files', new Blob(['%PDF-1.4 b']), 'b.pdf');
    form.append('typeArch', 'fileList');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const adminToken = await signAccessToken({ companyId: 7, userId: 3, profile: 'admin', super: false });
    const res = await call(filesHandler, 'POST', '/files/uploadList/1', {
      body: Buffer.from(await request.arrayBuffer()).toString('latin1'),
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': request.headers.get('content-type')! },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([
      { field: 'body.id', reason: 'one option id per file, in the order of the files' },
    ]);
  });

  it('never leaks a stack trace: a table that cannot be reached is a bare 503 to retry', async () => {
    // Nothing listens at the unit tests' DynamoDB endpoint, so the repository call fails to connect.
    const res = await call(tagsHandler, 'GET', '/tags/1', {
      headers: { authorization: `Bearer ${await userToken()}` },
    });
    expect(res.status).toBe(503);
    expect(Object.keys(res.body).sort()).toEqual(['error', 'message']);
    expect(res.body.error).toBe('ERR_SERVICE_UNAVAILABLE');
    expect(JSON.stringify(res.body)).not.toMatch(/at |Error:|dynamodb|ECONN/i);
  });
});

describe('REST API (payload 1.0) events', () => {
  it('are served like HTTP API events: a known route answers, an unknown one is our 404', async () => {
    const rest = (httpMethod: string, path: string) =>
      ({
        httpMethod,
        resource: path,
        path,
        headers: { Host: 'api.example', 'Content-Type': 'application/json' },
        queryStringParameters: null,
        pathParameters: null,
        body: null,
        isBase64Encoded: false,
        requestContext: { requestId: 'rest-1', identity: { sourceIp: '203.0.113.9' } },
      }) as never;
    const ok = await systemHandler(rest('GET', '/api/version'), lambdaContext());
    expect(ok.statusCode).toBe(200);
    expect(JSON.parse(String(ok.body))).toEqual({ version: '7.0.0' });
    const missing = await systemHandler(rest('POST', '/api/messages/send'), lambdaContext());
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(String(missing.body)).error).toBe('ERR_NOT_FOUND');
  });
});
