import { EventEmitter } from 'node:events';
import { Boom } from '@hapi/boom';
import { DisconnectReason as BaileysDisconnect, initAuthCreds, proto } from '@whiskeysockets/baileys';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createBaileysDriver,
  disconnectReasonOf,
  mapConnectionUpdate,
  phoneNumberOf,
  toBaileysKeyStore,
  type BaileysSocket,
} from '../../functions/channels/whatsapp/baileys-driver';
import type { DisconnectReason, HistoryBatch, SessionEvents } from '../../functions/channels/whatsapp/driver';
import {
  createSimulatorDriver,
  demoPhoneHistory,
  isSimulatorCreds,
  simulatedPhoneNumber,
} from '../../functions/channels/whatsapp/simulator-driver';
import { parseConfig } from '../../functions/shared/config';
import { fnv1a } from '../../functions/data/keys';

/** The port's events as a log the tests read. */
const recorder = () => {
  const log: { event: string; value?: unknown }[] = [];
  const events: SessionEvents = {
    qr: (code) => log.push({ event: 'qr', value: code }),
    pairing: () => log.push({ event: 'pairing' }),
    connected: (number) => log.push({ event: 'connected', value: number }),
    disconnected: (reason) => log.push({ event: 'disconnected', value: reason }),
    credsUpdate: (creds) => log.push({ event: 'credsUpdate', value: creds }),
  };
  return { log, events, names: () => log.map((l) => l.event) };
};

const noKeys = { get: async () => ({}), set: async () => undefined };
const context = { companyId: 7, whatsappId: 42 };
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Baileys closes with a Boom whose output.statusCode is the DisconnectReason (Socket/socket.js `end`). */
const closed = (message: string, statusCode?: number) => ({
  connection: 'close' as const,
  lastDisconnect: { error: statusCode === undefined ? undefined : new Boom(message, { statusCode }), date: new Date() },
});

describe('Baileys: connection.update as the port’s events', () => {
  it.each<[string, number | undefined, DisconnectReason]>([
    ['Intentional Logout', BaileysDisconnect.loggedOut, 'logged-out'],
    ['Connection Failure', BaileysDisconnect.forbidden, 'logged-out'],
    ['Multi-device beta not joined', BaileysDisconnect.multideviceMismatch, 'logged-out'],
    ['Stream Errored (restart required)', BaileysDisconnect.restartRequired, 'restart-required'],
    ['QR refs attempts ended', BaileysDisconnect.timedOut, 'timeout'],
    ['Timed Out', BaileysDisconnect.connectionLost, 'connection-lost'],
    ['Connection Closed', BaileysDisconnect.connectionClosed, 'connection-lost'],
    ['Stream Errored (conflict)', BaileysDisconnect.connectionReplaced, 'connection-lost'],
    ['Bad session', BaileysDisconnect.badSession, 'connection-lost'],
    ['Unavailable', BaileysDisconnect.unavailableService, 'connection-lost'],
    ['no error', undefined, 'connection-lost'],
  ])('close with “%s” (%s) is %s', (message, status, reason) => {
    expect(mapConnectionUpdate(closed(message, status))).toEqual([{ kind: 'disconnected', reason }]);
    expect(disconnectReasonOf(closed(message, status).lastDisconnect.error)).toBe(reason);
  });

  it('maps QR codes, pairing and open; ignores what means nothing to the worker', () => {
    expect(mapConnectionUpdate({ qr: '2@abc,def,ghi,jkl' })).toEqual([{ kind: 'qr', code: '2@abc,def,ghi,jkl' }]);
    expect(mapConnectionUpdate({ isNewLogin: true, qr: undefined })).toEqual([{ kind: 'pairing' }]);
    expect(mapConnectionUpdate({ connection: 'open' })).toEqual([{ kind: 'connected' }]);
    expect(
      mapConnectionUpdate({ connection: 'connecting', receivedPendingNotifications: false, qr: undefined }),
    ).toEqual([]);
    expect(mapConnectionUpdate({ receivedPendingNotifications: true })).toEqual([]);
    expect(mapConnectionUpdate({ isOnline: true })).toEqual([]);
  });

  it('reads the phone number from the logged-in jid, without the device', () => {
    expect(phoneNumberOf({ me: { id: '5511987654321:12@s.whatsapp.net' } })).toBe('5511987654321');
    expect(phoneNumberOf({ me: { id: '5511987654321@s.whatsapp.net' } })).toBe('5511987654321');
    expect(phoneNumberOf({})).toBe('');
  });
});

describe('Baileys session over a stand-in socket', () => {
  const fakeSocket = () => {
    const ev = new EventEmitter();
    const socket = { ev, logout: vi.fn(async () => undefined), end: vi.fn() };
    return socket;
  };

  it('emits the port’s events, hands over the merged credentials, and stops at the first close', () => {
    const socket = fakeSocket();
    let config: { auth: { creds: ReturnType<typeof initAuthCreds> } } | undefined;
    const driver = createBaileysDriver({
      makeSocket: (c) => {
        config = c as typeof config;
        return socket as unknown as BaileysSocket;
      },
    });
    const r = recorder();
    driver.start({ creds: null, keys: noKeys }, r.events, context);
    // Without stored credentials the session starts a new pairing with fresh ones.
    const creds = config!.auth.creds;
    expect(creds.noiseKey.public).toBeInstanceOf(Uint8Array);
    expect(creds.registered).toBe(false);

    socket.ev.emit('connection.update', { qr: 'ref-1,noise,identity,adv' });
    socket.ev.emit('connection.update', { isNewLogin: true, qr: undefined });
    creds.me = { id: '5521999990000:3@s.whatsapp.net' }; // what Baileys merges before emitting creds.update
    socket.ev.emit('creds.update', { me: creds.me });
    socket.ev.emit('connection.update', closed('Stream Errored (restart required)', 515));
    socket.ev.emit('connection.update', { connection: 'open' }); // after the end: ignored
    expect(r.names()).toEqual(['qr', 'pairing', 'credsUpdate', 'disconnected']);
    expect(r.log[2]!.value).toBe(creds);
    expect(r.log[3]!.value).toBe('restart-required');
  });

  it('resumes with stored credentials, reports the number on open, and logs out on request', async () => {
    const socket = fakeSocket();
    const stored = { ...initAuthCreds(), me: { id: '5511912345678:9@s.whatsapp.net' }, registered: true };
    const driver = createBaileysDriver({ makeSocket: () => socket as unknown as BaileysSocket });
    const r = recorder();
    const session = driver.start({ creds: stored, keys: noKeys }, r.events, context);
    socket.ev.emit('connection.update', { connection: 'connecting' });
    socket.ev.emit('connection.update', { connection: 'open' });
    expect(r.log).toEqual([{ event: 'connected', value: '5511912345678' }]);

    await session.logout();
    expect(socket.logout).toHaveBeenCalledOnce();
    expect(socket.end).toHaveBeenCalledOnce();
    // The close that logging out causes is not reported: the worker asked for it.
    socket.ev.emit('connection.update', closed('Intentional Logout', 401));
    expect(r.names()).toEqual(['connected']);
  });

  const waMessage = (remoteJid: string, id: string, text: string, seconds: number, participant?: string) =>
    proto.WebMessageInfo.fromObject({
      key: { remoteJid, fromMe: false, id, ...(participant ? { participant } : {}) },
      messageTimestamp: seconds,
      pushName: 'Maria',
      message: { conversation: text },
    });

  it('hands the phone’s history over in order, named groups included, the last batch complete', async () => {
    const socket = fakeSocket();
    let config: { syncFullHistory?: boolean } | undefined;
    const driver = createBaileysDriver({
      makeSocket: (c) => {
        config = c as typeof config;
        return socket as unknown as BaileysSocket;
      },
    });
    const batches: HistoryBatch[] = [];
    const r = recorder();
    driver.start(
      { creds: null, keys: noKeys },
      { ...r.events, history: (b) => batches.push(b) },
      { ...context, inbound: async () => undefined, fullHistory: true },
    );
    // A connection that imports old messages asks the phone for its whole history when pairing.
    expect(config?.syncFullHistory).toBe(true);
    const group = '120363025246125486@g.us';
    socket.ev.emit('messaging-history.set', {
      chats: [{ id: group, name: 'Fornecedores' }],
      contacts: [],
      messages: [
        waMessage('5511912345678@s.whatsapp.net', '3A00000000000000000A', 'antiga', 1_763_000_000),
        waMessage(group, '3A00000000000000000B', 'no grupo', 1_763_000_060, '5511987654321@s.whatsapp.net'),
        waMessage('status@broadcast', '3A00000000000000000C', 'status', 1_763_000_120, '5511912345678@s.whatsapp.net'),
      ],
      progress: 40,
    });
    socket.ev.emit('messaging-history.set', {
      chats: [],
      contacts: [],
      messages: [waMessage('5511912345678@s.whatsapp.net', '3A00000000000000000D', 'mais nova', 1_763_000_180)],
      isLatest: true,
    });
    await vi.waitFor(() => expect(batches).toHaveLength(2));
    expect(batches.map((b) => b.complete)).toEqual([false, true]);
    // Status broadcasts are not chats: they never become history messages.
    expect(batches[0]!.messages.map((m) => [m.providerMessageId, m.chat])).toEqual([
      ['3A00000000000000000A', { id: '5511912345678@s.whatsapp.net', isGroup: false }],
      ['3A00000000000000000B', { id: group, isGroup: true, name: 'Fornecedores' }],
    ]);
    expect(batches[1]!.messages[0]).toMatchObject({
      content: { type: 'text', body: 'mais nova' },
      timestamp: new Date(1_763_000_180_000).toISOString(),
    });
  });

  it('names a live group message by the group’s subject, asking WhatsApp once per group', async () => {
    const socket = Object.assign(fakeSocket(), {
      groupMetadata: vi.fn(async (jid: string) => ({ id: jid, subject: 'Equipe de vendas' })),
    });
    const driver = createBaileysDriver({ makeSocket: () => socket as unknown as BaileysSocket });
    const delivered: Record<string, unknown>[] = [];
    driver.start({ creds: null, keys: noKeys }, recorder().events, {
      ...context,
      inbound: async (e) => {
        delivered.push(e as Record<string, unknown>);
      },
    });
    const group = '120363000000000777@g.us';
    const participant = '5511987654321@s.whatsapp.net';
    socket.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        waMessage(group, '3A0000000000000000E1', 'um', 1_763_000_000, participant),
        waMessage(group, '3A0000000000000000E2', 'dois', 1_763_000_001, participant),
      ],
    });
    await vi.waitFor(() => expect(delivered).toHaveLength(2));
    expect(delivered.map((e) => e.chat)).toEqual([
      { id: group, isGroup: true, name: 'Equipe de vendas' },
      { id: group, isGroup: true, name: 'Equipe de vendas' },
    ]);
    expect(socket.groupMetadata).toHaveBeenCalledOnce();
    // A renamed group: the subject WhatsApp announces is used from then on.
    socket.ev.emit('groups.update', [{ id: group, subject: 'Vendas 2027' }]);
    socket.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [waMessage(group, '3A0000000000000000E3', 'três', 1_763_000_002, participant)],
    });
    await vi.waitFor(() => expect(delivered).toHaveLength(3));
    expect(delivered[2]!.chat).toEqual({ id: group, isGroup: true, name: 'Vendas 2027' });
  });

  it('uses Baileys’ BufferJSON as its codec, and revives app-state sync keys as protobuf objects', async () => {
    const driver = createBaileysDriver({ makeSocket: () => fakeSocket() as unknown as BaileysSocket });
    const creds = initAuthCreds();
    const text = JSON.stringify(creds, driver.codec.replacer as never);
    const back = JSON.parse(text, driver.codec.reviver as never) as typeof creds;
    expect(Buffer.isBuffer(back.noiseKey.private)).toBe(true);
    expect(Buffer.from(back.noiseKey.private)).toEqual(Buffer.from(creds.noiseKey.private));

    const keys = toBaileysKeyStore({
      get: async (_type, ids) => Object.fromEntries(ids.map((id) => [id, { keyData: Buffer.from([1, 2, 3]) }])),
      set: async () => undefined,
    });
    const found = await keys.get('app-state-sync-key', ['AAAAAQ']);
    expect(found.AAAAAQ).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
  });
});

describe('the simulator driver', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('without credentials: QR codes that expire, then timeout', async () => {
    const driver = createSimulatorDriver({ firstQrMs: 30, nextQrMs: 10, qrCodes: 3 });
    const r = recorder();
    driver.start({ creds: null, keys: noKeys }, r.events, context);
    await vi.waitFor(() => expect(r.names()).toContain('disconnected'));
    expect(r.names()).toEqual(['qr', 'qr', 'qr', 'disconnected']);
    const codes = r.log.filter((l) => l.event === 'qr').map((l) => l.value);
    expect(new Set(codes).size).toBe(3);
    for (const code of codes) expect(code).toMatch(/^zapdesk-sim:[\w-]{24}$/);
    expect(r.log.at(-1)!.value).toBe('timeout');
  });

  it('a scan pairs like Baileys: pairing, new credentials, restart required; then stored credentials connect without a QR code', async () => {
    const driver = createSimulatorDriver();
    const first = recorder();
    const session = driver.start({ creds: null, keys: noKeys }, first.events, context);
    await tick();
    session.scan!(simulatedPhoneNumber(42));
    await tick();
    expect(first.names()).toEqual(['qr', 'pairing', 'credsUpdate', 'disconnected']);
    const creds = first.log[2]!.value;
    expect(isSimulatorCreds(creds)).toBe(true);
    expect(creds).toMatchObject({ number: '5500000000042' });
    expect(first.log[3]!.value).toBe('restart-required');

    const second = recorder();
    driver.start({ creds, keys: noKeys }, second.events, context);
    await tick();
    expect(second.log).toEqual([{ event: 'connected', value: '5500000000042' }]);
  });

  it('after a pairing the phone hands its history over once, in time order, in batches of 50, the last one complete', async () => {
    const entries = Array.from({ length: 120 }, (_, i) => ({
      number: '5511900000001',
      name: 'Ana',
      body: `mensagem ${i}`,
      // Given newest first: the phone hands them over oldest first.
      at: new Date(Date.UTC(2026, 10, 1) + (120 - i) * 60_000).toISOString(),
    }));
    const driver = createSimulatorDriver({
      phone: {
        record: async () => null,
        list: async () => ({ messages: [], hasMore: false }),
        raiseAck: async () => false,
        history: async () => entries,
      },
    });
    const batches: HistoryBatch[] = [];
    const r = recorder();
    const creds = {
      simulator: true,
      number: '5500000000042',
      pairedAt: '2026-11-01T00:00:00.000Z',
      historyPending: true,
    };
    driver.start({ creds, keys: noKeys }, { ...r.events, history: (b) => batches.push(b) }, context);
    await vi.waitFor(() => expect(r.names()).toContain('credsUpdate'));
    expect(batches.map((b) => [b.messages.length, b.complete])).toEqual([
      [50, false],
      [50, false],
      [20, true],
    ]);
    const all = batches.flatMap((b) => b.messages);
    expect(all[0]).toMatchObject({
      kind: 'message',
      companyId: 7,
      whatsappId: 42,
      chat: { id: '5511900000001@s.whatsapp.net', isGroup: false },
      fromMe: false,
      contact: { phone: '5511900000001', pushName: 'Ana' },
      content: { type: 'text', body: 'mensagem 119' },
    });
    expect(all.map((m) => m.timestamp)).toEqual([...all.map((m) => m.timestamp)].sort());
    expect(new Set(all.map((m) => m.providerMessageId)).size).toBe(120);
    // Handed over: the stored credentials say so, and a reconnect hands nothing over again.
    const after = r.log.find((l) => l.event === 'credsUpdate')!.value;
    expect(after).toMatchObject({ historyPending: false, number: '5500000000042' });
    const again: HistoryBatch[] = [];
    driver.start({ creds: after, keys: noKeys }, { ...recorder().events, history: (b) => again.push(b) }, context);
    await tick();
    await tick();
    expect(again).toEqual([]);
  });

  it('a phone nobody gave a history hands over the demo history', async () => {
    const driver = createSimulatorDriver({
      phone: {
        record: async () => null,
        list: async () => ({ messages: [], hasMore: false }),
        raiseAck: async () => false,
        history: async () => null,
      },
    });
    const batches: HistoryBatch[] = [];
    const r = recorder();
    const creds = {
      simulator: true,
      number: '5500000000042',
      pairedAt: '2026-11-01T00:00:00.000Z',
      historyPending: true,
    };
    driver.start({ creds, keys: noKeys }, { ...r.events, history: (b) => batches.push(b) }, context);
    await vi.waitFor(() => expect(r.names()).toContain('credsUpdate'));
    const messages = batches.flatMap((b) => b.messages);
    expect(messages.length).toBe(demoPhoneHistory(new Date()).length);
    expect(batches.at(-1)!.complete).toBe(true);
    expect(messages.some((m) => m.chat.isGroup && m.participant?.phone !== undefined)).toBe(true);
    expect(messages.some((m) => m.fromMe)).toBe(true);
  });

  it('after close or logout it emits nothing; a scan without a QR code on screen does nothing', async () => {
    vi.useFakeTimers();
    const driver = createSimulatorDriver({ firstQrMs: 1_000 });
    const r = recorder();
    const session = driver.start({ creds: null, keys: noKeys }, r.events, context);
    await vi.advanceTimersByTimeAsync(0);
    await session.close();
    await vi.advanceTimersByTimeAsync(60_000);
    session.scan!('5500000000001');
    expect(r.names()).toEqual(['qr']);
  });
});

describe('WhatsApp worker configuration', () => {
  const base = { TABLE_NAME: 't', APP_SECRET: 'x'.repeat(32) };

  it('defaults to Baileys in AWS and the simulator elsewhere; lease and heartbeat are settable', () => {
    expect(parseConfig(base).WHATSAPP_DRIVER).toBe('baileys');
    expect(parseConfig({ ...base, STAGE: 'local' }).WHATSAPP_DRIVER).toBe('simulator');
    expect(parseConfig({ ...base, STAGE: 'test' }).WHATSAPP_DRIVER).toBe('simulator');
    expect(parseConfig({ ...base, WHATSAPP_DRIVER: 'simulator' }).WHATSAPP_DRIVER).toBe('simulator');
    expect(parseConfig(base)).toMatchObject({ WORKER_HEARTBEAT_MS: 5_000, WORKER_LEASE_MS: 20_000 });
    expect(parseConfig({ ...base, WORKER_HEARTBEAT_MS: '300', WORKER_LEASE_MS: '1500' })).toMatchObject({
      WORKER_HEARTBEAT_MS: 300,
      WORKER_LEASE_MS: 1_500,
    });
  });

  it('refuses a lease shorter than three heartbeats, and an unknown driver', () => {
    expect(() => parseConfig({ ...base, WORKER_HEARTBEAT_MS: '1000', WORKER_LEASE_MS: '2000' })).toThrow(
      /WORKER_LEASE_MS/,
    );
    expect(() => parseConfig({ ...base, WHATSAPP_DRIVER: 'whatsmeow' })).toThrow(/WHATSAPP_DRIVER/);
  });

  it('spreads keys with 32-bit FNV-1a', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});
