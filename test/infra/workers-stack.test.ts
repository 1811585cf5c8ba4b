import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { QUEUES } from '../../functions/shared/queues';
import { repoPath } from '../../infra/constructs/zap-function';
import {
  buildTestApp,
  FIXTURE_CONSUMERS,
  FIXTURE_TICKS,
  logicalId,
  publishedOutput,
  resource,
  resourcesOfType,
} from './app-fixture';
import { WORKER_ENTRY } from '../../infra/stacks/workers-stack';
import { WORKER_PROGRAM } from '../../infra/local/worker-process';

const { app, stacks, template } = buildTestApp();
const workers = template(stacks.workers);
const data = template(stacks.data);

const dataOutput = (id: string, attribute?: string): string => publishedOutput(data, id, attribute);

/** Every statement of the policies attached to a role. */
const roleStatements = (roleId: string) =>
  Object.values(resourcesOfType(workers, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string[] | string; Resource: unknown }[]);

describe('workers stack: queue consumers from the registry', () => {
  it('builds one Lambda and one event source mapping per consumer, reporting partial batch failures', () => {
    const mappings = Object.values(resourcesOfType(workers, 'AWS::Lambda::EventSourceMapping'));
    expect(mappings).toHaveLength(FIXTURE_CONSUMERS.length);
    FIXTURE_CONSUMERS.forEach((consumer, i) => {
      const fn = stacks.workers.jobs.consumers[i]!;
      const fnId = logicalId(fn.fn);
      const mapping = mappings.find((m) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: fnId }));
      expect(mapping, consumer.entry).toBeDefined();
      expect(mapping!.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
      expect(mapping!.Properties.BatchSize).toBe(consumer.batchSize);
      expect(JSON.stringify(mapping!.Properties.EventSourceArn)).toContain(
        dataOutput(logicalId(stacks.data.queues[consumer.queue].queue), 'Arn'),
      );
      expect(mapping!.Properties.ScalingConfig).toEqual(
        consumer.maxConcurrency === undefined ? undefined : { MaximumConcurrency: consumer.maxConcurrency },
      );
      expect(resource(workers, fnId).Properties.Timeout).toBe(consumer.timeoutSeconds);
    });
  });

  it('refuses a consumer that could outlive its queue visibility timeout', () => {
    const inbound = QUEUES.find((q) => q.name === 'inbound')!;
    expect(() =>
      buildTestApp({
        consumers: [
          {
            queue: 'inbound',
            entry: 'test/infra/fixtures/consumer.ts',
            batchSize: 1,
            timeoutSeconds: inbound.visibilityTimeoutSeconds,
          },
        ],
      }),
    ).toThrow(/must be below the visibility timeout/);
  });
});

describe('workers stack: ticks from the registry', () => {
  it('builds one rate rule per tick, invoking its own Lambda', () => {
    const rules = Object.values(resourcesOfType(workers, 'AWS::Events::Rule'));
    expect(rules).toHaveLength(FIXTURE_TICKS.length);
    FIXTURE_TICKS.forEach((tick, i) => {
      const fnId = logicalId(stacks.workers.jobs.ticks[i]!.fn);
      const expression = tick.everyMinutes === 1 ? 'rate(1 minute)' : `rate(${tick.everyMinutes} minutes)`;
      const rule = rules.find((r) => r.Properties.ScheduleExpression === expression);
      expect(rule, tick.name).toBeDefined();
      expect(rule!.Properties.State).toBe('ENABLED');
      expect(rule!.Properties.Targets).toEqual([
        expect.objectContaining({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] }, RetryPolicy: expect.anything() }),
      ]);
      expect(resource(workers, fnId).Properties.Timeout).toBe(tick.timeoutSeconds);
    });
  });
});

describe('workers stack: WhatsApp worker on Fargate', () => {
  const service = Object.values(resourcesOfType(workers, 'AWS::ECS::Service'))[0]!;
  const task = resource(workers, logicalId(stacks.workers.worker!.taskDefinition));
  const container = task.Properties.ContainerDefinitions[0] as {
    Environment: { Name: string; Value: unknown }[];
    Image: unknown;
  };

  it('runs one arm64 task in private subnets without a public address', () => {
    expect(service.Properties).toMatchObject({
      DesiredCount: 1,
      LaunchType: 'FARGATE',
      NetworkConfiguration: { AwsvpcConfiguration: { AssignPublicIp: 'DISABLED' } },
    });
    expect(task.Properties.RuntimePlatform).toEqual({ CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' });
    const subnets = service.Properties.NetworkConfiguration.AwsvpcConfiguration.Subnets as { Ref: string }[];
    for (const subnet of subnets) {
      expect(resource(workers, subnet.Ref).Properties.MapPublicIpOnLaunch).toBe(false);
    }
  });

  it('runs the image built from infra/worker/Dockerfile, shipped as a CDK asset', () => {
    expect(JSON.stringify(container.Image)).toContain('container-assets');
    const manifest = JSON.parse(readFileSync(join(app.outdir, `${stacks.workers.artifactId}.assets.json`), 'utf8')) as {
      dockerImages: Record<string, { source: { directory: string; dockerFile: string; platform: string } }>;
    };
    const [image] = Object.values(manifest.dockerImages);
    expect(image!.source).toMatchObject({ dockerFile: 'infra/worker/Dockerfile', platform: 'linux/arm64' });
    // The build context holds what the Dockerfile copies, and nothing heavy or unrelated.
    const context = join(app.outdir, image!.source.directory);
    for (const needed of [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.base.json',
      'functions/shared/config.ts',
      'infra/worker/Dockerfile',
    ]) {
      expect(existsSync(join(context, needed)), needed).toBe(true);
    }
    expect(readdirSync(context).sort()).toEqual(
      ['functions', 'infra', 'package-lock.json', 'package.json', 'tsconfig.base.json', 'tsconfig.json'].sort(),
    );
  });

  it('builds dist/worker.mjs from functions/channels/whatsapp/worker.ts and runs it', () => {
    const dockerfile = readFileSync(repoPath('infra/worker/Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
    const build = dockerfile.split('\n').find((line) => line.startsWith('RUN npx esbuild'));
    expect(build).toContain('functions/channels/whatsapp/worker.ts');
    expect(build).toContain('--outfile=dist/worker.mjs');
    expect(dockerfile).toMatch(/^CMD \[.*"node".*"dist\/worker\.mjs"\]$/m);
    // The local cloud runs the same program as a child process.
    expect(WORKER_PROGRAM).toBe(WORKER_ENTRY);
  });

  it('gets its configuration and exactly its grants: consume worker-control, send inbound and contact-import (sends come through its outbox)', () => {
    const names = container.Environment.map((e) => e.Name);
    expect(names).toEqual(
      expect.arrayContaining([
        'TABLE_NAME',
        'QUEUE_URLS',
        'MEDIA_BUCKET',
        'APP_SECRET_ARN',
        'WS_MANAGEMENT_ENDPOINT',
        'AWS_REGION',
      ]),
    );
    const statements = roleStatements(logicalId(stacks.workers.worker!.taskDefinition.taskRole));
    const queuesWith = (action: string) =>
      statements
        .filter((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]).includes(action))
        .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]))
        .map((r) => JSON.stringify(r));
    const queueArn = (name: 'inbound' | 'outbound' | 'worker-control' | 'contact-import') =>
      dataOutput(logicalId(stacks.data.queues[name].queue), 'Arn');
    const consumed = queuesWith('sqs:ReceiveMessage');
    expect(consumed).toHaveLength(1);
    expect(consumed.join()).not.toContain(queueArn('outbound'));
    expect(consumed.join()).toContain(queueArn('worker-control'));
    // Provider events to the inbound pipeline, and a phone's contacts to the import (decisions D148).
    const sent = queuesWith('sqs:SendMessage');
    expect(sent).toHaveLength(2);
    expect(sent.join()).toContain(queueArn('inbound'));
    expect(sent.join()).toContain(queueArn('contact-import'));
  });

  it('runs the Baileys driver by default with the config defaults for heartbeat and lease, and 30 s to stop', () => {
    const env = Object.fromEntries(container.Environment.map((e) => [e.Name, e.Value]));
    expect(env).toMatchObject({ STAGE: 'aws', WHATSAPP_DRIVER: 'baileys', LOG_LEVEL: 'info' });
    // Heartbeat and lease come from functions/shared/config.ts (5 s / 20 s) unless a deployment sets them.
    expect(env).not.toHaveProperty('WORKER_HEARTBEAT_MS');
    expect(task.Properties.ContainerDefinitions[0].StopTimeout).toBe(30);
  });

  it('may read and write items of the table and Query its indexes (gsi3: what a dead worker held), never Scan', () => {
    const statements = roleStatements(logicalId(stacks.workers.worker!.taskDefinition.taskRole));
    const actions = statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:GetItem',
        'dynamodb:BatchGetItem',
        'dynamodb:Query',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:BatchWriteItem',
      ]),
    );
    expect(actions).not.toContain('dynamodb:Scan');
    const tableArn = dataOutput(logicalId(stacks.data.table), 'Arn');
    const queried = statements
      .filter((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]).includes('dynamodb:Query'))
      .map((s) => JSON.stringify(s.Resource))
      .join();
    expect(queried).toContain(tableArn);
    expect(queried).toContain('/index/gsi3');
  });

  it('writes media objects through the media bucket’s managed policy and posts to browsers', () => {
    const role = resource(workers, logicalId(stacks.workers.worker!.taskDefinition.taskRole));
    const managed = JSON.stringify(role.Properties.ManagedPolicyArns);
    expect(managed).toContain('ReadWriteObjectsPolicy');
    expect(managed).toContain('ManageConnectionsPolicy');
  });

  it('a simulator deployment (-c whatsappDriver=simulator) tells the worker and the API the same', () => {
    const demo = buildTestApp({}, { context: { whatsappDriver: 'simulator' } });
    const demoTask = resource(
      demo.template(demo.stacks.workers),
      logicalId(demo.stacks.workers.worker!.taskDefinition),
    );
    const demoEnv = (
      demoTask.Properties.ContainerDefinitions[0].Environment as { Name: string; Value: unknown }[]
    ).find((e) => e.Name === 'WHATSAPP_DRIVER');
    expect(demoEnv?.Value).toBe('simulator');
    const area = resource(demo.template(demo.stacks.api), logicalId(demo.stacks.api.areaFunctions.connections.fn));
    expect(area.Properties.Environment.Variables.WHATSAPP_DRIVER).toBe('simulator');
    expect(() => buildTestApp({}, { context: { whatsappDriver: 'whatsmeow' } })).toThrow(/whatsappDriver/);
  });

  it('logs the container and the VPC flows, and has Container Insights on', () => {
    expect(task.Properties.ContainerDefinitions[0].LogConfiguration.LogDriver).toBe('awslogs');
    workers.resourceCountIs('AWS::EC2::FlowLog', 1);
    workers.hasResourceProperties('AWS::ECS::Cluster', {
      ClusterSettings: [{ Name: 'containerInsights', Value: 'enabled' }],
    });
    workers.hasResourceProperties('AWS::EC2::VPCEndpoint', {
      VpcEndpointType: 'Gateway',
      ServiceName: Match.anyValue(),
    });
  });
});

describe('workers stack before the worker program exists', () => {
  it('deploys only the background jobs: no ECS service, VPC or NAT gateway to pay for', () => {
    const bare = buildTestApp({ includeWorker: false });
    const t = bare.template(bare.stacks.workers);
    expect(bare.stacks.workers.worker).toBeUndefined();
    t.resourceCountIs('AWS::ECS::Service', 0);
    t.resourceCountIs('AWS::EC2::NatGateway', 0);
    t.resourceCountIs('AWS::EC2::VPC', 0);
    // The jobs are still there.
    t.resourceCountIs('AWS::Lambda::EventSourceMapping', FIXTURE_CONSUMERS.length);
  });

  it('a real synth includes the worker exactly when its program is in the repository', () => {
    const real = buildTestApp({ includeWorker: undefined });
    expect(real.stacks.workers.worker !== undefined).toBe(existsSync(repoPath(WORKER_ENTRY)));
  });
});
