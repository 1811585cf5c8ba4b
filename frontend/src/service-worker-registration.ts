/**
 * The app registers /service-worker.js (administration spec §2) — in production builds only, so the dev
 * server's modules are never served from a worker's cache.
 */
export const registerServiceWorker = (): void => {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/service-worker.js').catch((err: unknown) => {
      console.warn('service worker registration failed', err);
    });
  });
};
