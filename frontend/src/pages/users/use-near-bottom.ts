/**
 * @deprecated Moved to `@/hooks/use-near-bottom`; this re-export keeps the tickets list panel's import
 * working until it is pointed there.
 */
export { NEAR_BOTTOM_PX, useNearBottom } from '@/hooks/use-near-bottom';
