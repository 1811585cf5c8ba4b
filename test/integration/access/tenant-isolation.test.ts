import { beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, matchRoute } from '../../../functions/http/route-matcher';
import { ROUTES, routeKey } from '../../../functions/routes';
import { api, freshCompany, type TestCompany } from '../../helpers/fixtures';
import { ACCESS } from './route-access';

/** Every route that names a record by id, called by another company's admin, answers like a missing id. */
const withIds = ROUTES.filter((r) => r.path.includes('{') && !ACCESS[routeKey(r)]?.notTenantData);
const withParams = ROUTES.filter((r) => r.path.includes('{'));

let owner: TestCompany;
let intruder: TestCompany;
beforeAll(async () => {
  [owner, intruder] = await Promise.all([freshCompany(), freshCompany()]);
});

describe('tenant isolation', () => {
  it('every route with a path parameter makes a record of another company, or says why it names none', () => {
    const lacking = withParams
      .map(routeKey)
      .filter((k) => !ACCESS[k]?.notTenantData && (!ACCESS[k]?.foreign || !ACCESS[k]?.missing));
    expect(lacking).toEqual([]);
  });

  it.each(withIds.map((r) => [routeKey(r), r] as const))(
    '%s with another company’s id answers 404, exactly like an id that never existed',
    async (key, route) => {
      const row = ACCESS[key]!;
      const foreign = await row.foreign!(owner);
      const missing = row.missing!();
      const call = api(intruder.adminToken);
      const send = (r: typeof foreign) =>
        route.method === 'GET'
          ? call.get(r.path, r.query)
          : route.method === 'DELETE'
            ? call.delete(r.path)
            : route.method === 'PUT'
              ? call.put(r.path, r.body)
              : call.post(r.path, r.body);
      const [a, b] = await Promise.all([send(foreign), send(missing)]);
      expect(a.status).toBe(404);
      expect(a.body).toEqual(b.body);
      // Nothing happened to the owner's record: where it can be read, the owner still reads it.
      if (matchRoute('GET', `${API_BASE}${foreign.path}`).kind === 'route') {
        expect((await api(owner.adminToken).get(foreign.path)).status).toBeLessThan(400);
      }
    },
  );
});
