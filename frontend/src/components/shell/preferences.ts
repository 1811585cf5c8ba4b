import { useSyncExternalStore } from 'react';

/**
 * What the shell keeps in the browser besides the theme (theme.ts) and the language (i18n): the
 * notification volume, the local campaigns flag and the narrow-screen test.
 */

/** Core spec §9: volume 0 to 1 in steps of 0.1, stored locally as `volume`; the product's default is 1. */
export const VOLUME_STORAGE_KEY = 'volume';
export const DEFAULT_VOLUME = 1;

const volumeListeners = new Set<() => void>();

/** Rounds to the slider's 0.1 steps inside 0..1; anything unreadable is the default. */
const toVolume = (value: unknown): number => {
  const n = typeof value === 'number' ? value : Number.parseFloat(String(value));
  if (!Number.isFinite(n)) return DEFAULT_VOLUME;
  return Math.round(Math.min(1, Math.max(0, n)) * 10) / 10;
};

/** The stored volume (the ticket screens read it when they play a notification sound). */
export const getVolume = (): number => {
  const stored = localStorage.getItem(VOLUME_STORAGE_KEY);
  return stored === null ? DEFAULT_VOLUME : toVolume(stored);
};

export const setVolume = (value: number): void => {
  localStorage.setItem(VOLUME_STORAGE_KEY, String(toVolume(value)));
  for (const l of [...volumeListeners]) l();
};

export const useVolume = (): number =>
  useSyncExternalStore((onChange) => {
    volumeListeners.add(onChange);
    return () => {
      volumeListeners.delete(onChange);
    };
  }, getVolume);

/**
 * Administration spec §2: the campaign routes show only when a local flag named `cshow` exists in
 * localStorage (any value); the plan must also allow campaigns. Support staff set it in the browser console
 * (`localStorage.setItem('cshow', '1')`) for companies that use campaigns.
 */
export const CAMPAIGNS_FLAG_KEY = 'cshow';
export const campaignsFlagSet = (): boolean => localStorage.getItem(CAMPAIGNS_FLAG_KEY) !== null;

/** Core spec §9: screens under 600 px use a temporary (overlay) menu. */
export const NARROW_SCREEN_QUERY = '(max-width: 599px)';

const narrowNow = () => window.matchMedia(NARROW_SCREEN_QUERY).matches;

export const useIsNarrowScreen = (): boolean =>
  useSyncExternalStore((onChange) => {
    const query = window.matchMedia(NARROW_SCREEN_QUERY);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, narrowNow);
