import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { WS_ENTRIES, WS_ROUTE_SELECTION_EXPRESSION, WS_ROUTES, type WsEntry } from '../../functions/realtime/routes';
import { acknowledge } from '../constructs/nag';
import { bindSecret, bindTable, bindWebSocket, ZapFunction } from '../constructs/zap-function';
import { pascal, type DataStack } from './data-stack';
import type { FunctionSettings } from './settings';

/**
 * The WebSocket stage's name is also the path browsers use behind CloudFront (`wss://<app>/ws`): the
 * distribution forwards `/ws` unchanged, which is exactly this stage's URL path on API Gateway.
 */
export const WS_STAGE_NAME = 'ws';

/**
 * Which WebSocket entries answer through the management API (and so get WS_MANAGEMENT_ENDPOINT and the
 * ManageConnections grant). Typed over every entry, so a new entry in functions/realtime/routes.ts does
 * not compile until someone decides.
 */
export const WS_ENTRY_POSTS_TO_CONNECTIONS = {
  connect: false,
  disconnect: false,
  message: true,
} as const satisfies Record<WsEntry, boolean>;

export interface RealtimeStackProps extends StackProps {
  data: DataStack;
  settings: FunctionSettings;
}

/**
 * The WebSocket API: one Lambda per entry in WS_ENTRIES, one route per WS_ROUTES entry, one stage. Also
 * sets the region's API Gateway CloudWatch role, which WebSocket and REST stages need for their logs
 * (this is the first stack with such a stage; the api stack deploys after it).
 */
export class RealtimeStack extends Stack {
  readonly webSocketApi: apigwv2.WebSocketApi;
  readonly stage: apigwv2.WebSocketStage;
  readonly functions: Record<WsEntry, ZapFunction>;
  /** API Gateway's account-level logging role; stages that log depend on it. */
  readonly apiGatewayAccount: apigateway.CfnAccount;

  constructor(scope: Construct, id: string, props: RealtimeStackProps) {
    super(scope, id, props);
    const { data, settings } = props;

    this.apiGatewayAccount = this.createApiGatewayAccount();

    this.functions = Object.fromEntries(
      (Object.keys(WS_ENTRIES) as WsEntry[]).map((entry) => {
        const fn = new ZapFunction(this, `${pascal(entry)}Handler`, {
          entry: WS_ENTRIES[entry],
          description: `WebSocket ${entry}`,
          memorySize: 512,
          ...settings,
        });
        // Every entry reads or writes its connection item; config() needs the secret's ARN everywhere.
        bindTable(fn, data.table, 'readWrite');
        bindSecret(fn, data.appSecret);
        return [entry, fn];
      }),
    ) as Record<WsEntry, ZapFunction>;

    this.webSocketApi = new apigwv2.WebSocketApi(this, 'WebSocketApi', {
      description: 'ZapDesk real-time events',
      routeSelectionExpression: WS_ROUTE_SELECTION_EXPRESSION,
    });
    const integrations = new Map<WsEntry, WebSocketLambdaIntegration>();
    for (const route of WS_ROUTES) {
      let integration = integrations.get(route.entry);
      if (!integration) {
        integration = new WebSocketLambdaIntegration(
          `${pascal(route.entry)}Integration`,
          this.functions[route.entry].fn,
        );
        integrations.set(route.entry, integration);
      }
      this.webSocketApi.addRoute(route.routeKey, { integration });
    }
    acknowledge(
      this.webSocketApi,
      'AwsSolutions-APIG4',
      '$connect verifies the access token itself (functions/realtime/connect.ts; browsers cannot send headers ' +
        'on a WebSocket, so it comes as ?token=) and the other routes act only for registered connections.',
    );

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: settings.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new apigwv2.WebSocketStage(this, 'Stage', {
      webSocketApi: this.webSocketApi,
      stageName: WS_STAGE_NAME,
      autoDeploy: true,
      throttle: { rateLimit: 500, burstLimit: 1000 },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: apigateway.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            connectionId: '$context.connectionId',
            eventType: '$context.eventType',
            routeKey: '$context.routeKey',
            status: '$context.status',
            sourceIp: '$context.identity.sourceIp',
            requestTime: '$context.requestTimeEpoch',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    this.stage.node.addDependency(this.apiGatewayAccount);

    for (const entry of Object.keys(WS_ENTRIES) as WsEntry[]) {
      if (WS_ENTRY_POSTS_TO_CONNECTIONS[entry]) bindWebSocket(this.functions[entry], this.stage);
    }
  }

  private createApiGatewayAccount(): apigateway.CfnAccount {
    const role = new iam.Role(this, 'ApiGatewayLogsRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      description: 'Lets API Gateway write execution and access logs of WebSocket and REST stages',
      managedPolicies: [
        iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs'),
      ],
    });
    acknowledge(
      role,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'AWS maintains this policy for exactly this role; API Gateway creates its log groups with names we ' +
        'do not choose (API-Gateway-Execution-Logs_<api>/<stage>), so a hand-written policy would need ' +
        'the same wildcards.',
    );
    const account = new apigateway.CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: role.roleArn });
    // A regional setting other APIs of the account may rely on: keep it (and its role) if the stack goes.
    role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    account.applyRemovalPolicy(RemovalPolicy.RETAIN);
    return account;
  }
}
