import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { BUCKETS } from '../../functions/data/buckets';
import { areaEntry, DEFAULT_ROUTE_AREA } from '../../functions/http/areas';
import { API_BASE } from '../../functions/http/route-matcher';
import { QUEUES } from '../../functions/shared/queues';
import { AREAS, ROUTES, type Area, type RouteDef } from '../../functions/routes';
import { acknowledge } from '../constructs/nag';
import {
  bindBucket,
  bindEmailSender,
  bindQueue,
  bindSecret,
  bindTable,
  bindWebSocket,
  ZapFunction,
} from '../constructs/zap-function';
import { pascal, type DataStack } from './data-stack';
import { EXTERNAL_API, type ExternalApiDefinition } from './external-api';
import type { RealtimeStack } from './realtime-stack';
import type { FunctionSettings } from './settings';

/** API Gateway ends an HTTP API integration at 30 s; the function gives up a little earlier. */
const AREA_TIMEOUT = Duration.seconds(25);

/** The HTTP API route key of a route-table entry: `GET /api/tags/{id}` (functions/http/route-matcher.ts). */
export const httpRouteKey = (route: Pick<RouteDef, 'method' | 'path'>): string =>
  `${route.method} ${API_BASE}${route.path}`;

export interface ApiStackProps extends StackProps {
  data: DataStack;
  realtime: RealtimeStack;
  settings: FunctionSettings;
  /** Sender of the product's e-mails (password-reset codes), a verified SES identity; bound to the auth area. */
  emailFrom: string;
  /** @default the real route table */
  routes?: readonly RouteDef[];
  /** @default EXTERNAL_API */
  externalApi?: ExternalApiDefinition;
}

/**
 * The HTTP API (one Lambda per area, one route per route-table entry, `$default` to the default area)
 * and the REST API for integrators (usage plans, API keys), both built from data.
 */
export class ApiStack extends Stack {
  readonly httpApi: apigwv2.HttpApi;
  readonly areaFunctions: Record<Area, ZapFunction>;
  readonly externalApi: apigateway.RestApi;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { data, realtime, settings } = props;
    const routes = props.routes ?? ROUTES;

    this.areaFunctions = Object.fromEntries(
      AREAS.map((area) => {
        const fn = new ZapFunction(this, `${pascal(area)}Area`, {
          entry: areaEntry(area),
          description: `HTTP area ${area}`,
          memorySize: 1024,
          timeout: AREA_TIMEOUT,
          ...settings,
        });
        // Every area serves requests of every kind of screen: the table, media, sends to any queue
        // (messages, campaigns, schedules, connection control, Meta webhooks to inbound), real-time events.
        bindTable(fn, data.table, 'readWrite');
        for (const bucket of BUCKETS) bindBucket(fn, bucket.name, data.buckets[bucket.name], 'readWrite');
        for (const queue of QUEUES) bindQueue(fn, queue.name, data.queues[queue.name].queue, 'send');
        bindSecret(fn, data.appSecret);
        bindWebSocket(fn, realtime.stage);
        // Only the auth area sends e-mail (password-reset codes).
        if (area === 'auth') bindEmailSender(fn, props.emailFrom);
        return [area, fn];
      }),
    ) as Record<Area, ZapFunction>;

    // One integration per area, its invoke permission scoped to the API rather than to each route: a
    // per-route permission adds a statement per route to the function's policy, which has a 20 KB limit.
    const integrations = Object.fromEntries(
      AREAS.map((area) => [
        area,
        new HttpLambdaIntegration(`${pascal(area)}Integration`, this.areaFunctions[area].fn, {
          scopePermissionToRoute: false,
        }),
      ]),
    ) as Record<Area, HttpLambdaIntegration>;

    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      description: 'ZapDesk HTTP API, served under /api by CloudFront',
      createDefaultStage: false,
      defaultIntegration: integrations[DEFAULT_ROUTE_AREA],
    });
    // Where payment providers deliver webhooks (Efí's registered URL, Mercado Pago's notification_url;
    // decisions D167): the HTTP API's own endpoint, whose routes carry the /api prefix. Not the CloudFront
    // URL: the web stack comes after this one. The function -> API reference makes no cycle (only the
    // routes' integrations point back at the functions).
    for (const area of AREAS) {
      this.areaFunctions[area].addEnvironment('PAYMENT_WEBHOOK_BASE_URL', `${this.httpApi.apiEndpoint}${API_BASE}`);
    }
    // External routes are served only by the REST API below, behind its usage plan and API keys (D123).
    for (const route of routes.filter((r) => !r.external)) {
      const key = httpRouteKey(route);
      new apigwv2.HttpRoute(this.httpApi, key, {
        httpApi: this.httpApi,
        routeKey: apigwv2.HttpRouteKey.with(`${API_BASE}${route.path}`, apigwv2.HttpMethod[route.method]),
        integration: integrations[route.area],
      });
    }
    acknowledge(
      this.httpApi,
      'AwsSolutions-APIG4',
      'Authentication and authorisation run in every area Lambda (functions/http/stack.ts: own accounts ' +
        'with access JWTs, per-route auth levels and plan flags, DESIGN §7); public routes are public by design.',
    );

    const accessLogs = new logs.LogGroup(this, 'HttpApiAccessLogs', {
      retention: settings.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new apigwv2.HttpStage(this, 'HttpApiStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: 1000, burstLimit: 2000 },
      // No `$context.path`: the spec's resetpasswords path carries a reset code and a new password. The
      // route key names the route; the area Lambdas log the path of every other route (D20).
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: apigateway.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            routeKey: '$context.routeKey',
            status: '$context.status',
            sourceIp: '$context.identity.sourceIp',
            requestTime: '$context.requestTimeEpoch',
            latency: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    this.externalApi = this.createExternalApi(props.externalApi ?? EXTERNAL_API, realtime, settings);

    new CfnOutput(this, 'ExternalApiUrl', {
      description: 'Base URL of the external messages API (send x-api-key)',
      value: this.externalApi.url,
    });
  }

  private createExternalApi(
    definition: ExternalApiDefinition,
    realtime: RealtimeStack,
    settings: FunctionSettings,
  ): apigateway.RestApi {
    const accessLogs = new logs.LogGroup(this, 'ExternalApiAccessLogs', {
      retention: settings.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const api = new apigateway.RestApi(this, 'ExternalApi', {
      description: 'ZapDesk external messages API for integrators',
      endpointConfiguration: { types: [apigateway.EndpointType.REGIONAL] },
      // The account's API Gateway logging role is set by the realtime stack (see RealtimeStack).
      cloudWatchRole: false,
      apiKeySourceType: apigateway.ApiKeySourceType.HEADER,
      binaryMediaTypes: [...definition.binaryMediaTypes],
      defaultMethodOptions: { apiKeyRequired: true },
      deployOptions: {
        stageName: definition.stageName,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.jsonWithStandardFields(),
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: true,
      },
    });
    api.deploymentStage.node.addDependency(realtime.apiGatewayAccount);

    const integrations = new Map<Area, apigateway.LambdaIntegration>();
    for (const route of definition.routes) {
      let integration = integrations.get(route.area);
      if (!integration) {
        integration = new apigateway.LambdaIntegration(this.areaFunctions[route.area].fn, { allowTestInvoke: false });
        integrations.set(route.area, integration);
      }
      api.root.resourceForPath(route.path).addMethod(route.method, integration, { apiKeyRequired: true });
    }

    const plans = new Map<string, apigateway.UsagePlan>();
    for (const plan of definition.usagePlans) {
      plans.set(
        plan.name,
        api.addUsagePlan(`${pascal(plan.name)}UsagePlan`, {
          description: plan.description,
          throttle: plan.throttle,
          quota: { limit: plan.quota.limit, period: apigateway.Period[plan.quota.period] },
          apiStages: [{ api, stage: api.deploymentStage }],
        }),
      );
    }
    for (const key of definition.apiKeys) {
      const plan = plans.get(key.usagePlan);
      if (!plan) throw new Error(`API key '${key.name}' names unknown usage plan '${key.usagePlan}'`);
      plan.addApiKey(api.addApiKey(`${pascal(key.name)}ApiKey`, { description: key.description }));
    }

    acknowledge(
      api,
      'AwsSolutions-APIG2',
      'Requests are validated by the handler with the same zod schemas as the HTTP API (400 with field and ' +
        'reason); a second, gateway-side model would drift from them.',
    );
    for (const rule of ['AwsSolutions-APIG4', 'AwsSolutions-COG4']) {
      acknowledge(
        api,
        rule,
        'Integrators authenticate with an API key (usage plan, quotas) plus the connection bearer token, ' +
          'which the handler verifies; the product has its own accounts, not Cognito (DESIGN §7).',
      );
    }
    return api;
  }
}
