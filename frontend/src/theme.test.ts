import { describe, expect, it } from 'vitest';
import { adoptDefaultTheme, applyStoredTheme, getTheme, setTheme, THEME_STORAGE_KEY, toggleTheme } from './theme';

const dark = () => document.body.classList.contains('awsui-dark-mode');

describe('theme', () => {
  it('starts light, switches to dark and back, and keeps the choice', () => {
    expect(applyStoredTheme()).toBe('light');
    expect(dark()).toBe(false);

    setTheme('dark');
    expect(dark()).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');

    toggleTheme();
    expect(dark()).toBe(false);
    expect(getTheme()).toBe('light');
  });

  it('applies a stored dark theme at start-up', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    expect(applyStoredTheme()).toBe('dark');
    expect(dark()).toBe(true);
    setTheme('light');
  });

  it("starts a browser without a choice on the user's default theme, and keeps a remembered choice", () => {
    adoptDefaultTheme('dark');
    expect(dark()).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');

    setTheme('light');
    adoptDefaultTheme('dark');
    expect(getTheme()).toBe('light');
    expect(dark()).toBe(false);
  });
});
