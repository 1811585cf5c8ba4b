import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from './handler-modules';
import { describeError, type LocalLog } from './log';

/**
 * The WhatsApp worker as the local cloud runs it: the very program Fargate runs
 * (functions/channels/whatsapp/worker.ts, through tsx), as a child process — its own crash domain and its
 * own module state, like a task beside the Lambdas (decisions D36). Like an ECS service it is restarted when
 * it dies; the new one takes the old one's connections over from their leases.
 *
 * The child stops with SIGTERM (graceful: it hands its connections over) and also when the local cloud's
 * process dies (its IPC channel closes), so it never outlives the cloud.
 */
export interface WorkerProcess {
  /** The running child's pid (tests may kill it to play a crash). */
  readonly pid: number | undefined;
  stop: () => Promise<void>;
}

/** The worker program (the same as WORKER_ENTRY in infra/stacks/workers-stack.ts, which imports the CDK). */
export const WORKER_PROGRAM = 'functions/channels/whatsapp/worker.ts';
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const MAX_RESTART_DELAY_MS = 30_000;

export const startWorkerProcess = async (options: {
  env: Record<string, string>;
  log: LocalLog;
}): Promise<WorkerProcess> => {
  const { log } = options;
  let child: ChildProcess | undefined;
  let stopping = false;
  let restartDelay = 1_000;
  let restartTimer: NodeJS.Timeout | undefined;

  const launch = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const startedAt = Date.now();
      const proc = spawn(process.execPath, ['--import', 'tsx', WORKER_PROGRAM], {
        cwd: REPO_ROOT,
        env: { ...process.env, ...options.env },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      child = proc;
      const timer = setTimeout(() => {
        reject(new Error('the WhatsApp worker did not start in time'));
        proc.kill('SIGKILL');
      }, READY_TIMEOUT_MS);
      proc.on('message', (message: { ready?: boolean; taskId?: string }) => {
        if (!message.ready) return;
        clearTimeout(timer);
        log.info('whatsapp worker ready', { pid: proc.pid, taskId: message.taskId });
        resolve();
      });
      proc.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (child === proc) child = undefined;
        reject(new Error(`the WhatsApp worker exited with ${signal ?? code}`));
        if (stopping) return;
        // Like ECS replacing a stopped task: start another one (its leases are taken over).
        if (Date.now() - startedAt > 60_000) restartDelay = 1_000;
        log.error('whatsapp worker exited; starting another', { code, signal, inMs: restartDelay });
        restartTimer = setTimeout(() => {
          launch().catch((err: unknown) => log.error('whatsapp worker did not restart', describeError(err)));
        }, restartDelay);
        restartDelay = Math.min(MAX_RESTART_DELAY_MS, restartDelay * 2);
      });
    });

  await launch();

  return {
    get pid() {
      return child?.pid;
    },
    stop: async () => {
      stopping = true;
      clearTimeout(restartTimer);
      const proc = child;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
};
