import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as tagsHandler } from '../../functions/http/tags';
import { listTags } from '../../functions/data/tag-repository';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { httpEvent, lambdaContext } from '../helpers/http-event';

let a: TestCompany;
let b: TestCompany;
beforeAll(async () => {
  [a, b] = await Promise.all([freshCompany(), freshCompany()]);
});

describe('tags through the gateway', () => {
  it('an attendant creates a tag and finds it in the list and by id', async () => {
    const created = await api(a.attendantToken).post('/tags', { name: 'Cliente VIP', color: '#ff0000', kanban: 1 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Cliente VIP', color: '#ff0000', kanban: 1, userId: a.attendant.id });
    const list = await api(a.adminToken).get('/tags/');
    expect(list.status).toBe(200);
    expect(list.body.tags.map((t: { name: string }) => t.name)).toContain('Cliente VIP');
    expect(list.body.hasMore).toBe(false);
    const one = await api(a.adminToken).get(`/tags/${created.body.id}`);
    expect(one.body).toEqual(created.body);
  });

  it('a new tag without a colour gets a random hex colour and kanban 0', async () => {
    const created = await api(a.adminToken).post('/tags', { name: 'Sem cor' });
    expect(created.status).toBe(201);
    expect(created.body.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(created.body.kanban).toBe(0);
  });

  it("another company's tag id answers 404 exactly like a missing one", async () => {
    const created = await api(a.adminToken).post('/tags', { name: 'Segredo da A' });
    const foreign = await api(b.adminToken).get(`/tags/${created.body.id}`);
    const missing = await api(b.adminToken).get('/tags/999999');
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    const listB = await api(b.adminToken).get('/tags');
    expect(listB.body.tags.map((t: { name: string }) => t.name)).not.toContain('Segredo da A');
  });

  it('bad input is a 400 naming the field and writes nothing', async () => {
    const before = await listTags(a.company.id, { limit: 100 });
    const res = await api(a.adminToken).post('/tags', { name: 'ab' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([{ field: 'body.name', reason: 'Mensagem muito curta' }]);
    const after = await listTags(a.company.id, { limit: 100 });
    expect(after.items.length).toBe(before.items.length);
  });

  it('pages with cursors and refuses a tampered cursor', async () => {
    const c = await freshCompany();
    for (let i = 0; i < 25; i += 1)
      await api(c.adminToken).post('/tags', { name: `etiqueta ${String(i).padStart(2, '0')}` });
    const first = await api(c.adminToken).get('/tags');
    expect(first.body.tags).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await api(c.adminToken).get('/tags', { cursor: first.body.nextCursor });
    expect(second.body.tags.map((t: { name: string }) => t.name)).toEqual(
      Array.from({ length: 5 }, (_, i) => `etiqueta ${20 + i}`),
    );
    const byPageNumber = await api(c.adminToken).get('/tags', { pageNumber: '2' });
    expect(byPageNumber.body.tags).toEqual(second.body.tags);
    const tampered = await api(c.adminToken).get('/tags', { cursor: `${first.body.nextCursor}x` });
    expect(tampered.status).toBe(400);
    expect(tampered.body.error).toBe('ERR_INVALID_CURSOR');
  });

  it('no token is 401, and GET /version needs none', async () => {
    expect((await api().get('/tags')).status).toBe(401);
    const version = await api().get('/version');
    expect(version).toMatchObject({ status: 200, body: { version: '7.0.0' } });
  });
});

describe('fault injection', () => {
  it('DynamoDB throttling answers 503 with Retry-After, never a 500', async () => {
    const mock = mockClient(DynamoDBDocumentClient);
    mock
      .onAnyCommand()
      .rejects(Object.assign(new Error('Rate exceeded'), { name: 'ProvisionedThroughputExceededException' }));
    try {
      const res = await tagsHandler(
        httpEvent('POST', '/tags', {
          body: { name: 'Nunca gravada' },
          headers: { authorization: `Bearer ${a.adminToken}` },
        }),
        lambdaContext(),
      );
      expect(res.statusCode).toBe(503);
      expect(res.headers?.['Retry-After']).toBe('1');
      expect(JSON.parse(String(res.body)).error).toBe('ERR_SERVICE_UNAVAILABLE');
    } finally {
      mock.restore();
    }
    const names = (await listTags(a.company.id, { limit: 100 })).items.map((t) => t.name);
    expect(names).not.toContain('Nunca gravada');
  });
});
