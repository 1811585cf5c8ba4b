import { describe, expect, it } from 'vitest';
import { createRouteMatcher, toRoutePath } from '../../functions/http/route-matcher';
import type { RouteDef } from '../../functions/routes';

const routes: RouteDef[] = [
  { method: 'GET', path: '/users/list', area: 'system', handler: 'a', auth: 'user' },
  { method: 'GET', path: '/users/{id}', area: 'system', handler: 'b', auth: 'user' },
  { method: 'PUT', path: '/users/{id}', area: 'system', handler: 'c', auth: 'user' },
  { method: 'GET', path: '/users', area: 'system', handler: 'd', auth: 'user' },
];
const match = createRouteMatcher(routes);

describe('route matching', () => {
  it('prefers a static segment over a parameter', () => {
    const m = match('GET', '/api/users/list');
    expect(m.kind === 'route' && m.route.handler).toBe('a');
  });

  it('extracts and decodes path parameters', () => {
    const m = match('GET', '/api/users/a%20b');
    expect(m).toMatchObject({ kind: 'route', pathParameters: { id: 'a b' } });
  });

  it('answers a malformed %-escape in a parameter as not found, never by throwing', () => {
    expect(match('GET', '/api/users/%E0%A4%A').kind).toBe('not-found');
    expect(match('GET', '/api/users/100%').kind).toBe('not-found');
  });

  it('treats a trailing slash like none (the spec calls /users/)', () => {
    const m = match('GET', '/api/users/');
    expect(m.kind === 'route' && m.route.handler).toBe('d');
  });

  it('answers method-not-allowed with the methods the path has', () => {
    const m = match('DELETE', '/api/users/7');
    expect(m.kind).toBe('method-not-allowed');
    expect(m.kind === 'method-not-allowed' && m.allowed.sort()).toEqual(['GET', 'PUT']);
  });

  it('does not match outside the API base or unknown paths', () => {
    expect(match('GET', '/users').kind).toBe('not-found');
    expect(match('GET', '/api/nothing').kind).toBe('not-found');
    expect(toRoutePath('/apix/users')).toBeNull();
  });
});
