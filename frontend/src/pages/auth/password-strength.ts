/** The five checks of the login strength meter (core spec §5), in the order the meter lists them. */
export const PASSWORD_CHECKS = ['length', 'upper', 'lower', 'digit', 'symbol'] as const;
export type PasswordCheck = (typeof PASSWORD_CHECKS)[number];
export type PasswordStrength = 'weak' | 'medium' | 'strong';

const TESTS: Record<PasswordCheck, (password: string) => boolean> = {
  length: (p) => [...p].length >= 8,
  upper: (p) => /\p{Lu}/u.test(p),
  lower: (p) => /\p{Ll}/u.test(p),
  digit: (p) => /\p{Nd}/u.test(p),
  symbol: (p) => /[^\p{L}\p{N}]/u.test(p),
};

/** Which of the five checks the password passes. */
export const passwordChecks = (password: string): Record<PasswordCheck, boolean> =>
  Object.fromEntries(PASSWORD_CHECKS.map((check) => [check, TESTS[check](password)])) as Record<PasswordCheck, boolean>;

/** 0 to 5: how many checks pass. */
export const passwordScore = (password: string): number =>
  PASSWORD_CHECKS.filter((check) => TESTS[check](password)).length;

/** Score 2 or less is weak, 3–4 medium, 5 strong. */
export const strengthOf = (score: number): PasswordStrength => (score <= 2 ? 'weak' : score < 5 ? 'medium' : 'strong');
