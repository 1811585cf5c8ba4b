import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type WebSocket from 'ws';
import { signAccessToken } from '../../functions/core/access-token';
import { countCompanyFolder, recountCompanyFolders } from '../../functions/core/companies/company-folders';
import { everyone, publish } from '../../functions/core/notifier';
import { db, tableName } from '../../functions/data/client';
import { listCompanyMedia, PURGE_SEGMENTS, scanCompanyItems } from '../../functions/data/company-purge-repository';
import { companyKeys, companyNameKeys, getCompany } from '../../functions/data/company-repository';
import { createContact, getContact } from '../../functions/data/contact-repository';
import { getConnection } from '../../functions/data/connection-repository';
import { putMediaObject } from '../../functions/data/media-store';
import { createPlan } from '../../functions/data/plan-repository';
import { createTicket, getTicket } from '../../functions/data/ticket-repository';
import { emailKeys, findUserIdByEmail, getUser } from '../../functions/data/user-repository';
import { listCompanyConnections } from '../../functions/data/ws-connection-repository';
import { someConnection, waitFor } from '../helpers/connections';
import { api, freshCompany, TINY_PNG, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets, upgradeRejectedWith } from '../helpers/ws-client';

/**
 * Companies managed by the platform owner (administration §2 "Companies and plans", §5, §7; decisions
 * D155–D157): CRUD with the spec's texts, the name guard, a switched-off or expired company's tokens and
 * sockets stopping, and a deleted company purged to the last item while another is untouched.
 */
const wsUrl = inject('wsUrl');
let superToken: string;
let planId: number;
let otherPlanId: number;

beforeAll(async () => {
  const owner = await findUserIdByEmail('owner@zapdesk.local');
  superToken = await signAccessToken({ companyId: 1, userId: owner!.userId, profile: 'admin', super: true });
  const plan = (name: string, amount: number) =>
    createPlan({
      name: `${name} ${randomUUID().slice(0, 6)}`,
      users: 5,
      connections: 2,
      queues: 5,
      amount,
      isPublic: true,
      useWhatsapp: true,
      useFacebook: true,
      useInstagram: true,
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
    });
  const [basic, pro] = await Promise.all([plan('Básico', 99), plan('Pro', 199)]);
  planId = basic.id;
  otherPlanId = pro.id;
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const unique = (prefix: string) => `${prefix} ${randomUUID().slice(0, 8)}`;
const newCompanyBody = (overrides: Record<string, unknown> = {}) => ({
  name: unique('Padaria'),
  email: `${randomUUID()}@empresa.local`,
  passwordDefault: 'Senha@123',
  planId,
  recurrence: 'MENSAL',
  dueDate: '2030-01-31',
  ...overrides,
});

const closed = (socket: WebSocket): Promise<number> =>
  new Promise((resolve) => {
    if (socket.readyState === socket.CLOSED) resolve(1006);
    else socket.once('close', (code) => resolve(code));
  });

describe('companies: create, list, read, edit', () => {
  it('creates a company with its admin, who logs in with the default password', async () => {
    const body = newCompanyBody({ email: `  ${randomUUID()}@EMPRESA.local ` });
    const res = await api(superToken).post('/companies', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: body.name,
      email: body.email.trim().toLowerCase(),
      status: true,
      planId,
      plan: { id: planId, amount: 99 },
      recurrence: 'MENSAL',
      dueDate: '2030-01-31',
      numberAttendants: 1,
      numberConections: 0,
      folderSize: 0,
      numberFileFolder: 0,
      lastLogin: null,
    });
    const login = await api().post('/auth/login', { email: body.email.trim().toLowerCase(), password: 'Senha@123' });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body.user).toMatchObject({ profile: 'admin', companyId: res.body.id });

    expect((await api(superToken).get(`/companies/${res.body.id}`)).body).toMatchObject({
      id: res.body.id,
      name: body.name,
    });
    const found = await api(superToken).get('/companiesPlan', { searchParam: body.name.slice(0, 12).toUpperCase() });
    expect(found.status).toBe(200);
    expect(found.body.companies.map((c: { id: number }) => c.id)).toContain(res.body.id);
    expect(found.body).toHaveProperty('hasMore');
  });

  it('lists companies a page at a time by id', async () => {
    const first = await api(superToken).get('/companies/list');
    expect(first.status).toBe(200);
    expect(first.body.companies.length).toBeLessThanOrEqual(20);
    expect(first.body.companies[0].id).toBe(1);
    if (first.body.hasMore) {
      const second = await api(superToken).get('/companies', { cursor: first.body.nextCursor });
      expect(second.body.companies[0].id).toBeGreaterThan(first.body.companies.at(-1).id);
    }
  });

  it('edits the plan, status, due date and recurrence', async () => {
    const created = (await api(superToken).post('/companies', newCompanyBody())).body;
    const res = await api(superToken).put(`/companies/${created.id}`, {
      planId: otherPlanId,
      recurrence: 'TRIMESTRAL',
      dueDate: '2031-06-30',
      phone: '5511988887777',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      planId: otherPlanId,
      plan: { amount: 199 },
      recurrence: 'TRIMESTRAL',
      dueDate: '2031-06-30',
      phone: '5511988887777',
    });
    expect((await api(superToken).get(`/companies/${created.id}`)).body.recurrence).toBe('TRIMESTRAL');
  });

  it('refuses bad input with the spec texts, and writes nothing', async () => {
    const name = unique('X');
    const bad = await api(superToken).post('/companies', {
      name: 'A',
      email: 'não-é-email',
      passwordDefault: '1',
      planId: 0,
      recurrence: 'SEMANAL',
    });
    expect(bad.status).toBe(400);
    const reasons = Object.fromEntries(
      (bad.body.fields as { field: string; reason: string }[]).map((f) => [f.field, f.reason]),
    );
    expect(reasons).toMatchObject({
      'body.name': 'Nome é obrigatório',
      'body.email': 'Email é inválido',
      'body.passwordDefault': 'Muito curto!',
      'body.planId': 'Plano é obrigatório',
    });
    const missing = await api(superToken).post('/companies', { name, passwordDefault: 'Senha@123', planId });
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toContainEqual({ field: 'body.email', reason: 'E-mail é obrigatório' });
    const noPlan = await api(superToken).post('/companies', newCompanyBody({ name, planId: 999_999 }));
    expect(noPlan.status).toBe(400);
    expect((await api(superToken).get('/companiesPlan', { searchParam: name })).body.companies).toEqual([]);
    expect((await api(superToken).put('/companies/1', { dueDate: 'amanhã' })).status).toBe(400);
  });

  it('keeps names unique: a taken name is 409 on create and on rename, and nothing is written', async () => {
    const a = (await api(superToken).post('/companies', newCompanyBody())).body;
    const b = (await api(superToken).post('/companies', newCompanyBody())).body;
    const email = `${randomUUID()}@empresa.local`;
    const dup = await api(superToken).post('/companies', newCompanyBody({ name: ` ${a.name.toUpperCase()} `, email }));
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_COMPANY_NAME_ALREADY_EXISTS');
    expect(await findUserIdByEmail(email)).toBeNull();

    const rename = await api(superToken).put(`/companies/${b.id}`, { name: a.name });
    expect(rename.status).toBe(409);
    expect((await api(superToken).get(`/companies/${b.id}`)).body.name).toBe(b.name);
    // A rename frees the old name.
    const newName = unique('Renomeada');
    expect((await api(superToken).put(`/companies/${a.id}`, { name: newName })).status).toBe(200);
    expect((await api(superToken).put(`/companies/${b.id}`, { name: a.name })).status).toBe(200);
  });

  it('answers 404 for a company that does not exist', async () => {
    expect((await api(superToken).get('/companies/999999999')).status).toBe(404);
    expect((await api(superToken).put('/companies/999999999', { phone: '1' })).status).toBe(404);
    expect((await api(superToken).delete('/companies/999999999')).status).toBe(404);
  });
});

describe('a switched-off or expired company stops working at once', () => {
  let t: TestCompany;
  beforeAll(async () => {
    t = await freshCompany(unique('Parada'));
  });

  it('status false: the existing token gets 403 and the open socket is closed; $connect is refused', async () => {
    const { socket } = await connectSocket(`${wsUrl}?token=${t.adminToken}`);
    expect((await api(t.adminToken).get('/auth/me')).status).toBe(200);
    const whenClosed = closed(socket);

    expect((await api(superToken).put(`/companies/${t.company.id}`, { status: false })).status).toBe(200);
    await whenClosed;
    const refused = await api(t.adminToken).get('/tags/list');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_COMPANY_INACTIVE');
    expect(await upgradeRejectedWith(`${wsUrl}?token=${t.attendantToken}`)).toBe(403);
    expect(await listCompanyConnections(t.company.id)).toEqual([]);

    expect((await api(superToken).put(`/companies/${t.company.id}`, { status: true })).status).toBe(200);
    expect((await api(t.adminToken).get('/tags/list')).status).toBe(200);
  });

  it('a due date set in the past: the token gets ERR_SUBSCRIPTION_EXPIRED and the socket is closed', async () => {
    const c = await freshCompany(unique('Vencida'));
    const { socket } = await connectSocket(`${wsUrl}?token=${c.attendantToken}`);
    const whenClosed = closed(socket);
    expect((await api(superToken).put(`/companies/${c.company.id}`, { dueDate: '2020-01-01' })).status).toBe(200);
    await whenClosed;
    const refused = await api(c.attendantToken).get('/tags/list');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'ERR_SUBSCRIPTION_EXPIRED' });
    expect(await upgradeRejectedWith(`${wsUrl}?token=${c.adminToken}`)).toBe(403);
  });

  it('a due date that passes while a socket is open: the next event is not delivered and the socket closes', async () => {
    const c = await freshCompany(unique('Expira'));
    const { socket, next } = await connectSocket(`${wsUrl}?token=${c.adminToken}`);
    const watcher = await freshCompany(unique('Vizinha'));
    // Time passing, as the socket sees it: the due date it connected with is now yesterday.
    const [stored] = await listCompanyConnections(c.company.id);
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `C#${c.company.id}#WS`, sk: stored!.connectionId },
        UpdateExpression: 'SET dueDate = :d',
        ExpressionAttributeValues: { ':d': '2020-01-01' },
      }),
    );
    const received: unknown[] = [];
    void next().then((m) => received.push(m));
    const whenClosed = closed(socket);
    const result = await publish(c.company.id, { channel: 'user', action: 'update', user: { id: 1 } }, everyone);
    await whenClosed;
    expect(result.delivered).toBe(0);
    expect(received).toEqual([]);
    // The sentinel: another company's socket receives its own event after this one was refused.
    const other = await connectSocket(`${wsUrl}?token=${watcher.adminToken}`);
    await publish(watcher.company.id, { channel: 'user', action: 'update', user: { id: 2 } }, everyone);
    expect(await other.next()).toMatchObject({ action: 'update' });
    expect(received).toEqual([]);
  });
});

describe('deleting a company', () => {
  it('stops it at once, then purges its items, guards and media, and leaves another company untouched', async () => {
    const created = await api(superToken).post('/companies', newCompanyBody());
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const adminId = (await findUserIdByEmail(created.body.email))!.userId;
    const token = await signAccessToken({ companyId: id, userId: adminId, profile: 'admin', super: false });
    const other = await freshCompany(unique('Vizinha'));

    // Data of every kind in both companies: a connection, a contact with a ticket, media, a socket.
    const seed = async (companyId: number) => {
      const connection = await someConnection(companyId);
      const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
      const contact = await createContact(
        companyId,
        { name: 'Cliente', number, isGroup: false, channel: 'whatsapp', whatsappId: connection.id },
        [`wa#${number}`],
      );
      const ticket = await createTicket(companyId, {
        status: 'pending',
        queueId: null,
        userId: null,
        contactId: contact.id,
        whatsappId: connection.id,
        channel: 'whatsapp',
        isGroup: false,
        origin: 'passive',
      });
      await putMediaObject(`c/${companyId}/tickets/${ticket.id}/foto.png`, TINY_PNG, 'image/png');
      return { connection, contact, ticket };
    };
    const [mine, theirs] = await Promise.all([seed(id), seed(other.company.id)]);
    expect((await api(token).post('/tags', { name: 'Etiqueta', color: '#112233' })).status).toBe(201);
    const { socket } = await connectSocket(`${wsUrl}?token=${token}`);
    const otherSocket = await connectSocket(`${wsUrl}?token=${other.adminToken}`);
    const whenClosed = closed(socket);

    const res = await api(superToken).delete(`/companies/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await whenClosed;
    expect((await api(token).get('/tags/list')).status).toBe(403);
    expect((await api().post('/auth/login', { email: created.body.email, password: 'Senha@123' })).status).not.toBe(
      200,
    );
    expect((await api(superToken).get(`/companies/${id}`)).status).toBe(404);

    // The purge job finishes: the company's own item is gone, then the media.
    await waitFor(
      async () => ((await getCompany(id)) === null ? (await listCompanyMedia(id)).objects.length : -1),
      (n) => n === 0,
      { timeoutMs: 90_000, intervalMs: 500, what: 'the company purge' },
    );
    await waitFor(
      async () => {
        let left = 0;
        for (let segment = 0; segment < PURGE_SEGMENTS; segment += 1) {
          let startKey: Record<string, unknown> | undefined;
          do {
            const page = await scanCompanyItems(id, { segment, ...(startKey ? { startKey } : {}) });
            left += page.keys.length;
            startKey = page.next;
          } while (startKey);
        }
        return left;
      },
      (n) => n === 0,
      { timeoutMs: 90_000, intervalMs: 1000, what: 'no item of the company left' },
    );
    // Partition by partition, as each area reads them.
    const get = (Key: { pk: string; sk: string }) => db().send(new GetCommand({ TableName: tableName(), Key }));
    const query = (pk: string) =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
        }),
      );
    expect((await get(companyKeys(id))).Item).toBeUndefined();
    expect((await get(companyNameKeys(created.body.name))).Item).toBeUndefined();
    expect((await get(emailKeys(created.body.email))).Item).toBeUndefined();
    expect(await getUser(id, adminId)).toBeNull();
    expect(await getConnection(id, mine.connection.id)).toBeNull();
    expect(await getContact(id, mine.contact.id)).toBeNull();
    expect(await getTicket(id, mine.ticket.id)).toBeNull();
    for (const pk of [
      `C#${id}`,
      `C#${id}#USAGE`,
      `C#${id}#COUNTER`,
      `C#${id}#WS`,
      `C#${id}#T#${String(mine.ticket.id).padStart(10, '0')}`,
    ]) {
      expect((await query(pk)).Items, pk).toEqual([]);
    }
    expect((await listCompanyMedia(id)).objects).toEqual([]);
    // The name is free again.
    expect((await api(superToken).post('/companies', newCompanyBody({ name: created.body.name }))).status).toBe(201);

    // The other company: all there, and still working.
    expect(await getConnection(other.company.id, theirs.connection.id)).not.toBeNull();
    expect(await getContact(other.company.id, theirs.contact.id)).not.toBeNull();
    expect(await getTicket(other.company.id, theirs.ticket.id)).not.toBeNull();
    expect((await listCompanyMedia(other.company.id)).objects).toHaveLength(1);
    expect((await api(other.adminToken).get('/tags/list')).status).toBe(200);
    await publish(other.company.id, { channel: 'user', action: 'update', user: { id: 3 } }, everyone);
    expect(await otherSocket.next()).toMatchObject({ action: 'update' });
  }, 240_000);

  it('refuses to delete the platform company', async () => {
    const res = await api(superToken).delete('/companies/1');
    expect(res.status).toBe(400);
    expect(await getCompany(1)).not.toBeNull();
  });
});

describe('folder figures', () => {
  it("the daily count shows the size and number of the company's media in the list; a run leaves a fresh count alone", async () => {
    const c = await freshCompany(unique('Pasta'));
    await putMediaObject(`c/${c.company.id}/a/um.png`, TINY_PNG, 'image/png');
    await putMediaObject(`c/${c.company.id}/b/dois.png`, Buffer.concat([TINY_PNG, TINY_PNG]), 'image/png');
    expect(await countCompanyFolder(c.company.id)).toEqual({ bytes: TINY_PNG.length * 3, files: 2 });
    const shown = (await api(superToken).get(`/companies/${c.company.id}`)).body;
    expect(shown).toMatchObject({ folderSize: TINY_PNG.length * 3, numberFileFolder: 2 });
    expect(Date.parse(shown.updatedAtFolder)).not.toBeNaN();
    expect((await recountCompanyFolders()).counted).toBeGreaterThanOrEqual(0);
    expect((await api(superToken).get(`/companies/${c.company.id}`)).body.updatedAtFolder).toBe(shown.updatedAtFolder);
  });
});
