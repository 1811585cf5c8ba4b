import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApi, createTransport } from '@/api/transport';
import { fakeApi, json } from '@/testing/fake-api';
import { renderHook } from '@testing-library/react';
import { applyBranding, DEFAULT_BRANDING, loadBranding, useAppLogo } from './branding';

const theming = vi.hoisted(() => ({ applyTheme: vi.fn() }));
vi.mock('@cloudscape-design/components/theming', () => theming);

describe('whitelabel branding', () => {
  afterEach(() => {
    theming.applyTheme.mockReset();
    document.title = 'ZapDesk';
  });

  it('reads the public settings and applies the name, the favicon and the primary colours', async () => {
    const server = fakeApi({
      'GET /public-settings/appName': () => json(200, { key: 'appName', value: 'Atende Já' }),
      'GET /public-settings/primaryColorLight': () => json(200, { key: 'primaryColorLight', value: '#112233' }),
      'GET /public-settings/primaryColorDark': () => json(200, { key: 'primaryColorDark', value: '#445566' }),
      'GET /public-settings/appLogoFavicon': () => json(200, { key: 'appLogoFavicon', value: 'c/1/logos/favicon.png' }),
    });
    configureApi(createTransport({ adapter: server.adapter }));
    await loadBranding();
    expect(document.title).toBe('Atende Já');
    expect(document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.getAttribute('href')).toBe(
      '/media/c/1/logos/favicon.png',
    );
    expect(document.documentElement.style.getPropertyValue('--zapdesk-primary-light')).toBe('#112233');
    const tokens = (theming.applyTheme.mock.calls[0]?.[0] as { theme: { tokens: Record<string, unknown> } }).theme
      .tokens;
    expect(tokens.colorBackgroundButtonPrimaryDefault).toEqual({ light: '#112233', dark: '#445566' });
  });

  it('keeps the defaults when the settings cannot be read, without loading the theming module', async () => {
    const server = fakeApi({});
    configureApi(createTransport({ adapter: server.adapter }));
    await loadBranding();
    expect(document.title).toBe(DEFAULT_BRANDING.appName);
    expect(theming.applyTheme).not.toHaveBeenCalled();
  });

  it('falls back to the default colour when a stored one is not a colour', async () => {
    await applyBranding({ ...DEFAULT_BRANDING, primaryColorLight: 'azul', primaryColorDark: '#000000' });
    expect(document.documentElement.style.getPropertyValue('--zapdesk-primary-light')).toBe('#0000FF');
    expect(theming.applyTheme).toHaveBeenCalledTimes(1);
  });

  it('serves the logos from the public settings, each standing in for the other when only one is set', async () => {
    const server = fakeApi({
      'GET /public-settings/appLogoLight': () =>
        json(200, { key: 'appLogoLight', value: 'platform/branding/light/a1.png' }),
    });
    configureApi(createTransport({ adapter: server.adapter }));
    const light = renderHook(() => useAppLogo('light'));
    const dark = renderHook(() => useAppLogo('dark'));
    expect(light.result.current).toBeNull();
    await loadBranding();
    light.rerender();
    dark.rerender();
    expect(light.result.current).toBe('/media/platform/branding/light/a1.png');
    expect(dark.result.current).toBe('/media/platform/branding/light/a1.png');
    await applyBranding({
      ...DEFAULT_BRANDING,
      appLogoLight: 'platform/branding/light/a1.png',
      appLogoDark: 'platform/branding/dark/b2.png',
    });
    dark.rerender();
    expect(dark.result.current).toBe('/media/platform/branding/dark/b2.png');
    await applyBranding(DEFAULT_BRANDING);
  });
});
