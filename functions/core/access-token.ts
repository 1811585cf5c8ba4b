import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import * as z from 'zod';
import type { AuthContext } from '../shared/auth-context';
import { Forbidden } from '../shared/errors';
import { secretKey } from '../shared/secrets';

/**
 * Short-lived access tokens (HS256, jose). The claims are the minimum the handler stack needs to build
 * an AuthContext without a database read; anything that can change during the token's life (flags,
 * plan) is resolved from storage by the accounts service.
 */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

const claimsSchema = z.object({
  sub: z.string().regex(/^\d+$/),
  cid: z.number().int().positive(),
  prf: z.enum(['admin', 'user']),
  sup: z.boolean(),
  sid: z.string().min(1).optional(),
});

export interface AccessTokenInput {
  companyId: number;
  userId: number;
  profile: 'admin' | 'user';
  super: boolean;
  /** Session id, so a newer login can end older sessions (issue 3). */
  sessionId?: string;
}

export const signAccessToken = async (input: AccessTokenInput, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS) =>
  new SignJWT({
    cid: input.companyId,
    prf: input.profile,
    sup: input.super,
    ...(input.sessionId ? { sid: input.sessionId } : {}),
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(input.userId))
    .setIssuer('zapdesk')
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(await secretKey('access-token'));

export interface VerifiedAccessToken extends Pick<AuthContext, 'companyId' | 'userId' | 'profile' | 'super'> {
  sessionId?: string;
}

/**
 * Throws 403 for a presented token that is expired (ERR_SESSION_EXPIRED) or forged / malformed
 * (ERR_INVALID_TOKEN). The spec's client answers a 403 with one refresh (the httpOnly refresh cookie) and a
 * retry, and clears the session only on 401 — which the stack returns when no token is sent at all and the
 * refresh call returns when the refresh token is bad (docs/decisions/D09-token-failure-status-codes.md).
 */
export const verifyAccessToken = async (token: string): Promise<VerifiedAccessToken> => {
  try {
    const { payload } = await jwtVerify(token, await secretKey('access-token'), {
      issuer: 'zapdesk',
      algorithms: ['HS256'],
    });
    const claims = claimsSchema.parse(payload);
    return {
      companyId: claims.cid,
      userId: Number(claims.sub),
      profile: claims.prf,
      super: claims.sup,
      ...(claims.sid ? { sessionId: claims.sid } : {}),
    };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new Forbidden('ERR_SESSION_EXPIRED', 'Session expired');
    throw new Forbidden('ERR_INVALID_TOKEN', 'Invalid token');
  }
};
