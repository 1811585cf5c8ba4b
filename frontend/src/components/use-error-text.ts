/**
 * @deprecated Moved to `@/hooks/use-error-text` (generic hooks live in hooks/); this re-export keeps the pages
 * outside the list-page change importing it until they are pointed there.
 */
export { useErrorText } from '@/hooks/use-error-text';
