import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { verifyAccessToken, type VerifiedAccessToken } from '../core/access-token';
import type { AuthContext } from '../shared/auth-context';
import { resolveAuthContext } from '../core/auth/request-context';
import { Unauthorized } from '../shared/errors';
import type { RouteDef } from '../routes';

/**
 * The auth hook of the handler stack, in two steps around input parsing:
 * 1. `verifiedToken`: the bearer token's signature and expiry (no I/O). No token on a protected route is
 *    401; an expired or forged one is 403 so the client refreshes once (D9). Public routes ignore tokens.
 * 2. `resolveCaller`: one read of the user and company — the token's session must be the user's current
 *    one, the subscription must not have expired (unless the route allows it), and the per-user and plan
 *    flags are filled in (functions/core/auth/request-context.ts).
 * Parsing runs between them, so a malformed request costs no read (D18).
 */
export const bearerToken = (event: Pick<APIGatewayProxyEventV2, 'headers'>): string | null => {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m?.[1] ?? null;
};

export const verifiedToken = async (
  event: APIGatewayProxyEventV2,
  route: Pick<RouteDef, 'auth'>,
): Promise<VerifiedAccessToken | null> => {
  if (route.auth === 'public') return null;
  const token = bearerToken(event);
  if (!token) throw new Unauthorized('ERR_SESSION_EXPIRED', 'Authentication required');
  return verifyAccessToken(token);
};

export const resolveCaller = async (
  claims: VerifiedAccessToken | null,
  route: Pick<RouteDef, 'allowExpired'>,
): Promise<AuthContext | null> => (claims ? resolveAuthContext(claims, route) : null);
