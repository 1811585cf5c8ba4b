import { errorFields, logger } from '../../shared/logger';
import { startEntryPoint } from '../../realtime/entry-point';
import { startWhatsAppWorker } from './whatsapp-worker';

/**
 * The WhatsApp worker program: what ECS Fargate runs (infra/worker/Dockerfile bundles this file to
 * dist/worker.mjs) and what the local cloud starts as a child process (infra/local/worker-process.ts).
 * Configuration comes from functions/shared/config.ts like every other entry point (WHATSAPP_DRIVER,
 * WORKER_HEARTBEAT_MS, WORKER_LEASE_MS, TABLE_NAME, QUEUE_URLS, WS_MANAGEMENT_ENDPOINT, ...).
 *
 * SIGTERM (ECS stopping the task, a deploy, Ctrl-C locally) closes every session without logging out and
 * declares the worker dead, so the other workers take its connections over at their next heartbeat and
 * resume them from the stored auth state — no new QR code.
 */
/** ECS waits 30 s (stopTimeout) between SIGTERM and SIGKILL. */
const STOP_DEADLINE_MS = 25_000;

startEntryPoint();
const worker = await startWhatsAppWorker();

let stopping = false;
const shutdown = (reason: string): void => {
  if (stopping) return;
  stopping = true;
  logger.info('whatsapp worker stopping', { reason, taskId: worker.taskId });
  setTimeout(() => {
    logger.error('whatsapp worker did not stop in time', { taskId: worker.taskId });
    process.exit(1);
  }, STOP_DEADLINE_MS).unref();
  worker.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error('whatsapp worker did not stop cleanly', errorFields(err));
      process.exit(1);
    },
  );
};

for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => shutdown(signal));
process.on('unhandledRejection', (err) => logger.error('unhandled rejection in the whatsapp worker', errorFields(err)));

// Started by the local cloud: say when ready, and stop with the parent (its IPC channel closes when it dies).
if (process.send) {
  process.on('disconnect', () => shutdown('the local cloud exited'));
  process.send({ ready: true, taskId: worker.taskId });
}
