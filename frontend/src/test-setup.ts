import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';
import { DEFAULT_LANGUAGE, i18n, initI18n } from '@/i18n';

// Testing Library turns React's act() environment on through global hooks, which this project does not
// enable (no vitest globals): turn it on here, and clean up after each test below.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// jsdom has no matchMedia; Cloudscape reads it for breakpoints and reduced motion. Reduced motion is on,
// so Cloudscape skips its enter/exit animations and a closed toast is gone at once.
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: query.includes('prefers-reduced-motion: reduce'),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  });
}

// Without a CSS namespace (jsdom lacks CSS.escape), Cloudscape's flashbar calls CSS.escape from a debounced focus timer, which may
// fire after a test that showed a toast has ended (an unhandled error would fail the whole run).
if (typeof (globalThis as { CSS?: unknown }).CSS === 'undefined') {
  (globalThis as { CSS?: { escape: (value: string) => string } }).CSS = {
    escape: (value: string) => value.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`),
  };
}

// The first render of a lazy page transforms its Cloudscape modules (seconds on a busy 2-core machine):
// give findBy*/waitFor and the tests room for that one cold start.
configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

await initI18n();

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage(DEFAULT_LANGUAGE);
  localStorage.clear();
});

// Cloudscape's flashbar focuses a new toast 500 ms after it appears (a debounced timer holding the element).
// jsdom defines `CSS`, and the environment's teardown deletes it: a toast shown in a file's last 500 ms would
// then throw "CSS is not defined" after the file ended — an unhandled error that fails the whole run. Let
// such a timer run before the environment goes.
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, 600)));
