import { randomUUID } from 'node:crypto';
import type { Context, ScheduledEvent } from 'aws-lambda';
import type { TickDefinition } from '../../functions/jobs/registry';
import { loadHandler } from './handler-modules';
import { LOCAL_ACCOUNT_ID, createLambdaContext, invokeWithTimeout } from './lambda-context';
import { createLocalLog, describeError, type LocalLog } from './log';

/**
 * Local EventBridge `rate(n minutes)` rules: each TICKS entry's handler runs every `everyMinutes`
 * minutes with the Scheduled Event EventBridge sends. Tests run a tick on demand (`runNow`) or with a
 * shorter interval.
 */
export type TickHandler = (event: ScheduledEvent, context: Context) => Promise<unknown>;

export interface TickOptions {
  /** Override of the schedule (tests); defaults to `everyMinutes` minutes. */
  intervalMs?: number;
  /** The handler to call; defaults to the entry module's `handler`. */
  handler?: TickHandler;
  region?: string;
  /** Prefix of rule and function names, e.g. `zapdesk-local`. */
  namePrefix?: string;
  log?: LocalLog;
}

export interface Tick {
  /** Runs the handler once now; resolves when it finished (errors are logged, like a failed invocation). */
  runNow: () => Promise<void>;
  stop: () => Promise<void>;
}

/** The event EventBridge delivers for a scheduled rule. */
export const scheduledEvent = (ruleName: string, region: string, now = new Date()): ScheduledEvent => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: LOCAL_ACCOUNT_ID,
  time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region,
  resources: [`arn:aws:events:${region}:${LOCAL_ACCOUNT_ID}:rule/${ruleName}`],
  detail: {},
});

export const startTick = (definition: TickDefinition, options: TickOptions = {}): Tick => {
  const log = options.log ?? createLocalLog();
  const region = options.region ?? 'us-east-1';
  const prefix = options.namePrefix ?? 'local';
  const fn = {
    functionName: `${prefix}-tick-${definition.name}`,
    region,
    timeoutMs: definition.timeoutSeconds * 1000,
  };
  const running = new Set<Promise<void>>();

  const runNow = (): Promise<void> => {
    const run = (async () => {
      try {
        const handler = options.handler ?? (await loadHandler<TickHandler>(definition.entry));
        const event = scheduledEvent(`${prefix}-${definition.name}`, region);
        await invokeWithTimeout(fn, () => handler(event, createLambdaContext(fn)));
      } catch (err) {
        log.error('tick failed', { tick: definition.name, ...describeError(err) });
      }
    })();
    running.add(run);
    void run.finally(() => running.delete(run));
    return run;
  };

  // EventBridge does not wait for the previous run: neither do we (handlers must tolerate overlap).
  const timer = setInterval(() => void runNow(), options.intervalMs ?? definition.everyMinutes * 60_000);
  timer.unref();

  return {
    runNow,
    stop: async () => {
      clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
};
