import { readFileSync } from 'node:fs';
import { App, CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import type { ConsumerDefinition, TickDefinition } from '../../functions/jobs/registry';
import { repoPath } from '../../infra/constructs/zap-function';
import { buildApp, type BuildAppProps, type ZapDeskStacks } from '../../infra/stacks/build-app';

/**
 * The registries are empty until features add background work, so the CDK tests bring their own: two
 * consumers (a FIFO and a standard queue) and two ticks. They also include the WhatsApp worker service,
 * which a real synth leaves out until its program exists.
 */
export const FIXTURE_CONSUMERS: readonly ConsumerDefinition[] = [
  { queue: 'inbound', entry: 'test/infra/fixtures/consumer.ts', batchSize: 10, timeoutSeconds: 60, maxConcurrency: 5 },
  { queue: 'campaign', entry: 'test/infra/fixtures/consumer.ts', batchSize: 5, timeoutSeconds: 90 },
];

export const FIXTURE_TICKS: readonly TickDefinition[] = [
  {
    name: 'auto-close',
    entry: 'test/infra/fixtures/tick.ts',
    everyMinutes: 1,
    timeoutSeconds: 50,
    description: 'Closes tickets idle past the company setting',
  },
  {
    name: 'campaign-waves',
    entry: 'test/infra/fixtures/tick.ts',
    everyMinutes: 5,
    timeoutSeconds: 120,
    description: 'Releases the next wave of campaign shipments',
  },
];

/** A sender for the auth area, so test synths do not warn about the placeholder one. */
export const FIXTURE_EMAIL_FROM = 'no-reply@zapdesk.test';

/** The feature flags of cdk.json, so tests build exactly what `cdk synth` builds. */
const cdkJsonContext = (): Record<string, unknown> =>
  (JSON.parse(readFileSync(repoPath('cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

export interface BuiltApp {
  app: App;
  stacks: ZapDeskStacks;
  template: (stack: Stack) => Template;
}

/**
 * Builds the whole app without bundling (shared/STACK.md), with the fixture registries and sender unless
 * overridden. CDK's built-in CloudFormation rule check costs seconds per app; it runs where a test asks for it
 * (nag.test.ts) and on every `cdk synth`.
 */
export const buildTestApp = (
  props: BuildAppProps = {},
  options: { cloudFormationValidation?: boolean; context?: Record<string, string> } = {},
): BuiltApp => {
  const app = new App({
    context: { ...cdkJsonContext(), ...options.context, 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: options.cloudFormationValidation ?? false,
  });
  const stacks = buildApp(app, {
    consumers: FIXTURE_CONSUMERS,
    ticks: FIXTURE_TICKS,
    includeWorker: true,
    emailFrom: options.context?.emailFrom === undefined ? FIXTURE_EMAIL_FROM : undefined,
    ...props,
  });
  const templates = new Map<Stack, Template>();
  return {
    app,
    stacks,
    template: (stack) => {
      let template = templates.get(stack);
      if (!template) {
        template = Template.fromStack(stack);
        templates.set(stack, template);
      }
      return template;
    },
  };
};

/** The logical id of a construct's CloudFormation resource (the construct itself or its default child). */
export const logicalId = (construct: IConstruct): string => {
  const element = construct instanceof CfnElement ? construct : construct.node.defaultChild;
  if (!(element instanceof CfnElement)) throw new Error(`${construct.node.path} has no CloudFormation resource`);
  return Stack.of(element).getLogicalId(element);
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CfnResourceJson = { Type: string; Properties: Record<string, any>; [key: string]: any };

/** One resource of a template by logical id; fails with the id when it is missing. */
export const resource = (template: Template, id: string): CfnResourceJson => {
  const found = (template.toJSON() as { Resources: Record<string, CfnResourceJson> }).Resources[id];
  if (!found) throw new Error(`resource ${id} is not in the template`);
  return found;
};

/** All resources of one type, by logical id. */
export const resourcesOfType = (template: Template, type: string): Record<string, CfnResourceJson> =>
  template.findResources(type) as Record<string, CfnResourceJson>;

/**
 * The name of the output through which a producer stack publishes `{ Ref: id }` or `{ Fn::GetAtt: [id, attribute] }`
 * to other stacks (cdk.json: weak cross-stack references, read with Fn::GetStackOutput).
 */
export const publishedOutput = (producer: Template, id: string, attribute?: string): string => {
  const outputs = (producer.toJSON() as { Outputs?: Record<string, { Value: unknown }> }).Outputs ?? {};
  const want = JSON.stringify(attribute ? { 'Fn::GetAtt': [id, attribute] } : { Ref: id });
  const name = Object.keys(outputs).find((key) => JSON.stringify(outputs[key]!.Value) === want);
  if (!name) throw new Error(`the producer stack publishes no output for ${want}`);
  return name;
};
