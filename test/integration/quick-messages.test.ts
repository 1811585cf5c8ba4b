import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { getQuickMessage, listAllQuickMessages } from '../../functions/data/quick-message-repository';
import { createUser } from '../../functions/data/user-repository';
import { eventsUntil, type SocketEvent } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

/** Quick replies (administration spec "Quick replies"; decisions D58–D59) through the gateway. */
let t: TestCompany;
let other: TestCompany;
let secondToken: string;
beforeAll(async () => {
  [t, other] = await Promise.all([freshCompany(), freshCompany()]);
  const second = await createUser(t.company.id, {
    name: 'Segunda',
    email: `s-${randomUUID()}@test.local`,
    passwordHash: 'x',
    profile: 'user',
  });
  secondToken = await signAccessToken({ companyId: t.company.id, userId: second.id, profile: 'user', super: false });
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const fetchMedia = (url: string) => fetch(`${inject('gatewayUrl')}${url}`);
const fileForm = (content = '%PDF-1.4 tabela', name = 'Tabela de preços.pdf') => {
  const form = new FormData();
  form.append('typeArch', 'quickMessage');
  form.append('file', new Blob([Buffer.from(content)], { type: 'application/pdf' }), name);
  return form;
};
const shortcodes = (records: { shortcode: string }[]) => records.map((r) => r.shortcode);

describe('quick replies: create, read, list', () => {
  it('creates a reply owned by the caller with the spec defaults; the owner comes from the token', async () => {
    const res = await api(t.attendantToken).post('/quick-messages', {
      shortcode: ' bomdia ',
      message: 'Bom dia! Como posso ajudar?',
      userId: 999,
      companyId: other.company.id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      shortcode: 'bomdia',
      message: 'Bom dia! Como posso ajudar?',
      geral: false,
      visao: false,
      status: true,
      userId: t.attendant.id,
      mediaPath: null,
      mediaName: null,
      isMedia: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api(t.attendantToken).get(`/quick-messages/${res.body.id}`)).body).toEqual(res.body);
  });

  it('a reply that is not shared is invisible to other users, admins included; a shared one everyone sees', async () => {
    const c = await freshCompany();
    const mine = (await api(c.attendantToken).post('/quick-messages', { shortcode: 'privada', message: 'só minha' }))
      .body;
    const shared = (
      await api(c.attendantToken).post('/quick-messages', { shortcode: 'publica', message: 'de todos', geral: true })
    ).body;
    const adminsOwn = (await api(c.adminToken).post('/quick-messages', { shortcode: 'admin', message: 'do admin' }))
      .body;
    expect(shortcodes((await api(c.attendantToken).get('/quick-messages')).body.records)).toEqual([
      'privada',
      'publica',
    ]);
    const forAdmin = await api(c.adminToken).get('/quick-messages');
    expect(shortcodes(forAdmin.body.records)).toEqual(['admin', 'publica']);
    expect(forAdmin.body.hasMore).toBe(false);
    const hidden = await api(c.adminToken).get(`/quick-messages/${mine.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('ERR_NO_QUICKMESSAGE_FOUND');
    expect((await api(c.adminToken).put(`/quick-messages/${mine.id}`, { message: 'x' })).status).toBe(404);
    expect((await api(c.adminToken).delete(`/quick-messages/${mine.id}`)).status).toBe(404);
    expect((await api(c.adminToken).get(`/quick-messages/${shared.id}`)).status).toBe(200);
    // The composer's list: the same rule, every reply at once.
    const composer = await api(c.attendantToken).get('/quick-messages/list', {
      companyId: String(c.company.id),
      userId: String(c.admin.id),
    });
    expect(shortcodes(composer.body)).toEqual(['privada', 'publica']);
    expect(shortcodes((await api(c.adminToken).get('/quick-messages/list')).body)).toEqual(['admin', 'publica']);
    expect(adminsOwn.userId).toBe(c.admin.id);
  });

  it('searches by shortcode prefix and pages', async () => {
    const c = await freshCompany();
    for (let i = 0; i < 23; i += 1) {
      await api(c.adminToken).post('/quick-messages', { shortcode: `resp${String(i).padStart(2, '0')}`, message: 'x' });
    }
    await api(c.adminToken).post('/quick-messages', { shortcode: 'Saudação', message: 'Olá' });
    const first = await api(c.adminToken).get('/quick-messages', { searchParam: 'resp', pageNumber: '1' });
    expect(first.body.records).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await api(c.adminToken).get('/quick-messages', { searchParam: 'resp', pageNumber: '2' });
    expect(shortcodes(second.body.records)).toEqual(['resp20', 'resp21', 'resp22']);
    expect(second.body.hasMore).toBe(false);
    const byCursor = await api(c.adminToken).get('/quick-messages', {
      searchParam: 'resp',
      cursor: first.body.nextCursor,
    });
    expect(byCursor.body.records).toEqual(second.body.records);
    const accents = await api(c.adminToken).get('/quick-messages', { searchParam: 'sauda' });
    expect(shortcodes(accents.body.records)).toEqual(['Saudação']);
  });

  it('bad input is a 400 naming the field, and nothing is written', async () => {
    const c = await freshCompany();
    for (const body of [{}, { shortcode: '   ' }, { shortcode: 'ok', geral: 'sim' }]) {
      const res = await api(c.adminToken).post('/quick-messages', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const missing = await api(c.adminToken).post('/quick-messages', { message: 'sem atalho' });
    expect(missing.body.fields).toEqual([{ field: 'body.shortcode', reason: 'Obrigatório' }]);
    expect(await listAllQuickMessages(c.company.id, c.admin.id)).toEqual([]);
    const made = (await api(c.adminToken).post('/quick-messages', { shortcode: 'fixo', message: 'a' })).body;
    const bad = await api(c.adminToken).put(`/quick-messages/${made.id}`, { shortcode: '', message: 'b' });
    expect(bad.status).toBe(400);
    expect((await getQuickMessage(c.company.id, made.id))?.message).toBe('a');
  });

  it("another company's reply answers 404 exactly like a missing one", async () => {
    const theirs = (
      await api(other.adminToken).post('/quick-messages', { shortcode: 'segredo', message: 'deles', geral: true })
    ).body;
    const probe = theirs.id + 100_000;
    const [foreign, missing] = await Promise.all([
      api(t.adminToken).get(`/quick-messages/${probe}`),
      api(t.adminToken).get('/quick-messages/999999999'),
    ]);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(shortcodes((await api(t.adminToken).get('/quick-messages')).body.records)).not.toContain('segredo');
  });
});

describe('quick replies: who may change them (visao)', () => {
  it('the owner edits and deletes; a shared unlocked reply anyone may edit; visao locks it to the owner', async () => {
    const owner = api(t.attendantToken);
    const someone = api(secondToken);
    const open = (await owner.post('/quick-messages', { shortcode: 'aberta', message: 'v1', geral: true })).body;
    const edited = await someone.put(`/quick-messages/${open.id}`, { message: 'v2 por outra' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ message: 'v2 por outra', userId: t.attendant.id });

    const locked = (
      await owner.post('/quick-messages', { shortcode: 'travada', message: 'v1', geral: true, visao: true })
    ).body;
    for (const res of [
      await someone.put(`/quick-messages/${locked.id}`, { message: 'invasão' }),
      await api(t.adminToken).put(`/quick-messages/${locked.id}`, { message: 'invasão' }),
      await someone.delete(`/quick-messages/${locked.id}`),
      await someone.post(`/quick-messages/${locked.id}/media-upload`, fileForm()),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await getQuickMessage(t.company.id, locked.id))?.message).toBe('v1');
    // Still seen and used by everyone.
    expect((await someone.get(`/quick-messages/${locked.id}`)).status).toBe(200);

    const ownEdit = await owner.put(`/quick-messages/${locked.id}`, { message: 'v2', visao: false });
    expect(ownEdit.body).toMatchObject({ message: 'v2', visao: false });
    expect((await owner.delete(`/quick-messages/${locked.id}`)).status).toBe(200);
    expect(await getQuickMessage(t.company.id, locked.id)).toBeNull();
  });
});

describe('quick replies: the attachment', () => {
  it('uploads one attachment under the reply, replaces it (the old object goes) and removes it', async () => {
    const owner = api(t.adminToken);
    const reply = (await owner.post('/quick-messages', { shortcode: 'tabela', message: 'Segue a tabela' })).body;
    const first = await owner.post(`/quick-messages/${reply.id}/media-upload`, fileForm());
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ isMedia: true, mediaName: 'Tabela de preços.pdf' });
    expect(first.body.mediaPath).toMatch(
      new RegExp(`^/media/c/${t.company.id}/quick-messages/${reply.id}/[0-9a-f-]{36}\\.pdf$`),
    );
    const served = await fetchMedia(first.body.mediaPath);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('%PDF-1.4 tabela');

    const second = await owner.post(`/quick-messages/${reply.id}/media-upload`, fileForm('%PDF-1.4 nova', 'nova.pdf'));
    expect(second.body.mediaName).toBe('nova.pdf');
    expect((await fetchMedia(first.body.mediaPath)).status).toBe(404);
    expect((await fetchMedia(second.body.mediaPath)).status).toBe(200);

    const removed = await owner.delete(`/quick-messages/${reply.id}/media-upload`);
    expect(removed.body).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null });
    expect((await fetchMedia(second.body.mediaPath)).status).toBe(404);
  });

  it('a missing or empty file is a 400 and nothing changes; deleting the reply deletes its attachment', async () => {
    const owner = api(t.adminToken);
    const reply = (await owner.post('/quick-messages', { shortcode: 'anexo', message: 'x' })).body;
    const noFile = new FormData();
    noFile.append('typeArch', 'quickMessage');
    const none = await owner.post(`/quick-messages/${reply.id}/media-upload`, noFile);
    expect(none.status).toBe(400);
    expect(none.body.fields[0].field).toBe('body.file');
    const empty = await owner.post(`/quick-messages/${reply.id}/media-upload`, fileForm(''));
    expect(empty.status).toBe(400);
    expect((await getQuickMessage(t.company.id, reply.id))?.mediaPath).toBeNull();

    const uploaded = (await owner.post(`/quick-messages/${reply.id}/media-upload`, fileForm())).body;
    expect((await owner.delete(`/quick-messages/${reply.id}`)).status).toBe(200);
    expect((await fetchMedia(uploaded.mediaPath)).status).toBe(404);
  });
});

describe('quick replies: live events', () => {
  it('company-{id}-quickemessage reaches only who may see the reply; unsharing sends them delete', async () => {
    const c = await freshCompany();
    const url = (token: string) => `${inject('wsUrl')}?token=${token}`;
    const [ownerSocket, adminSocket, outsider] = await Promise.all([
      connectSocket(url(c.attendantToken)),
      connectSocket(url(c.adminToken)),
      connectSocket(url(other.adminToken)),
    ]);
    const channel = `company-${c.company.id}-quickemessage`;
    const on = (action: string, id: number) => (e: SocketEvent) =>
      e.channel === channel &&
      e.action === action &&
      ((e.record as { id?: number } | undefined)?.id === id || e.id === id);

    const privateReply = (await api(c.attendantToken).post('/quick-messages', { shortcode: 'so-eu', message: 'x' }))
      .body;
    await eventsUntil(ownerSocket, on('create', privateReply.id));
    adminSocket.send({ action: 'ping' });
    expect(await adminSocket.next()).toEqual({ action: 'pong' });

    const shared = (
      await api(c.attendantToken).post('/quick-messages', { shortcode: 'todos', message: 'x', geral: true })
    ).body;
    const [created] = (await eventsUntil(adminSocket, on('create', shared.id))).slice(-1);
    expect(created).toMatchObject({ record: { id: shared.id, shortcode: 'todos', geral: true } });

    await api(c.attendantToken).put(`/quick-messages/${shared.id}`, { geral: false });
    await eventsUntil(adminSocket, on('delete', shared.id));
    const [updated] = (await eventsUntil(ownerSocket, on('update', shared.id))).slice(-1);
    expect(updated).toMatchObject({ record: { geral: false } });

    outsider.send({ action: 'ping' });
    expect(await outsider.next()).toEqual({ action: 'pong' });
  });
});
