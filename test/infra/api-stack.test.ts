import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { areaEntry, DEFAULT_ROUTE_AREA } from '../../functions/http/areas';
import { QUEUES } from '../../functions/shared/queues';
import { BUCKETS } from '../../functions/data/buckets';
import { AREAS, ROUTES, type RouteDef } from '../../functions/routes';
import { httpRouteKey } from '../../infra/stacks/api-stack';
import { EXTERNAL_API } from '../../infra/stacks/external-api';
import { buildTestApp, logicalId, resource, resourcesOfType, type CfnResourceJson } from './app-fixture';

const { stacks, template } = buildTestApp();
const api = template(stacks.api);
const httpApiId = logicalId(stacks.api.httpApi);

/** The logical id of the function an HTTP API route's integration invokes. */
const routeTargetFunction = (route: CfnResourceJson): string => {
  const target = route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
  const integration = resource(api, target['Fn::Join'][1][1].Ref);
  return (integration.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
};

const routesByKey = (): Map<string, CfnResourceJson> =>
  new Map(
    Object.values(resourcesOfType(api, 'AWS::ApiGatewayV2::Route'))
      .filter((r) => (r.Properties.ApiId as { Ref: string }).Ref === httpApiId)
      .map((r) => [r.Properties.RouteKey as string, r]),
  );

describe('api stack: HTTP API from the route table', () => {
  it('has one Lambda per area, built from its area entry', () => {
    const functions = resourcesOfType(api, 'AWS::Lambda::Function');
    expect(Object.keys(functions)).toHaveLength(AREAS.length);
    for (const area of AREAS) {
      const fn = resource(api, logicalId(stacks.api.areaFunctions[area].fn));
      expect(fn.Properties.Description).toBe(`HTTP area ${area}`);
    }
    expect(AREAS.map(areaEntry)).toContain('functions/http/tags/index.ts');
  });

  it('has one route per ROUTES entry, keyed `METHOD /api/path`, invoking its area Lambda', () => {
    const routes = routesByKey();
    for (const route of ROUTES.filter((r) => !r.external)) {
      const key = `${route.method} /api${route.path}`;
      expect(httpRouteKey(route)).toBe(key);
      const found = routes.get(key);
      expect(found, key).toBeDefined();
      expect(routeTargetFunction(found!), key).toBe(logicalId(stacks.api.areaFunctions[route.area].fn));
    }
  });

  it('sends $default to the default area and has no other routes', () => {
    const routes = routesByKey();
    expect(routeTargetFunction(routes.get('$default')!)).toBe(
      logicalId(stacks.api.areaFunctions[DEFAULT_ROUTE_AREA].fn),
    );
    expect([...routes.keys()].sort()).toEqual(
      [...ROUTES.filter((r) => !r.external).map(httpRouteKey), '$default'].sort(),
    );
  });

  it('leaves the external messages API routes to the REST API, behind its usage plan (D123)', () => {
    const external = ROUTES.filter((r) => r.external);
    expect(external.map(httpRouteKey)).toEqual(['POST /api/messages/send']);
    for (const route of external) expect(routesByKey().has(httpRouteKey(route))).toBe(false);
  });

  it('follows the table it is given, not a copy', () => {
    const routes: RouteDef[] = [
      { method: 'DELETE', path: '/tags/{id}', area: 'tags', handler: 'delete-tag', auth: 'admin' },
      { method: 'GET', path: '/version', area: 'system', handler: 'get-version', auth: 'public' },
    ];
    const other = buildTestApp({ routes });
    const keys = Object.values(resourcesOfType(other.template(other.stacks.api), 'AWS::ApiGatewayV2::Route')).map(
      (r) => r.Properties.RouteKey as string,
    );
    expect(keys).toEqual(expect.arrayContaining(['DELETE /api/tags/{id}', 'GET /api/version', '$default']));
    expect(keys).not.toContain('GET /api/tags');
  });

  it('lets API Gateway invoke each area Lambda with one API-wide permission, not one per route', () => {
    const permissions = Object.values(resourcesOfType(api, 'AWS::Lambda::Permission')).filter(
      (p) => p.Properties.Principal === 'apigateway.amazonaws.com',
    );
    for (const area of AREAS) {
      const fnId = logicalId(stacks.api.areaFunctions[area].fn);
      const forHttpApi = permissions.filter(
        (p) =>
          (p.Properties.FunctionName as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0] === fnId &&
          JSON.stringify(p.Properties.SourceArn).includes(httpApiId),
      );
      expect(forHttpApi, area).toHaveLength(1);
    }
  });

  it('logs every request of the $default stage', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: httpApiId },
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('requestId') },
    });
  });
});

describe('api stack: area functions get exactly their bindings', () => {
  const fn = resource(api, logicalId(stacks.api.areaFunctions.tags.fn));
  const roleId = logicalId(stacks.api.areaFunctions.tags.role);
  const policies = Object.values(resourcesOfType(api, 'AWS::IAM::Policy')).filter((p) =>
    (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId),
  );
  const statements = policies.flatMap(
    (p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[],
  );
  const actions = statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

  it('has every variable config() needs, each with its grant', () => {
    const variables = fn.Properties.Environment.Variables as Record<string, unknown>;
    expect(Object.keys(variables)).toEqual(
      expect.arrayContaining([
        'STAGE',
        'TABLE_NAME',
        'MEDIA_BUCKET',
        'EXPORTS_BUCKET',
        'QUEUE_URLS',
        'APP_SECRET_ARN',
        'WS_MANAGEMENT_ENDPOINT',
        'LOG_LEVEL',
        'APP_VERSION',
      ]),
    );
    // The payment providers' webhook base: the HTTP API's endpoint with the /api prefix (decisions D167).
    const webhookBase = JSON.stringify(variables.PAYMENT_WEBHOOK_BASE_URL);
    expect(webhookBase).toContain(logicalId(stacks.api.httpApi));
    expect(webhookBase).toContain('/api');
    // QUEUE_URLS is a JSON object built with Fn::Join; with each URL reference filled in it must parse.
    const parts = (variables.QUEUE_URLS as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    const queueUrls = JSON.parse(
      parts.map((part) => (typeof part === 'string' ? part : 'https://sqs.example/queue')).join(''),
    ) as Record<string, string>;
    expect(Object.keys(queueUrls).sort()).toEqual(QUEUES.map((q) => q.name).sort());
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem',
        'dynamodb:Query',
        'sqs:SendMessage',
        'secretsmanager:GetSecretValue',
      ]),
    );
    // Each bucket's objects and WebSocket connections come through managed policies owned by their stacks.
    expect(resource(api, roleId).Properties.ManagedPolicyArns).toHaveLength(BUCKETS.length + 1);
  });

  it('is least privilege: no service-wide actions, no `*` resources, no Scan, no consume', () => {
    expect(actions.filter((a) => a.endsWith(':*') || a === '*')).toEqual([]);
    expect(
      statements.filter((s) => s.Resource === '*' || (Array.isArray(s.Resource) && s.Resource.includes('*'))),
    ).toEqual([]);
    expect(actions).not.toContain('dynamodb:Scan');
    expect(actions).not.toContain('sqs:ReceiveMessage');
    expect(JSON.stringify(statements)).not.toContain('/index/*');
  });

  it('starts from a role without AWS managed policies', () => {
    expect(JSON.stringify(resource(api, roleId).Properties.ManagedPolicyArns)).not.toContain('iam::aws:policy');
  });
});

describe('api stack: external messages REST API', () => {
  it('has a method per route that requires an API key and invokes the route area Lambda', () => {
    for (const route of EXTERNAL_API.routes) {
      api.hasResourceProperties('AWS::ApiGateway::Method', {
        HttpMethod: route.method,
        ApiKeyRequired: true,
        Integration: Match.objectLike({
          Type: 'AWS_PROXY',
          Uri: Match.objectLike({
            'Fn::Join': Match.arrayWith([
              Match.arrayWith([{ 'Fn::GetAtt': [logicalId(stacks.api.areaFunctions[route.area].fn), 'Arn'] }]),
            ]),
          }),
        }),
      });
    }
    const paths = Object.values(resourcesOfType(api, 'AWS::ApiGateway::Resource')).map((r) => r.Properties.PathPart);
    expect(paths).toEqual(['api', 'messages', 'send']);
    expect(EXTERNAL_API.routes).toEqual([{ method: 'POST', path: '/api/messages/send', area: 'messages' }]);
  });

  it('has the usage plans with their throttles and quotas on the stage, and the API keys in their plans', () => {
    const apiId = logicalId(stacks.api.externalApi);
    for (const plan of EXTERNAL_API.usagePlans) {
      api.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
        Throttle: { RateLimit: plan.throttle.rateLimit, BurstLimit: plan.throttle.burstLimit },
        Quota: { Limit: plan.quota.limit, Period: plan.quota.period },
        ApiStages: [Match.objectLike({ ApiId: { Ref: apiId }, Stage: { Ref: Match.anyValue() } })],
      });
    }
    api.resourceCountIs('AWS::ApiGateway::ApiKey', EXTERNAL_API.apiKeys.length);
    api.resourceCountIs('AWS::ApiGateway::UsagePlanKey', EXTERNAL_API.apiKeys.length);
    api.hasResourceProperties('AWS::ApiGateway::RestApi', {
      ApiKeySourceType: 'HEADER',
      BinaryMediaTypes: ['multipart/form-data'],
    });
  });

  it('logs access and errors on its stage', () => {
    api.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: EXTERNAL_API.stageName,
      AccessLogSetting: Match.objectLike({ DestinationArn: Match.anyValue() }),
      MethodSettings: Match.arrayWith([Match.objectLike({ LoggingLevel: 'ERROR' })]),
    });
  });
});
