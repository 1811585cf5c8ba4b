import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { BadRequest, NotFound } from '../../shared/errors';
import { emailSender } from '../email/email-sender';
import { logger } from '../../shared/logger';
import { hashPassword } from '../passwords';
import { takeRateLimitSlots } from '../rate-limits';
import { secretKey } from '../../shared/secrets';
import {
  completePasswordReset,
  deleteResetCode,
  saveResetCode,
  takeResetAttempt,
} from '../../data/password-reset-repository';
import type { RateLimit } from '../../data/rate-limit-repository';
import { findUserIdByEmail } from '../../data/user-repository';
import { announceSessionEnded } from './auth-service';
import { passwordResetEmail } from './password-reset-email';

/**
 * Password reset (core spec §7 `forgetpassword`, `resetpasswords`; docs/decisions/D20-password-reset.md): a 6-digit
 * code is e-mailed, and the code sets a new password. Codes are stored as an HMAC keyed by the app secret, live
 * RESET_CODE_TTL_SECONDS, allow RESET_CODE_MAX_ATTEMPTS checks, and only the latest one counts.
 */
export const RESET_CODE_TTL_SECONDS = 15 * 60;
export const RESET_CODE_MAX_ATTEMPTS = 5;
export const RESET_CODE_PATTERN = /^\d{6}$/;

/** Both calls are limited per IP and per e-mail (D20); unknown e-mails count too. */
export const PASSWORD_RESET_LIMITS = {
  forgotIp: { scope: 'forgot-ip', max: 20, windowSeconds: 15 * 60 },
  forgotEmail: { scope: 'forgot-email', max: 5, windowSeconds: 60 * 60 },
  resetIp: { scope: 'reset-ip', max: 50, windowSeconds: 15 * 60 },
  resetEmail: { scope: 'reset-email', max: 10, windowSeconds: 60 * 60 },
} as const satisfies Record<string, RateLimit>;

const normalize = (email: string) => email.trim().toLowerCase();

/** The stored form of a code: HMAC-SHA256 under the app secret, bound to the e-mail it was sent to. */
export const resetCodeHash = async (email: string, code: string): Promise<string> =>
  createHmac('sha256', await secretKey('reset-code'))
    .update(`${normalize(email)}\n${code}`)
    .digest('base64url');

const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const invalidCode = () =>
  new BadRequest('ERR_INVALID_RESET_CODE', 'Invalid or expired verification code', [
    { field: 'params.token', reason: 'invalid or expired code: request a new one' },
  ]);

/** POST /forgetpassword/{email}: e-mails a new code; 404 for an e-mail no account has (the spec's answer). */
export const requestPasswordReset = async (input: { email: string; sourceIp: string }): Promise<void> => {
  const email = normalize(input.email);
  await takeRateLimitSlots([
    { limit: PASSWORD_RESET_LIMITS.forgotIp, subject: input.sourceIp },
    { limit: PASSWORD_RESET_LIMITS.forgotEmail, subject: email },
  ]);
  const owner = await findUserIdByEmail(email);
  if (!owner) throw new NotFound('ERR_NOT_FOUND', 'Email não encontrado');

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await saveResetCode(email, {
    companyId: owner.companyId,
    userId: owner.userId,
    codeHash: await resetCodeHash(email, code),
    expiresAt: new Date(Date.now() + RESET_CODE_TTL_SECONDS * 1000).toISOString(),
  });
  await emailSender().send(passwordResetEmail(email, code, RESET_CODE_TTL_SECONDS / 60));
  logger.info('password-reset code sent', { companyId: owner.companyId, userId: owner.userId });
};

/**
 * POST /resetpasswords/{email}/{token}/{newPassword} (the new password is already checked against the
 * spec's rule by the handler). The check is counted before the code is compared, so parallel guesses get
 * no more than RESET_CODE_MAX_ATTEMPTS comparisons; the last wrong one deletes the code.
 */
export const resetPassword = async (input: {
  email: string;
  token: string;
  newPassword: string;
  sourceIp: string;
}): Promise<void> => {
  const email = normalize(input.email);
  await takeRateLimitSlots([
    { limit: PASSWORD_RESET_LIMITS.resetIp, subject: input.sourceIp },
    { limit: PASSWORD_RESET_LIMITS.resetEmail, subject: email },
  ]);
  const code = input.token.trim();
  if (!RESET_CODE_PATTERN.test(code)) throw invalidCode();

  const record = await takeResetAttempt(email, RESET_CODE_MAX_ATTEMPTS);
  if (!record || Date.parse(record.expiresAt) <= Date.now()) throw invalidCode();
  if (!sameHash(record.codeHash, await resetCodeHash(email, code))) {
    if (record.attempts >= RESET_CODE_MAX_ATTEMPTS) await deleteResetCode(email, record.codeHash);
    throw invalidCode();
  }

  const done = await completePasswordReset(email, record, await hashPassword(input.newPassword));
  if (!done) throw invalidCode();
  logger.info('password reset', { companyId: record.companyId, userId: record.userId });
  await announceSessionEnded(record.companyId, record.userId);
};
