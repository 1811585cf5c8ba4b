import type { Area } from '../routes';

/**
 * Where each area's Lambda entry lives, for the CDK API stack and the bench bundle-size runner.
 * One file per area: functions/http/<area>/index.ts exporting `handler` and `handlers`.
 */
export const areaEntry = (area: Area): string => `functions/http/${area}/index.ts`;

/** The area whose Lambda also answers API Gateway's `$default` route (unknown paths -> 404 / 405). */
export const DEFAULT_ROUTE_AREA: Area = 'system';
