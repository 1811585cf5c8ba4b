/**
 * The refresh-token cookie (docs/decisions/D18-sessions-request-context-login-limits.md): `jrt`, httpOnly (scripts
 * never see it), SameSite=Strict (never sent by another site), Path=/api/auth (sent only to the auth calls), Secure in
 * AWS. The local cloud serves plain http, where some browsers (Safari) drop Secure cookies, so local and test stages
 * omit it.
 */
export const REFRESH_COOKIE = 'jrt';
export const REFRESH_COOKIE_PATH = '/api/auth';

export interface CookieOptions {
  secure: boolean;
}

const attributes = (maxAgeSeconds: number, { secure }: CookieOptions): string =>
  [`Path=${REFRESH_COOKIE_PATH}`, 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`]
    .concat(secure ? ['Secure'] : [])
    .join('; ');

export const refreshCookie = (token: string, maxAgeSeconds: number, options: CookieOptions): string =>
  `${REFRESH_COOKIE}=${token}; ${attributes(maxAgeSeconds, options)}`;

export const clearedRefreshCookie = (options: CookieOptions): string => `${REFRESH_COOKIE}=; ${attributes(0, options)}`;

/**
 * A cookie's value from an API Gateway 2.0 event (`cookies`: one `name=value` per entry) or, for payload
 * 1.0 events and other callers, the `cookie` header. The last occurrence wins, as with a browser's jar.
 */
export const readCookie = (
  source: { cookies?: string[] | undefined; headers?: Record<string, string | undefined> | undefined },
  name: string,
): string | null => {
  const pairs = source.cookies ?? (source.headers?.cookie ?? '').split(';');
  let value: string | null = null;
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    if (pair.slice(0, eq).trim() === name) value = pair.slice(eq + 1).trim();
  }
  return value || null;
};
