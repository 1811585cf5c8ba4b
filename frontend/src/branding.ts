import type { Theme } from '@cloudscape-design/components/theming';
import { useSyncExternalStore } from 'react';
import { api } from './api/transport';
import { PRODUCT_NAME } from './product';

/**
 * Whitelabel branding without a rebuild (core §3 Global settings, §9; administration §7 "Public settings";
 * decisions D158, D171): at start the app reads the public settings appName, primaryColorLight,
 * primaryColorDark, the logos (appLogoLight, appLogoDark) and appLogoFavicon, then sets the document title, the favicon and Cloudscape's primary colour. The theming
 * module is loaded lazily (after the first screen), so the first screen's budget is unchanged; until it
 * comes, and if anything fails, the built-in look stays.
 */
export interface Branding {
  appName: string;
  primaryColorLight: string;
  primaryColorDark: string;
  appLogoLight: string;
  appLogoDark: string;
  appLogoFavicon: string;
}

/** The spec's defaults (core §9): light #0000FF, dark #39ACE7, the product's name. */
export const DEFAULT_BRANDING: Branding = {
  appName: PRODUCT_NAME,
  primaryColorLight: '#0000FF',
  primaryColorDark: '#39ACE7',
  appLogoLight: '',
  appLogoDark: '',
  appLogoFavicon: '',
};

let current: Branding = DEFAULT_BRANDING;
const listeners = new Set<() => void>();

/** The app's name as the platform owner set it (the product's own before the settings load). */
export const useAppName = (): string =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current.appName,
  );

/** Re-renders on every branding change and answers `pick(current)` (a string: a stable snapshot). */
const useBrandingValue = (pick: (b: Branding) => string): string =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pick(current),
  );

/**
 * The logo's address for a light or a dark background (decisions D171): the one set for it, else the other
 * one, else null (the name alone is shown).
 */
export const useAppLogo = (background: 'light' | 'dark'): string | null => {
  const light = useBrandingValue((b) => b.appLogoLight);
  const dark = useBrandingValue((b) => b.appLogoDark);
  const logo = background === 'dark' ? dark || light : light || dark;
  return logo ? mediaAddress(logo) : null;
};

const HEX = /^#[0-9a-fA-F]{6}$/;

/** A stored logo's address: a full URL or path as it is, a media key under /media. */
const mediaAddress = (value: string): string =>
  /^(https?:)?\//.test(value) ? value : `/media/${value.split('/').map(encodeURIComponent).join('/')}`;

/** Applies branding to the page: title, favicon, primary colour (lazily themed). */
export const applyBranding = async (
  branding: Branding,
  loadTheming: () => Promise<{ applyTheme: (params: { theme: Theme }) => unknown }> = () =>
    import('@cloudscape-design/components/theming'),
): Promise<void> => {
  current = branding;
  for (const l of listeners) l();
  if (branding.appName) document.title = branding.appName;
  if (branding.appLogoFavicon) {
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    link.removeAttribute('type');
    link.href = mediaAddress(branding.appLogoFavicon);
  }
  const light = HEX.test(branding.primaryColorLight) ? branding.primaryColorLight : DEFAULT_BRANDING.primaryColorLight;
  const dark = HEX.test(branding.primaryColorDark) ? branding.primaryColorDark : DEFAULT_BRANDING.primaryColorDark;
  document.documentElement.style.setProperty('--zapdesk-primary-light', light);
  document.documentElement.style.setProperty('--zapdesk-primary-dark', dark);
  if (light === DEFAULT_BRANDING.primaryColorLight && dark === DEFAULT_BRANDING.primaryColorDark) return;
  const { applyTheme } = await loadTheming();
  const primary = { light, dark };
  applyTheme({
    theme: {
      tokens: {
        colorBackgroundButtonPrimaryDefault: primary,
        colorBorderButtonNormalDefault: primary,
        colorTextButtonNormalDefault: primary,
        colorTextLinkDefault: primary,
        colorTextAccent: primary,
        colorBackgroundControlChecked: primary,
        colorBorderItemFocused: primary,
      },
    },
  });
};

const KEYS = [
  'appName',
  'primaryColorLight',
  'primaryColorDark',
  'appLogoLight',
  'appLogoDark',
  'appLogoFavicon',
] as const;

/** Reads the public settings (one call per key, in parallel) and applies them; failures keep the default. */
export const loadBranding = async (): Promise<void> => {
  const values = await Promise.all(
    KEYS.map((key) =>
      api()
        .get<{ value?: string }>(`/public-settings/${key}`)
        .then((s) => (typeof s.value === 'string' ? s.value : ''))
        .catch(() => ''),
    ),
  );
  const read = Object.fromEntries(KEYS.map((k, i) => [k, values[i] || DEFAULT_BRANDING[k]])) as unknown as Branding;
  await applyBranding(read);
};
