import { CfnResource, Validations } from 'aws-cdk-lib';
import { rules } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag 3 acknowledgments (`Validations.of(x).acknowledge`) match rule ids exactly, finding included
 * (`AwsSolutions-IAM5[Resource::<Bucket.Arn>/*]`); there is no pattern form. These helpers keep every
 * acknowledgment next to the resource it excuses, with its reason, and compute wildcard finding ids with
 * cdk-nag's own rule so they cannot drift from what the checker reports.
 */

/** Acknowledges one cdk-nag rule (or one finding of it) on a construct and everything below it. */
export const acknowledge = (scope: IConstruct, id: string, reason: string): void => {
  Validations.of(scope).acknowledge({ id, reason });
};

/**
 * Acknowledges the IAM5 (wildcard) findings of the IAM policies and roles under `scope` that match one of
 * `expected`, with a reason. Findings that match no pattern stay reported, so a wildcard nobody expected
 * still fails the nag test. Call it once the policies are complete, and only where every reference in
 * them is to the same stack (a cross-stack reference renders differently after synthesis).
 */
export const acknowledgeWildcards = (scope: IConstruct, expected: readonly RegExp[], reason: string): number => {
  let acknowledged = 0;
  for (const node of scope.node.findAll()) {
    if (!CfnResource.isCfnResource(node)) continue;
    const result = rules.iam.IAMNoWildcardPermissions(node);
    if (!Array.isArray(result)) continue;
    for (const finding of result) {
      if (!expected.some((pattern) => pattern.test(finding))) continue;
      Validations.of(node).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
      acknowledged += 1;
    }
  }
  return acknowledged;
};
