import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct, type IConstruct } from 'constructs';
import type { BucketName } from '../../functions/data/buckets';
import { TABLE } from '../../functions/data/table-definition';
import type { QueueName } from '../../functions/shared/queues';
import { acknowledge, acknowledgeWildcards } from './nag';

/** The repository root: entries, package-lock.json and tsconfig.json are resolved against it. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const repoPath = (relative: string): string => join(REPO_ROOT, relative);

/**
 * ESM bundles run CommonJS dependencies that call `require` (e.g. for Node built-ins): give them one.
 * The alias avoids clashing with any bundled module's own `createRequire` import.
 */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __zapCreateRequire } from 'node:module'; const require = __zapCreateRequire(import.meta.url);";

export interface ZapFunctionProps {
  /** Entry module relative to the repository root, e.g. `functions/http/tags/index.ts`. */
  entry: string;
  /** Exported handler name. */
  handler?: string;
  description?: string;
  /** @default 512 */
  memorySize?: number;
  /** @default 10 seconds */
  timeout?: Duration;
  /** @default one month */
  logRetention?: logs.RetentionDays;
  /** X-Ray active tracing. @default false */
  tracing?: boolean;
  /** Plain settings (LOG_LEVEL, APP_VERSION, ...). Resources are bound with the bind* helpers, never here. */
  environment?: Record<string, string>;
}

/**
 * Anything that gets configuration through environment variables and permissions through an IAM role:
 * a ZapFunction, or the WhatsApp worker's container (see workers-stack.ts).
 */
export interface Bindable extends IConstruct, iam.IGrantable {
  readonly role: iam.IRole;
  addEnvironment(name: string, value: string): void;
}

/**
 * The one Lambda construct: Node 22 on arm64, bundled locally by esbuild (never Docker) to minified ESM
 * with source maps, its own log group with a retention, and its own role that starts with nothing but
 * writing to that log group. Everything else arrives through the bind* helpers below.
 */
export class ZapFunction extends Construct implements Bindable {
  readonly fn: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ZapFunctionProps) {
    super(scope, id);
    const entry = repoPath(props.entry);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // An explicit role instead of the default one: the default attaches the AWS managed
    // AWSLambdaBasicExecutionRole (logs on every log group); this one may write only to its own.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${props.entry}`,
    });
    this.logGroup.grantWrite(this.role);

    this.fn = new NodejsFunction(this, 'Function', {
      entry,
      handler: props.handler ?? 'handler',
      description: props.description ?? props.entry,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role: this.role,
      logGroup: this.logGroup,
      tracing: props.tracing ? lambda.Tracing.ACTIVE : lambda.Tracing.DISABLED,
      projectRoot: REPO_ROOT,
      depsLockFilePath: repoPath('package-lock.json'),
      // No `--enable-source-maps`: Node then parses the whole map at every cold start (a third of the import
      // time with the SDK bundled, decisions D115). The map is still uploaded, to map a logged stack offline.
      environment: {
        STAGE: 'aws',
        ...props.environment,
      },
      bundling: {
        forceDockerBundling: false,
        format: OutputFormat.ESM,
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        target: 'node22',
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        // The AWS SDK is bundled, not taken from the runtime: importing the runtime's SDK (hundreds of
        // files) took longer than the whole bundled function (docs/benchmarks.md bundle-size, decisions
        // D115, which replaces D14's choice); it also pins the SDK to our lock file.
        externalModules: [],
        tsconfig: repoPath('tsconfig.json'),
      },
    });

    acknowledge(
      this,
      'AwsSolutions-L1',
      'nodejs22.x is the pinned runtime (shared/STACK.md): the code must run on Node 20 locally and 22 in ' +
        'Lambda; a newer runtime is adopted by changing this construct once it has been measured.',
    );
    if (props.tracing) {
      acknowledgeWildcards(
        this,
        [/^Resource::\*$/],
        'X-Ray PutTraceSegments/PutTelemetryRecords support no resource-level permissions.',
      );
    }
  }

  get grantPrincipal(): iam.IPrincipal {
    return this.role;
  }

  addEnvironment(name: string, value: string): void {
    this.fn.addEnvironment(name, value);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Bindings: each helper sets the variable functions/shared/config.ts reads AND grants the matching permission.
// ---------------------------------------------------------------------------------------------------------

export type TableAccess = 'read' | 'readWrite';

const TABLE_READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];
const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

/**
 * TABLE_NAME + item-level permissions on the table and Query on each of its indexes, named one by one
 * from the table definition (no `index/*`). Scan is never granted: request paths never Scan (DESIGN §4).
 * Transactions need no actions of their own; they are authorised per item action.
 */
export const bindTable = (target: Bindable, table: dynamodb.ITable, access: TableAccess): void => {
  target.addEnvironment('TABLE_NAME', table.tableName);
  iam.Grant.addToPrincipal({
    grantee: target,
    actions: access === 'readWrite' ? [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS] : TABLE_READ_ACTIONS,
    resourceArns: [table.tableArn],
  });
  iam.Grant.addToPrincipal({
    grantee: target,
    actions: ['dynamodb:Query'],
    resourceArns: TABLE.globalSecondaryIndexes.map((index) => `${table.tableArn}/index/${index.name}`),
  });
};

export type QueueAccess = 'send' | 'consume';

const queueUrls = new WeakMap<Bindable, Record<string, string>>();

/** Adds the queue to the target's QUEUE_URLS JSON map (logical name -> URL) and grants send or consume. */
export const bindQueue = (target: Bindable, name: QueueName, queue: sqs.IQueue, access: QueueAccess): void => {
  const urls = queueUrls.get(target) ?? {};
  urls[name] = queue.queueUrl;
  queueUrls.set(target, urls);
  target.addEnvironment('QUEUE_URLS', Stack.of(target).toJsonString({ ...urls }));
  if (access === 'send') queue.grantSendMessages(target);
  else queue.grantConsumeMessages(target);
};

/**
 * Policies whose resources need a wildcard (object keys, connection ids) are customer managed policies
 * created in the stack that owns the resource, one per resource and access level, and attached to the
 * consumers' roles. Their nag acknowledgment can then be computed where the reference is local; an inline
 * grant in a consumer stack would carry a cross-stack reference whose rendered form exists only after
 * synthesis, so no acknowledgment could name it.
 */
const accessPolicies = new WeakMap<IConstruct, Map<string, iam.ManagedPolicy>>();

const accessPolicy = (
  owner: IConstruct,
  key: string,
  create: (scope: Construct, id: string) => iam.ManagedPolicy,
): iam.ManagedPolicy => {
  const byKey = accessPolicies.get(owner) ?? new Map<string, iam.ManagedPolicy>();
  accessPolicies.set(owner, byKey);
  let policy = byKey.get(key);
  if (!policy) {
    policy = create(owner as Construct, `${key}Policy`);
    byKey.set(key, policy);
  }
  return policy;
};

export type BucketAccess = 'read' | 'readWrite';

const BUCKET_ACTIONS: Record<BucketAccess, string[]> = {
  read: ['s3:GetObject'],
  readWrite: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
};

/** `<NAME>_BUCKET` (MEDIA_BUCKET for `media`) + object permissions; no bucket-level (list, ACL) actions. */
export const bindBucket = (target: Bindable, name: BucketName, bucket: s3.IBucket, access: BucketAccess): void => {
  target.addEnvironment(`${name.toUpperCase()}_BUCKET`, bucket.bucketName);
  const policy = accessPolicy(bucket, access === 'read' ? 'ReadObjects' : 'ReadWriteObjects', (scope, id) => {
    const created = new iam.ManagedPolicy(scope, id, {
      description: `${access} objects of the ${name} bucket`,
      statements: [
        new iam.PolicyStatement({ actions: BUCKET_ACTIONS[access], resources: [bucket.arnForObjects('*')] }),
      ],
    });
    acknowledgeWildcards(
      created,
      [/^Resource::.*\/\*$/],
      `Object keys are created at run time (per company, per message); access is limited to this ${name} ` +
        'bucket and to object-level actions.',
    );
    return created;
  });
  target.role.addManagedPolicy(policy);
};

/** APP_SECRET_ARN + read of that one secret (functions derive their keys from it, functions/shared/secrets.ts). */
export const bindSecret = (target: Bindable, secret: secretsmanager.ISecret): void => {
  target.addEnvironment('APP_SECRET_ARN', secret.secretArn);
  secret.grantRead(target);
};

/**
 * WS_MANAGEMENT_ENDPOINT (the stage's @connections callback URL) + execute-api:ManageConnections on that
 * API's stage only: post to, read and close connections, nothing else of API Gateway.
 */
export const bindWebSocket = (target: Bindable, stage: apigwv2.WebSocketStage): void => {
  target.addEnvironment('WS_MANAGEMENT_ENDPOINT', stage.callbackUrl);
  const policy = accessPolicy(stage, 'ManageConnections', (scope, id) => {
    const arn = Stack.of(stage).formatArn({ service: 'execute-api', resource: stage.api.apiId });
    const created = new iam.ManagedPolicy(scope, id, {
      description: 'Post to and manage connections of the WebSocket API stage',
      statements: [
        new iam.PolicyStatement({
          actions: ['execute-api:ManageConnections'],
          resources: [`${arn}/${stage.stageName}/*/@connections/*`],
        }),
      ],
    });
    acknowledgeWildcards(
      created,
      [/\/@connections\/\*$/],
      'Connection ids exist only at run time; the grant is limited to this API and stage and to the ' +
        '@connections management routes (POST, GET, DELETE).',
    );
    return created;
  });
  target.role.addManagedPolicy(policy);
};

/**
 * EMAIL_FROM + ses:SendEmail for that sender only: on its address identity and its domain identity
 * (whichever of the two is verified in SES), with `ses:FromAddress` pinned, so the function cannot send as
 * anyone else. The identity itself is verified outside the app (README, deploy).
 */
export const bindEmailSender = (target: Bindable, from: string): void => {
  const domain = from.slice(from.lastIndexOf('@') + 1);
  if (!from.includes('@') || !domain) throw new Error(`bindEmailSender: '${from}' is not an e-mail address`);
  target.addEnvironment('EMAIL_FROM', from);
  const identity = (name: string) =>
    Stack.of(target).formatArn({ service: 'ses', resource: 'identity', resourceName: name });
  iam.Grant.addToPrincipal({
    grantee: target,
    actions: ['ses:SendEmail'],
    resourceArns: [identity(from), identity(domain)],
    conditions: { StringEquals: { 'ses:FromAddress': from } },
  });
};

/** The Meta app (Facebook Login, webhooks, Graph sends) a deployment is registered as (decisions D40). */
export interface MetaAppBinding {
  appId: string;
  /** The webhook subscription's verify token (Meta sends it back on GET verification). */
  verifyToken: string;
  /** The app secret, kept in Secrets Manager: it signs webhooks and proves Graph calls. */
  appSecret: secretsmanager.ISecret;
}

/** META_APP_ID, META_VERIFY_TOKEN and META_APP_SECRET_ARN + read access to that one secret. */
export const bindMetaApp = (target: Bindable, meta: MetaAppBinding): void => {
  target.addEnvironment('META_APP_ID', meta.appId);
  target.addEnvironment('META_VERIFY_TOKEN', meta.verifyToken);
  target.addEnvironment('META_APP_SECRET_ARN', meta.appSecret.secretArn);
  meta.appSecret.grantRead(target);
};
