import { ApiError } from '@/api/api-error';

/**
 * What the form needs of a zod schema: `safeParse` and its issues. Schemas of `zod/mini` and of classic
 * `zod` both fit, so this module pulls neither into a chunk.
 */
export interface FormSchema<Out> {
  safeParse(
    values: unknown,
  ):
    | { success: true; data: Out }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** Problems by field (`name`, `schedules.0.startTimeA`): an i18n key for a rule, the server's text for a 400. */
export type FieldProblems = Record<string, string>;

/**
 * The schema's problems by field, the first one of each (a rule chain lists the worst first: 'Required'
 * before 'Too Short!'). Rule messages are i18n keys, translated where they are shown.
 */
export const ruleProblems = (schema: FormSchema<unknown>, values: unknown): FieldProblems => {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const problems: FieldProblems = {};
  for (const issue of result.error.issues) problems[issue.path.map(String).join('.')] ??= issue.message;
  return problems;
};

/**
 * A 400's `fields[]` by form field (docs/decisions.md D3): `body.shortcode` -> `shortcode`,
 * `body.schedules.0.startTimeA` -> `schedules.0.startTimeA`, with the reason as the server wrote it (the
 * spec's Portuguese text where the spec gives one). Nothing for any other error.
 */
export const serverProblems = (err: unknown): FieldProblems => {
  if (!(err instanceof ApiError)) return {};
  const problems: FieldProblems = {};
  for (const { field, reason } of err.fields) problems[field.replace(/^(body|query|params)\./, '')] ??= reason;
  return problems;
};

/** The problems left once `changed` fields were edited (a field's server problem goes with its edit). */
export const withoutChanged = (problems: FieldProblems, changed: readonly string[]): FieldProblems =>
  Object.fromEntries(Object.entries(problems).filter(([field]) => !changed.includes(field.split('.')[0]!)));
