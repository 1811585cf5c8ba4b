import { readFileSync } from 'node:fs';
import { Annotations, Tags, type App, type Environment, type Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { CONSUMERS, TICKS, type ConsumerDefinition, type TickDefinition } from '../../functions/jobs/registry';
import type { RouteDef } from '../../functions/routes';
import { bindMetaApp, repoPath, type Bindable } from '../constructs/zap-function';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import type { ExternalApiDefinition } from './external-api';
import { RealtimeStack } from './realtime-stack';
import type { FunctionSettings } from './settings';
import { WebStack } from './web-stack';
import { WorkersStack } from './workers-stack';

export interface BuildAppProps {
  /** Stack name prefix, so one account can hold several copies. @default context `stackPrefix` or `ZapDesk` */
  stackPrefix?: string;
  /** Leave undefined to keep the stacks environment-agnostic (no lookups; see shared/STACK.md). */
  env?: Environment;
  /** @default functions/jobs/registry.ts CONSUMERS */
  consumers?: readonly ConsumerDefinition[];
  /** @default functions/jobs/registry.ts TICKS */
  ticks?: readonly TickDefinition[];
  /** @default whether the worker program exists (WorkersStackProps.includeWorker) */
  includeWorker?: boolean;
  /** @default functions/routes.ts ROUTES */
  routes?: readonly RouteDef[];
  externalApi?: ExternalApiDefinition;
  /** Built frontend to publish if the folder exists. @default frontend/dist */
  frontendDist?: string;
  /** @default context `logLevel` or `info` */
  logLevel?: string;
  /** X-Ray tracing on every function. @default context `tracing` === 'true' */
  tracing?: boolean;
  /**
   * Sender of the product's e-mails; must be a verified SES identity (the address or its domain).
   * @default context `emailFrom`, else DEFAULT_EMAIL_FROM (with a synth warning: SES refuses it)
   */
  emailFrom?: string;
  /**
   * The WhatsApp session implementation (WHATSAPP_DRIVER) for the worker and the API: `simulator` makes a
   * demo deployment whose connections pair through POST /simulator/{whatsappId}/scan.
   * @default context `whatsappDriver`, else `baileys`
   */
  whatsappDriver?: 'baileys' | 'simulator';
  /**
   * The Meta app for Messenger, Instagram and the WhatsApp Cloud API. Without it the Meta routes answer
   * 503 ERR_META_NOT_CONFIGURED (decisions D40).
   * @default context `metaAppId`, `metaVerifyToken` and `metaAppSecretArn` when all three are set
   */
  meta?: { appId: string; verifyToken: string; appSecretArn: string };
}

/** A placeholder sender: deploys, but SES refuses to send until `-c emailFrom=` names a verified identity. */
export const DEFAULT_EMAIL_FROM = 'no-reply@example.com';

export interface ZapDeskStacks {
  data: DataStack;
  realtime: RealtimeStack;
  api: ApiStack;
  workers: WorkersStack;
  web: WebStack;
}

const packageVersion = (): string =>
  (JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { version: string }).version;

/**
 * The whole ZapDesk deployment. Used by infra/app.ts (the CDK app) and by the tests, which pass fixture
 * registries and routes. Deploy order follows the references: data -> realtime -> api -> web, and
 * data + realtime -> workers.
 */
export const buildApp = (app: App, props: BuildAppProps = {}): ZapDeskStacks => {
  const context = (key: string): string | undefined => {
    const value: unknown = app.node.tryGetContext(key);
    return value === undefined ? undefined : String(value);
  };
  const prefix = props.stackPrefix ?? context('stackPrefix') ?? 'ZapDesk';
  const whatsappDriver = props.whatsappDriver ?? context('whatsappDriver') ?? 'baileys';
  if (whatsappDriver !== 'baileys' && whatsappDriver !== 'simulator') {
    throw new Error(`whatsappDriver '${whatsappDriver}' must be baileys or simulator`);
  }
  const settings: FunctionSettings = {
    logRetention: logs.RetentionDays.ONE_MONTH,
    tracing: props.tracing ?? context('tracing') === 'true',
    environment: {
      LOG_LEVEL: props.logLevel ?? context('logLevel') ?? 'info',
      APP_VERSION: packageVersion(),
      WHATSAPP_DRIVER: whatsappDriver,
      // Where a card provider's page sends the payer back (decisions D167): the app's /financeiro.
      ...(context('appUrl') ? { PAYMENT_RETURN_URL: `${context('appUrl')!.replace(/\/$/, '')}/financeiro` } : {}),
    },
  };
  const common = { env: props.env };
  const emailFrom = props.emailFrom ?? context('emailFrom') ?? DEFAULT_EMAIL_FROM;
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(emailFrom))
    throw new Error(`emailFrom '${emailFrom}' is not an e-mail address`);

  const metaApp =
    props.meta ??
    (context('metaAppId') && context('metaVerifyToken') && context('metaAppSecretArn')
      ? {
          appId: context('metaAppId')!,
          verifyToken: context('metaVerifyToken')!,
          appSecretArn: context('metaAppSecretArn')!,
        }
      : undefined);
  const data = new DataStack(app, `${prefix}-Data`, {
    ...common,
    description: 'ZapDesk data: single table, media bucket, queues with dead-letter queues, app secret',
  });
  const realtime = new RealtimeStack(app, `${prefix}-Realtime`, {
    ...common,
    description: 'ZapDesk real time: WebSocket API and its handlers',
    data,
    settings,
  });
  const api = new ApiStack(app, `${prefix}-Api`, {
    ...common,
    description: 'ZapDesk HTTP API (one Lambda per area) and external messages REST API',
    data,
    realtime,
    settings,
    emailFrom,
    ...(props.routes ? { routes: props.routes } : {}),
    ...(props.externalApi ? { externalApi: props.externalApi } : {}),
  });
  const workers = new WorkersStack(app, `${prefix}-Workers`, {
    ...common,
    description: 'ZapDesk background work: WhatsApp worker on Fargate, queue consumers, minute ticks',
    data,
    realtime,
    settings,
    consumers: props.consumers ?? CONSUMERS,
    ticks: props.ticks ?? TICKS,
    ...(props.includeWorker === undefined ? {} : { includeWorker: props.includeWorker }),
  });
  const web = new WebStack(app, `${prefix}-Web`, {
    ...common,
    description: 'ZapDesk web: frontend bucket and the CloudFront distribution for /, /api, /ws, /media',
    data,
    httpApi: api.httpApi,
    webSocketApi: realtime.webSocketApi,
    ...(props.frontendDist ? { frontendDist: props.frontendDist } : {}),
    ...(metaApp ? { metaAppId: metaApp.appId } : {}),
  });

  if (metaApp) {
    // The connections area (webhooks, POST /facebook) and the outbound job (Graph sends) talk to Meta.
    const bindIn = (stack: Stack, targets: Bindable[]) => {
      const appSecret = secretsmanager.Secret.fromSecretCompleteArn(stack, 'MetaAppSecret', metaApp.appSecretArn);
      for (const target of targets) bindMetaApp(target, { ...metaApp, appSecret });
    };
    bindIn(api, [api.areaFunctions.connections]);
    bindIn(
      workers,
      workers.jobs.consumers.filter((_, i) => (props.consumers ?? CONSUMERS)[i]?.queue === 'outbound'),
    );
  } else {
    Annotations.of(api).addInfoV2(
      'zapdesk:meta',
      'No Meta app: Messenger, Instagram and Cloud API routes answer 503 until deployed with -c metaAppId=… ' +
        '-c metaVerifyToken=… -c metaAppSecretArn=… (README, Deploy to AWS).',
    );
  }

  if (emailFrom === DEFAULT_EMAIL_FROM) {
    Annotations.of(api).addWarningV2(
      'zapdesk:emailFrom',
      `Password-reset e-mails are sent from ${DEFAULT_EMAIL_FROM}, which SES will refuse: deploy with ` +
        '-c emailFrom=<address of an SES-verified identity> (README, Deploy to AWS).',
    );
  }
  for (const stack of [data, realtime, api, workers, web]) Tags.of(stack).add('app', 'zapdesk');
  return { data, realtime, api, workers, web };
};
