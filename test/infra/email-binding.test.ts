import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../../functions/routes';
import { DEFAULT_EMAIL_FROM } from '../../infra/stacks/build-app';
import { buildTestApp, logicalId, resource, resourcesOfType } from './app-fixture';

type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };

const statementsOfRole = (built: ReturnType<typeof buildTestApp>, roleId: string): Statement[] =>
  Object.values(resourcesOfType(built.template(built.stacks.api), 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);

/** `arn:${Partition}:ses:${Region}:${AccountId}:identity/<name>` as CloudFormation renders it, filled in. */
const arnOf = (rendered: unknown): string =>
  ((rendered as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1] as unknown[])
    .map((part) => (typeof part === 'string' ? part : '*'))
    .join('');

describe('the auth area sends e-mail through SES', () => {
  const built = buildTestApp({ emailFrom: 'acesso@zapdesk.com.br' });
  const api = built.template(built.stacks.api);
  const auth = built.stacks.api.areaFunctions.auth;

  it('gets EMAIL_FROM and ses:SendEmail on that sender only (its address and domain identities, FromAddress pinned)', () => {
    const variables = resource(api, logicalId(auth.fn)).Properties.Environment.Variables as Record<string, unknown>;
    expect(variables.EMAIL_FROM).toBe('acesso@zapdesk.com.br');
    expect(variables.EMAIL_OUTBOX_DIR).toBeUndefined();

    const ses = statementsOfRole(built, logicalId(auth.role)).filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('ses:')),
    );
    expect(ses).toHaveLength(1);
    expect(ses[0]!.Action).toBe('ses:SendEmail');
    expect((ses[0]!.Resource as unknown[]).map(arnOf).sort()).toEqual([
      'arn:*:ses:*:*:identity/acesso@zapdesk.com.br',
      'arn:*:ses:*:*:identity/zapdesk.com.br',
    ]);
    expect(ses[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'acesso@zapdesk.com.br' } });
  });

  it.each(AREAS.filter((a) => a !== 'auth').map((a) => [a] as const))(
    'the %s area gets neither the variable nor the grant',
    (area) => {
      const fn = built.stacks.api.areaFunctions[area];
      const variables = resource(api, logicalId(fn.fn)).Properties.Environment.Variables as Record<string, unknown>;
      expect(variables.EMAIL_FROM).toBeUndefined();
      const actions = statementsOfRole(built, logicalId(fn.role)).flatMap((s) => [s.Action].flat());
      expect(actions.filter((a) => a.startsWith('ses:'))).toEqual([]);
    },
  );

  it('takes the sender from `-c emailFrom=`, and warns at synth when none is given', () => {
    const emailFromOf = (other: ReturnType<typeof buildTestApp>) =>
      (
        resource(other.template(other.stacks.api), logicalId(other.stacks.api.areaFunctions.auth.fn)).Properties
          .Environment.Variables as Record<string, unknown>
      ).EMAIL_FROM;
    const fromContext = buildTestApp({}, { context: { emailFrom: 'suporte@exemplo.com.br' } });
    expect(emailFromOf(fromContext)).toBe('suporte@exemplo.com.br');
    Annotations.fromStack(fromContext.stacks.api).hasNoWarning('*', Match.stringLikeRegexp('emailFrom'));

    const unset = buildTestApp({ emailFrom: undefined });
    expect(emailFromOf(unset)).toBe(DEFAULT_EMAIL_FROM);
    Annotations.fromStack(unset.stacks.api).hasWarning('*', Match.stringLikeRegexp('-c emailFrom='));
  });

  it('refuses a sender that is not an e-mail address', () => {
    expect(() => buildTestApp({ emailFrom: 'no-reply' })).toThrow(/not an e-mail address/);
  });
});

describe("the HTTP API's access log", () => {
  it('leaves out the request path, which for resetpasswords holds a reset code and a new password', () => {
    const { stacks, template } = buildTestApp();
    const stage = Object.values(resourcesOfType(template(stacks.api), 'AWS::ApiGatewayV2::Stage')).find(
      (s) => s.Properties.StageName === '$default',
    )!;
    const format = stage.Properties.AccessLogSettings.Format as string;
    expect(format).toContain('$context.routeKey');
    expect(format).not.toContain('$context.path');
  });
});
