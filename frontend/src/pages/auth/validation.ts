/**
 * Field rules of the public pages (core spec §5, administration spec §5). Each rule answers the i18n key of
 * its message, or undefined when the value is fine.
 */
export type Rule = (value: string) => string | undefined;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const required: Rule = (value) => (value.trim() === '' ? 'auth.required' : undefined);

export const email: Rule = (value) => required(value) ?? (EMAIL.test(value.trim()) ? undefined : 'auth.invalidEmail');

export const length =
  (min: number, max: number): Rule =>
  (value) => {
    const size = [...value.trim()].length;
    if (size === 0) return 'auth.required';
    if (size < min) return 'auth.tooShort';
    return size > max ? 'auth.tooLong' : undefined;
  };

/** Password reset: at least 8 characters with an upper-case letter, a lower-case letter and a digit. */
export const resetPasswordRule: Rule = (value) =>
  required(value) ??
  ([...value].length >= 8 && /\p{Lu}/u.test(value) && /\p{Ll}/u.test(value) && /\p{Nd}/u.test(value)
    ? undefined
    : 'auth.forgot.passwordRule');

/** Runs each field's rule; the answer has an entry only for fields with a problem. */
export const validate = <K extends string>(
  values: Record<K, string>,
  rules: Record<K, Rule>,
): Partial<Record<K, string>> => {
  const errors: Partial<Record<K, string>> = {};
  for (const field of Object.keys(rules) as K[]) {
    const error = rules[field](values[field]);
    if (error) errors[field] = error;
  }
  return errors;
};

export const normalizeEmail = (value: string): string => value.trim().toLowerCase();
