import { ROUTES, type Area, type HttpMethod } from '../../functions/routes';
import { API_BASE } from '../../functions/http/route-matcher';

/**
 * The external messages API for integrators (API Gateway REST API with usage plans and API keys,
 * DESIGN §2), described as data: the api stack builds resources, methods, plans and keys from it.
 *
 * Integrators call `https://<rest api>/<stage>/api/messages/send` with their `x-api-key` and the
 * connection's bearer token (spec: administration §External messages API; exact path not shown, so the
 * path the product's integrators already use). The routes are the route table's `external` entries
 * (functions/routes.ts), served by their area's Lambda; REST APIs send payload 1.0 events, which the area
 * handler stack turns into 2.0 (`toHttpEventV2`). The HTTP API does not route them (decisions D123), and
 * the local gateway applies the first usage plan's throttle to them (infra/local/http-api.ts).
 */
export interface ExternalApiRoute {
  method: HttpMethod;
  /** Path on the REST API, API Gateway syntax (`{id}`). */
  path: string;
  /** The area whose Lambda serves the route (the same function as on the HTTP API). */
  area: Area;
}

export type QuotaPeriod = 'DAY' | 'WEEK' | 'MONTH';

export interface UsagePlanDefinition {
  name: string;
  description: string;
  /** Requests per second (steady) and burst. */
  throttle: { rateLimit: number; burstLimit: number };
  quota: { limit: number; period: QuotaPeriod };
}

export interface ApiKeyDefinition {
  /** Construct id and key name suffix. Not `Default` (CDK drops that id from logical ids). */
  name: string;
  usagePlan: string;
  description: string;
}

export interface ExternalApiDefinition {
  stageName: string;
  routes: readonly ExternalApiRoute[];
  usagePlans: readonly UsagePlanDefinition[];
  /**
   * Keys created with the stack. Integrators' own keys are issued at run time (a key per company that
   * enables useExternalApi) and attached to one of these plans; this one lets the operator test.
   */
  apiKeys: readonly ApiKeyDefinition[];
  /** Media sends are multipart. */
  binaryMediaTypes: readonly string[];
}

export const EXTERNAL_API: ExternalApiDefinition = {
  stageName: 'v1',
  routes: ROUTES.filter((r) => r.external).map((r) => ({
    method: r.method,
    path: `${API_BASE}${r.path}`,
    area: r.area,
  })),
  usagePlans: [
    {
      name: 'standard',
      description: 'Default plan for companies whose plan has useExternalApi',
      throttle: { rateLimit: 10, burstLimit: 20 },
      quota: { limit: 50_000, period: 'DAY' },
    },
  ],
  apiKeys: [{ name: 'operator', usagePlan: 'standard', description: 'Operator key for testing the external API' }],
  binaryMediaTypes: ['multipart/form-data'],
};
