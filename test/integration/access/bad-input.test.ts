import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { areaEntry } from '../../../functions/http/areas';
import type { AreaHandlers } from '../../../functions/http/stack';
import { AREAS, ROUTES, routeKey, type RouteDef } from '../../../functions/routes';
import { api } from '../../helpers/fixtures';
import { makeCallers, type Caller } from './route-access';

/**
 * Bad input on every authenticated route (issue 5 item 10, and every issue's routes since): a malformed
 * body is a 400 naming the body before any handler runs, so nothing is written; a path parameter that is
 * not what the route names is a 400 or a 404 — never a 5xx.
 */
let callers: Caller[];
beforeAll(async () => {
  ({ callers } = await makeCallers());
});
const handlers = new Map<string, AreaHandlers>();
for (const area of AREAS) {
  const mod = (await import(pathToFileURL(resolve(areaEntry(area))).href)) as { handlers: AreaHandlers };
  handlers.set(area, mod.handlers);
}
const bodyTypeOf = (r: RouteDef) => handlers.get(r.area)![r.handler]!.bodyType ?? 'json';

const signedInRoutes = ROUTES.filter((r) => r.auth !== 'public');
const callerFor = (r: RouteDef) => callers.find((c) => c.role === (r.auth === 'super' ? 'super' : 'admin'))!;
const send = (r: RouteDef, path: string, body?: unknown) => {
  const call = api(callerFor(r).token);
  switch (r.method) {
    case 'GET':
      return call.get(path);
    case 'DELETE':
      return call.delete(path);
    case 'PUT':
      return call.put(path, body);
    default:
      return call.post(path, body);
  }
};

describe('bad input', () => {
  // Raw bodies (webhooks) are bytes by definition: nothing is malformed about them.
  const withBody = signedInRoutes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE' && bodyTypeOf(r) !== 'raw');
  it.each(withBody.map((r) => [routeKey(r), r] as const))(
    '%s: a malformed body is a 400 naming the body',
    async (_k, r) => {
      const bodyType = handlers.get(r.area)![r.handler]!.bodyType ?? 'json';
      if (bodyType === 'raw') return;
      const path = r.path.replace(/\{[^}]+\}/g, '1');
      const res = await send(r, path, '{"não é json');
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe(bodyType === 'json' ? 'ERR_MALFORMED_JSON' : 'ERR_UNSUPPORTED_MEDIA_TYPE');
      expect(res.body.fields?.[0]?.field).toMatch(/^(body|headers\.content-type)$/);
    },
  );

  const withParams = signedInRoutes.filter((r) => r.path.includes('{'));
  it.each(withParams.map((r) => [routeKey(r), r] as const))(
    '%s: a nonsense path parameter is a 400 or 404',
    async (_k, r) => {
      const path = r.path.replace(/\{[^}]+\}/g, 'n%C3%A3o-existe');
      const res = await send(r, path, {});
      expect([400, 404], `${routeKey(r)}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
    },
  );
});
