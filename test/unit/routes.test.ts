import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { areaEntry } from '../../functions/http/areas';
import { AREAS, ROUTES, routeKey } from '../../functions/routes';

describe('the route table', () => {
  it('every area has a Lambda entry file', () => {
    for (const area of AREAS) expect(existsSync(areaEntry(area)), areaEntry(area)).toBe(true);
  });

  it('every route names a handler its area exports', async () => {
    for (const area of AREAS) {
      const mod = (await import(/* @vite-ignore */ pathToFileURL(resolve(areaEntry(area))).href)) as {
        handlers: Record<string, unknown>;
        handler: unknown;
      };
      expect(typeof mod.handler, `${area} exports handler`).toBe('function');
      for (const route of ROUTES.filter((r) => r.area === area)) {
        expect(mod.handlers[route.handler], `${routeKey(route)} -> ${area}.${route.handler}`).toBeDefined();
      }
    }
    // It imports every area's Lambda entry (and their dependencies) for the first time: seconds on a busy
    // machine, more as areas are added.
  }, 60_000);

  it('has no duplicate route keys and uses API Gateway path syntax without trailing slashes', () => {
    const keys = ROUTES.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of ROUTES) {
      expect(r.path).toMatch(/^\/[A-Za-z0-9\-_{}/.]*$/);
      expect(r.path === '/' || !r.path.endsWith('/')).toBe(true);
    }
  });
});
