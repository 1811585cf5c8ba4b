import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../infra/stacks/web-stack';
import { buildTestApp, logicalId, publishedOutput, resource, resourcesOfType } from './app-fixture';

// A built frontend of our own, so the test does not depend on whether frontend/dist exists here.
const dist = mkdtempSync(join(tmpdir(), 'zapdesk-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><script type="module" src="/assets/index-abc123.js"></script>');
writeFileSync(join(dist, 'service-worker.js'), '');
writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const { app, stacks, template } = buildTestApp({ frontendDist: dist });
const web = template(stacks.web);

interface Behavior {
  PathPattern?: string;
  TargetOriginId: string;
  CachePolicyId: string;
  OriginRequestPolicyId?: string;
  ViewerProtocolPolicy: string;
  AllowedMethods?: string[];
  ResponseHeadersPolicyId?: unknown;
  FunctionAssociations?: { EventType: string; FunctionARN: { 'Fn::GetAtt': [string, string] } }[];
}
interface Origin {
  Id: string;
  DomainName: unknown;
  OriginPath?: string;
  OriginAccessControlId?: unknown;
  S3OriginConfig?: unknown;
  CustomOriginConfig?: { OriginProtocolPolicy: string };
}

const config = resource(web, logicalId(stacks.web.distribution)).Properties.DistributionConfig as {
  DefaultCacheBehavior: Behavior;
  CacheBehaviors: Behavior[];
  Origins: Origin[];
};
const behavior = (pattern: string): Behavior => {
  const found = config.CacheBehaviors.find((b) => b.PathPattern === pattern);
  if (!found) throw new Error(`no behavior for ${pattern}`);
  return found;
};
const originOf = (b: Behavior): Origin => config.Origins.find((o) => o.Id === b.TargetOriginId)!;

/** Runs a CloudFront Function of the template on a viewer-request URI and returns the rewritten URI. */
const runFunction = (b: Behavior, uri: string): string => {
  const fnId = b.FunctionAssociations![0]!.FunctionARN['Fn::GetAtt'][0];
  const code = resource(web, fnId).Properties.FunctionCode as string;
  const handler = new Function(`${code}\nreturn handler;`)() as (e: { request: { uri: string } }) => { uri: string };
  return handler({ request: { uri } }).uri;
};

describe('web stack: one origin for app, API, WebSocket and media', () => {
  it('has exactly the /api/*, /ws and /media/* behaviors besides the default', () => {
    expect(config.CacheBehaviors.map((b) => b.PathPattern).sort()).toEqual(['/api/*', '/media/*', '/ws']);
  });

  it('serves the app from the private site bucket through origin access control', () => {
    const origin = originOf(config.DefaultCacheBehavior);
    expect(origin.DomainName).toEqual({ 'Fn::GetAtt': [logicalId(stacks.web.siteBucket), 'RegionalDomainName'] });
    expect(origin.OriginAccessControlId).toBeDefined();
    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
  });

  it('passes /api/* to the HTTP API uncached, with every viewer header but Host, queries and cookies', () => {
    const api = behavior('/api/*');
    const origin = originOf(api);
    expect(JSON.stringify(origin.DomainName)).toContain(
      publishedOutput(template(stacks.api), logicalId(stacks.api.httpApi)),
    );
    expect(JSON.stringify(origin.DomainName)).toContain('.execute-api.');
    expect(origin.OriginPath).toBeUndefined();
    expect(origin.CustomOriginConfig!.OriginProtocolPolicy).toBe('https-only');
    expect(api.CachePolicyId).toBe(cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId);
    expect(api.OriginRequestPolicyId).toBe(
      cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    );
    expect(api.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']));
    expect(api.ViewerProtocolPolicy).toBe('https-only');
    expect(api.FunctionAssociations).toBeUndefined();
  });

  it('passes /ws to the WebSocket API, whose stage is that path', () => {
    const ws = behavior('/ws');
    const origin = originOf(ws);
    expect(JSON.stringify(origin.DomainName)).toContain(
      publishedOutput(template(stacks.realtime), logicalId(stacks.realtime.webSocketApi)),
    );
    expect(origin.OriginPath).toBeUndefined();
    expect(ws.CachePolicyId).toBe(cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId);
    expect(ws.OriginRequestPolicyId).toBe(
      cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    );
  });

  it('serves /media/* from the media bucket through origin access control, without the /media prefix', () => {
    const media = behavior('/media/*');
    const origin = originOf(media);
    expect(JSON.stringify(origin.DomainName)).toContain(
      publishedOutput(template(stacks.data), logicalId(stacks.data.buckets.media), 'RegionalDomainName'),
    );
    expect(origin.OriginAccessControlId).toBeDefined();
    expect(origin.S3OriginConfig).toBeDefined();
    expect(runFunction(media, '/media/C1/messages/01HX.jpg')).toBe('/C1/messages/01HX.jpg');
  });

  it('rewrites client routes to /index.html on the default behavior only, leaving files alone', () => {
    const spa = config.DefaultCacheBehavior;
    expect(spa.FunctionAssociations![0]!.EventType).toBe('viewer-request');
    expect(runFunction(spa, '/')).toBe('/index.html');
    expect(runFunction(spa, '/tickets/4f1c-uuid')).toBe('/index.html');
    expect(runFunction(spa, '/login')).toBe('/index.html');
    expect(runFunction(spa, '/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(runFunction(spa, '/config.json')).toBe('/config.json');
  });

  it('adds the security headers with the CSP to every behavior', () => {
    const policies = Object.entries(resourcesOfType(web, 'AWS::CloudFront::ResponseHeadersPolicy'));
    expect(policies).toHaveLength(1);
    const [policyId, policy] = policies[0]!;
    const headers = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(headers.ContentSecurityPolicy.ContentSecurityPolicy).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(headers.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31536000);
    expect(headers.ContentTypeOptions.Override).toBe(true);
    for (const b of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(b.ResponseHeadersPolicyId, b.PathPattern ?? 'default').toEqual({ Ref: policyId });
    }
  });
});

describe('web stack: publishing the frontend', () => {
  const deployments = Object.values(resourcesOfType(web, 'Custom::CDKBucketDeployment'));
  const site = deployments.find((d) => d.Properties.DestinationBucketKeyPrefix === undefined)!;
  const assets = deployments.find((d) => d.Properties.DestinationBucketKeyPrefix === 'assets/')!;

  /** The staged contents of a deployment's sources (directories in the cloud assembly). */
  const sourceFiles = (deployment: typeof site): string[][] =>
    (deployment.Properties.SourceObjectKeys as string[]).map((key) =>
      readdirSync(join(app.outdir, `asset.${key.replace(/\.zip$/, '')}`)).sort(),
    );

  it('writes config.json for this deployment next to index.html, revalidated on every load', () => {
    expect(site.Properties.SystemMetadata).toEqual({ 'cache-control': 'no-cache' });
    const files = sourceFiles(site);
    expect(files).toContainEqual(['index.html', 'service-worker.js']);
    const configKey = (site.Properties.SourceObjectKeys as string[])[
      files.findIndex((f) => f.includes('config.json'))
    ]!;
    const written = JSON.parse(
      readFileSync(join(app.outdir, `asset.${configKey.replace(/\.zip$/, '')}`, 'config.json'), 'utf8'),
    ) as unknown;
    expect(written).toEqual({ apiBase: '/api', wsUrl: '/ws', mediaBase: '/media', stage: 'aws' });
  });

  it('publishes hashed assets as immutable, before index.html, and never prunes old ones', () => {
    expect(assets.Properties.SystemMetadata).toEqual({ 'cache-control': 'public, max-age=31536000, immutable' });
    expect(sourceFiles(assets)).toEqual([['index-abc123.js']]);
    expect(site.DependsOn).toEqual(expect.arrayContaining([expect.stringMatching(/^DeployAssetsCustomResource/)]));
    for (const d of deployments) expect(d.Properties.Prune).toBe(false);
  });

  it('synthesizes without a built frontend, publishing config.json alone', () => {
    const bare = buildTestApp({ frontendDist: join(dist, 'missing') });
    const only = Object.values(resourcesOfType(bare.template(bare.stacks.web), 'Custom::CDKBucketDeployment'));
    expect(only).toHaveLength(1);
    expect(only[0]!.Properties.SourceObjectKeys).toHaveLength(1);
  });
});
