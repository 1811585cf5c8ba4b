import { readFileSync } from 'node:fs';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { WS_ENTRIES, WS_ROUTE_SELECTION_EXPRESSION, WS_ROUTES, type WsEntry } from '../../functions/realtime/routes';
import { repoPath } from '../../infra/constructs/zap-function';
import { WS_ENTRY_POSTS_TO_CONNECTIONS, WS_STAGE_NAME } from '../../infra/stacks/realtime-stack';
import { buildTestApp, logicalId, resource, resourcesOfType } from './app-fixture';

const { stacks, template } = buildTestApp();
const realtime = template(stacks.realtime);
const wsApiId = logicalId(stacks.realtime.webSocketApi);
const entries = Object.keys(WS_ENTRIES) as WsEntry[];

/** Every statement of every policy in a template that names an action, with where it is. */
const statementsWithAction = (stackName: keyof typeof stacks, action: string) =>
  ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy'].flatMap((type) =>
    Object.entries(resourcesOfType(template(stacks[stackName]), type)).flatMap(([id, policy]) =>
      (policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]).includes(action))
        .map((statement) => ({ id, policy, statement })),
    ),
  );

describe('realtime stack: WebSocket API', () => {
  it('selects routes with the shared expression', () => {
    realtime.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'WEBSOCKET',
      RouteSelectionExpression: WS_ROUTE_SELECTION_EXPRESSION,
    });
  });

  it('has one Lambda per WebSocket entry, built from its entry file', () => {
    expect(Object.keys(resourcesOfType(realtime, 'AWS::Lambda::Function'))).toHaveLength(entries.length);
    for (const entry of entries) {
      expect(resource(realtime, logicalId(stacks.realtime.functions[entry].fn)).Properties.Description).toBe(
        `WebSocket ${entry}`,
      );
    }
  });

  it('has exactly the WS_ROUTES, each invoking its entry Lambda', () => {
    const routes = Object.values(resourcesOfType(realtime, 'AWS::ApiGatewayV2::Route'));
    expect(routes.map((r) => r.Properties.RouteKey).sort()).toEqual(WS_ROUTES.map((r) => r.routeKey).sort());
    for (const route of WS_ROUTES) {
      const found = routes.find((r) => r.Properties.RouteKey === route.routeKey)!;
      const target = found.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
      const integration = resource(realtime, target['Fn::Join'][1][1].Ref);
      expect(JSON.stringify(integration.Properties.IntegrationUri), route.routeKey).toContain(
        `"${logicalId(stacks.realtime.functions[route.entry].fn)}"`,
      );
    }
  });

  it(`deploys the stage "${WS_STAGE_NAME}" with access logs, after the account logging role is set`, () => {
    const stage = Object.values(resourcesOfType(realtime, 'AWS::ApiGatewayV2::Stage'))[0]!;
    expect(stage.Properties).toMatchObject({ ApiId: { Ref: wsApiId }, StageName: WS_STAGE_NAME, AutoDeploy: true });
    expect(stage.Properties.AccessLogSettings.Format).toContain('$context.connectionId');
    expect(stage.DependsOn).toContain(logicalId(stacks.realtime.apiGatewayAccount));
  });
});

describe('realtime stack: posting to connections', () => {
  it('grants ManageConnections only on this API and stage, through one managed policy', () => {
    const grants = statementsWithAction('realtime', 'execute-api:ManageConnections');
    expect(grants).toHaveLength(1);
    const { policy, statement } = grants[0]!;
    expect(policy.Type).toBe('AWS::IAM::ManagedPolicy');
    const arn = JSON.stringify(statement.Resource);
    expect(arn).toContain(`{"Ref":"${wsApiId}"}`);
    expect(arn).toContain(`/${WS_STAGE_NAME}/*/@connections/*`);
  });

  it('marks as posting exactly the entries whose module uses the management API', () => {
    for (const entry of entries) {
      const source = readFileSync(repoPath(WS_ENTRIES[entry]), 'utf8');
      const posts = /from '\.\/(publisher|management-client)'/.test(source);
      expect(WS_ENTRY_POSTS_TO_CONNECTIONS[entry], entry).toBe(posts);
    }
  });

  it('attaches the grant, and the endpoint, to exactly the entries that post', () => {
    const grantId = statementsWithAction('realtime', 'execute-api:ManageConnections')[0]!.id;
    for (const entry of entries) {
      const fn = stacks.realtime.functions[entry];
      const managed = JSON.stringify(resource(realtime, logicalId(fn.role)).Properties.ManagedPolicyArns ?? []);
      const variables = resource(realtime, logicalId(fn.fn)).Properties.Environment.Variables;
      if (WS_ENTRY_POSTS_TO_CONNECTIONS[entry]) {
        expect(managed, entry).toContain(grantId);
        expect(JSON.stringify(variables.WS_MANAGEMENT_ENDPOINT)).toMatch(
          new RegExp(`"https://",\\{"Ref":"${wsApiId}"\\},".execute-api.".*"/${WS_STAGE_NAME}"`),
        );
      } else {
        expect(managed, entry).not.toContain(grantId);
        expect(variables.WS_MANAGEMENT_ENDPOINT, entry).toBeUndefined();
      }
    }
  });

  it('no other stack grants ManageConnections inline: they attach the realtime policy', () => {
    for (const name of ['data', 'api', 'workers', 'web'] as const) {
      expect(statementsWithAction(name, 'execute-api:ManageConnections'), name).toEqual([]);
    }
    const areaRole = resource(template(stacks.api), logicalId(stacks.api.areaFunctions.system.role));
    expect(JSON.stringify(areaRole.Properties.ManagedPolicyArns)).toContain('ManageConnectionsPolicy');
  });

  it('sets the API Gateway CloudWatch role that WebSocket and REST stage logs need', () => {
    realtime.hasResourceProperties('AWS::ApiGateway::Account', {
      CloudWatchRoleArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ApiGatewayLogsRole'), 'Arn'] },
    });
  });
});
