import { applyMode, Mode } from '@cloudscape-design/global-styles';
import { useSyncExternalStore } from 'react';

/**
 * Light/dark theme (user.defaultTheme in the spec: light by default). The choice is kept in localStorage
 * so the first paint after a reload already has it. The app shell starts a browser without a choice on
 * the user's defaultTheme (adoptDefaultTheme); the top bar's toggle then changes and remembers it.
 */
export type ThemeMode = 'light' | 'dark';
export const THEME_STORAGE_KEY = 'preferredTheme';

const listeners = new Set<() => void>();

export const getTheme = (): ThemeMode => (localStorage.getItem(THEME_STORAGE_KEY) === 'dark' ? 'dark' : 'light');

const apply = (mode: ThemeMode) => applyMode(mode === 'dark' ? Mode.Dark : Mode.Light);

/** Applies the stored theme; main.tsx calls it before the first render. */
export const applyStoredTheme = (): ThemeMode => {
  const mode = getTheme();
  apply(mode);
  return mode;
};

export const setTheme = (mode: ThemeMode): void => {
  localStorage.setItem(THEME_STORAGE_KEY, mode);
  apply(mode);
  for (const l of [...listeners]) l();
};

export const toggleTheme = (): void => setTheme(getTheme() === 'dark' ? 'light' : 'dark');

/** Applies the user's default theme unless this browser already remembers a choice. */
export const adoptDefaultTheme = (mode: ThemeMode): void => {
  if (localStorage.getItem(THEME_STORAGE_KEY) === null) setTheme(mode === 'dark' ? 'dark' : 'light');
};

/** The current theme; re-renders when it changes (for the top bar's toggle). */
export const useTheme = (): ThemeMode =>
  useSyncExternalStore((onChange) => {
    listeners.add(onChange);
    return () => {
      listeners.delete(onChange);
    };
  }, getTheme);
