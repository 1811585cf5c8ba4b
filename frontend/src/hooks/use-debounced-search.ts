import { useEffect, useState } from 'react';

/** Lists search from 3 characters (core spec §9); shorter terms mean no filter. */
export const MIN_SEARCH_LENGTH = 3;
/** Search debounce (core spec §9). */
export const SEARCH_DEBOUNCE_MS = 500;

/**
 * The search a list runs for what is typed: the trimmed text once it has MIN_SEARCH_LENGTH characters,
 * else none (''), applied SEARCH_DEBOUNCE_MS after the last keystroke. Typing 'a', 'an' changes nothing;
 * erasing a search back under 3 characters brings the whole list back (docs/decisions.md D30).
 */
export function useDebouncedSearch(text: string): string {
  const [search, setSearch] = useState('');
  useEffect(() => {
    const term = text.trim();
    const next = [...term].length >= MIN_SEARCH_LENGTH ? term : '';
    const timer = setTimeout(() => setSearch(next), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return search;
}
