import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { getChat } from '../../functions/data/chat-repository';
import { createUser } from '../../functions/data/user-repository';
import { eventsUntil, type SocketEvent } from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets, type TestSocket } from '../helpers/ws-client';

/** Internal chat (administration spec "Internal chat"; decisions D145) through the gateway and the socket. */
let t: TestCompany;
let other: TestCompany;
let outsider: { id: number; token: string };
beforeAll(async () => {
  [t, other] = await Promise.all([freshCompany(), freshCompany()]);
  const user = await createUser(t.company.id, {
    name: 'Carla',
    email: `c-${randomUUID()}@test.local`,
    passwordHash: 'x',
    profile: 'user',
  });
  outsider = {
    id: user.id,
    token: await signAccessToken({ companyId: t.company.id, userId: user.id, profile: 'user', super: false }),
  };
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

const socketOf = (token: string) => connectSocket(`${inject('wsUrl')}?token=${token}`);
/** Nothing else arrived on this socket before the answer to a ping sent now. */
const expectNothingBefore = async (s: TestSocket) => {
  s.send({ action: 'ping' });
  expect(await s.next()).toEqual({ action: 'pong' });
};
const newChat = async (title = 'Equipe') => {
  const res = await api(t.adminToken).post('/chats', { title, users: [{ id: t.attendant.id, name: 'Atendente' }] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

describe('internal chat: create, list, messages', () => {
  it('creates a chat owned by the caller with the chosen users as members, listed for each member only', async () => {
    const chat = await newChat('Plantão');
    expect(chat).toMatchObject({
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Plantão',
      ownerId: t.admin.id,
      lastMessage: '',
      users: [
        { userId: t.admin.id, unreads: 0, user: { id: t.admin.id, name: 'Admin' } },
        { userId: t.attendant.id, unreads: 0, user: { id: t.attendant.id, name: 'Atendente' } },
      ].sort((a, b) => a.userId - b.userId),
    });
    const mine = await api(t.attendantToken).get('/chats');
    expect(mine.body.records.map((c: { id: number }) => c.id)).toContain(chat.id);
    expect((await api(t.attendantToken).get(`/chats/${chat.uuid}`)).body.id).toBe(chat.id);
    expect((await api(outsider.token).get('/chats')).body.records).toEqual([]);
    expect((await api(outsider.token).get(`/chats/${chat.id}/messages`)).status).toBe(404);
    expect((await api(outsider.token).get(`/chats/${chat.uuid}`)).status).toBe(404);
    expect((await api(other.adminToken).get(`/chats/${chat.id}/messages`)).status).toBe(404);
  });

  it('refuses users the company does not have, a blank title, no users and a blank message — writing nothing', async () => {
    const before = (await api(t.adminToken).get('/chats')).body.records.length;
    const foreign = await api(t.adminToken).post('/chats', { title: 'X', users: [999_999] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.fields).toEqual([{ field: 'body.users', reason: expect.stringContaining('999999') }]);
    const blank = await api(t.adminToken).post('/chats', { title: '  ', users: [t.attendant.id] });
    expect(blank.status).toBe(400);
    expect(blank.body.fields[0].field).toBe('body.title');
    const nobody = await api(t.adminToken).post('/chats', { title: 'Só eu', users: [] });
    expect(nobody.status).toBe(400);
    expect(nobody.body.fields[0].field).toBe('body.users');
    expect((await api(t.adminToken).get('/chats')).body.records.length).toBe(before);

    const chat = await newChat();
    const empty = await api(t.adminToken).post(`/chats/${chat.id}/messages`, { message: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.fields[0].field).toBe('body.message');
    expect((await api(t.adminToken).get(`/chats/${chat.id}/messages`)).body.records).toEqual([]);
  });

  it('pages messages newest first with a cursor; unread counts move for the others and reset on read', async () => {
    const chat = await newChat('Contagem');
    for (let i = 1; i <= 23; i += 1) {
      const res = await api(t.adminToken).post(`/chats/${chat.id}/messages`, { message: `m${i}` });
      expect(res.status).toBe(201);
    }
    const first = await api(t.attendantToken).get(`/chats/${chat.id}/messages`);
    expect(first.body.records).toHaveLength(20);
    expect(first.body.records[0]).toMatchObject({
      message: 'm23',
      senderId: t.admin.id,
      sender: { name: 'Admin' },
      chatId: chat.id,
    });
    expect(first.body.hasMore).toBe(true);
    const second = await api(t.attendantToken).get(`/chats/${chat.id}/messages`, { cursor: first.body.nextCursor });
    expect(second.body.records.map((m: { message: string }) => m.message)).toEqual(['m3', 'm2', 'm1']);
    expect(second.body.hasMore).toBe(false);

    const unreadsOf = async (token: string, userId: number) => {
      const found = (await api(token).get(`/chats/${chat.uuid}`)).body;
      return found.users.find((u: { userId: number }) => u.userId === userId).unreads;
    };
    expect(await unreadsOf(t.attendantToken, t.attendant.id)).toBe(23);
    expect(await unreadsOf(t.adminToken, t.admin.id)).toBe(0);
    const listed = (await api(t.attendantToken).get('/chats')).body.records.find(
      (c: { id: number }) => c.id === chat.id,
    );
    expect(listed.lastMessage).toBe('m23');

    const read = await api(t.attendantToken).post(`/chats/${chat.id}/read`, { userId: t.admin.id });
    expect(read.status).toBe(200);
    expect(await unreadsOf(t.attendantToken, t.attendant.id)).toBe(0);
    expect(await unreadsOf(t.adminToken, t.admin.id)).toBe(0);
  });
});

describe('internal chat: only the owner edits and deletes', () => {
  it('a member who is not the owner gets 403 ERR_NO_PERMISSION; the owner renames, changes members and deletes', async () => {
    const chat = await newChat('Original');
    const edit = await api(t.attendantToken).put(`/chats/${chat.id}`, { title: 'Tomado', users: [t.attendant.id] });
    expect(edit.status).toBe(403);
    expect(edit.body.error).toBe('ERR_NO_PERMISSION');
    const remove = await api(t.attendantToken).delete(`/chats/${chat.id}`);
    expect(remove.status).toBe(403);
    expect((await api(t.adminToken).get(`/chats/${chat.id}`)).body.title).toBe('Original');
    expect((await api(outsider.token).delete(`/chats/${chat.id}`)).status).toBe(404);

    const renamed = await api(t.adminToken).put(`/chats/${chat.id}`, { title: 'Nova equipe', users: [outsider.id] });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.title).toBe('Nova equipe');
    expect(renamed.body.users.map((u: { userId: number }) => u.userId).sort()).toEqual(
      [t.admin.id, outsider.id].sort(),
    );
    expect((await api(t.attendantToken).get(`/chats/${chat.id}/messages`)).status).toBe(404);
    expect((await api(outsider.token).get(`/chats/${chat.id}/messages`)).status).toBe(200);

    await api(t.adminToken).post(`/chats/${chat.id}/messages`, { message: 'antes de apagar' });
    expect((await api(t.adminToken).delete(`/chats/${chat.id}`)).status).toBe(200);
    expect((await api(t.adminToken).get(`/chats/${chat.id}`)).status).toBe(404);
    expect(await getChat(t.company.id, chat.id)).toBeNull();
  });
});

describe('internal chat: live events reach members only', () => {
  it('chat-user and chat-{id} events go to the members; a non-member socket of the same company gets none', async () => {
    const [ownerSocket, memberSocket, outsiderSocket] = await Promise.all([
      socketOf(t.adminToken),
      socketOf(t.attendantToken),
      socketOf(outsider.token),
    ]);
    const chat = await newChat('Ao vivo');
    const userChannel = (userId: number) => `company-${t.company.id}-chat-user-${userId}`;
    const [created] = (
      await eventsUntil(memberSocket, (e) => e.channel === userChannel(t.attendant.id) && e.action === 'create')
    ).slice(-1);
    expect(created).toMatchObject({ record: { id: chat.id, title: 'Ao vivo' } });
    await eventsUntil(ownerSocket, (e) => e.channel === userChannel(t.admin.id) && e.action === 'create');

    await api(t.adminToken).post(`/chats/${chat.id}/messages`, { message: 'Olá equipe' });
    const isNew = (channel: string) => (e: SocketEvent) => e.channel === channel && e.action === 'new-message';
    // Both go out together (one frame, in either order): read until both have come.
    const seen: SocketEvent[] = [];
    const paneChannel = `company-${t.company.id}-chat-${chat.id}`;
    const both = () => seen.some(isNew(paneChannel)) && seen.some(isNew(userChannel(t.attendant.id)));
    await eventsUntil(memberSocket, (e) => (seen.push(e), both()));
    const inPane = seen.find(isNew(paneChannel));
    expect(inPane).toMatchObject({ newMessage: { message: 'Olá equipe', senderId: t.admin.id } });
    const inList = seen.find(isNew(userChannel(t.attendant.id)));
    const unreads = (inList!.record as { users: { userId: number; unreads: number }[] }).users;
    expect(unreads.find((u) => u.userId === t.attendant.id)?.unreads).toBe(1);

    await api(t.adminToken).delete(`/chats/${chat.id}`);
    await eventsUntil(memberSocket, (e) => e.channel === userChannel(t.attendant.id) && e.action === 'delete');
    // The sentinel: the outsider's socket answers a ping before anything else, so none of those events came.
    await expectNothingBefore(outsiderSocket);
  });
});
