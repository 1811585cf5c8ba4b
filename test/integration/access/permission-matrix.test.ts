import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, routeKey } from '../../../functions/routes';
import { api } from '../../helpers/fixtures';
import { ACCESS, makeCallers, ROLES, type Caller } from './route-access';

let callers: Caller[];
beforeAll(async () => {
  ({ callers } = await makeCallers());
});

describe('the permission matrix', () => {
  it('has a row for every route of the route table, and no row for a route that does not exist', () => {
    const keys = ROUTES.map(routeKey).sort();
    expect(Object.keys(ACCESS).sort()).toEqual(keys);
  });

  describe.each(ROUTES.map((r) => [routeKey(r), r] as const))('%s', (key, route) => {
    it.each(ROLES.map((role) => [role] as const))('as %s', async (role) => {
      const row = ACCESS[key]!;
      const caller = callers.find((c) => c.role === role)!;
      const req = await row.request(caller);
      const call = api(caller.token, {
        ...(req.cookie ? { cookie: req.cookie } : {}),
        ...(req.headers ? { headers: req.headers } : {}),
      });
      const res =
        route.method === 'GET'
          ? await call.get(req.path, req.query)
          : route.method === 'DELETE'
            ? await call.delete(req.path)
            : route.method === 'PUT'
              ? await call.put(req.path, req.body)
              : await call.post(req.path, req.body);
      if (row.allow.includes(role)) {
        expect(res.status, `${key} as ${role}: ${JSON.stringify(res.body)}`).toBeLessThan(400);
      } else if (role === 'anonymous') {
        expect(res.status).toBe(401);
      } else {
        expect(res.status).toBe(403);
        expect(res.body.error).toBe('ERR_NO_PERMISSION');
      }
    });
  });
});
