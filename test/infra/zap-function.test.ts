import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { TABLE } from '../../functions/data/table-definition';
import { bindQueue, bindTable, ZapFunction } from '../../infra/constructs/zap-function';
import { buildTestApp, logicalId, resource, resourcesOfType } from './app-fixture';

const { app, stacks, template } = buildTestApp();
const zapFunctions = app.node.findAll().filter((c): c is ZapFunction => c instanceof ZapFunction);

describe('ZapFunction: every Lambda of the app', () => {
  it('is every Node.js function of the app (CDK providers aside)', () => {
    const ours = new Set(zapFunctions.map((z) => `${Stack.of(z).stackName}/${logicalId(z.fn)}`));
    for (const stack of Object.values(stacks)) {
      for (const [id, fn] of Object.entries(resourcesOfType(template(stack), 'AWS::Lambda::Function'))) {
        // aws-cdk-lib's own providers (BucketDeployment, the VPC default security group cleanup).
        if (/^Custom(CDKBucketDeployment|VpcRestrictDefaultSG)/.test(id)) continue;
        expect(ours.has(`${stack.stackName}/${id}`), `${stack.stackName}/${id} ${fn.Properties.Description}`).toBe(
          true,
        );
      }
    }
    expect(zapFunctions.length).toBeGreaterThanOrEqual(5);
  });

  it.each(zapFunctions.map((z) => [z.node.path, z] as const))(
    '%s runs nodejs22.x on arm64, without parsing source maps at start, and its own log group',
    (_path, zap) => {
      const t = template(Stack.of(zap));
      const fn = resource(t, logicalId(zap.fn));
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.Handler).toBe('index.handler');
      // Decisions D115: parsing the map at every cold start cost a third of the import time.
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
      expect(fn.Properties.LoggingConfig.LogGroup).toEqual({ Ref: logicalId(zap.logGroup) });
      expect(resource(t, logicalId(zap.logGroup)).Properties.RetentionInDays).toBe(logs.RetentionDays.ONE_MONTH);
      expect(JSON.stringify(resource(t, logicalId(zap.role)).Properties.ManagedPolicyArns ?? [])).not.toContain(
        'iam::aws:policy',
      );
    },
  );
});

describe('bind helpers', () => {
  const bound = () => {
    const standalone = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new Stack(standalone, 'Bindings');
    const table = new dynamodb.Table(stack, 'Table', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
    });
    const fn = new ZapFunction(stack, 'Reader', { entry: 'functions/http/system/index.ts' });
    return { stack, table, fn };
  };

  it("bindTable 'read' sets TABLE_NAME and grants reads on the table and Query on each named index", () => {
    const { stack, table, fn } = bound();
    bindTable(fn, table, 'read');
    const t = Template.fromStack(stack);
    const variables = resource(t, logicalId(fn.fn)).Properties.Environment.Variables;
    expect(variables.TABLE_NAME).toEqual({ Ref: logicalId(table) });
    const statements = Object.values(resourcesOfType(t, 'AWS::IAM::Policy')).flatMap(
      (p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
    );
    const tableStatement = statements.find(
      (s) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [logicalId(table), 'Arn'] }),
    );
    expect([tableStatement!.Action].flat().sort()).toEqual(
      ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query'].sort(),
    );
    const indexStatement = statements.find((s) => JSON.stringify(s.Resource).includes('/index/'))!;
    expect(indexStatement.Action).toBe('dynamodb:Query');
    const indexArns = (indexStatement.Resource as { 'Fn::Join': [string, unknown[]] }[]).map(
      (r) => r['Fn::Join'][1][1],
    );
    expect(indexArns).toEqual(TABLE.globalSecondaryIndexes.map((g) => `/index/${g.name}`));
  });

  it('bindQueue collects every bound queue into one QUEUE_URLS map', () => {
    const { stack, fn } = bound();
    const inbound = new sqs.Queue(stack, 'Inbound');
    const campaign = new sqs.Queue(stack, 'Campaign');
    bindQueue(fn, 'inbound', inbound, 'send');
    bindQueue(fn, 'campaign', campaign, 'consume');
    const t = Template.fromStack(stack);
    const joined = resource(t, logicalId(fn.fn)).Properties.Environment.Variables.QUEUE_URLS as {
      'Fn::Join': [string, unknown[]];
    };
    const filled = joined['Fn::Join'][1].map((part) =>
      typeof part === 'string' ? part : `https://sqs/${(part as { Ref: string }).Ref}`,
    );
    expect(JSON.parse(filled.join(''))).toEqual({
      inbound: `https://sqs/${logicalId(inbound)}`,
      campaign: `https://sqs/${logicalId(campaign)}`,
    });
    const actions = Object.values(resourcesOfType(t, 'AWS::IAM::Policy')).flatMap((p) =>
      (p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]).map((s) => ({
        actions: [s.Action].flat(),
        resource: JSON.stringify(s.Resource),
      })),
    );
    const on = (queue: sqs.Queue) =>
      actions.filter((a) => a.resource.includes(logicalId(queue))).flatMap((a) => a.actions);
    expect(on(inbound)).toContain('sqs:SendMessage');
    expect(on(inbound)).not.toContain('sqs:ReceiveMessage');
    expect(on(campaign)).toContain('sqs:ReceiveMessage');
    expect(on(campaign)).not.toContain('sqs:SendMessage');
  });
});
