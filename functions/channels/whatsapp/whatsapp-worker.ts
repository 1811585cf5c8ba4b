import * as z from 'zod';
import { config } from '../../shared/config';
import { announceSessionChange, type SessionCommandMessage } from '../../core/connections/connection-service';
import { beginMessageImport, importHistoryBatch, importsOldMessages } from '../../core/connections/message-import';
import { ReadScope } from '../../data/read-scope';
import { errorFields, logger } from '../../shared/logger';
import {
  getConnection,
  getSessionCommands,
  setHeldSessionState,
  type SessionCommand,
  type WorkerSessionState,
} from '../../data/connection-repository';
import { confirmSent, failSend, planChange, planSend } from '../../core/messages/outbound-sender';
import {
  outboundChangeId,
  outboundChangeSchema,
  outboundSendSchema,
  type OutboundChange,
  type OutboundSend,
} from '../../core/pipeline/outbound-queue';
import type { StoredMessage } from '../../data/message-repository';
import { getMediaObject } from '../../data/media-store';
import { deleteQueueMessage, receiveQueueMessages } from '../../data/queue-receiver';
import {
  deferOutboxItem,
  deleteOutboxItem,
  isOutboxChangeDone,
  listOutbox,
  markOutboxChangeDone,
  type OutboxItem,
} from '../../data/wa-outbox-repository';
import { numberCheckSchema, recordWhatsappChecks } from '../../core/contact-lists/number-check';
import { recordDirectoryAnswer, requestCheckSchema } from '../../core/contacts/directory-check';
import { failPhoneImport, importPhoneContacts, phoneContactsRequestSchema } from '../../core/contacts/phone-import';
import { enqueueInbound, type InboundEventInput } from '../inbound';
import { authStateStore, type AuthStateStore } from '../../data/wa-auth-state-repository';
import {
  acquireLease,
  deleteLease,
  getLease,
  getLeases,
  getWorker,
  isWorkerDead,
  markCommandHandled,
  releaseLease,
} from '../../data/wa-lease-repository';
import type {
  DisconnectReason,
  OutboundContent,
  OutboundMessage,
  Session,
  SessionEvents,
  SimulatorAction,
  WhatsAppDriver,
} from './driver';
import { isWhatsAppRateLimit } from './driver';
import { reportProviderThrottle } from '../../core/outbound/send-governor';
import { WorkerLease } from './lease';
import { createSimulatorDriver, simulatedPhoneNumber } from './simulator-driver';
import { companyTimeZone } from '../../core/settings/company-settings';

/**
 * The WhatsApp worker (DESIGN §6, decisions D24 and D36): holds WhatsApp sessions, one lease per
 * connection, and carries out the API's session commands.
 *
 * Routing. The API records every command on the connection (`sessionCommand`, `sessionCommandAt`) before
 * it sends it on the shared, standard `worker-control` queue, so the connection item is the truth and a
 * message is only a wake-up:
 * - a message older than the connection's `sessionCommandAt` is stale and dropped;
 * - a connection nobody holds (or whose holder is dead) is taken by the worker that got the message;
 * - a connection another live worker holds is left to it: every worker checks the connections it holds
 *   on each heartbeat (one BatchGet of their commands and leases) and carries out a command newer than
 *   the one its lease records as handled. So any worker may receive any message, and nothing is lost or
 *   bounced between workers.
 * A lease that is no longer this worker's (checked on every heartbeat and refused by every write) closes
 * that session at once without writing anything: never two holders.
 *
 * What the worker writes on a connection (D24): status, qrcode, retries, number, updatedAt — each write
 * fenced by the lease and by the command generation — then it announces the change to the company's
 * connection managers like the API does.
 */
export interface WorkerOptions {
  /** @default the simulator or Baileys, per config WHATSAPP_DRIVER */
  driver?: WhatsAppDriver;
  /** @default config WORKER_HEARTBEAT_MS */
  heartbeatMs?: number;
  /** @default config WORKER_LEASE_MS */
  leaseMs?: number;
  /** Long-poll `worker-control`. Tests start extra workers without it and call handleCommand. @default true */
  consumeQueue?: boolean;
  /** Reconnect backoff after a lost connection: base doubling per retry, capped. @default 1 s … 60 s */
  reconnect?: { baseMs: number; maxMs: number };
  /** Attempts of one send before its message is marked failed, and the first retry's delay (doubling). */
  sendRetry?: { attempts: number; baseMs: number };
}

export type CommandOutcome =
  /** Carried out (or, for a takeover, the session resumed). */
  | 'done'
  /** Older than the connection's latest command. */
  | 'stale'
  /** Already carried out by the holder. */
  | 'handled-before'
  /** Another live worker holds the connection; it carries the command out on its next heartbeat. */
  | 'held-elsewhere'
  /** The connection is gone: its session, lease and auth state were cleaned up. */
  | 'gone'
  /** This worker lost the lease meanwhile and closed the session. */
  | 'lost'
  /** Nothing to do. */
  | 'idle';

export interface WhatsAppWorker {
  /** The worker's current task id (its heartbeat item, and the lease holder it writes). */
  readonly taskId: string;
  /** Carries out one worker-control message (the queue loop calls this; tests may too). */
  handleCommand: (message: SessionCommandMessage) => Promise<CommandOutcome>;
  /** The connections with a session in this worker. */
  held: () => { companyId: number; whatsappId: number }[];
  /** Graceful stop (SIGTERM): closes every session and declares the worker dead, so peers take over now. */
  stop: () => Promise<void>;
  /** A crash, for tests: stops everything and writes nothing; peers take over when the heartbeat expires. */
  kill: () => void;
}

/** A wake-up for the holder of a connection whose outbox has work (decisions D41). */
const outboxWake = z.object({
  kind: z.literal('outbox'),
  companyId: z.number().int().positive(),
  whatsappId: z.number().int().positive(),
});

const commandMessage = z.object({
  companyId: z.number().int().positive(),
  whatsappId: z.number().int().positive(),
  command: z.enum(['start', 'new-qr', 'disconnect', 'restart', 'scan']),
  requestedAt: z.string().min(1),
});

/** The driver WHATSAPP_DRIVER names; Baileys is imported only when chosen (it takes ~1.7 s to load). */
export const driverFromConfig = async (): Promise<WhatsAppDriver> => {
  if (config().WHATSAPP_DRIVER === 'baileys') {
    const { createBaileysDriver } = await import('./baileys-driver');
    return createBaileysDriver();
  }
  return createSimulatorDriver();
};

/**
 * How often a holder looks into its connections' outboxes without a wake-up (decisions D41): what a
 * wake-up that reached another worker leaves behind waits this long at most.
 */
const OUTBOX_SWEEP_MS = 5_000;

/** One connection's session in this worker. */
interface Live {
  key: string;
  companyId: number;
  whatsappId: number;
  fence: number;
  /** The connection's `sessionCommandAt` this session runs under; writes are conditional on it. */
  generation: string | null;
  store: AuthStateStore;
  session: Session | undefined;
  /** The last state written, re-announced when someone asks to start a running session again. */
  state: WorkerSessionState | null;
  qrCodes: number;
  retries: number;
  reconnectTimer: NodeJS.Timeout | undefined;
  /** Status writes, in order. */
  writes: Promise<void>;
  /** Credential writes, in order; a reconnect waits for them. */
  credsWrites: Promise<void>;
  /** The import of old messages: its start and the history batches, in order (decisions D78). */
  history: Promise<void>;
  closed: boolean;
  /** The session is open (CONNECTED): the outbox may be drained. */
  open: boolean;
  /** One drain at a time; a wake-up during a drain asks for another pass. */
  draining: boolean;
  drainAgain: boolean;
  /** The next drain for a deferred (retried) send. */
  drainTimer: NodeJS.Timeout | undefined;
}

type Trigger = { kind: 'command'; requestedAt: string } | { kind: 'check' } | { kind: 'takeover'; from: string };

const keyOf = (companyId: number, whatsappId: number) => `${companyId}#${whatsappId}`;

class Worker implements WhatsAppWorker {
  private readonly sessions = new Map<string, Live>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private lease!: WorkerLease;
  private running = true;
  private readonly abort = new AbortController();
  private queueLoop: Promise<void> = Promise.resolve();
  private readonly reconnect: { baseMs: number; maxMs: number };
  private readonly visibilitySeconds: number;
  private lastOutboxSweep = 0;

  constructor(
    private readonly driver: WhatsAppDriver,
    private readonly settings: { heartbeatMs: number; leaseMs: number; consumeQueue: boolean },
    reconnect?: { baseMs: number; maxMs: number },
    private readonly sendRetry: { attempts: number; baseMs: number } = { attempts: 4, baseMs: 1_000 },
  ) {
    this.reconnect = reconnect ?? { baseMs: 1_000, maxMs: 60_000 };
    // A message this worker received but could not finish comes back soon (another worker checks it).
    this.visibilitySeconds = Math.max(2, Math.ceil((2 * settings.leaseMs) / 1000));
  }

  async start(): Promise<void> {
    this.lease = await WorkerLease.start({
      heartbeatMs: this.settings.heartbeatMs,
      leaseMs: this.settings.leaseMs,
      onBeat: () => this.checkHeld(),
      onOrphan: async (c, from) => {
        await this.withLock(keyOf(c.companyId, c.whatsappId), () =>
          this.reconcile(c.companyId, c.whatsappId, { kind: 'takeover', from }),
        );
      },
      onFenced: () => {
        for (const live of [...this.sessions.values()]) this.abandon(live);
      },
    });
    if (this.settings.consumeQueue) this.queueLoop = this.consume();
    logger.info('whatsapp worker started', { taskId: this.taskId, driver: this.driver.name });
  }

  get taskId(): string {
    return this.lease.taskId;
  }

  held() {
    return [...this.sessions.values()].map((l) => ({ companyId: l.companyId, whatsappId: l.whatsappId }));
  }

  // -------------------------------------------------------------------------------------------------------
  // Queue and commands

  private async consume(): Promise<void> {
    while (this.running) {
      let messages: Awaited<ReturnType<typeof receiveQueueMessages>>;
      try {
        messages = await receiveQueueMessages('worker-control', {
          max: 10,
          waitSeconds: 20,
          visibilitySeconds: this.visibilitySeconds,
          abortSignal: this.abort.signal,
        });
      } catch (err) {
        if (!this.running) return;
        logger.warn('worker-control receive failed; retrying', errorFields(err));
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        continue;
      }
      await Promise.all(
        messages.map(async (m) => {
          try {
            const body: unknown = JSON.parse(m.body);
            const wake = outboxWake.safeParse(body);
            if (wake.success) {
              // Only the holder drains; another worker's connection is drained by its holder's heartbeat.
              const live = this.sessions.get(keyOf(wake.data.companyId, wake.data.whatsappId));
              if (live) this.drain(live);
              await deleteQueueMessage('worker-control', m.receiptHandle);
              return;
            }
            const parsed = commandMessage.safeParse(body);
            if (!parsed.success) {
              logger.warn('worker-control message dropped: not a session command', { body: m.body.slice(0, 200) });
            } else {
              const outcome = await this.handleCommand(parsed.data);
              // Stopping before it was looked at: leave it for another worker.
              if (outcome === 'idle' && !this.running) return;
              logger.debug('worker-control message', { ...parsed.data, outcome, taskId: this.taskId });
            }
            await deleteQueueMessage('worker-control', m.receiptHandle);
          } catch (err) {
            // Left in the queue: it comes back after the visibility timeout (and goes to the DLQ in the end).
            logger.warn('worker-control message failed; it will be redelivered', errorFields(err));
          }
        }),
      );
    }
  }

  handleCommand(message: SessionCommandMessage): Promise<CommandOutcome> {
    if (!this.running) return Promise.resolve('idle');
    return this.withLock(keyOf(message.companyId, message.whatsappId), () =>
      this.reconcile(message.companyId, message.whatsappId, { kind: 'command', requestedAt: message.requestedAt }),
    );
  }

  /** One connection at a time per worker: commands, checks, takeovers and reconnects queue up. */
  private withLock<T>(key: string, run: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const next = previous.then(run, run);
    const tail = next.catch(() => undefined);
    this.locks.set(key, tail);
    void tail.then(() => {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    });
    return next;
  }

  /**
   * Brings one connection to what its item asks for. The same steps serve a queue message, a check of a
   * held connection and a takeover: read the connection and the lease (consistently), then act only as
   * (or by becoming) the lease holder.
   */
  private async reconcile(companyId: number, whatsappId: number, trigger: Trigger): Promise<CommandOutcome> {
    if (!this.running) return 'idle';
    const key = keyOf(companyId, whatsappId);
    const me = this.taskId;
    const [connection, lease] = await Promise.all([
      getConnection(companyId, whatsappId),
      getLease(companyId, whatsappId),
    ]);
    let live = this.sessions.get(key);
    if (live && (!lease || lease.holder !== me || lease.fence !== live.fence)) {
      this.abandon(live);
      return 'lost';
    }
    if (trigger.kind === 'command' && connection && connection.sessionCommandAt !== trigger.requestedAt) return 'stale';
    if (trigger.kind === 'takeover' && lease?.holder !== trigger.from) return 'idle';

    // Who may act: this worker if it holds the lease, else whoever takes it from nobody or from the dead.
    let holder = lease?.holder === me ? { taskId: me, fence: lease.fence } : null;
    let takeFrom: string | null = null;
    if (!holder && lease?.holder) {
      if (!isWorkerDead(await getWorker(lease.holder))) return 'held-elsewhere';
      takeFrom = lease.holder;
    }
    const take = async (): Promise<boolean> => {
      if (holder) return true;
      const taken = await acquireLease(companyId, whatsappId, me, { from: takeFrom });
      if (taken) holder = { taskId: me, fence: taken.fence };
      return taken !== null;
    };

    if (!connection) {
      // Deleted: log out, purge the auth state, drop the lease (decisions D24).
      if (!lease) {
        await authStateStore(companyId, whatsappId).clear();
        return 'gone';
      }
      if (lease.holder && !(await take())) return 'held-elsewhere';
      if (live) await this.close(live, { logout: true });
      await authStateStore(companyId, whatsappId).clear();
      await deleteLease(companyId, whatsappId, holder);
      return 'gone';
    }

    const generation = connection.sessionCommandAt ?? null;
    const pending = (generation ?? '') > (lease?.handledCommandAt ?? '');
    const command: SessionCommand = connection.sessionCommand ?? 'start';

    if (!pending) {
      if (trigger.kind === 'command') return 'handled-before';
      if (trigger.kind !== 'takeover') return 'idle';
      // A dead worker's session: resume it from the stored auth state (no new QR code when paired).
      if (!(await take())) return 'held-elsewhere';
      if (command === 'disconnect') {
        await releaseLease(companyId, whatsappId, holder!);
        return 'done';
      }
      await this.open(this.track(companyId, whatsappId, holder!.fence, generation));
      return 'done';
    }

    if (!(await take())) return 'held-elsewhere';
    const fence = holder!.fence;
    live = this.sessions.get(key);
    switch (command) {
      case 'start':
        if (live) {
          live.generation = generation;
          // The API showed OPENING meanwhile: show the running session's state again.
          if (live.session && live.state) this.write(live, live.state);
          else if (!live.session) this.reopenNow(live);
        } else {
          await this.open(this.track(companyId, whatsappId, fence, generation));
        }
        break;
      case 'restart':
        if (live) await this.close(live, { logout: false });
        await this.open(this.track(companyId, whatsappId, fence, generation));
        break;
      case 'new-qr':
        if (live) await this.close(live, { logout: true });
        await authStateStore(companyId, whatsappId).clear();
        await this.open(this.track(companyId, whatsappId, fence, generation));
        break;
      case 'disconnect':
        if (live) await this.close(live, { logout: true });
        await authStateStore(companyId, whatsappId).clear();
        await releaseLease(companyId, whatsappId, holder!, generation);
        return 'done';
      case 'scan':
        if (live) {
          live.generation = generation;
          live.session?.scan?.(simulatedPhoneNumber(whatsappId));
        } else {
          // Taken over between the QR code and the scan: the session shows a new QR code.
          await this.open(this.track(companyId, whatsappId, fence, generation));
        }
        break;
    }
    if (generation && !(await markCommandHandled(companyId, whatsappId, holder!, generation))) {
      const current = this.sessions.get(key);
      if (current) this.abandon(current);
      return 'lost';
    }
    return 'done';
  }

  /** Each heartbeat: sessions whose lease is gone stop now; deleted connections and new commands get handled. */
  private async checkHeld(): Promise<void> {
    const lives = [...this.sessions.values()];
    if (lives.length === 0) return;
    const sweepOutboxes = Date.now() - this.lastOutboxSweep >= OUTBOX_SWEEP_MS * 0.9;
    if (sweepOutboxes) this.lastOutboxSweep = Date.now();
    const ids = lives.map((l) => ({ companyId: l.companyId, whatsappId: l.whatsappId }));
    const [commands, leases] = await Promise.all([getSessionCommands(ids), getLeases(ids)]);
    for (const live of lives) {
      if (this.sessions.get(live.key) !== live) continue;
      const lease = leases.get(live.key);
      if (!lease || lease.holder !== this.taskId || lease.fence !== live.fence) {
        this.abandon(live);
        continue;
      }
      // Work that reached the outbox without its wake-up reaching this worker (D41), looked for every
      // OUTBOX_SWEEP_MS at most (one Query per held connection), however short the heartbeat.
      if (live.open && sweepOutboxes) this.drain(live);
      const connection = commands.get(live.key);
      if (!connection || (connection.sessionCommandAt ?? '') > (lease.handledCommandAt ?? '')) {
        void this.withLock(live.key, () => this.reconcile(live.companyId, live.whatsappId, { kind: 'check' })).catch(
          (err: unknown) => logger.warn('session check failed', { key: live.key, ...errorFields(err) }),
        );
      }
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Sessions

  private track(companyId: number, whatsappId: number, fence: number, generation: string | null): Live {
    const live: Live = {
      key: keyOf(companyId, whatsappId),
      companyId,
      whatsappId,
      fence,
      generation,
      store: authStateStore(companyId, whatsappId, this.driver.codec),
      session: undefined,
      state: null,
      qrCodes: 0,
      retries: 0,
      reconnectTimer: undefined,
      writes: Promise.resolve(),
      credsWrites: Promise.resolve(),
      history: Promise.resolve(),
      closed: false,
      open: false,
      draining: false,
      drainAgain: false,
      drainTimer: undefined,
    };
    this.sessions.set(live.key, live);
    return live;
  }

  /** Opens a driver session with the stored auth state; a failure is retried like a lost connection. */
  private async open(live: Live): Promise<void> {
    if (live.closed || !this.running) return;
    try {
      const creds = await live.store.readCreds();
      // A new pairing of a connection that imports old messages asks the phone for its whole history.
      const connection = creds === null ? await getConnection(live.companyId, live.whatsappId) : null;
      if (live.closed || !this.running) return;
      // The events below belong to this session only: a later one (a reconnect) replaces it in `live`.
      const opened: { session?: Session } = {};
      const current = () =>
        !live.closed && opened.session !== undefined && live.session === opened.session && this.running;
      const events: SessionEvents = {
        qr: (code) => {
          if (!current()) return;
          live.qrCodes += 1;
          this.write(live, { status: 'qrcode', qrcode: code, retries: live.qrCodes });
        },
        pairing: () => {
          if (!current()) return;
          this.write(live, { status: 'PAIRING', qrcode: '' });
          // A new pairing is when WhatsApp hands over the phone's history: begin the import if asked for.
          this.inHistoryOrder(live, async () => {
            const connection = await getConnection(live.companyId, live.whatsappId);
            if (connection && importsOldMessages(connection)) await beginMessageImport(connection);
          });
        },
        history: (batch) => {
          if (!current()) return;
          this.inHistoryOrder(live, async () => {
            const connection = await getConnection(live.companyId, live.whatsappId);
            if (!connection) return;
            const timeZone = await companyTimeZone(new ReadScope(), live.companyId);
            await importHistoryBatch(connection, batch, (event) => this.enqueue(event), timeZone);
          });
        },
        connected: (number) => {
          if (!current()) return;
          live.qrCodes = 0;
          live.retries = 0;
          live.open = true;
          this.write(live, { status: 'CONNECTED', qrcode: '', retries: 0, number });
          // What waited in the outbox while the connection was down goes out now.
          this.drain(live);
        },
        credsUpdate: (value) => {
          if (!current()) return;
          live.credsWrites = live.credsWrites
            .then(async () => {
              if (live.closed) return;
              if (!(await live.store.writeCreds(value, live.fence))) this.abandon(live);
            })
            .catch((err: unknown) => logger.error('credentials not stored', { key: live.key, ...errorFields(err) }));
        },
        disconnected: (reason) => {
          if (!current()) return;
          live.session = undefined;
          live.open = false;
          void this.withLock(live.key, () => this.ended(live, reason)).catch((err: unknown) =>
            logger.warn('session end not handled', { key: live.key, reason, ...errorFields(err) }),
          );
        },
      };
      const session = this.driver.start({ creds, keys: live.store.keys }, events, {
        companyId: live.companyId,
        whatsappId: live.whatsappId,
        inbound: (event) => (current() ? this.enqueue(event) : Promise.resolve()),
        ...(connection && importsOldMessages(connection) ? { fullHistory: true } : {}),
      });
      opened.session = session;
      live.session = session;
    } catch (err) {
      logger.warn('session did not open; retrying', { key: live.key, ...errorFields(err) });
      this.lostConnection(live);
    }
  }

  /** What a session's end means (spec §4): reconnect now, later, or stop with the status it deserves. */
  private async ended(live: Live, reason: DisconnectReason): Promise<void> {
    if (live.closed || this.sessions.get(live.key) !== live || !this.running) return;
    const holder = { taskId: this.taskId, fence: live.fence };
    switch (reason) {
      case 'restart-required':
        await live.credsWrites;
        await this.open(live);
        return;
      case 'connection-lost':
        this.lostConnection(live);
        return;
      case 'logged-out':
      case 'timeout': {
        // Logged out on the phone: forget the pairing and stop, never loop. QR codes unscanned: TIMEOUT.
        await live.credsWrites;
        await live.store.clear();
        this.write(
          live,
          reason === 'timeout' ? { status: 'TIMEOUT', qrcode: '' } : { status: 'DISCONNECTED', qrcode: '', retries: 0 },
        );
        await live.writes;
        live.closed = true;
        this.sessions.delete(live.key);
        await releaseLease(live.companyId, live.whatsappId, holder);
        return;
      }
    }
  }

  private lostConnection(live: Live): void {
    if (live.closed) return;
    live.retries += 1;
    this.write(live, { status: 'OPENING', qrcode: '', retries: live.retries });
    const delay = Math.min(this.reconnect.maxMs, this.reconnect.baseMs * 2 ** (live.retries - 1));
    clearTimeout(live.reconnectTimer);
    live.reconnectTimer = setTimeout(() => this.reopenNow(live), delay);
  }

  private reopenNow(live: Live): void {
    clearTimeout(live.reconnectTimer);
    void this.withLock(live.key, async () => {
      if (!live.closed && !live.session && this.sessions.get(live.key) === live) await this.open(live);
    }).catch((err: unknown) => logger.warn('reconnect failed', { key: live.key, ...errorFields(err) }));
  }

  /** The import's steps of a session, one after another; a failure is logged (the import shows no progress). */
  private inHistoryOrder(live: Live, step: () => Promise<void>): void {
    live.history = live.history
      .then(async () => {
        if (!live.closed && this.running) await step();
      })
      .catch((err: unknown) => logger.warn('history import step failed', { key: live.key, ...errorFields(err) }));
  }

  /** Queues a fenced status write and, once written, the announcement. */
  private write(live: Live, state: WorkerSessionState): void {
    live.writes = live.writes
      .then(async () => {
        if (live.closed || !this.running) return;
        const outcome = await setHeldSessionState(
          live.companyId,
          live.whatsappId,
          { taskId: this.taskId, fence: live.fence },
          live.generation,
          state,
        );
        if (outcome === 'lost') {
          this.abandon(live);
          return;
        }
        if (outcome === 'superseded') {
          // A newer command is on the connection: carry it out.
          void this.withLock(live.key, () => this.reconcile(live.companyId, live.whatsappId, { kind: 'check' })).catch(
            () => undefined,
          );
          return;
        }
        live.state = state;
        const connection = await getConnection(live.companyId, live.whatsappId);
        if (connection) await announceSessionChange(connection);
      })
      .catch((err: unknown) => logger.warn('session state not written', { key: live.key, ...errorFields(err) }));
  }

  /** Ends a session this worker holds (command, shutdown): waits for its writes, then forgets it. */
  private async close(live: Live, options: { logout: boolean }): Promise<void> {
    clearTimeout(live.reconnectTimer);
    clearTimeout(live.drainTimer);
    live.open = false;
    const session = live.session;
    live.session = undefined;
    if (session) {
      try {
        await (options.logout ? session.logout() : session.close());
      } catch (err) {
        logger.warn('session did not close cleanly', { key: live.key, ...errorFields(err) });
      }
    }
    await live.writes;
    await live.credsWrites;
    live.closed = true;
    if (this.sessions.get(live.key) === live) this.sessions.delete(live.key);
  }

  /** Stops a session at once without writing anything: the lease is no longer (surely) this worker's. */
  private abandon(live: Live): void {
    live.closed = true;
    live.open = false;
    clearTimeout(live.reconnectTimer);
    clearTimeout(live.drainTimer);
    const session = live.session;
    live.session = undefined;
    if (this.sessions.get(live.key) === live) this.sessions.delete(live.key);
    if (session) void session.close().catch(() => undefined);
    logger.warn('whatsapp session abandoned: the lease is not this worker’s', { key: live.key, taskId: this.taskId });
  }

  // -------------------------------------------------------------------------------------------------------
  // Inbound and the outbox (decisions D31, D34, D41)

  /** What a session receives goes to the inbound queue; SQS throttling (a 503) is retried a few times. */
  private async enqueue(event: InboundEventInput): Promise<void> {
    let stamped: InboundEventInput = event;
    for (let attempt = 1; ; attempt += 1) {
      try {
        stamped = await enqueueInbound(stamped);
        return;
      } catch (err) {
        if (attempt >= 4 || (err as { name?: string }).name === 'ZodError') throw err;
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
      }
    }
  }

  /**
   * Carries out the connection's outbox, oldest first, while its session is open: sends (one chat's in
   * order: a send waiting for its retry holds back the later ones of its chat, not other chats) and the
   * simulator's customer actions. One drain at a time per connection; a wake-up meanwhile asks for another.
   */
  private drain(live: Live): void {
    if (live.draining) {
      live.drainAgain = true;
      return;
    }
    live.draining = true;
    live.drainAgain = false;
    void this.drainOnce(live)
      .catch((err: unknown) => logger.warn('outbox not drained', { key: live.key, ...errorFields(err) }))
      .finally(() => {
        live.draining = false;
        if (live.drainAgain && live.open && !live.closed) this.drain(live);
      });
  }

  private async drainOnce(live: Live): Promise<void> {
    const limit = 25;
    for (;;) {
      if (!live.open || live.closed || !this.running) return;
      const items = await listOutbox(live.companyId, live.whatsappId, limit);
      const held = new Set<string>();
      let earliest = Infinity;
      let done = 0;
      for (const item of items) {
        if (!live.open || live.closed || !this.running) return;
        if (item.kind === 'simulate') {
          await this.simulate(live, item);
          done += 1;
          continue;
        }
        if (item.kind === 'check') {
          if (item.notBefore > Date.now()) continue;
          await this.checkNumbers(live, item);
          done += 1;
          continue;
        }
        if (item.kind === 'phone-contacts') {
          if (item.notBefore > Date.now()) continue;
          await this.listPhoneContacts(live, item);
          done += 1;
          continue;
        }
        const parsed =
          item.kind === 'change'
            ? outboundChangeSchema.safeParse(item.payload)
            : outboundSendSchema.safeParse(item.payload);
        if (!parsed.success) {
          logger.error('outbox send dropped: invalid', { key: live.key, sk: item.sk });
          await deleteOutboxItem(item);
          done += 1;
          continue;
        }
        const send = parsed.data;
        if (held.has(send.chatId)) continue;
        if (item.notBefore > Date.now()) {
          held.add(send.chatId);
          earliest = Math.min(earliest, item.notBefore);
          continue;
        }
        if (await (send.kind === 'send' ? this.sendOne(live, item, send) : this.changeOne(live, item, send))) done += 1;
        else {
          held.add(send.chatId);
          earliest = Math.min(earliest, Date.now() + this.retryDelay(item.attempts));
        }
      }
      if (earliest !== Infinity) {
        clearTimeout(live.drainTimer);
        live.drainTimer = setTimeout(() => this.drain(live), Math.max(10, earliest - Date.now()));
      }
      if (items.length < limit || done === 0) return;
    }
  }

  private retryDelay(attempts: number): number {
    return this.sendRetry.baseMs * 2 ** attempts;
  }

  /** One send: skipped, sent (ack 1), deferred for a retry, or failed for good. Answers whether it is done. */
  private async sendOne(live: Live, item: OutboxItem, send: OutboundSend): Promise<boolean> {
    const session = live.session;
    if (!session?.send) return false;
    const plan = await planSend(send);
    if (plan.skip) {
      await deleteOutboxItem(item);
      return true;
    }
    try {
      const message = await this.outboundMessage(send, plan.message, plan.quoted);
      await session.send(message);
    } catch (err) {
      // The session went away under the send (this worker killed, the connection lost): not the message's
      // fault, so no attempt is spent; the item stays in the outbox for the next session or holder.
      if (!live.open || live.closed || !this.running) return false;
      if (isWhatsAppRateLimit(err)) {
        // Too fast for WhatsApp: not this message's fault, so no attempt is spent. The connection's automatic
        // sends pause in the governor, and this one waits for the same pause (decisions D166).
        const until = await reportProviderThrottle(send.companyId, send.whatsappId);
        logger.warn('send rate-limited; it waits for the pause', {
          key: live.key,
          messageId: send.messageId,
          until: until.toISOString(),
        });
        await deferOutboxItem(item, until.getTime(), { spendAttempt: false });
        return false;
      }
      if (item.attempts + 1 >= this.sendRetry.attempts) {
        logger.error('send failed for good', { key: live.key, messageId: send.messageId, ...errorFields(err) });
        await failSend(send);
        await deleteOutboxItem(item);
        return true;
      }
      logger.warn('send failed; it will be retried', {
        key: live.key,
        messageId: send.messageId,
        attempt: item.attempts + 1,
        ...errorFields(err),
      });
      await deferOutboxItem(item, Date.now() + this.retryDelay(item.attempts));
      return false;
    }
    await confirmSent(send);
    await deleteOutboxItem(item);
    return true;
  }

  /**
   * One edit or delete of a sent message (decisions D75): skipped (never sent, superseded, done before),
   * sent with its own derived id and recorded done, deferred for a retry, or dropped after its retries
   * (logged: the message stays changed here, the customer keeps the old one).
   */
  private async changeOne(live: Live, item: OutboxItem, change: OutboundChange): Promise<boolean> {
    const session = live.session;
    if (!session?.send) return false;
    const changeId = outboundChangeId(change);
    const plan = await planChange(change);
    if (plan.skip || (await isOutboxChangeDone(change.companyId, change.whatsappId, changeId))) {
      if (plan.skip) logger.debug('change not sent', { key: live.key, messageId: change.messageId, skip: plan.skip });
      await deleteOutboxItem(item);
      return true;
    }
    try {
      await session.send({
        chatId: change.chatId,
        providerMessageId: changeId,
        content:
          change.kind === 'edit'
            ? { type: 'edit', targetProviderMessageId: change.providerMessageId, body: plan.message.body }
            : { type: 'delete', targetProviderMessageId: change.providerMessageId },
      });
    } catch (err) {
      if (item.attempts + 1 >= this.sendRetry.attempts) {
        logger.error('change failed for good', {
          key: live.key,
          messageId: change.messageId,
          kind: change.kind,
          ...errorFields(err),
        });
        await deleteOutboxItem(item);
        return true;
      }
      logger.warn('change failed; it will be retried', {
        key: live.key,
        messageId: change.messageId,
        kind: change.kind,
        attempt: item.attempts + 1,
        ...errorFields(err),
      });
      await deferOutboxItem(item, Date.now() + this.retryDelay(item.attempts));
      return false;
    }
    await markOutboxChangeDone(change.companyId, change.whatsappId, changeId);
    await deleteOutboxItem(item);
    return true;
  }

  /** The stored message as the driver's send (media bytes read from the bucket for Baileys). */
  private async outboundMessage(
    send: OutboundSend,
    message: StoredMessage,
    quoted: StoredMessage | null,
  ): Promise<OutboundMessage> {
    const data = message.dataJson ? (JSON.parse(message.dataJson) as Record<string, unknown>) : {};
    const media = async () => ({
      key: message.mediaKey!,
      mimetype: message.mimetype ?? 'application/octet-stream',
      ...(message.filename ? { filename: message.filename } : {}),
      ...(this.driver.name === 'baileys' ? { bytes: await getMediaObject(message.mediaKey!) } : {}),
    });
    let content: OutboundContent;
    if (message.mediaKey && ['image', 'video', 'application', 'audio'].includes(message.mediaType)) {
      if (message.mediaType === 'audio') content = { type: 'audio', media: await media(), voice: data.voice === true };
      else
        content = {
          type:
            message.mediaType === 'application'
              ? 'document'
              : data.sticker === true
                ? 'sticker'
                : (message.mediaType as 'image' | 'video'),
          media: await media(),
          ...(message.body && message.mediaType !== 'application' ? { caption: message.body } : {}),
        };
    } else if (message.mediaType === 'contact' && message.vCard) {
      content = { type: 'contact', vCard: message.vCard, ...(message.body ? { displayName: message.body } : {}) };
    } else if (message.mediaType === 'location' && typeof data.latitude === 'number') {
      content = {
        type: 'location',
        latitude: data.latitude,
        longitude: Number(data.longitude),
        ...(typeof data.name === 'string' ? { name: data.name } : {}),
        ...(typeof data.address === 'string' ? { address: data.address } : {}),
      };
    } else {
      content = { type: 'text', body: message.body };
    }
    return {
      chatId: send.chatId,
      providerMessageId: send.providerMessageId ?? message.providerId!,
      content,
      ...(quoted?.providerId
        ? {
            quoted: {
              providerMessageId: quoted.providerId,
              fromMe: quoted.fromMe,
              body: quoted.body,
              ...(quoted.participant?.number ? { participant: `${quoted.participant.number}@s.whatsapp.net` } : {}),
            },
          }
        : {}),
    };
  }

  /** A simulator customer's action: carried out by the session once (a failure is logged, not retried). */
  private async simulate(live: Live, item: OutboxItem): Promise<void> {
    try {
      if (live.session?.simulate) await live.session.simulate(item.payload as unknown as SimulatorAction);
      else logger.warn('simulator action for a session that is not simulated', { key: live.key });
    } catch (err) {
      logger.warn('simulator action failed', { key: live.key, ...errorFields(err) });
    }
    await deleteOutboxItem(item);
  }

  /**
   * A contact list's numbers to look up in WhatsApp's directory (decisions D122): the answers go onto the
   * list's items; a failed lookup is retried a few times, then left unchecked (null).
   */
  private async checkNumbers(live: Live, item: OutboxItem): Promise<void> {
    const forList = numberCheckSchema.safeParse(item.payload);
    const forRequest = requestCheckSchema.safeParse(item.payload);
    const late = forRequest.success && forRequest.data.expiresAt < Date.now();
    if ((!forList.success && !forRequest.success) || late || !live.session?.checkNumbers) {
      await deleteOutboxItem(item);
      return;
    }
    try {
      if (forList.success) {
        const answers = await live.session.checkNumbers(forList.data.numbers);
        await recordWhatsappChecks(live.companyId, forList.data.contactListId, answers);
      } else if (forRequest.success) {
        const answers = await live.session.checkNumbers(forRequest.data.numbers);
        await recordDirectoryAnswer(live.companyId, forRequest.data, answers);
      }
      await deleteOutboxItem(item);
    } catch (err) {
      logger.warn('number check failed', { key: live.key, ...errorFields(err) });
      if (item.attempts >= 4) await deleteOutboxItem(item);
      else await deferOutboxItem(item, Date.now() + this.retryDelay(item.attempts));
    }
  }

  /**
   * The phone's address book or chats for a contact import (decisions D148): listed by the session, then
   * handed to the import (a file and the contact-import job). Retried a few times, then the import fails.
   */
  private async listPhoneContacts(live: Live, item: OutboxItem): Promise<void> {
    const parsed = phoneContactsRequestSchema.safeParse(item.payload);
    if (!parsed.success || !live.session?.listContacts) {
      if (parsed.success) await failPhoneImport(live.companyId, parsed.data, 'ERR_WAPP_NOT_INITIALIZED');
      await deleteOutboxItem(item);
      return;
    }
    try {
      const people = await live.session.listContacts(parsed.data.source);
      await importPhoneContacts(live.companyId, parsed.data, people);
      await deleteOutboxItem(item);
    } catch (err) {
      logger.warn('phone contacts not listed', { key: live.key, ...errorFields(err) });
      if (item.attempts < 4) await deferOutboxItem(item, Date.now() + this.retryDelay(item.attempts));
      else {
        await failPhoneImport(live.companyId, parsed.data, 'ERR_WAPP_NOT_INITIALIZED');
        await deleteOutboxItem(item);
      }
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Lifecycle

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.abort.abort();
    await this.queueLoop;
    await Promise.all([...this.locks.values()]);
    // Running is false, so events and writes stop; close the sockets without logging out.
    await Promise.all([...this.sessions.values()].map((live) => this.close(live, { logout: false })));
    await this.lease.retire();
    logger.info('whatsapp worker stopped; its connections are handed over', { taskId: this.taskId });
  }

  kill(): void {
    if (!this.running) return;
    this.running = false;
    this.abort.abort();
    this.lease.halt();
    for (const live of [...this.sessions.values()]) {
      live.closed = true;
      live.open = false;
      clearTimeout(live.reconnectTimer);
      clearTimeout(live.drainTimer);
      void live.session?.close().catch(() => undefined);
    }
    this.sessions.clear();
  }
}

/** Starts a worker: registers its heartbeat, then (by default) long-polls `worker-control`. */
export const startWhatsAppWorker = async (options: WorkerOptions = {}): Promise<WhatsAppWorker> => {
  const c = config();
  const worker = new Worker(
    options.driver ?? (await driverFromConfig()),
    {
      heartbeatMs: options.heartbeatMs ?? c.WORKER_HEARTBEAT_MS,
      leaseMs: options.leaseMs ?? c.WORKER_LEASE_MS,
      consumeQueue: options.consumeQueue ?? true,
    },
    options.reconnect,
    options.sendRetry,
  );
  await worker.start();
  return worker;
};
