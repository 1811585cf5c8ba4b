import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { getAnnouncement } from '../../functions/data/announcement-repository';
import { findUserIdByEmail } from '../../functions/data/user-repository';
import { eventsUntil, type SocketEvent } from '../helpers/connections';
import { api, freshCompany, TINY_PNG, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets } from '../helpers/ws-client';

/** Announcements and help entries (administration spec "Announcements", "Help"; decisions D144, D146). */
let a: TestCompany;
let b: TestCompany;
let superToken: string;
beforeAll(async () => {
  [a, b] = await Promise.all([freshCompany(), freshCompany()]);
  const owner = await findUserIdByEmail('owner@zapdesk.local');
  superToken = await signAccessToken({ companyId: 1, userId: owner!.userId, profile: 'admin', super: true });
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const imageForm = (bytes: Buffer = TINY_PNG, name = 'aviso.png', type = 'image/png') => {
  const form = new FormData();
  form.append('typeArch', 'announcements');
  form.append('file', new Blob([bytes], { type }), name);
  return form;
};
const titles = (records: { title: string }[]) => records.map((r) => r.title);

describe('announcements', () => {
  it('the owner creates one with the spec defaults (priority 3, active); every company reads the active ones', async () => {
    const title = `Manutenção ${Date.now()}`;
    const res = await api(superToken).post('/announcements', { title, text: 'Sábado às 22h' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title,
      text: 'Sábado às 22h',
      priority: 3,
      status: true,
      mediaPath: null,
      mediaName: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const hidden = await api(superToken).post('/announcements', {
      title: `${title} rascunho`,
      text: 'x',
      status: false,
    });
    expect(titles((await api(a.attendantToken).get('/announcements')).body.records)).toContain(title);
    expect(titles((await api(b.adminToken).get('/announcements')).body.records)).not.toContain(hidden.body.title);
    const forOwner = await api(superToken).get('/announcements', { searchParam: title.toLowerCase() });
    expect(titles(forOwner.body.records).sort()).toEqual([title, hidden.body.title].sort());
  });

  it('refuses bad input with 400 naming the field, writing nothing; other users may not write', async () => {
    const before = (await api(superToken).get('/announcements', { searchParam: 'sem texto' })).body.records;
    const noText = await api(superToken).post('/announcements', { title: 'Sem texto' });
    expect(noText.status).toBe(400);
    expect(noText.body.fields[0].field).toBe('body.text');
    const badPriority = await api(superToken).post('/announcements', { title: 'Sem texto', text: 'x', priority: 7 });
    expect(badPriority.status).toBe(400);
    expect(badPriority.body.fields[0].field).toBe('body.priority');
    expect((await api(superToken).get('/announcements', { searchParam: 'sem texto' })).body.records).toEqual(before);
    const byAdmin = await api(a.adminToken).post('/announcements', { title: 'Meu aviso', text: 'x' });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error).toBe('ERR_NO_PERMISSION');
  });

  it('takes one PNG or JPEG image by its bytes, replaces and removes it', async () => {
    const created = (await api(superToken).post('/announcements', { title: `Imagem ${Date.now()}`, text: 'x' })).body;
    const fake = await api(superToken).post(
      `/announcements/${created.id}/media-upload`,
      imageForm(Buffer.from('<svg onload=alert(1)>'), 'x.png'),
    );
    expect(fake.status).toBe(400);
    expect(fake.body).toMatchObject({ error: 'ERR_INVALID_IMAGE', fields: [{ field: 'body.file' }] });
    expect((await getAnnouncement(created.id))?.mediaPath).toBeNull();

    const uploaded = await api(superToken).post(`/announcements/${created.id}/media-upload`, imageForm());
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body).toMatchObject({ mediaName: 'aviso.png', mediaPath: expect.stringMatching(/\.png$/) });
    const image = await fetch(`${inject('gatewayUrl')}${uploaded.body.mediaPath}`);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(TINY_PNG);

    const removed = await api(superToken).delete(`/announcements/${created.id}/media-upload`);
    expect(removed.body.mediaPath).toBeNull();
    expect((await fetch(`${inject('gatewayUrl')}${uploaded.body.mediaPath}`)).status).toBe(404);
  });

  it('company-announcement reaches the users of two companies live: create, update, delete', async () => {
    const [inA, inB] = await Promise.all([
      connectSocket(`${inject('wsUrl')}?token=${a.attendantToken}`),
      connectSocket(`${inject('wsUrl')}?token=${b.adminToken}`),
    ]);
    const title = `Ao vivo ${Date.now()}`;
    const created = (await api(superToken).post('/announcements', { title, text: 'Novidade', priority: 1 })).body;
    const on = (action: string) => (e: SocketEvent) =>
      e.channel === 'company-announcement' &&
      e.action === action &&
      ((e.record as { id?: number } | undefined)?.id === created.id || e.id === created.id);
    for (const socket of [inA, inB]) {
      const [event] = (await eventsUntil(socket, on('create'))).slice(-1);
      expect(event).toMatchObject({ record: { title, priority: 1, status: true } });
    }
    await api(superToken).put(`/announcements/${created.id}`, { status: false });
    for (const socket of [inA, inB]) {
      const [event] = (await eventsUntil(socket, on('update'))).slice(-1);
      expect(event).toMatchObject({ record: { status: false } });
    }
    expect(titles((await api(a.attendantToken).get('/announcements')).body.records)).not.toContain(title);
    await api(superToken).delete(`/announcements/${created.id}`);
    for (const socket of [inA, inB]) await eventsUntil(socket, on('delete'));
    expect((await api(superToken).get(`/announcements/${created.id}`)).status).toBe(404);
  });
});

describe('help entries', () => {
  it('the owner creates, edits and deletes entries; everyone lists them; a video address becomes its id', async () => {
    const title = `Como transferir ${Date.now()}`;
    const created = await api(superToken).post('/helps', {
      title,
      video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      description: 'Passo a passo',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ title, video: 'dQw4w9WgXcQ', description: 'Passo a passo' });

    const list = await api(a.attendantToken).get('/helps/list');
    expect(list.body).toContainEqual(expect.objectContaining({ id: created.body.id, title }));
    const page = await api(b.adminToken).get('/helps', { searchParam: '', pageNumber: '1' });
    expect(page.body.records).toContainEqual(expect.objectContaining({ id: created.body.id }));
    expect(page.body.hasMore).toBe(false);

    const edited = await api(superToken).put(`/helps/${created.body.id}`, { video: 'https://youtu.be/aaaaaaaaaaa' });
    expect(edited.body).toMatchObject({ title, video: 'aaaaaaaaaaa' });
    expect((await api(a.attendantToken).get('/helps/list')).body).toContainEqual(
      expect.objectContaining({ id: created.body.id, video: 'aaaaaaaaaaa' }),
    );

    const bad = await api(superToken).post('/helps', { title: 'Sem vídeo', video: 'não é vídeo' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('body.video');
    expect((await api(a.adminToken).post('/helps', { title: 'x', video: 'dQw4w9WgXcQ' })).status).toBe(403);

    expect((await api(superToken).delete(`/helps/${created.body.id}`)).status).toBe(200);
    expect((await api(a.attendantToken).get('/helps/list')).body).not.toContainEqual(
      expect.objectContaining({ id: created.body.id }),
    );
    expect((await api(superToken).delete(`/helps/${created.body.id}`)).status).toBe(404);
  });
});
