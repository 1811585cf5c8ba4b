import { existsSync } from 'node:fs';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { API_BASE } from '../../functions/http/route-matcher';
import { acknowledge, acknowledgeWildcards } from '../constructs/nag';
import { repoPath } from '../constructs/zap-function';
import type { DataStack } from './data-stack';
import { WS_STAGE_NAME } from './realtime-stack';

/** Paths on the one origin (DESIGN §2). The WebSocket path is the stage name (see realtime-stack.ts). */
export const WEB_PATHS = {
  api: API_BASE,
  ws: `/${WS_STAGE_NAME}`,
  media: '/media',
} as const;

/**
 * `/config.json`, read by the frontend before it renders (frontend/src/config.ts); with the Meta app's id
 * when one is deployed, for the browser's Facebook login (decisions D81).
 */
export const runtimeConfig = (metaAppId?: string) => ({
  apiBase: WEB_PATHS.api,
  wsUrl: WEB_PATHS.ws,
  mediaBase: WEB_PATHS.media,
  stage: 'aws',
  ...(metaAppId ? { metaAppId } : {}),
});

/**
 * Content-Security-Policy of every response. Everything is same-origin (app, API, WebSocket, media) except
 * the help videos' thumbnails and player (YouTube); 'self' covers wss: on the same host (CSP level 3).
 * Inline styles stay allowed for the component library's style attributes; scripts never run inline.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // Help videos (decisions D146): YouTube's thumbnails and its privacy-enhanced player.
  "img-src 'self' data: blob: https://i.ytimg.com",
  'frame-src https://www.youtube-nocookie.com',
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  'upgrade-insecure-requests',
].join('; ');

/** SPA routing: a path whose last segment has no extension is a client route and gets /index.html. */
const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/** `/media/<key>` -> `/<key>`: media object keys are stored without the path the browser uses. */
const MEDIA_PREFIX_CODE = `function handler(event) {
  var request = event.request;
  request.uri = request.uri.substring(${WEB_PATHS.media.length}) || '/';
  return request;
}`;

export interface WebStackProps extends StackProps {
  data: DataStack;
  httpApi: apigwv2.IHttpApi;
  webSocketApi: apigwv2.IWebSocketApi;
  /** Built frontend to publish, if present. @default frontend/dist */
  frontendDist?: string;
  /** The Meta app's id, published in config.json for the Facebook login. @default none: no login */
  metaAppId?: string;
}

/**
 * The one origin: a private bucket with the built frontend behind CloudFront, which also routes `/api/*`
 * to the HTTP API, `/ws` to the WebSocket API and `/media/*` to the media bucket. No CORS anywhere.
 */
export class WebStack extends Stack {
  readonly siteBucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const frontendDist = props.frontendDist ?? repoPath('frontend/dist');

    const logs = new s3.Bucket(this, 'Logs', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      // CloudFront standard logs are delivered with an ACL.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      logs,
      'AwsSolutions-S1',
      'This bucket is the access-log destination; logging it into itself would loop.',
    );

    this.siteBucket = new s3.Bucket(this, 'Site', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'site/',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'ZapDesk security headers and CSP',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CONTENT_SECURITY_POLICY, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
    });

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      comment: 'Extension-less paths are client routes: serve /index.html',
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });
    const mediaPrefix = new cloudfront.Function(this, 'MediaPrefix', {
      comment: `Strip ${WEB_PATHS.media} from media paths`,
      code: cloudfront.FunctionCode.fromInline(MEDIA_PREFIX_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    const executeApiDomain = (apiId: string): string => `${apiId}.execute-api.${this.region}.${this.urlSuffix}`;
    const apiOriginProps: origins.HttpOriginProps = {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
    };
    // The HTTP API's $default stage serves /api/... as is; the WebSocket stage `ws` is the path /ws.
    const apiOrigin = new origins.HttpOrigin(executeApiDomain(props.httpApi.apiId), apiOriginProps);
    const wsOrigin = new origins.HttpOrigin(executeApiDomain(props.webSocketApi.apiId), apiOriginProps);

    // The media bucket belongs to the data stack, which already lets this account's distributions read it
    // (data-stack.ts): referencing it by attributes keeps CloudFront from writing that policy from here,
    // which would make the data stack depend on this one.
    const media = props.data.buckets.media;
    const mediaBucket = s3.Bucket.fromBucketAttributes(this, 'MediaBucket', {
      bucketArn: media.bucketArn,
      bucketRegionalDomainName: media.bucketRegionalDomainName,
    });
    acknowledge(
      this,
      '@aws-cdk/aws-cloudfront-origins:updateImportedBucketPolicyOac',
      'The media bucket policy granting CloudFront reads is written by the data stack.',
    );

    const passThrough: Omit<cloudfront.BehaviorOptions, 'origin'> = {
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: securityHeaders,
    };

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'ZapDesk',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.siteBucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        [`${WEB_PATHS.api}/*`]: {
          origin: apiOrigin,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          ...passThrough,
        },
        [WEB_PATHS.ws]: { origin: wsOrigin, allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD, ...passThrough },
        [`${WEB_PATHS.media}/*`]: {
          origin: origins.S3BucketOrigin.withOriginAccessControl(mediaBucket),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: securityHeaders,
          functionAssociations: [{ function: mediaPrefix, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        },
      },
    });
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR4',
      'The distribution uses the default *.cloudfront.net certificate, whose minimum protocol CloudFront ' +
        'fixes; attaching a custom domain and ACM certificate lets the policy be raised to TLSv1.2_2021.',
    );

    this.deployFrontend(frontendDist, props.metaAppId);

    new CfnOutput(this, 'AppUrl', {
      description: 'The app (and /api, /ws, /media on the same origin)',
      value: `https://${this.distribution.distributionDomainName}`,
    });
  }

  /**
   * Hashed build output under assets/ is immutable and cached for a year; everything else (index.html,
   * config.json, the service worker, icons) is `no-cache`, which CloudFront's CachingOptimized policy keeps
   * for its one-second minimum TTL, so a deploy shows within a second without an invalidation (and without
   * the `cloudfront:CreateInvalidation` on `*` that BucketDeployment would need for one).
   * Old assets stay (no prune) so a page loaded before a deploy can still fetch its chunks.
   */
  private deployFrontend(frontendDist: string, metaAppId: string | undefined): void {
    const assetsDir = `${frontendDist}/assets`;
    let assets: s3deploy.BucketDeployment | undefined;
    if (existsSync(assetsDir)) {
      assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
        destinationBucket: this.siteBucket,
        destinationKeyPrefix: 'assets/',
        sources: [s3deploy.Source.asset(assetsDir)],
        cacheControl: [s3deploy.CacheControl.fromString('public, max-age=31536000, immutable')],
        prune: false,
        memoryLimit: 512,
      });
    }
    const entrySources = [s3deploy.Source.jsonData('config.json', runtimeConfig(metaAppId))];
    if (existsSync(frontendDist)) entrySources.unshift(s3deploy.Source.asset(frontendDist, { exclude: ['assets'] }));
    const entry = new s3deploy.BucketDeployment(this, 'DeploySite', {
      destinationBucket: this.siteBucket,
      sources: entrySources,
      cacheControl: [s3deploy.CacheControl.noCache()],
      prune: false,
      memoryLimit: 512,
    });
    // index.html may name new chunks only once they are there.
    if (assets) entry.node.addDependency(assets);

    this.acknowledgeBucketDeploymentProvider();
  }

  /** BucketDeployment runs a Lambda that aws-cdk-lib provides: its runtime and role are CDK's. */
  private acknowledgeBucketDeploymentProvider(): void {
    const provided =
      "aws-cdk-lib's BucketDeployment provider copies the build from the CDK asset bucket into the site bucket";
    for (const provider of this.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      acknowledge(provider, 'AwsSolutions-L1', `${provided}; its runtime is chosen by aws-cdk-lib.`);
      acknowledge(
        provider,
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        `${provided}; its role (logs only through this managed policy) is created by aws-cdk-lib.`,
      );
      acknowledgeWildcards(
        provider,
        [
          /^Action::s3:(GetBucket|GetObject|List|Abort|DeleteObject)\*$/,
          /^Resource::arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-<AWS::AccountId>-<AWS::Region>\/\*$/,
          new RegExp(`^Resource::<${this.getLogicalId(this.siteBucket.node.defaultChild as s3.CfnBucket)}\\.Arn>/\\*$`),
        ],
        `${provided}: aws-cdk-lib grants that copy as S3 action groups on the objects of exactly those two buckets.`,
      );
    }
  }
}
