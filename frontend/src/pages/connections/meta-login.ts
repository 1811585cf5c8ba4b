import { ApiError } from '@/api/api-error';

/**
 * The Facebook login without Facebook's JS SDK (our CSP is `script-src 'self'`): Facebook's OAuth dialog
 * opens in a popup with `response_type=token` and sends the browser back to our static
 * `/meta-login.html` with the user token in the fragment (or an error in the query). The page polls the
 * popup until it is back on our origin, then reads the address (decisions D81).
 */

/** What POST /facebook needs to list the pages (and their messaging) of the user. */
export const PAGE_SCOPES = ['pages_show_list', 'pages_messaging', 'pages_manage_metadata'] as const;
/** Added when the linked Instagram business accounts become connections too. */
export const INSTAGRAM_SCOPES = ['instagram_basic', 'instagram_manage_messages'] as const;

/** The static page Facebook sends the popup back to (frontend/public/meta-login.html). */
export const META_LOGIN_PATH = '/meta-login.html';

export const metaLoginRedirectUri = (origin: string): string => `${origin}${META_LOGIN_PATH}`;

export interface MetaLoginRequest {
  appId: string;
  /** Facebook's OAuth dialog (RuntimeConfig.metaLoginUrl). */
  loginUrl: string;
  redirectUri: string;
  /** A fresh random value per attempt: the redirect must carry it back. */
  state: string;
  addInstagram: boolean;
}

/** The address of Facebook's login dialog for one attempt. */
export const metaLoginUrl = ({ appId, loginUrl, redirectUri, state, addInstagram }: MetaLoginRequest): string => {
  const url = new URL(loginUrl);
  const scopes = addInstagram ? [...PAGE_SCOPES, ...INSTAGRAM_SCOPES] : [...PAGE_SCOPES];
  url.searchParams.set('client_id', appId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', state);
  url.searchParams.set('response_type', 'token');
  url.searchParams.set('scope', scopes.join(','));
  return url.href;
};

/** True once the popup's address is our redirect page (any query or fragment). */
export const isLoginRedirect = (href: string, redirectUri: string): boolean => {
  try {
    const url = new URL(href);
    return `${url.origin}${url.pathname}` === redirectUri;
  } catch {
    return false;
  }
};

/**
 * - `denied`: Facebook answered an error (the user cancelled or refused the permissions);
 * - `state`: the redirect does not carry this attempt's state (not our login: ignored, never posted);
 * - `missing`: no access token where one should be.
 */
export type LoginRedirect = { token: string } | { error: 'denied' | 'state' | 'missing' };

/**
 * Reads the redirect: success is `#access_token=…&state=…`, a cancel `?error=access_denied&
 * error_reason=user_denied&state=…`. The state is checked first: nothing without ours is trusted.
 */
export const readLoginRedirect = (href: string, expectedState: string): LoginRedirect => {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return { error: 'missing' };
  }
  const fragment = new URLSearchParams(url.hash.replace(/^#/, ''));
  const query = url.searchParams;
  const param = (name: string) => fragment.get(name) ?? query.get(name);
  const state = param('state');
  if (!expectedState || state !== expectedState) return { error: 'state' };
  if (param('error')) return { error: 'denied' };
  const token = fragment.get('access_token');
  return token ? { token } : { error: 'missing' };
};

/**
 * ERR_META_GRAPH's text names Meta's own words (`{{graphMessage}}` from the answer's details); an answer
 * that carries them only in `message` gets them copied there, so the text never shows an empty reason.
 */
export const withGraphMessage = (err: unknown): unknown => {
  if (!(err instanceof ApiError) || err.code !== 'ERR_META_GRAPH') return err;
  if (typeof err.details?.graphMessage === 'string' && err.details.graphMessage !== '') return err;
  return new ApiError(err.status, err.code, err.message, {
    fields: err.fields,
    details: { ...err.details, graphMessage: err.message },
  });
};
