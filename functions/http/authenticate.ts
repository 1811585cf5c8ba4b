import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { verifyAccessToken } from '../core/access-token';
import type { AuthContext } from '../core/auth-context';

/**
 * The auth hook of the handler stack: turns the request's bearer token into an AuthContext.
 * On a public route a missing or bad token yields null (the caller is anonymous); on any other route
 * a bad token is a 401. Per-user and plan flags are resolved by the accounts service (issue 3).
 */
export const bearerToken = (event: Pick<APIGatewayProxyEventV2, 'headers'>): string | null => {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m?.[1] ?? null;
};

export const authenticateRequest = async (
  event: APIGatewayProxyEventV2,
  isPublicRoute: boolean,
): Promise<AuthContext | null> => {
  const token = bearerToken(event);
  if (!token) return null;
  try {
    const claims = await verifyAccessToken(token);
    return { ...claims, userFlags: {}, planFlags: {} };
  } catch (err) {
    if (isPublicRoute) return null;
    throw err;
  }
};
