import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signAccessToken } from '../../functions/core/access-token';
import { createUser, deleteUser, getUser } from '../../functions/data/user-repository';
import { isOnline } from '../../functions/data/user-presence-repository';
import { listCompanyConnections } from '../../functions/data/ws-connection-repository';
import { inRoom, onlyUser, publish } from '../../functions/core/notifier';
import { freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets, upgradeRejectedWith, type TestSocket } from '../helpers/ws-client';

const wsUrl = inject('wsUrl');
let t: TestCompany;
let ana: TestSocket;
let bruno: TestSocket;

beforeAll(async () => {
  t = await freshCompany();
  ana = await connectSocket(`${wsUrl}?token=${t.adminToken}`);
  bruno = await connectSocket(`${wsUrl}?token=${t.attendantToken}`);
});
afterAll(() => {
  for (const s of openSockets) s.terminate();
});

/** Nothing else is queued for this socket: a ping's pong is the very next message. */
const expectNothingPending = async (s: TestSocket) => {
  s.send({ action: 'ping' });
  expect(await s.next()).toEqual({ action: 'pong' });
};

type TicketAction = 'update' | 'delete';
/** What core publishes (the catalogue's short channel name) and what the socket receives (the whole name). */
const event = (action: TicketAction) => ({ channel: 'ticket' as const, action, ticket: { id: 42 } });
const received = (action: TicketAction) => ({ ...event(action), channel: `company-${t.company.id}-ticket` });

describe('WebSocket rooms', () => {
  it('joinChatBox subscribes to one ticket: its events reach that connection only, until it leaves', async () => {
    ana.send({ action: 'joinChatBox', ticketId: 42 });
    expect(await ana.next()).toEqual({ action: 'joinChatBox', rooms: ['ticket:42'] });

    const sent = await publish(t.company.id, event('update'), inRoom('ticket:42'));
    expect(sent.delivered).toBe(1);
    expect(await ana.next()).toEqual(received('update'));
    await expectNothingPending(bruno);

    ana.send({ action: 'leaveChatBox', ticketId: '42' });
    expect(await ana.next()).toEqual({ action: 'leaveChatBox', rooms: [] });
    expect((await publish(t.company.id, event('delete'), inRoom('ticket:42'))).delivered).toBe(0);
    await expectNothingPending(ana);
  });

  it('joinTickets and joinNotification keep a set of rooms; joining twice changes nothing', async () => {
    bruno.send({ action: 'joinTickets', status: 'pending' });
    expect(await bruno.next()).toEqual({ action: 'joinTickets', rooms: ['status:pending'] });
    bruno.send({ action: 'joinNotification' });
    expect(await bruno.next()).toEqual({ action: 'joinNotification', rooms: ['notification', 'status:pending'] });
    bruno.send({ action: 'joinNotification' });
    expect(await bruno.next()).toEqual({ action: 'joinNotification', rooms: ['notification', 'status:pending'] });
    bruno.send({ action: 'leaveTickets', status: 'pending' });
    expect(await bruno.next()).toEqual({ action: 'leaveTickets', rooms: ['notification'] });
    bruno.send({ action: 'leaveNotification' });
    expect(await bruno.next()).toEqual({ action: 'leaveNotification', rooms: [] });
  });

  it('a bad room payload is refused with the field and changes nothing', async () => {
    ana.send({ action: 'joinTickets', status: 'archived' });
    expect(await ana.next()).toMatchObject({
      action: 'joinTickets',
      error: 'ERR_VALIDATION',
      fields: [{ field: 'status' }],
    });
    ana.send({ action: 'joinChatBox', ticketId: -1 });
    expect(await ana.next()).toMatchObject({
      action: 'joinChatBox',
      error: 'ERR_VALIDATION',
      fields: [{ field: 'ticketId' }],
    });
    ana.send({ action: 'joinNotification' });
    expect(await ana.next()).toEqual({ action: 'joinNotification', rooms: ['notification'] });
  });

  it('an event for one user reaches that user only', async () => {
    const personal = { channel: 'auth' as const, action: 'update' as const, user: { id: t.attendant.id } };
    expect((await publish(t.company.id, personal, onlyUser(t.attendant.id))).delivered).toBe(1);
    expect(await bruno.next()).toEqual({ ...personal, channel: `company-${t.company.id}-auth` });
    await expectNothingPending(ana);
  });

  it("another company's events never reach these sockets, whatever rooms they joined", async () => {
    const other = await freshCompany();
    const everyRoom = () => true;
    expect((await publish(other.company.id, { channel: 'ticket', action: 'update' }, everyRoom)).delivered).toBe(0);
    await expectNothingPending(ana);
    await expectNothingPending(bruno);
  });
});

describe('userStatus', () => {
  it('records presence: the user counts as online', async () => {
    bruno.send({ action: 'userStatus' });
    expect(await bruno.next()).toEqual({ action: 'userStatus', ok: true });
    const user = (await getUser(t.company.id, t.attendant.id)) as unknown as { lastSeenAt?: string };
    expect(isOnline(user.lastSeenAt)).toBe(true);
    expect(isOnline(user.lastSeenAt, Date.now() + 7 * 60 * 1000)).toBe(false);
  });

  it('a user deleted while connected gets an error, and no user is recreated', async () => {
    const gone = await createUser(t.company.id, {
      name: 'Temporária',
      email: `temp-${Math.random().toString(36).slice(2, 8)}@test.local`,
      passwordHash: 'x',
      profile: 'user',
    });
    const socket = await connectSocket(
      `${wsUrl}?token=${await signAccessToken({ companyId: t.company.id, userId: gone.id, profile: 'user', super: false })}`,
    );
    await deleteUser(t.company.id, gone.id);
    socket.send({ action: 'userStatus' });
    expect(await socket.next()).toEqual({ action: 'userStatus', error: 'ERR_NO_USER_FOUND' });
    expect(await getUser(t.company.id, gone.id)).toBeNull();
  });
});

describe('who may connect', () => {
  it('a token for a user that does not exist, or of a session that ended, is refused with 403', async () => {
    const ghost = await signAccessToken({ companyId: t.company.id, userId: 999_999, profile: 'user', super: false });
    expect(await upgradeRejectedWith(`${wsUrl}?token=${ghost}`)).toBe(403);
    const oldSession = await signAccessToken({
      companyId: t.company.id,
      userId: t.attendant.id,
      profile: 'user',
      super: false,
      sessionId: 'a-session-that-ended',
    });
    expect(await upgradeRejectedWith(`${wsUrl}?token=${oldSession}`)).toBe(403);
  });

  it('the stored profile comes from the user record, not from what the token claims', async () => {
    const claimsAdmin = await signAccessToken({
      companyId: t.company.id,
      userId: t.attendant.id,
      profile: 'admin',
      super: true,
    });
    const s = await connectSocket(`${wsUrl}?token=${claimsAdmin}`);
    await expectNothingPending(s);
    const mine = (await listCompanyConnections(t.company.id)).filter((c) => c.userId === t.attendant.id);
    expect(mine.length).toBeGreaterThan(0);
    for (const c of mine) expect({ profile: c.profile, super: c.super }).toEqual({ profile: 'user', super: false });
  });
});
