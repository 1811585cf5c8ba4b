/**
 * The app registers /service-worker.js (administration spec §2) — in production builds only, so the dev
 * server's modules are never served from a worker's cache.
 */
export const registerServiceWorker = (env: { PROD: boolean } = import.meta.env): void => {
  if (!env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/service-worker.js').catch((err: unknown) => {
      console.warn('service worker registration failed', err);
    });
  });
};

/** What the page asks the worker to show (public/service-worker.js `message` handler; decisions D158). */
export interface BackgroundNotification {
  title: string;
  body: string;
  tag?: string;
  /** Where a click on it leads (an app path). */
  url?: string;
}

/**
 * While the tab is hidden, hands a notification to the service worker, which shows it through its
 * registration (a page's own `new Notification` is unreliable in a background tab). Answers false when
 * the tab is visible or no worker controls the page: the caller shows it itself.
 */
export const notifyInBackground = (notification: BackgroundNotification): boolean => {
  if (typeof document === 'undefined' || !document.hidden) return false;
  const worker = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : null;
  if (!worker) return false;
  worker.postMessage({ type: 'notify', ...notification });
  return true;
};
