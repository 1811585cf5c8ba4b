import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject, type TestContext } from 'vitest';

/**
 * Debian's Chromium driven by playwright-core (STACK.md: no browser download; these flags keep it off
 * the network this machine does not have). One browser per test file; a fresh context per session.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];
const SHOTS = 'test-results/e2e';

export const useBrowser = () => {
  let browser: Browser;
  const pages: Page[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });

  // Screenshots of every open page when a test fails, named after the test.
  afterEach(async (ctx: TestContext) => {
    if (ctx.task.result?.state === 'fail') {
      mkdirSync(SHOTS, { recursive: true });
      const base = ctx.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      await Promise.all(
        pages.map((p, i) =>
          p.screenshot({ path: join(SHOTS, `${base}-${i}.png`), fullPage: true }).catch(() => undefined),
        ),
      );
    }
    pages.length = 0;
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** A new browser session (its own cookies and storage) with one page on the app. */
  const session = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ baseURL: inject('appUrl'), locale: 'pt-BR' });
    const page = await context.newPage();
    pages.push(page);
    return { context, page };
  };

  return { session };
};
