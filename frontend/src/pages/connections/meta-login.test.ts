import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/api-error';
import { isLoginRedirect, metaLoginRedirectUri, metaLoginUrl, readLoginRedirect, withGraphMessage } from './meta-login';

const REDIRECT = metaLoginRedirectUri('https://desk.example.com');
const STATE = '4f1c7a3e-2b8d-4c1e-9f00-123456789abc';

const loginUrl = (addInstagram: boolean) =>
  new URL(
    metaLoginUrl({
      appId: '1234567890',
      loginUrl: 'https://www.facebook.com/v21.0/dialog/oauth',
      redirectUri: REDIRECT,
      state: STATE,
      addInstagram,
    }),
  );

describe('the Facebook login address', () => {
  it('asks for a token, for exactly the page scopes, and comes back to /meta-login.html with our state', () => {
    const url = loginUrl(false);
    expect(`${url.origin}${url.pathname}`).toBe('https://www.facebook.com/v21.0/dialog/oauth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: '1234567890',
      redirect_uri: 'https://desk.example.com/meta-login.html',
      state: STATE,
      response_type: 'token',
      scope: 'pages_show_list,pages_messaging,pages_manage_metadata',
    });
  });

  it('adds exactly the Instagram messaging scopes when Instagram accounts are wanted', () => {
    expect(loginUrl(true).searchParams.get('scope')?.split(',')).toEqual([
      'pages_show_list',
      'pages_messaging',
      'pages_manage_metadata',
      'instagram_basic',
      'instagram_manage_messages',
    ]);
  });
});

describe('reading the redirect', () => {
  it('gives the token of a successful login', () => {
    const href = `${REDIRECT}#access_token=EAAGm0PX4ZCpsBA&data_access_expiration_time=1760000000&expires_in=5183&state=${STATE}`;
    expect(isLoginRedirect(href, REDIRECT)).toBe(true);
    expect(readLoginRedirect(href, STATE)).toEqual({ token: 'EAAGm0PX4ZCpsBA' });
  });

  it('says denied when the user cancelled', () => {
    const href = `${REDIRECT}?error=access_denied&error_code=200&error_description=Permissions+error&error_reason=user_denied&state=${STATE}#_=_`;
    expect(readLoginRedirect(href, STATE)).toEqual({ error: 'denied' });
  });

  it('refuses a redirect with another state, or none, even when it carries a token', () => {
    expect(readLoginRedirect(`${REDIRECT}#access_token=EAAGm0PX4ZCpsBA&state=someone-else`, STATE)).toEqual({
      error: 'state',
    });
    expect(readLoginRedirect(`${REDIRECT}#access_token=EAAGm0PX4ZCpsBA`, STATE)).toEqual({ error: 'state' });
    expect(readLoginRedirect(`${REDIRECT}#access_token=EAAGm0PX4ZCpsBA&state=`, '')).toEqual({ error: 'state' });
  });

  it('says missing when our state comes back without a token', () => {
    expect(readLoginRedirect(`${REDIRECT}#state=${STATE}`, STATE)).toEqual({ error: 'missing' });
    expect(readLoginRedirect(`${REDIRECT}?access_token=in-the-query&state=${STATE}`, STATE)).toEqual({
      error: 'missing',
    });
  });

  it('recognises only our redirect page as the end of the login', () => {
    expect(isLoginRedirect('about:blank', REDIRECT)).toBe(false);
    expect(isLoginRedirect('https://www.facebook.com/v21.0/dialog/oauth?client_id=1', REDIRECT)).toBe(false);
    expect(isLoginRedirect('https://desk.example.com/connections', REDIRECT)).toBe(false);
    expect(isLoginRedirect('https://desk.example.com/meta-login.html.evil', REDIRECT)).toBe(false);
  });
});

describe("Meta's refusal text", () => {
  it("takes Meta's message from `message` when the details lack it", () => {
    const bare = withGraphMessage(new ApiError(400, 'ERR_META_GRAPH', 'Invalid OAuth access token.')) as ApiError;
    expect(bare.details?.graphMessage).toBe('Invalid OAuth access token.');
    const full = new ApiError(400, 'ERR_META_GRAPH', 'x', { details: { graphMessage: 'Session expired' } });
    expect((withGraphMessage(full) as ApiError).details?.graphMessage).toBe('Session expired');
  });
});
