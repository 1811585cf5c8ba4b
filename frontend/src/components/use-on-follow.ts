/**
 * @deprecated Moved to `@/hooks/use-on-follow` (generic hooks live in hooks/); this re-export keeps the pages
 * outside the list-page change importing it until they are pointed there.
 */
export { useOnFollow, type FollowDetail } from '@/hooks/use-on-follow';
