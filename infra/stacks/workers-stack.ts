import { existsSync } from 'node:fs';
import { Duration, RemovalPolicy, Stack, type StackProps, IgnoreMode } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BUCKETS } from '../../functions/data/buckets';
import { CONSUMERS, TICKS, type ConsumerDefinition, type TickDefinition } from '../../functions/jobs/registry';
import { acknowledge, acknowledgeWildcards } from '../constructs/nag';
import {
  bindBucket,
  bindQueue,
  bindSecret,
  bindTable,
  bindWebSocket,
  REPO_ROOT,
  repoPath,
  type Bindable,
} from '../constructs/zap-function';
import type { DataStack } from './data-stack';
import { Jobs } from './jobs';
import type { RealtimeStack } from './realtime-stack';
import type { FunctionSettings } from './settings';

/**
 * What the worker image's build context holds (Docker ignore syntax, allow-list): the manifests, the
 * TypeScript settings and the backend sources. Everything else (node_modules, cdk.out, .git, frontend)
 * stays out, which keeps synth fast and the image reproducible.
 */
const WORKER_BUILD_CONTEXT = [
  '*',
  '!package.json',
  '!package-lock.json',
  '!tsconfig.json',
  '!tsconfig.base.json',
  '!functions',
  '!infra/worker/Dockerfile',
];

export interface WorkersStackProps extends StackProps {
  data: DataStack;
  realtime: RealtimeStack;
  settings: FunctionSettings;
  /** @default CONSUMERS from functions/jobs/registry.ts */
  consumers?: readonly ConsumerDefinition[];
  /** @default TICKS from functions/jobs/registry.ts */
  ticks?: readonly TickDefinition[];
  /**
   * Whether to deploy the WhatsApp worker service: only when its program (WORKER_ENTRY) is in the
   * repository, since the image could not build without it (the service brings a VPC and a NAT gateway).
   * @default whether WORKER_ENTRY exists
   */
  includeWorker?: boolean;
}

/** The worker program the Dockerfile bundles. */
export const WORKER_ENTRY = 'functions/channels/whatsapp/worker.ts';

/** Lets the bind* helpers configure a container: its environment plus the task role. */
class ContainerBinding extends Construct implements Bindable {
  constructor(
    scope: Construct,
    id: string,
    private readonly container: ecs.ContainerDefinition,
    readonly role: iam.IRole,
  ) {
    super(scope, id);
  }

  get grantPrincipal(): iam.IPrincipal {
    return this.role;
  }

  addEnvironment(name: string, value: string): void {
    this.container.addEnvironment(name, value);
  }
}

/**
 * Everything that runs without a caller: the WhatsApp worker on Fargate (one task holding its connections'
 * sockets through leases) and the background Lambdas of functions/jobs/registry.ts (queue consumers and
 * minute ticks, see jobs.ts).
 */
export class WorkersStack extends Stack {
  /** Absent until the worker program exists (see `includeWorker`). */
  readonly worker?: WhatsAppWorker;
  readonly jobs: Jobs;

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    const { data, realtime, settings } = props;
    if (props.includeWorker ?? existsSync(repoPath(WORKER_ENTRY))) {
      this.worker = new WhatsAppWorker(this, 'WhatsApp', { data, realtime, settings });
    }
    this.jobs = new Jobs(this, 'Jobs', {
      data,
      realtime,
      settings,
      consumers: props.consumers ?? CONSUMERS,
      ticks: props.ticks ?? TICKS,
    });
  }
}

/**
 * The WhatsApp worker on Fargate: one task holding its connections' sockets through leases (DESIGN §6),
 * in private subnets with egress only.
 */
export class WhatsAppWorker extends Construct {
  readonly vpc: ec2.Vpc;
  readonly cluster: ecs.Cluster;
  readonly taskDefinition: ecs.FargateTaskDefinition;
  readonly service: ecs.FargateService;

  constructor(scope: Construct, id: string, props: Pick<WorkersStackProps, 'data' | 'realtime' | 'settings'>) {
    super(scope, id);
    const { data, realtime, settings } = props;
    const region = Stack.of(this).region;
    // No Availability Zone lookups: with an env-agnostic stack, maxAzs resolves through Fn::GetAZs.
    this.vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      // Baileys keeps outbound WebSockets to WhatsApp open: the tasks need egress, never ingress.
      natGateways: 1,
      subnetConfiguration: [
        { name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24 },
        { name: 'workers', subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 },
      ],
      gatewayEndpoints: {
        // Table and media traffic stays off the NAT gateway (free, and no NAT data charges).
        DynamoDb: { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB },
        S3: { service: ec2.GatewayVpcEndpointAwsService.S3 },
      },
    });
    const flowLogs = new logs.LogGroup(this, 'VpcFlowLogs', {
      retention: settings.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.vpc.addFlowLog('FlowLog', { destination: ec2.FlowLogDestination.toCloudWatchLogs(flowLogs) });

    this.cluster = new ecs.Cluster(this, 'Cluster', {
      vpc: this.vpc,
      containerInsightsV2: ecs.ContainerInsights.ENABLED,
    });

    this.taskDefinition = new ecs.FargateTaskDefinition(this, 'WhatsAppWorkerTask', {
      cpu: 512,
      memoryLimitMiB: 1024,
      runtimePlatform: {
        cpuArchitecture: ecs.CpuArchitecture.ARM64,
        operatingSystemFamily: ecs.OperatingSystemFamily.LINUX,
      },
    });
    const workerLogs = new logs.LogGroup(this, 'WhatsAppWorkerLogs', {
      retention: settings.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const container = this.taskDefinition.addContainer('worker', {
      // Staged at synth (a directory copy, no Docker); built by `cdk deploy` on a machine with Docker.
      image: ecs.ContainerImage.fromAsset(REPO_ROOT, {
        file: 'infra/worker/Dockerfile',
        platform: Platform.LINUX_ARM64,
        exclude: WORKER_BUILD_CONTEXT,
        ignoreMode: IgnoreMode.DOCKER,
      }),
      logging: ecs.LogDrivers.awsLogs({ streamPrefix: 'worker', logGroup: workerLogs }),
      // SIGTERM, then this long before SIGKILL: the worker closes its sessions and hands them over in less.
      stopTimeout: Duration.seconds(30),
      // Lambda sets AWS_REGION itself; a container gets it here (config() would otherwise assume us-east-1).
      environment: { STAGE: 'aws', AWS_REGION: region, ...settings.environment },
    });

    const worker = new ContainerBinding(this, 'WhatsAppWorkerBinding', container, this.taskDefinition.taskRole);
    // The worker owns connection state (leases, auth keys, outboxes) in the table, consumes the start /
    // stop / QR requests and the outbox wake-ups (the outbound job consumes the sends, decisions D41),
    // hands provider events to the inbound pipeline (and a phone's contacts to the import), stores downloaded media, reads media to send, and
    // pushes QR codes and status changes to browsers.
    bindTable(worker, data.table, 'readWrite');
    bindQueue(worker, 'worker-control', data.queues['worker-control'].queue, 'consume');
    bindQueue(worker, 'inbound', data.queues.inbound.queue, 'send');
    // The phone's address book, once read, is imported by the contact-import job (decisions D148).
    bindQueue(worker, 'contact-import', data.queues['contact-import'].queue, 'send');
    for (const bucket of BUCKETS) bindBucket(worker, bucket.name, data.buckets[bucket.name], 'readWrite');
    bindSecret(worker, data.appSecret);
    bindWebSocket(worker, realtime.stage);

    this.service = new ecs.FargateService(this, 'WhatsAppWorker', {
      cluster: this.cluster,
      taskDefinition: this.taskDefinition,
      desiredCount: 1,
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
      assignPublicIp: false,
      // A replacement starts before the old task stops; leases hand the connections over (DESIGN §6).
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
      circuitBreaker: { rollback: true },
    });

    acknowledge(
      this.taskDefinition,
      'AwsSolutions-ECS2',
      'The variables are names, URLs and levels, not secrets: the one secret is passed by ARN ' +
        '(APP_SECRET_ARN) and read at run time with the task role.',
    );
    acknowledgeWildcards(
      this.taskDefinition.obtainExecutionRole(),
      [/^Resource::\*$/],
      'ecr:GetAuthorizationToken has no resource-level permissions; image pulls are limited to the asset repository.',
    );
  }
}
