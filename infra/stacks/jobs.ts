import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { BUCKETS } from '../../functions/data/buckets';
import { QUEUES } from '../../functions/shared/queues';
import type { ConsumerDefinition, TickDefinition } from '../../functions/jobs/registry';
import {
  bindBucket,
  bindQueue,
  bindSecret,
  bindTable,
  bindWebSocket,
  type Bindable,
  ZapFunction,
} from '../constructs/zap-function';
import { pascal, type DataStack } from './data-stack';
import type { RealtimeStack } from './realtime-stack';
import type { FunctionSettings } from './settings';

export interface JobsProps {
  data: DataStack;
  realtime: RealtimeStack;
  settings: FunctionSettings;
  consumers: readonly ConsumerDefinition[];
  ticks: readonly TickDefinition[];
}

/** Construct id of a consumer: `inbound` + `functions/jobs/inbound.ts` -> `InboundFunctionsJobsInboundConsumer`. */
const consumerId = (consumer: ConsumerDefinition): string =>
  `${pascal(consumer.queue)}${pascal(consumer.entry.replace(/\.ts$/, ''))}Consumer`;

/**
 * Background Lambdas from functions/jobs/registry.ts: one function per consumer with an SQS event source
 * (partial batch responses), one function per tick with an EventBridge rate rule. The registries are the
 * only list; adding a feature's consumer or tick there is all it takes.
 */
export class Jobs extends Construct {
  readonly consumers: ZapFunction[] = [];
  readonly ticks: ZapFunction[] = [];

  constructor(scope: Construct, id: string, props: JobsProps) {
    super(scope, id);
    const { data, realtime, settings } = props;

    // What background work may touch: the table, every queue (pipelines hand work on: inbound -> outbound,
    // ticks -> campaign / schedule), the secret and the browsers' connections.
    const bindCommon = (fn: Bindable): void => {
      bindTable(fn, data.table, 'readWrite');
      for (const queue of QUEUES) bindQueue(fn, queue.name, data.queues[queue.name].queue, 'send');
      bindSecret(fn, data.appSecret);
      bindWebSocket(fn, realtime.stage);
    };

    for (const consumer of props.consumers) {
      const definition = QUEUES.find((q) => q.name === consumer.queue);
      if (!definition) throw new Error(`Consumer ${consumer.entry} reads unknown queue '${consumer.queue}'`);
      if (consumer.timeoutSeconds >= definition.visibilityTimeoutSeconds) {
        throw new Error(
          `Consumer ${consumer.entry}: timeout ${consumer.timeoutSeconds}s must be below the visibility timeout ` +
            `of queue '${consumer.queue}' (${definition.visibilityTimeoutSeconds}s), or messages are redelivered mid-run`,
        );
      }
      const fn = new ZapFunction(this, consumerId(consumer), {
        entry: consumer.entry,
        description: `Consumer of ${consumer.queue}`,
        memorySize: 1024,
        timeout: Duration.seconds(consumer.timeoutSeconds),
        ...settings,
      });
      bindCommon(fn);
      // Inbound media is stored in S3 by the pipeline (DESIGN §6).
      for (const bucket of BUCKETS) bindBucket(fn, bucket.name, data.buckets[bucket.name], 'readWrite');
      bindQueue(fn, consumer.queue, data.queues[consumer.queue].queue, 'consume');
      fn.fn.addEventSource(
        new SqsEventSource(data.queues[consumer.queue].queue, {
          batchSize: consumer.batchSize,
          reportBatchItemFailures: true,
          ...(consumer.maxConcurrency === undefined ? {} : { maxConcurrency: consumer.maxConcurrency }),
        }),
      );
      this.consumers.push(fn);
    }

    for (const tick of props.ticks) {
      const fn = new ZapFunction(this, `${pascal(tick.name)}Tick`, {
        entry: tick.entry,
        description: tick.description,
        timeout: Duration.seconds(tick.timeoutSeconds),
        ...settings,
      });
      bindCommon(fn);
      new events.Rule(this, `${pascal(tick.name)}Schedule`, {
        description: tick.description,
        schedule: events.Schedule.rate(Duration.minutes(tick.everyMinutes)),
        targets: [new targets.LambdaFunction(fn.fn, { retryAttempts: 2, maxEventAge: Duration.minutes(5) })],
      });
      this.ticks.push(fn);
    }
  }
}
