import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SessionCommandMessage } from '../../functions/core/connections/connection-service';
import { simulatedPhoneNumber } from '../../functions/channels/whatsapp/simulator-driver';
import { startWhatsAppWorker, type WhatsAppWorker } from '../../functions/channels/whatsapp/whatsapp-worker';
import { config } from '../../functions/shared/config';
import { setSessionState } from '../../functions/data/connection-repository';
import { authStateStore } from '../../functions/data/wa-auth-state-repository';
import {
  acquireLease,
  getLease,
  getWorker,
  isWorkerDead,
  markWorkerDead,
} from '../../functions/data/wa-lease-repository';
import {
  eventsUntil,
  isSessionUpdate,
  sessionStatuses,
  someConnection,
  waitFor,
  waitForConnection,
  type SocketEvent,
} from '../helpers/connections';
import { api, freshCompany, type TestCompany } from '../helpers/fixtures';
import { connectSocket, openSockets, type TestSocket } from '../helpers/ws-client';

/**
 * The WhatsApp worker (issue 4, item 2; decisions D24, D36) through the real local queues and DynamoDB
 * Local: the local cloud runs one worker (a child process, simulator driver); tests that need to choose
 * the holder, race workers or kill one start their own workers in this process, without the queue.
 */
let t: TestCompany;
let admin: TestSocket;
let plain: TestSocket;
const extraWorkers: WhatsAppWorker[] = [];

beforeAll(async () => {
  t = await freshCompany();
  admin = await connectSocket(`${inject('wsUrl')}?token=${t.adminToken}`);
  plain = await connectSocket(`${inject('wsUrl')}?token=${t.attendantToken}`);
});
afterAll(async () => {
  for (const s of openSockets) s.terminate();
  await Promise.all(extraWorkers.map((w) => w.stop()));
});

/** A worker of this test process that only acts when told (no queue), so a test knows who holds what. */
const extraWorker = async (): Promise<WhatsAppWorker> => {
  const worker = await startWhatsAppWorker({ consumeQueue: false });
  extraWorkers.push(worker);
  return worker;
};

/** How long a dead worker's connections may take to move: its lease, a sweep, and slack for a busy machine. */
const takeoverBound = () => config().WORKER_LEASE_MS + 3 * config().WORKER_HEARTBEAT_MS + 5_000;

const sessionEvents = (id: number, status: string, socket = admin) =>
  eventsUntil(socket, isSessionUpdate(t.company.id, id, status));

const sessionOf = (events: SocketEvent[]) => events.at(-1)!.session as Record<string, unknown>;

/** A connection made through the API and paired through the simulator route. */
const connectedConnection = async (name = 'Pareada'): Promise<{ id: number; qrcode: string }> => {
  const created = await api(t.adminToken).post('/whatsapp', { name });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const qr = sessionOf(await sessionEvents(created.body.id, 'qrcode'));
  const scan = await api(t.adminToken).post(`/simulator/${created.body.id}/scan`);
  expect(scan.status, JSON.stringify(scan.body)).toBe(200);
  await sessionEvents(created.body.id, 'CONNECTED');
  return { id: created.body.id, qrcode: String(qr.qrcode) };
};

/** A connection in storage whose latest command is `start` at a time of the test's choosing (no queue message). */
const connectionWithStart = async (): Promise<SessionCommandMessage> => {
  const connection = await someConnection(t.company.id);
  const requestedAt = new Date().toISOString();
  await setSessionState(t.company.id, connection.id, { status: 'OPENING', command: 'start', at: requestedAt });
  return { companyId: t.company.id, whatsappId: connection.id, command: 'start', requestedAt };
};

/**
 * Waits until the worker has renewed its heartbeat `beats` times from now. A beat renews, checks the
 * worker's sessions, then sweeps for dead workers' connections, and the next one starts after that: seeing
 * a renewal proves every earlier beat ran to its end. Missed renewals only make this wait longer.
 */
const laterHeartbeats = async (taskId: string, beats: number): Promise<void> => {
  const from = (await getWorker(taskId))?.heartbeatAt ?? 0;
  const renewals = new Set<number>();
  await waitFor(
    () => getWorker(taskId),
    (worker) => {
      if (worker && worker.heartbeatAt > from) renewals.add(worker.heartbeatAt);
      return renewals.size >= beats;
    },
    {
      timeoutMs: beats * config().WORKER_HEARTBEAT_MS + 10_000,
      intervalMs: 50,
      what: `${beats} heartbeats of ${taskId}`,
    },
  );
};

/** Nothing is queued for this socket: a ping's pong is the very next message. */
const expectNothingPending = async (s: TestSocket) => {
  s.send({ action: 'ping' });
  expect(await s.next()).toEqual({ action: 'pong' });
};

describe('a session through the API and the local cloud’s worker', () => {
  it('a new connection gets a QR code, a scan pairs it, and only managers see it happen', async () => {
    const created = await api(t.adminToken).post('/whatsapp', { name: 'Atendimento' });
    expect(created.body).toMatchObject({ status: 'OPENING', qrcode: '' });
    const id = created.body.id as number;

    const untilQr = await sessionEvents(id, 'qrcode');
    // The API's waiting status comes first, then the worker's QR code (never the other way round).
    expect(sessionStatuses(untilQr, t.company.id, id)).toEqual(['OPENING', 'qrcode']);
    expect(sessionOf(untilQr)).toMatchObject({ id, retries: 1, qrcode: expect.stringMatching(/^zapdesk-sim:/) });
    expect(sessionOf(untilQr)).not.toHaveProperty('sessionCommand');
    const whatsappUpdate = await eventsUntil(
      admin,
      (e) =>
        e.channel === `company-${t.company.id}-whatsapp` && (e.whatsapp as { status?: string }).status === 'qrcode',
    );
    expect(whatsappUpdate.at(-1)!.whatsapp).toMatchObject({ id, qrcode: sessionOf(untilQr).qrcode });
    const lease = await getLease(t.company.id, id);
    expect(lease).toMatchObject({ holder: expect.any(String), fence: 1 });
    expect(isWorkerDead(await getWorker(lease!.holder!))).toBe(false);

    const scan = await api(t.adminToken).post(`/simulator/${id}/scan`);
    expect(scan.status, JSON.stringify(scan.body)).toBe(200);
    expect(scan.body).toMatchObject({ message: 'QR code scanned.', whatsapp: { id, status: 'qrcode' } });
    const untilConnected = await sessionEvents(id, 'CONNECTED');
    expect(sessionStatuses(untilConnected, t.company.id, id)).toEqual(['PAIRING', 'CONNECTED']);
    expect(sessionOf(untilConnected)).toMatchObject({ number: simulatedPhoneNumber(id), qrcode: '', retries: 0 });
    expect(await authStateStore(t.company.id, id).readCreds()).toMatchObject({
      simulator: true,
      number: simulatedPhoneNumber(id),
    });
    const stored = await api(t.adminToken).get(`/whatsapp/${id}`);
    expect(stored.body).toMatchObject({ status: 'CONNECTED', number: simulatedPhoneNumber(id) });

    await expectNothingPending(plain);
  });

  it('the scan route is for managers, needs a QR code on screen, and names only the caller’s connections', async () => {
    const { id } = await connectedConnection('Já pareada');
    const again = await api(t.adminToken).post(`/simulator/${id}/scan`);
    expect(again.status).toBe(400);
    expect(again.body.fields).toEqual([{ field: 'params.whatsappId', reason: 'status is CONNECTED, not qrcode' }]);
    expect((await api(t.attendantToken).post(`/simulator/${id}/scan`)).status).toBe(403);
    const other = await freshCompany();
    expect((await api(other.adminToken).post(`/simulator/${id}/scan`)).body.error).toBe('ERR_NO_WAPP_FOUND');
  });

  it('new QR: logs out, forgets the pairing and shows a new code', async () => {
    const { id, qrcode } = await connectedConnection('Novo QR');
    const res = await api(t.adminToken).put(`/whatsappsession/${id}`);
    expect(res.status).toBe(200);
    const events = await sessionEvents(id, 'qrcode');
    expect(sessionStatuses(events, t.company.id, id)).toEqual(['OPENING', 'qrcode']);
    expect(sessionOf(events).qrcode).not.toBe(qrcode);
    expect(await authStateStore(t.company.id, id).readCreds()).toBeNull();
  });

  it('restart reconnects with the stored credentials: CONNECTED again without a QR code', async () => {
    const { id } = await connectedConnection('Reinício');
    const res = await api(t.adminToken).post('/whatsapp-restart');
    expect(res.status).toBe(200);
    const events = await sessionEvents(id, 'CONNECTED');
    expect(sessionStatuses(events, t.company.id, id)).toEqual(['OPENING', 'CONNECTED']);
  });

  it('disconnect: logs out, deletes the auth state, lets the lease go, and stays DISCONNECTED', async () => {
    const { id } = await connectedConnection('Desconectar');
    const holder = (await getLease(t.company.id, id))!.holder;
    expect(holder).toEqual(expect.any(String));
    const res = await api(t.adminToken).delete(`/whatsappsession/${id}`);
    expect(res.body.whatsapp).toMatchObject({ status: 'DISCONNECTED' });
    await waitFor(
      () => getLease(t.company.id, id),
      (l) => l?.holder === null,
      { what: 'the lease to be released' },
    );
    expect(await authStateStore(t.company.id, id).readCreds()).toBeNull();
    // No reconnect loop: a few heartbeats of the worker that held it later (each beat checks its sessions
    // and sweeps for orphans, the paths that would open it again), it is still DISCONNECTED and nobody holds it.
    await laterHeartbeats(holder!, 4);
    expect((await api(t.adminToken).get(`/whatsapp/${id}`)).body.status).toBe('DISCONNECTED');
    expect((await getLease(t.company.id, id))!.holder).toBeNull();
  });

  it('deleting a connection ends its session: the lease and the auth state are gone', async () => {
    const { id } = await connectedConnection('Apagar');
    await api(t.adminToken).post('/whatsapp', { name: 'Fica' }); // the deleted one must not be the only default
    const current = await api(t.adminToken).get(`/whatsapp/${id}`);
    if (current.body.isDefault) {
      const others = (await api(t.adminToken).get('/whatsapp')).body as { id: number }[];
      await api(t.adminToken).put(`/whatsapp/${others.find((o) => o.id !== id)!.id}`, { isDefault: true });
    }
    expect((await api(t.adminToken).delete(`/whatsapp/${id}`)).status).toBe(200);
    await waitFor(
      () => getLease(t.company.id, id),
      (l) => l === null,
      { what: 'the lease to be deleted' },
    );
    expect(await authStateStore(t.company.id, id).readCreds()).toBeNull();
  });
});

describe('commands: stale, repeated, and for a connection another worker holds', () => {
  it('a command older than the connection’s latest is dropped; the latest is carried out once', async () => {
    const worker = await extraWorker();
    const latest = await connectionWithStart();
    const older = { ...latest, requestedAt: new Date(Date.parse(latest.requestedAt) - 60_000).toISOString() };
    expect(await worker.handleCommand(older)).toBe('stale');
    expect(await getLease(t.company.id, latest.whatsappId)).toBeNull();

    expect(await worker.handleCommand(latest)).toBe('done');
    expect(await worker.handleCommand(latest)).toBe('handled-before');
    expect(worker.held()).toEqual([{ companyId: t.company.id, whatsappId: latest.whatsappId }]);
    await waitForConnection(t.company.id, latest.whatsappId, (c) => c?.status === 'qrcode');
  });

  it('a worker leaves a connection another live worker holds; the holder sees the command on its heartbeat', async () => {
    const [holder, other] = [await extraWorker(), await extraWorker()];
    const start = await connectionWithStart();
    expect(await holder.handleCommand(start)).toBe('done');
    await waitForConnection(t.company.id, start.whatsappId, (c) => c?.status === 'qrcode');

    // The scan goes through the API; whoever receives it, only the holder acts.
    const at = new Date().toISOString();
    await setSessionState(t.company.id, start.whatsappId, { command: 'scan', at });
    const scan = { ...start, command: 'scan' as const, requestedAt: at };
    expect(await other.handleCommand(scan)).toBe('held-elsewhere');
    expect(other.held()).toEqual([]);
    const connected = await waitForConnection(t.company.id, start.whatsappId, (c) => c?.status === 'CONNECTED');
    expect(connected!.number).toBe(simulatedPhoneNumber(start.whatsappId));
    expect((await getLease(t.company.id, start.whatsappId))!.holder).toBe(holder.taskId);
  });
});

describe('leases', () => {
  it('two workers racing for one connection: exactly one holds it', async () => {
    const workers = [await extraWorker(), await extraWorker(), await extraWorker()];
    const start = await connectionWithStart();
    const outcomes = await Promise.all(workers.map((w) => w.handleCommand(start)));
    expect(outcomes.filter((o) => o === 'done')).toHaveLength(1);
    const winner = workers[outcomes.indexOf('done')]!;
    const holding = workers.filter((w) => w.held().some((h) => h.whatsappId === start.whatsappId));
    expect(holding).toEqual([winner]);
    expect((await getLease(t.company.id, start.whatsappId))!.holder).toBe(winner.taskId);
  });

  it('parallel acquisitions of a free lease: one fence, one holder', async () => {
    const connection = await someConnection(t.company.id);
    const taken = await Promise.all(
      Array.from({ length: 8 }, (_, i) => acquireLease(t.company.id, connection.id, `racer-${i}`)),
    );
    const winners = taken.filter((l) => l !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ fence: 1 });
    expect((await getLease(t.company.id, connection.id))!.holder).toBe(winners[0]!.holder);
  });

  it('a worker killed mid-session: another takes the lease in bounded time and resumes CONNECTED without a QR code', async () => {
    const first = await extraWorker();
    await extraWorker(); // a second worker is running when the first dies (the cloud's worker may win too)
    const start = await connectionWithStart();
    expect(await first.handleCommand(start)).toBe('done');
    await sessionEvents(start.whatsappId, 'qrcode');
    expect((await api(t.adminToken).post(`/simulator/${start.whatsappId}/scan`)).status).toBe(200);
    await sessionEvents(start.whatsappId, 'CONNECTED');
    const before = (await getLease(t.company.id, start.whatsappId))!;
    expect(before.holder).toBe(first.taskId);

    first.kill();
    const after = await waitFor(
      () => getLease(t.company.id, start.whatsappId),
      (l) => l !== null && l.holder !== null && l.holder !== first.taskId,
      { timeoutMs: takeoverBound(), what: 'another worker to take the lease' },
    );
    expect(after!.fence).toBe(before.fence + 1);
    expect(isWorkerDead(await getWorker(after!.holder!))).toBe(false);
    // The new holder resumed from the stored credentials: CONNECTED again, and never a QR code.
    const events = await sessionEvents(start.whatsappId, 'CONNECTED');
    expect(sessionStatuses(events, t.company.id, start.whatsappId)).not.toContain('qrcode');
    expect(sessionOf(events)).toMatchObject({ number: simulatedPhoneNumber(start.whatsappId), qrcode: '' });
    expect((await getWorker(first.taskId))?.dead).toBe(true);
  });

  it('a worker declared dead closes its sessions at once and comes back under a new task id', async () => {
    const worker = await extraWorker();
    const start = await connectionWithStart();
    expect(await worker.handleCommand(start)).toBe('done');
    const oldId = worker.taskId;
    await markWorkerDead(oldId);
    await waitFor(
      async () => worker.held().length,
      (n) => n === 0,
      { timeoutMs: 3 * config().WORKER_HEARTBEAT_MS + 2_000, what: 'the fenced worker to drop its session' },
    );
    await waitFor(
      async () => worker.taskId,
      (id) => id !== oldId,
      { what: 'a new task id' },
    );
    // Someone else (a sweep) took the connection over.
    await waitFor(
      () => getLease(t.company.id, start.whatsappId),
      (l) => l !== null && l.holder !== null && l.holder !== oldId,
      { timeoutMs: takeoverBound(), what: 'the takeover' },
    );
  });

  it('a graceful stop hands the connections over at once', async () => {
    const worker = await extraWorker();
    const start = await connectionWithStart();
    expect(await worker.handleCommand(start)).toBe('done');
    await waitForConnection(t.company.id, start.whatsappId, (c) => c?.status === 'qrcode');
    await worker.stop();
    expect((await getWorker(worker.taskId))?.dead).toBe(true);
    const lease = await waitFor(
      () => getLease(t.company.id, start.whatsappId),
      (l) => l !== null && l.holder !== null && l.holder !== worker.taskId,
      { timeoutMs: 3 * config().WORKER_HEARTBEAT_MS + 5_000, what: 'the handover' },
    );
    expect(isWorkerDead(await getWorker(lease!.holder!))).toBe(false);
  });
});
