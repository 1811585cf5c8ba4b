import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../../functions/routes';
import { buildTestApp, FIXTURE_CONSUMERS, logicalId, resource, resourcesOfType } from './app-fixture';

/** The config.json a built app publishes next to index.html. */
const publishedConfig = (built: ReturnType<typeof buildTestApp>): unknown => {
  const deployments = Object.values(resourcesOfType(built.template(built.stacks.web), 'Custom::CDKBucketDeployment'));
  for (const d of deployments) {
    for (const key of d.Properties.SourceObjectKeys as string[]) {
      const dir = join(built.app.outdir, `asset.${key.replace(/\.zip$/, '')}`);
      if (readdirSync(dir).includes('config.json')) return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    }
  }
  throw new Error('no config.json published');
};

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:zapdesk/meta-app-AbCdEf';
const META = { appId: '700000000000001', verifyToken: 'verify-token-0123', appSecretArn: SECRET_ARN };
const CONSUMERS = [
  ...FIXTURE_CONSUMERS,
  { queue: 'outbound', entry: 'test/infra/fixtures/consumer.ts', batchSize: 10, timeoutSeconds: 60 },
] as const;

type Statement = { Action: string | string[]; Resource: unknown };
const readsOf = (template: ReturnType<ReturnType<typeof buildTestApp>['template']>, roleId: string) =>
  Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
    .filter((s) => [s.Action].flat().includes('secretsmanager:GetSecretValue'))
    .flatMap((s) => [s.Resource].flat());

const variablesOf = (template: ReturnType<ReturnType<typeof buildTestApp>['template']>, id: string) =>
  resource(template, id).Properties.Environment.Variables as Record<string, unknown>;

describe('the Meta app binding (decisions D40)', () => {
  const built = buildTestApp({ meta: META, consumers: CONSUMERS });
  const api = built.template(built.stacks.api);
  const workers = built.template(built.stacks.workers);

  it('gives the connections area the app id, verify token and secret ARN, and read access to that secret only', () => {
    const fn = built.stacks.api.areaFunctions.connections;
    expect(variablesOf(api, logicalId(fn.fn))).toMatchObject({
      META_APP_ID: META.appId,
      META_VERIFY_TOKEN: META.verifyToken,
      META_APP_SECRET_ARN: SECRET_ARN,
    });
    expect(readsOf(api, logicalId(fn.role))).toContainEqual(SECRET_ARN);
  });

  it('gives the outbound consumer the same (Graph sends), and no other consumer', () => {
    const consumers = built.stacks.workers.jobs.consumers;
    consumers.forEach((fn, i) => {
      const variables = variablesOf(workers, logicalId(fn.fn));
      if (CONSUMERS[i]!.queue === 'outbound') {
        expect(variables.META_APP_SECRET_ARN).toBe(SECRET_ARN);
        expect(readsOf(workers, logicalId(fn.role))).toContainEqual(SECRET_ARN);
      } else {
        expect(variables.META_APP_SECRET_ARN).toBeUndefined();
      }
    });
  });

  it.each(AREAS.filter((a) => a !== 'connections').map((a) => [a] as const))('the %s area gets none of it', (area) => {
    const fn = built.stacks.api.areaFunctions[area];
    expect(variablesOf(api, logicalId(fn.fn)).META_APP_ID).toBeUndefined();
    expect(readsOf(api, logicalId(fn.role))).not.toContainEqual(SECRET_ARN);
  });

  it('takes the app from `-c metaAppId= -c metaVerifyToken= -c metaAppSecretArn=`; without them, nothing is bound', () => {
    const fromContext = buildTestApp(
      {},
      { context: { metaAppId: META.appId, metaVerifyToken: META.verifyToken, metaAppSecretArn: SECRET_ARN } },
    );
    const fn = fromContext.stacks.api.areaFunctions.connections;
    expect(variablesOf(fromContext.template(fromContext.stacks.api), logicalId(fn.fn)).META_APP_ID).toBe(META.appId);

    const without = buildTestApp();
    const plain = without.stacks.api.areaFunctions.connections;
    expect(variablesOf(without.template(without.stacks.api), logicalId(plain.fn)).META_APP_ID).toBeUndefined();
  });

  it("publishes the app's id (public; never the secret) in config.json for the browser's Facebook login (D81)", () => {
    expect(publishedConfig(built)).toMatchObject({ metaAppId: META.appId });
    expect(JSON.stringify(publishedConfig(built))).not.toContain(META.verifyToken);
    expect(publishedConfig(buildTestApp())).not.toHaveProperty('metaAppId');
  });
});
