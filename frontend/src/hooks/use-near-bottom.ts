import { useCallback, useEffect, useEffectEvent, useState } from 'react';

/** Infinite scroll fetches the next page within this distance of the bottom (core spec §9). */
export const NEAR_BOTTOM_PX = 100;

/**
 * Infinite scroll: put the returned ref on an empty element after the list; `onReach` runs when that element
 * comes within NEAR_BOTTOM_PX of the bottom of the viewport while `enabled`. The observer is created again
 * whenever `enabled` turns on, and a new observer reports the current state at once, so a page that still
 * does not fill the screen after a load asks for the next one without waiting for a scroll.
 * Without IntersectionObserver (old browsers, jsdom) nothing loads by itself.
 */
export function useNearBottom(enabled: boolean, onReach: () => void): (element: HTMLElement | null) => void {
  const [target, setTarget] = useState<HTMLElement | null>(null);
  const reach = useEffectEvent(onReach);

  useEffect(() => {
    if (!enabled || !target || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) reach();
      },
      { rootMargin: `0px 0px ${NEAR_BOTTOM_PX}px 0px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [enabled, target]);

  return useCallback((element: HTMLElement | null) => setTarget(element), []);
}
