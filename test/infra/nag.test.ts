import type { PolicyViolation } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from './app-fixture';

/**
 * cdk-nag 3 runs as a CDK policy-validation plugin and reports violations in the validation report, not as
 * annotations; `validateScope` is its entry point for tests. It honours acknowledgments
 * (`Validations.of(x).acknowledge`, each with its reason, next to the resource in infra/). The app is
 * synthesised first so everything CDK adds while preparing is checked too, and with CDK's built-in
 * CloudFormation rules on: cdk.json makes their findings errors, so synth throws on any.
 */
const { app, stacks } = buildTestApp({}, { cloudFormationValidation: true });
const assembly = app.synth();

const reports = Object.fromEntries(
  Object.entries(stacks).map(([name, stack]) => [name, new AwsSolutionsChecks().validateScope(stack)]),
);

const describeViolation = (violation: PolicyViolation): string =>
  `${violation.ruleName}: ${violation.description}\n    ${violation.violatingResources
    .map((r) => r.constructPath ?? r.resourceLogicalId)
    .join('\n    ')}`;

/**
 * Warnings we know and have not acted on yet. They are recommendations, not acknowledged: a WAF web ACL
 * (APIG3, CFR2) is a cost and rules decision still open, and the product serves customers in any
 * country, so there is no geo restriction to set (CFR1). A new warning fails here so someone decides.
 */
const KNOWN_WARNINGS: Record<string, string[]> = {
  data: [],
  realtime: [],
  api: ['AwsSolutions-APIG3'],
  workers: [],
  web: ['AwsSolutions-CFR1', 'AwsSolutions-CFR2'],
};

describe('CloudFormation rules', () => {
  it('synthesize every stack without findings', () => {
    expect(assembly.stacks.map((s) => s.stackName).sort()).toEqual(
      Object.values(stacks)
        .map((s) => s.stackName)
        .sort(),
    );
  });
});

describe('cdk-nag AwsSolutions', () => {
  it.each(Object.keys(stacks))('%s stack has no unacknowledged errors', (name) => {
    const errors = reports[name]!.violations.filter((v) => v.severity === 'error').map(describeViolation);
    expect(errors, errors.join('\n')).toEqual([]);
  });

  it.each(Object.keys(stacks))('%s stack has only the known warnings', (name) => {
    const warnings = reports[name]!.violations.filter((v) => v.severity === 'warning').map((v) => v.ruleName);
    expect(warnings.sort()).toEqual(KNOWN_WARNINGS[name]);
  });
});
