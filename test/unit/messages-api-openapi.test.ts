import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXTERNAL_NUMBER } from '../../functions/core/external-api/external-message-service';
import { MAX_MULTIPART_BYTES } from '../../functions/core/messages/message-service';
import { API_BASE } from '../../functions/http/route-matcher';
import { ROUTES } from '../../functions/routes';
import { EXTERNAL_API } from '../../infra/stacks/external-api';
import { createUsagePlanThrottle } from '../../infra/local/usage-plan';

/**
 * docs/api/messages-api.openapi.json is what integrators read (decisions D123): it must name exactly the
 * route table's external routes, with the number rule, size limit and throttle the code applies.
 */
interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, { properties: Record<string, { pattern?: string }> }> };
}
const doc = JSON.parse(readFileSync('docs/api/messages-api.openapi.json', 'utf8')) as OpenApi;

describe('the external messages API OpenAPI file', () => {
  it('documents exactly the external routes of the route table, and the REST API serves the same ones', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const external = ROUTES.filter((r) => r.external).map((r) => `${r.method} ${API_BASE}${r.path}`);
    expect(documented.sort()).toEqual(external.sort());
    expect(EXTERNAL_API.routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual(external.sort());
    expect(doc.openapi).toMatch(/^3\./);
  });

  it('states the number rule the service checks', () => {
    for (const schema of ['TextMessage', 'MediaMessage']) {
      expect(doc.components.schemas[schema]!.properties.number!.pattern).toBe(EXTERNAL_NUMBER.source);
    }
  });

  it('states the size limit and the usage plan throttle the gateway applies', () => {
    const responses = doc.paths['/api/messages/send']!.post!.responses as Record<string, { description: string }>;
    expect(responses['413']!.description).toContain(`${MAX_MULTIPART_BYTES / 1024 / 1024} MB`);
    const { rateLimit, burstLimit } = EXTERNAL_API.usagePlans[0]!.throttle;
    expect(responses['429']!.description).toContain(`${rateLimit} requests/s, bursts of ${burstLimit}`);
    for (const code of ['200', '400', '401', '429']) expect(responses[code], code).toBeDefined();
  });
});

describe('the local usage plan throttle', () => {
  it('lets a burst through, then refills at the plan rate, per caller', () => {
    let now = 0;
    const allows = createUsagePlanThrottle({ rateLimit: 10, burstLimit: 20 }, () => now);
    const burst = Array.from({ length: 25 }, () => allows('key-a'));
    expect(burst.filter(Boolean)).toHaveLength(20);
    expect(allows('key-b')).toBe(true);
    now += 100; // one token back after 0.1 s at 10/s
    expect(allows('key-a')).toBe(true);
    expect(allows('key-a')).toBe(false);
  });
});
