/**
 * @deprecated Moved to `@/hooks/use-request` (generic hooks live in hooks/); this re-export keeps the pages
 * outside the list-page change importing it until they are pointed there.
 */
export { useRequest, type RequestState } from '@/hooks/use-request';
