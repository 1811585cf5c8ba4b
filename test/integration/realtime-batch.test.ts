import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { enqueueInbound } from '../../functions/channels/inbound';
import { MAX_BATCH_FRAME_BYTES, realtimeNotifier } from '../../functions/realtime/publisher';
import { everyone } from '../../functions/core/notifier';
import { listCompanyConnections } from '../../functions/data/ws-connection-repository';
import { someConnection, waitFor } from '../helpers/connections';
import { freshCompany } from '../helpers/fixtures';

/**
 * A moment's events for one socket go as one frame `{batch: [...]}` (decisions D83): what the browser
 * receives, frame by frame, read with a plain WebSocket client (the tests' helper unpacks batches).
 */
const wsUrl = inject('wsUrl');
const sockets: WebSocket[] = [];
afterAll(() => {
  for (const s of sockets) s.terminate();
});

type Frame = { channel?: string; action?: string; batch?: Frame[]; message?: { body?: string }; [k: string]: unknown };

/** A raw socket that keeps every frame as it came. */
const rawSocket = async (token: string): Promise<Frame[]> => {
  const socket = new WebSocket(`${wsUrl}?token=${token}`);
  sockets.push(socket);
  const frames: Frame[] = [];
  socket.on('message', (data: WebSocket.RawData) =>
    frames.push(JSON.parse(Buffer.from(data as Buffer).toString('utf8')) as Frame),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return frames;
};

/** A raw socket of the company's only user online, once the API knows it (its stored connection listed). */
const registeredSocket = async (token: string, companyId: number) => {
  const frames = await rawSocket(token);
  const connections = await waitFor(
    () => listCompanyConnections(companyId),
    (list) => list.length === 1,
    { what: 'the socket registered' },
  );
  return { frames, connections };
};

describe('batch frames (D83)', () => {
  it("a customer's message reaches the admin's socket as one frame: its appMessage create, then the ticket update", async () => {
    const c = await freshCompany();
    const connection = await someConnection(c.company.id, { status: 'CONNECTED' });
    const frames = await rawSocket(c.adminToken);
    const phone = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    /** A customer's text on the one chat: every one goes to the same FIFO group, handled in turn. */
    const fromCustomer = (text: string) =>
      enqueueInbound({
        kind: 'message',
        companyId: c.company.id,
        whatsappId: connection.id,
        chat: { id: `${phone}@s.whatsapp.net` },
        providerMessageId: `3EB0${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`,
        fromMe: false,
        timestamp: new Date().toISOString(),
        contact: { phone, pushName: 'Rita' },
        content: { type: 'text', body: text },
      });
    const mentioning = (text: string) => (f: Frame) => JSON.stringify(f).includes(text);
    const body = `um frame só ${randomUUID().slice(0, 8)}`;
    await fromCustomer(body);
    await waitFor(
      async () => frames.filter(mentioning(body)),
      (found) => found.length > 0,
      { what: 'the frame' },
    );
    // Nothing more about it follows: a later message of the same chat is handled only after this one's
    // job finished (same FIFO group), and its frames reach this socket after every frame that job sent.
    const later = `depois ${randomUUID().slice(0, 8)}`;
    await fromCustomer(later);
    await waitFor(
      async () => frames.filter(mentioning(later)),
      (found) => found.length > 0,
      { what: 'the later message’s frame' },
    );

    const about = frames.filter(mentioning(body));
    expect(about).toHaveLength(1);
    const events = about[0]!.batch!;
    expect(events.map((e) => `${e.channel} ${e.action}`)).toEqual(
      expect.arrayContaining([`company-${c.company.id}-appMessage create`, `company-${c.company.id}-ticket update`]),
    );
    const create = events.findIndex((e) => e.action === 'create' && e.channel?.endsWith('-appMessage'));
    const update = events.findIndex((e) => e.action === 'update' && e.channel?.endsWith('-ticket'));
    expect(create).toBeLessThan(update);
    expect(events[create]!.message?.body).toBe(body);
  });

  it('events published for one socket in the same turn share a frame, in the order they were published (D84)', async () => {
    const c = await freshCompany();
    const { frames, connections } = await registeredSocket(c.adminToken, c.company.id);
    const channel = `company-${c.company.id}-test`;
    // Two runs of the inbound job announcing side by side, and a lone event beside them.
    const results = await Promise.all([
      realtimeNotifier.send(
        connections,
        [
          { channel, action: 'a1' },
          { channel, action: 'a2' },
        ],
        everyone,
      ),
      realtimeNotifier.send(
        connections,
        [
          { channel, action: 'b1' },
          { channel, action: 'b2' },
        ],
        everyone,
      ),
      realtimeNotifier.send(connections, [{ channel, action: 'c1' }], everyone),
    ]);
    expect(results).toEqual([1, 2, 3].map(() => ({ delivered: 1, gone: 0, failed: 0 })));
    await waitFor(
      async () => frames.length,
      (n) => n >= 1,
      { what: 'a frame' },
    );

    // The next turn's event is a frame of its own. Posted after every post above was answered, it reaches
    // the socket after their frames: once it is here, nothing else of that turn can still come.
    await realtimeNotifier.send(connections, [{ channel, action: 'later' }], everyone);
    await waitFor(
      async () => frames.some((f) => f.action === 'later'),
      (seen) => seen,
      { what: 'the later frame' },
    );
    expect(frames).toHaveLength(2);
    expect(frames[0]!.batch!.map((e) => e.action)).toEqual(['a1', 'a2', 'b1', 'b2', 'c1']);
    expect(frames[1]).toMatchObject({ channel, action: 'later' });
  });

  it('events too large for one frame go one by one, in order; a single event is never wrapped', async () => {
    const c = await freshCompany();
    const { frames, connections } = await registeredSocket(c.adminToken, c.company.id);
    const big = 'x'.repeat(Math.ceil(MAX_BATCH_FRAME_BYTES / 2) + 10);
    const channel = `company-${c.company.id}-test`;
    await realtimeNotifier.send(
      connections,
      [
        { channel, action: 'one', big },
        { channel, action: 'two', big },
      ],
      everyone,
    );
    await realtimeNotifier.send(connections, [{ channel, action: 'alone' }], everyone);
    await waitFor(
      async () => frames.length,
      (n) => n >= 3,
      { what: 'three frames' },
    );
    expect(frames.map((f) => f.action)).toEqual(['one', 'two', 'alone']);
    expect(frames.every((f) => f.batch === undefined)).toBe(true);
  });
});
