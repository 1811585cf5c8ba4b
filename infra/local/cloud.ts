import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { buildApp } from 'fauxqs';
import { resetConfigForTests } from '../../functions/shared/config';
import { BUCKETS } from '../../functions/data/buckets';
import { QUEUES, dlqName, physicalQueueName, type QueueDefinition } from '../../functions/shared/queues';
import { CONSUMERS, TICKS } from '../../functions/jobs/registry';
import { checkJava, ensureTable, startDynamoDbLocal } from './dynamodb';
import { startGateway } from './gateway';
import { REPO_ROOT, loadHandler } from './handler-modules';
import { patchFauxqsFifo } from './fauxqs-fifo';
import { createLocalLog, describeError, type LocalLog } from './log';
import { startPoller, type Poller, type SqsHandler } from './pollers';
import { restoreBucket, snapshotBucket } from './s3-snapshot';
import { startTick, type Tick } from './ticks';
import { startFakeIntegrations } from './fake-integrations';
import { startFakeOpenAi } from './fake-openai';
import { startFakePaymentProvider } from './fake-payment-provider';
import { startWorkerProcess, type WorkerProcess } from './worker-process';

/**
 * The local cloud (DESIGN §2): DynamoDB Local, fauxqs (SQS + S3), the gateway that serves the HTTP and
 * WebSocket APIs with the very same Lambda handlers, queue pollers and minute ticks — on loopback, in
 * this process — plus two child processes: DynamoDB Local and the WhatsApp worker. One local cloud per
 * process: it sets process.env for the handlers it runs.
 */
export const LOCAL_PREFIX = 'zapdesk-local';
const REGION = 'us-east-1';
/** Batches each local queue consumer runs at once (Lambda would scale further; one process here). */
const LOCAL_MAX_CONCURRENCY = 4;
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
/** SQS's longest retention: dead letters wait as long as possible for someone to look. */
const DLQ_RETENTION_SECONDS = 14 * 24 * 3600;
/**
 * On Node < 22 the AWS SDK prints, once per process, that its releases after early January 2027 will
 * require Node 22 (`emitWarningIfUnsupportedVersion` in @aws-sdk/core). The local cloud runs on Node 20.19+
 * by design (README), so it turns off exactly that notice with the SDK's own switch, for itself and, through
 * the functions' environment, for the WhatsApp worker and the integration workers; every other warning still
 * prints. A value already in the shell wins (`=false` shows the notice again). Lambda runs Node 22: no notice.
 */
const SDK_NODE_NOTICE_SWITCH = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';

/** The ports `npm start` gives the outside services' stand-ins, so the URLs the demo data stores stay valid. */
export const LOCAL_FAKE_PORTS = { integrations: 4010, openAi: 4011 } as const;

export interface LocalCloudOptions {
  /** Where DynamoDB's file, the media snapshot and the app secret live (`.data/` for `npm start`). */
  dataDir: string;
  /** Gateway port; 0 picks a free one. Default 3000. */
  port?: number;
  /** DynamoDB Local port; 0/undefined picks a free one. */
  dynamoPort?: number;
  /** DynamoDB Local with -inMemory and no media snapshots (tests). */
  inMemory?: boolean;
  /** Serve the built frontend; default true. */
  serveFrontend?: boolean;
  /** The built frontend; default frontend/dist. */
  frontendDir?: string;
  /** One poller per CONSUMERS entry; default true. */
  pollers?: boolean;
  /** One tick per TICKS entry; default true. */
  ticks?: boolean;
  /** No info lines (errors still print). */
  quiet?: boolean;
  /** Tests may bring their own; otherwise generated once into <dataDir>/app-secret. */
  appSecret?: string;
  /** LOG_LEVEL for the functions; default process.env.LOG_LEVEL or info. */
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** How often the media bucket is written to disk; default 15 s. */
  snapshotIntervalMs?: number;
  /** Where e-mails are written instead of sent (EMAIL_OUTBOX_DIR); default <dataDir>/outbox. */
  outboxDir?: string;
  /**
   * The WhatsApp worker, a child process (worker-process.ts); default on. Timings default to the
   * functions' config (5 s heartbeat, 20 s lease); tests shorten them.
   */
  worker?: boolean | { heartbeatMs?: number; leaseMs?: number };
  /** WHATSAPP_DRIVER for the worker and the API; unset: the shell's, else config's default (simulator). */
  whatsappDriver?: 'simulator' | 'baileys';
  /** More variables for the functions (tests: the Meta app settings and the fake Graph API's URL). */
  extraEnv?: Record<string, string>;
  /**
   * Ports of the outside services' stand-ins (fake-integrations.ts: Typebot, n8n/webhook, Dialogflow;
   * fake-openai.ts: OpenAI); 0 picks free ones (the default). `npm start` fixes them, so the URLs the demo
   * data stores survive a restart. OpenAI's is not started when the shell sets OPENAI_API_URL.
   */
  fakePorts?: { integrations: number; openAi: number };
}

/** What the functions' config reads (functions/shared/config.ts), plus what the AWS SDK reads. */
export type LocalCloudEnv = Record<string, string>;

export interface LocalCloud {
  /** `http://127.0.0.1:<port>` */
  gatewayUrl: string;
  /** `ws://127.0.0.1:<port>/ws` */
  wsUrl: string;
  env: LocalCloudEnv;
  fauxqs: { endpoint: string };
  dynamodb: { endpoint: string };
  /** The folder e-mails land in, one JSON file each (functions/core/email/outbox-email-sender.ts). */
  outboxDir: string;
  /** The WhatsApp worker child process, when it runs. */
  worker?: WorkerProcess;
  /** The outside services' stand-ins the functions are pointed at (decisions D174). */
  fakes: { integrationsUrl: string; openAiUrl: string | null };
  stop: () => Promise<void>;
}

const loadOrCreateSecret = async (dataDir: string): Promise<string> => {
  const file = join(dataDir, 'app-secret');
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first start
  }
  const secret = randomBytes(32).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
};

/** Creates a queue and its DLQ with the RedrivePolicy CDK gives it; returns both URLs and the ARN. */
const createQueueWithDlq = async (sqs: SQSClient, q: QueueDefinition) => {
  const fifo = q.fifo ? { FifoQueue: 'true', ContentBasedDeduplication: 'false' } : {};
  const dlq = await sqs.send(
    new CreateQueueCommand({
      QueueName: physicalQueueName(LOCAL_PREFIX, q, true),
      Attributes: { ...fifo, MessageRetentionPeriod: String(DLQ_RETENTION_SECONDS) },
    }),
  );
  const dlqArn = (
    await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))
  ).Attributes?.QueueArn;
  const main = await sqs.send(
    new CreateQueueCommand({
      QueueName: physicalQueueName(LOCAL_PREFIX, q),
      Attributes: {
        ...fifo,
        VisibilityTimeout: String(q.visibilityTimeoutSeconds),
        MessageRetentionPeriod: String(q.retentionSeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: q.maxReceiveCount }),
      },
    }),
  );
  const arn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: main.QueueUrl, AttributeNames: ['QueueArn'] })))
    .Attributes?.QueueArn;
  if (!main.QueueUrl || !dlq.QueueUrl || !arn) throw new Error(`could not create queue ${q.name}`);
  return { url: main.QueueUrl, arn, dlqUrl: dlq.QueueUrl };
};

export const startLocalCloud = async (options: LocalCloudOptions): Promise<LocalCloud> => {
  // Before the first SDK client below: the SDK checks when a client is built.
  const sdkNodeNotice = (process.env[SDK_NODE_NOTICE_SWITCH] ??= 'true');
  const log: LocalLog = createLocalLog(options.quiet ?? false);
  const dataDir = resolve(options.dataDir);
  const inMemory = options.inMemory ?? false;
  // Everything started so far, stopped in reverse order by stop() or when a later step fails.
  const stack: { name: string; stop: () => Promise<void> }[] = [];
  let stopped = false;
  const stopAll = async () => {
    if (stopped) return;
    stopped = true;
    for (const item of stack.reverse()) {
      try {
        await item.stop();
      } catch (err) {
        log.error(`could not stop ${item.name}`, describeError(err));
      }
    }
  };

  try {
    checkJava();
    await mkdir(dataDir, { recursive: true });
    const appSecret = options.appSecret ?? (await loadOrCreateSecret(dataDir));
    const outboxDir = resolve(options.outboxDir ?? join(dataDir, 'outbox'));

    // DynamoDB Local and the table.
    const dynamo = await startDynamoDbLocal({
      path: inMemory ? null : join(dataDir, 'dynamodb'),
      port: options.dynamoPort,
      log,
      quiet: options.quiet ?? false,
    });
    stack.push({ name: 'DynamoDB Local', stop: dynamo.stop });
    const tableName = `${LOCAL_PREFIX}-table`;
    const dynamoClient = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
    });
    await ensureTable(dynamoClient, tableName, log);
    dynamoClient.destroy();

    // fauxqs (SQS + S3) in-process. Built with buildApp because startFauxqs listens on 0.0.0.0.
    await patchFauxqsFifo(); // FIFO receives hand out runs of a group, as SQS does (D66)
    const fauxqs = buildApp({ logger: false, defaultRegion: REGION });
    await fauxqs.listen({ port: 0, host: '127.0.0.1' });
    const fauxqsAddress = fauxqs.server.address();
    const fauxqsEndpoint = `http://127.0.0.1:${typeof fauxqsAddress === 'object' && fauxqsAddress ? fauxqsAddress.port : 0}`;
    stack.push({ name: 'fauxqs', stop: () => fauxqs.close() });
    const sqs = new SQSClient({ endpoint: fauxqsEndpoint, region: REGION, credentials: LOCAL_CREDENTIALS });
    const s3 = new S3Client({
      endpoint: fauxqsEndpoint,
      region: REGION,
      credentials: LOCAL_CREDENTIALS,
      forcePathStyle: true,
    });
    stack.push({
      name: 'AWS clients',
      stop: async () => {
        sqs.destroy();
        s3.destroy();
      },
    });

    const queues: Record<string, { url: string; arn: string }> = {};
    const queueUrls: Record<string, string> = {};
    for (const q of QUEUES) {
      const created = await createQueueWithDlq(sqs, q);
      queues[q.name] = created;
      queueUrls[q.name] = created.url;
      queueUrls[dlqName(q)] = created.dlqUrl;
    }
    const bucketName = (name: string) => `${LOCAL_PREFIX}-${name}`;
    for (const b of BUCKETS) await s3.send(new CreateBucketCommand({ Bucket: bucketName(b.name) }));
    const mediaBucket = bucketName('media');

    // Media survives restarts: restored now, written back periodically and on stop.
    if (!inMemory) {
      const snapshotDir = (name: string) => join(dataDir, 's3', bucketName(name));
      for (const b of BUCKETS) {
        const restored = await restoreBucket(s3, bucketName(b.name), snapshotDir(b.name));
        if (restored > 0) log.info('media restored', { bucket: bucketName(b.name), objects: restored });
      }
      let snapshotting = Promise.resolve();
      const snapshot = () => {
        snapshotting = snapshotting.then(async () => {
          for (const b of BUCKETS) await snapshotBucket(s3, bucketName(b.name), snapshotDir(b.name));
        });
        return snapshotting.catch((err: unknown) => log.error('media snapshot failed', describeError(err)));
      };
      const timer = setInterval(() => void snapshot(), options.snapshotIntervalMs ?? 15_000);
      timer.unref();
      stack.push({
        name: 'media snapshots',
        stop: async () => {
          clearInterval(timer);
          await snapshot();
        },
      });
    }

    // The gateway; the functions' environment depends on its port.
    const gateway = await startGateway({
      port: options.port ?? 3000,
      frontendDir:
        options.serveFrontend === false ? null : (options.frontendDir ?? join(REPO_ROOT, 'frontend', 'dist')),
      s3: { endpoint: fauxqsEndpoint, mediaBucket },
      region: REGION,
      functionPrefix: LOCAL_PREFIX,
      log,
      metaAppId: options.extraEnv?.META_APP_ID ?? process.env.META_APP_ID,
    });
    stack.push({ name: 'gateway', stop: gateway.stop });

    // The payment providers' stand-in (decisions D153), unless a real Efí URL is given.
    const paymentFake = process.env.EFI_API_URL
      ? undefined
      : await startFakePaymentProvider(0, { webhookBaseUrl: `${gateway.url}/api` });
    if (paymentFake) stack.push({ name: 'fake payment provider', stop: paymentFake.stop });
    // The integrations' and OpenAI's stand-ins (decisions D174): a demo flow, prompt or queue integration
    // answers in the local cloud without reaching the Internet.
    const integrationsFake = await startFakeIntegrations(options.fakePorts?.integrations ?? 0);
    stack.push({ name: 'fake integrations', stop: integrationsFake.stop });
    const openAiFake = process.env.OPENAI_API_URL ? undefined : await startFakeOpenAi(options.fakePorts?.openAi ?? 0);
    if (openAiFake) stack.push({ name: 'fake OpenAI', stop: openAiFake.stop });

    const env: LocalCloudEnv = {
      STAGE: 'local',
      AWS_REGION: REGION,
      AWS_DEFAULT_REGION: REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_EC2_METADATA_DISABLED: 'true',
      [SDK_NODE_NOTICE_SWITCH]: sdkNodeNotice,
      TABLE_NAME: tableName,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      SQS_ENDPOINT: fauxqsEndpoint,
      S3_ENDPOINT: gateway.s3Endpoint,
      MEDIA_BUCKET: mediaBucket,
      EXPORTS_BUCKET: bucketName('exports'),
      MEDIA_BASE_URL: '/media',
      WS_MANAGEMENT_ENDPOINT: gateway.managementEndpoint,
      QUEUE_URLS: JSON.stringify(queueUrls),
      APP_SECRET: appSecret,
      EMAIL_FROM: 'no-reply@zapdesk.local',
      EMAIL_OUTBOX_DIR: outboxDir,
      ...(paymentFake
        ? {
            EFI_API_URL: paymentFake.url,
            STRIPE_API_URL: paymentFake.url,
            ASAAS_API_URL: paymentFake.url,
            MERCADOPAGO_API_URL: paymentFake.url,
          }
        : {}),
      ...(openAiFake ? { OPENAI_API_URL: openAiFake.url } : {}),
      DIALOGFLOW_API_URL: process.env.DIALOGFLOW_API_URL ?? `${integrationsFake.url}/dialogflow`,
      GOOGLE_TOKEN_URL: process.env.GOOGLE_TOKEN_URL ?? `${integrationsFake.url}/google/token`,
      PAYMENT_WEBHOOK_BASE_URL: `${gateway.url}/api`,
      LOG_LEVEL: options.logLevel ?? process.env.LOG_LEVEL ?? 'info',
      ...(options.whatsappDriver ? { WHATSAPP_DRIVER: options.whatsappDriver } : {}),
      ...(typeof options.worker === 'object' && options.worker.heartbeatMs !== undefined
        ? { WORKER_HEARTBEAT_MS: String(options.worker.heartbeatMs) }
        : {}),
      ...(typeof options.worker === 'object' && options.worker.leaseMs !== undefined
        ? { WORKER_LEASE_MS: String(options.worker.leaseMs) }
        : {}),
      ...options.extraEnv,
    };
    Object.assign(process.env, env);
    resetConfigForTests();

    // Event source mappings and schedules, per the registries.
    if (options.pollers ?? true) {
      const pollers: Poller[] = CONSUMERS.map((c) => {
        const q = queues[c.queue];
        if (!q) throw new Error(`consumer of unknown queue ${c.queue}`);
        return startPoller({
          sqs,
          queueUrl: q.url,
          queueArn: q.arn,
          handler: { load: () => loadHandler<SqsHandler>(c.entry) },
          batchSize: c.batchSize,
          // FIFO queues poll in short waits: fauxqs wakes a long poll on a new message but not reliably
          // when a group's in-flight batch is deleted, so a chat's next batch waited out the whole poll.
          ...(QUEUES.find((d) => d.name === c.queue)?.fifo ? { waitTimeSeconds: 1 } : {}),
          // What the mapping's maxConcurrency allows in AWS, capped: this is one process on a small machine.
          concurrency: Math.min(c.maxConcurrency ?? LOCAL_MAX_CONCURRENCY, LOCAL_MAX_CONCURRENCY),
          timeoutSeconds: c.timeoutSeconds,
          region: REGION,
          functionName: `${LOCAL_PREFIX}-consumer-${c.queue}`,
          log,
        });
      });
      stack.push({ name: 'pollers', stop: async () => void (await Promise.all(pollers.map((p) => p.stop()))) });
    }
    if (options.ticks ?? true) {
      const ticks: Tick[] = TICKS.map((t) => startTick(t, { region: REGION, namePrefix: LOCAL_PREFIX, log }));
      stack.push({ name: 'ticks', stop: async () => void (await Promise.all(ticks.map((t) => t.stop()))) });
    }

    let worker: WorkerProcess | undefined;
    if (options.worker ?? true) {
      worker = await startWorkerProcess({ env, log });
      stack.push({ name: 'WhatsApp worker', stop: () => worker!.stop() });
    }

    log.info('local cloud ready', {
      gateway: gateway.url,
      dynamodb: dynamo.endpoint,
      fauxqs: fauxqsEndpoint,
      consumers: options.pollers === false ? 0 : CONSUMERS.length,
      ticks: options.ticks === false ? 0 : TICKS.length,
      whatsappWorker: worker ? { pid: worker.pid } : false,
    });
    return {
      gatewayUrl: gateway.url,
      wsUrl: gateway.wsUrl,
      env,
      fauxqs: { endpoint: fauxqsEndpoint },
      dynamodb: { endpoint: dynamo.endpoint },
      outboxDir,
      ...(worker ? { worker } : {}),
      fakes: { integrationsUrl: integrationsFake.url, openAiUrl: openAiFake?.url ?? null },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
};
