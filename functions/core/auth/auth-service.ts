import { randomBytes, randomUUID } from 'node:crypto';
import { signAccessToken } from '../access-token';
import type { AuthContext } from '../../shared/auth-context';
import { Unauthorized } from '../../shared/errors';
import { errorFields, logger } from '../../shared/logger';
import { hashPassword, verifyPassword } from '../passwords';
import { takeRateLimitSlots } from '../rate-limits';
import type { AuthUser, LoginAnswer } from '../../contracts/auth';
import { viewOf } from '../users/user-service';
import { recordLogin, type Company } from '../../data/company-repository';
import type { RateLimit } from '../../data/rate-limit-repository';
import {
  deleteRefreshToken,
  endSession,
  getRefreshToken,
  getUserAndCompany,
  refreshTokenHash,
  rotateRefreshToken,
  startSession,
  type SessionUser,
} from '../../data/session-repository';
import { findUserIdByEmail } from '../../data/user-repository';
import { onlyUser, publish } from '../notifier';
import { isCompanyInactive } from './request-context';

/**
 * Session calls (core spec §4 "Subscription and session", §7 Session; docs/data-model.md §2.7):
 * login, refresh with rotation and reuse detection, logout, me. One active session per user.
 */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * Login limits (D18): failed attempts per e-mail and per IP in fixed 15-minute windows. A successful login
 * gives its slots back, so an office behind one NAT address is limited only by its failures.
 */
export const LOGIN_LIMITS = {
  email: { scope: 'login-email', max: 10, windowSeconds: 15 * 60 },
  ip: { scope: 'login-ip', max: 50, windowSeconds: 15 * 60 },
} as const satisfies Record<string, RateLimit>;

/** What login and refresh produce: the wire answer (LoginAnswer) and the refresh token. */
export interface SessionAnswer extends LoginAnswer {
  /** Goes into the httpOnly cookie, never into the body. */
  refreshToken: string;
}

const invalidCredentials = () => new Unauthorized('ERR_INVALID_CREDENTIALS', 'Invalid e-mail or password');
const sessionEnded = () => new Unauthorized('ERR_SESSION_EXPIRED', 'Session expired');
/** 401, not 403: the client refreshes on a 403, and a 401 is what ends its session (D9, D21). */
const companyInactive = () => new Unauthorized('ERR_COMPANY_INACTIVE', 'The company is inactive');

/** A hash to verify against when the e-mail is unknown, so both failures take the same time. */
let dummyHash: Promise<string> | undefined;
const unknownUserHash = (): Promise<string> => (dummyHash ??= hashPassword(randomBytes(16).toString('base64')));

const authUser = async (user: SessionUser, company: Company): Promise<AuthUser> => ({
  ...(await viewOf(user)),
  company: { id: company.id, name: company.name, dueDate: company.dueDate },
  companieSettings: [],
});

const accessToken = (user: SessionUser, sessionId: string) =>
  signAccessToken({
    companyId: user.companyId,
    userId: user.id,
    profile: String(user.profile).toLowerCase() === 'admin' ? 'admin' : 'user',
    super: user.super === true,
    sessionId,
  });

const newRefreshToken = () => ({
  token: randomBytes(32).toString('base64url'),
  expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
});

/**
 * Tells a user's sockets that their session ended ('Sua conta foi acessada em outro computador.'): after a
 * login elsewhere, and after a password reset.
 */
export const announceSessionEnded = async (companyId: number, userId: number): Promise<void> => {
  try {
    await publish(companyId, { channel: 'auth', action: 'update', user: { id: userId } }, onlyUser(userId));
  } catch (err) {
    // The change stands; the old tab still ends at its next request (403, then the refresh's 401).
    logger.warn('session-ended event not sent', { companyId, userId, ...errorFields(err) });
  }
};

/** lastLogin is bookkeeping: a failure to write it is logged and never fails the login. */
const noteLogin = async (companyId: number): Promise<void> => {
  try {
    await recordLogin(companyId);
  } catch (err) {
    logger.warn('company lastLogin not recorded', { companyId, ...errorFields(err) });
  }
};

export const login = async (input: { email: string; password: string; sourceIp: string }): Promise<SessionAnswer> => {
  const email = input.email.trim().toLowerCase();
  const giveSlotsBack = await takeRateLimitSlots([
    { limit: LOGIN_LIMITS.ip, subject: input.sourceIp },
    { limit: LOGIN_LIMITS.email, subject: email },
  ]);
  const owner = await findUserIdByEmail(email);
  const found = owner ? await getUserAndCompany(owner.companyId, owner.userId) : null;
  const stored = found?.user?.passwordHash ?? (await unknownUserHash());
  const passwordOk = await verifyPassword(input.password, stored);
  if (!passwordOk || !found?.user || !found.company) throw invalidCredentials();
  const { user, company } = found;
  // Only a caller who knows the password learns that the company is inactive; it counts as a failure.
  if (isCompanyInactive(company)) throw companyInactive();
  await giveSlotsBack();

  const sessionId = randomUUID();
  const refresh = newRefreshToken();
  await Promise.all([
    startSession(user, sessionId, refreshTokenHash(refresh.token), refresh.expiresAt),
    noteLogin(company.id),
  ]);
  if (user.sessionId) await announceSessionEnded(user.companyId, user.id);
  return {
    token: await accessToken(user, sessionId),
    user: await authUser(user, company),
    refreshToken: refresh.token,
  };
};

/**
 * How long a just-exchanged refresh token may be exchanged again (D29): two tabs of one browser that both
 * find their access token expired send the same cookie at once, and the slower one must not end the
 * session. Past this, a second exchange is a replay.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 15;

/**
 * Exchanges a refresh token for a new one and a new access token. A token that was already exchanged is
 * being replayed — by a thief or by the user after a thief — so the whole session ends (401 either way),
 * unless it was exchanged within the last REFRESH_REUSE_GRACE_SECONDS (then it gets a sibling token).
 */
export const refreshSession = async (token: string | null): Promise<SessionAnswer> => {
  if (!token) throw sessionEnded();
  const hash = refreshTokenHash(token);
  const record = await getRefreshToken(hash);
  if (!record || Date.parse(record.expiresAt) <= Date.now()) throw sessionEnded();
  const revokeFamily = async () => {
    await endSession(record.companyId, record.userId, record.sessionId);
    logger.warn('refresh token reused: session revoked', { companyId: record.companyId, userId: record.userId });
  };
  const usedSince = new Date(Date.now() - REFRESH_REUSE_GRACE_SECONDS * 1000).toISOString();
  if (record.usedAt && record.usedAt < usedSince) {
    await revokeFamily();
    throw sessionEnded();
  }
  const next = newRefreshToken();
  const outcome = await rotateRefreshToken(hash, record, refreshTokenHash(next.token), next.expiresAt, usedSince);
  if (outcome === 'already-used') await revokeFamily();
  if (outcome !== 'rotated') throw sessionEnded();
  const { user, company } = await getUserAndCompany(record.companyId, record.userId);
  if (!user || !company) throw sessionEnded();
  if (isCompanyInactive(company)) {
    await endSession(record.companyId, record.userId, record.sessionId);
    throw companyInactive();
  }
  return {
    token: await accessToken(user, record.sessionId),
    user: await authUser(user, company),
    refreshToken: next.token,
  };
};

/** Ends the session the refresh cookie belongs to (if it is still current) and forgets the token. */
export const logout = async (token: string | null): Promise<void> => {
  if (!token) return;
  const hash = refreshTokenHash(token);
  const record = await getRefreshToken(hash);
  if (!record) return;
  await endSession(record.companyId, record.userId, record.sessionId);
  await deleteRefreshToken(hash);
};

export const me = async (auth: AuthContext): Promise<AuthUser> => {
  const { user, company } = await getUserAndCompany(auth.companyId, auth.userId);
  if (!user || !company) throw sessionEnded();
  return authUser(user, company);
};
