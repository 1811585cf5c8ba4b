import { applyMode, Mode } from '@cloudscape-design/global-styles';
import { useSyncExternalStore } from 'react';

/**
 * Light/dark theme (user.defaultTheme in the spec: light by default). The choice is kept in localStorage
 * so the first paint after a reload already has it; the login flow calls setTheme(user.defaultTheme).
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

/** The current theme; re-renders when it changes (for the top bar's toggle). */
export const useTheme = (): ThemeMode =>
  useSyncExternalStore((onChange) => {
    listeners.add(onChange);
    return () => {
      listeners.delete(onChange);
    };
  }, getTheme);
