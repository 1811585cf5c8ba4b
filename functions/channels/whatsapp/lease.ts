import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { errorFields, logger } from '../../shared/logger';
import {
  deleteDeadWorker,
  isWorkerDead,
  listHeldLeases,
  listWorkers,
  markWorkerDead,
  registerWorker,
  renewWorker,
} from '../../data/wa-lease-repository';

/**
 * A worker's life in the table (docs/data-model.md §2.10, decisions D36): one heartbeat item per worker,
 * renewed every `heartbeatMs` for `leaseMs`; its leases are valid exactly while it is. Each beat also
 * - checks the worker's own sessions (`onBeat`), and
 * - sweeps the other workers: one whose heartbeat expired is marked dead, and every connection it held
 *   (gsi3 `WAHOLDER#<taskId>`) is handed to `onOrphan`, which takes it over. A small partition Query per
 *   beat, in the background; never a Scan.
 * Self-fencing: if the heartbeat cannot be renewed before `expiresAt − margin` (or the table refuses it,
 * because a sweep already declared this worker dead), `onFenced` closes every session at once — another
 * worker may hold them now — and the worker comes back under a new task id.
 */
export interface WorkerLeaseOptions {
  heartbeatMs: number;
  leaseMs: number;
  /** Takes over one connection a dead worker held. */
  onOrphan: (connection: { companyId: number; whatsappId: number }, from: string) => Promise<void>;
  /** Every session must stop now, without writing anything. */
  onFenced: (reason: string) => void;
  /** After each renewed heartbeat: the worker checks the sessions it holds. */
  onBeat: () => Promise<void>;
}

/** Dead workers' items stay this long after their last holding is gone (index lag), then go. */
const TOMBSTONE_MIN_MS = 60_000;
/** Orphans taken over in parallel. */
const TAKEOVER_CONCURRENCY = 8;

const newTaskId = (): string => `${hostname().slice(0, 40)}-${process.pid}-${randomUUID().slice(0, 8)}`;

export class WorkerLease {
  private current: string;
  private expiresAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private fenceTimer: NodeJS.Timeout | undefined;
  private running = false;
  private registered = false;
  private beating: Promise<void> = Promise.resolve();
  private readonly margin: number;

  private constructor(private readonly options: WorkerLeaseOptions) {
    this.current = newTaskId();
    this.margin = Math.min(5_000, Math.floor(options.leaseMs / 4));
  }

  /** Registers a new worker and starts beating. */
  static async start(options: WorkerLeaseOptions): Promise<WorkerLease> {
    const lease = new WorkerLease(options);
    await lease.register();
    lease.running = true;
    lease.schedule(0);
    return lease;
  }

  /** The worker's current task id (a new one after self-fencing). */
  get taskId(): string {
    return this.current;
  }

  private async register(): Promise<void> {
    const worker = await registerWorker(this.current, this.options.leaseMs, { pid: process.pid, host: hostname() });
    this.expiresAt = worker.expiresAt;
    this.registered = true;
    this.armFence();
  }

  private armFence(): void {
    clearTimeout(this.fenceTimer);
    this.fenceTimer = setTimeout(
      () => this.fence('heartbeat overdue'),
      Math.max(0, this.expiresAt - this.margin - Date.now()),
    );
  }

  private fence(reason: string): void {
    if (!this.registered) return;
    clearTimeout(this.fenceTimer);
    this.registered = false;
    logger.warn('whatsapp worker fenced itself: closing every session', { taskId: this.current, reason });
    this.options.onFenced(reason);
    this.current = newTaskId();
  }

  private schedule(delay: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.beating = this.beat().finally(() => this.schedule(this.options.heartbeatMs));
    }, delay);
  }

  private async beat(): Promise<void> {
    try {
      if (!this.registered) {
        await this.register();
        logger.info('whatsapp worker registered again', { taskId: this.current });
      } else {
        const renewed = await renewWorker(this.current, this.options.leaseMs);
        if (!renewed) {
          this.fence('heartbeat refused: declared dead');
          return;
        }
        this.expiresAt = renewed.expiresAt;
        this.armFence();
      }
      if (!this.running) return;
      await this.options.onBeat();
      if (!this.running) return;
      await this.sweep();
    } catch (err) {
      // The fence timer stops the sessions if this goes on past the heartbeat's expiry.
      logger.warn('whatsapp worker heartbeat failed', { taskId: this.current, ...errorFields(err) });
    }
  }

  /** Marks expired workers dead and takes over what they held; forgets dead workers that hold nothing. */
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const worker of await listWorkers()) {
      if (!this.running || worker.taskId === this.current || !isWorkerDead(worker, now)) continue;
      if (!worker.dead) await markWorkerDead(worker.taskId, { onlyIfExpired: true });
      const held = await listHeldLeases(worker.taskId);
      if (held.length === 0) {
        const deadSince = worker.deadAt ?? worker.expiresAt;
        if (now - deadSince > Math.max(TOMBSTONE_MIN_MS, 3 * this.options.leaseMs)) {
          await deleteDeadWorker(worker.taskId);
        }
        continue;
      }
      logger.info('taking over a dead worker’s connections', { from: worker.taskId, connections: held.length });
      for (let i = 0; i < held.length && this.running; i += TAKEOVER_CONCURRENCY) {
        await Promise.all(
          held.slice(i, i + TAKEOVER_CONCURRENCY).map((c) =>
            this.options.onOrphan(c, worker.taskId).catch((err: unknown) =>
              logger.warn('takeover failed; the next sweep retries', {
                from: worker.taskId,
                ...c,
                ...errorFields(err),
              }),
            ),
          ),
        );
      }
    }
  }

  /** Stops beating (the sessions are already closed) and declares the worker dead: peers take over now. */
  async retire(): Promise<void> {
    this.halt();
    await this.beating.catch(() => undefined);
    if (this.registered) await markWorkerDead(this.current);
    this.registered = false;
  }

  /** Stops beating and writes nothing (a crash, for tests): peers take over once the heartbeat expires. */
  halt(): void {
    this.running = false;
    clearTimeout(this.timer);
    clearTimeout(this.fenceTimer);
  }
}
