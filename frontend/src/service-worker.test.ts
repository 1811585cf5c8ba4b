import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifyInBackground, registerServiceWorker } from './service-worker-registration';

/** public/service-worker.js run against a fake worker scope: its listeners, registration and clients. */
const loadWorker = () => {
  const listeners = new Map<string, (event: unknown) => void>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const opened: string[] = [];
  const scope = {
    location: { origin: 'https://app.zapdesk.test' },
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    skipWaiting: () => undefined,
    registration: {
      showNotification: (title: string, options: Record<string, unknown>) => {
        shown.push({ title, options });
        return Promise.resolve();
      },
    },
    clients: {
      matchAll: () => Promise.resolve([]),
      openWindow: (url: string) => {
        opened.push(url);
        return Promise.resolve(null);
      },
      claim: () => Promise.resolve(),
    },
  };
  const source = readFileSync(resolve(__dirname, '../public/service-worker.js'), 'utf8');
  new Function('self', 'caches', source)(scope, {});
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    let work: Promise<unknown> = Promise.resolve();
    listeners.get(type)?.({ ...event, waitUntil: (p: Promise<unknown>) => (work = p) });
    await work;
  };
  return { dispatch, shown, opened };
};

describe('service worker', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('shows a notification posted by the page, and a click opens its ticket', async () => {
    const worker = loadWorker();
    await worker.dispatch('message', {
      data: { type: 'notify', title: 'Maria', body: 'Olá!', tag: 'uuid-1', url: '/tickets/uuid-1' },
    });
    expect(worker.shown).toEqual([
      {
        title: 'Maria',
        options: expect.objectContaining({ body: 'Olá!', tag: 'uuid-1', data: { url: '/tickets/uuid-1' } }),
      },
    ]);
    const close = vi.fn();
    await worker.dispatch('notificationclick', { notification: { close, data: { url: '/tickets/uuid-1' } } });
    expect(close).toHaveBeenCalled();
    expect(worker.opened).toEqual(['/tickets/uuid-1']);
  });

  it('ignores messages that are not notifications', async () => {
    const worker = loadWorker();
    await worker.dispatch('message', { data: { type: 'other', title: 'x' } });
    await worker.dispatch('message', { data: null });
    expect(worker.shown).toEqual([]);
  });

  it('the page hands a notification to the worker only while hidden', () => {
    const postMessage = vi.fn();
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { controller: { postMessage }, register: vi.fn(() => Promise.resolve()) },
    });
    const hidden = vi.spyOn(document, 'hidden', 'get');
    hidden.mockReturnValue(false);
    expect(notifyInBackground({ title: 'Maria', body: 'Olá!' })).toBe(false);
    hidden.mockReturnValue(true);
    expect(notifyInBackground({ title: 'Maria', body: 'Olá!', url: '/tickets/u' })).toBe(true);
    expect(postMessage).toHaveBeenCalledWith({ type: 'notify', title: 'Maria', body: 'Olá!', url: '/tickets/u' });
  });

  it('registers /service-worker.js after load in production builds only', () => {
    const register = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { controller: null, register } });
    registerServiceWorker({ PROD: false });
    window.dispatchEvent(new Event('load'));
    expect(register).not.toHaveBeenCalled();
    registerServiceWorker({ PROD: true });
    window.dispatchEvent(new Event('load'));
    expect(register).toHaveBeenCalledWith('/service-worker.js');
  });
});
