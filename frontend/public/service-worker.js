/* global self, caches */
/**
 * ZapDesk service worker (registered by src/service-worker-registration.ts in production builds only).
 *
 * Network first: every request goes to the network and only falls back to the cache when the network
 * fails, so a deploy is visible on the next load and the worker never serves stale app code while online.
 * It never touches the API, the WebSocket, media (private per company) or the runtime config: those pass
 * through as if there were no worker.
 */
const CACHE = 'zapdesk-shell-v1';
const MAX_ENTRIES = 80;
const PASS_THROUGH = ['/api', '/ws', '/media', '/config.json'];

const passesThrough = (path) => PASS_THROUGH.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((n) => n.startsWith('zapdesk-') && n !== CACHE).map((n) => caches.delete(n)));
      await self.clients.claim();
    })(),
  );
});

const trim = async (cache) => {
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES)).map((key) => cache.delete(key)));
};

const networkFirst = async (event) => {
  const { request } = event;
  const navigation = request.mode === 'navigate';
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') {
      // Every route serves the same index.html: keep the latest one as the offline app shell.
      event.waitUntil(cache.put(navigation ? '/' : request, response.clone()).then(() => trim(cache)));
    }
    return response;
  } catch (err) {
    const cached = await cache.match(navigation ? '/' : request);
    if (cached) return cached;
    throw err;
  }
};

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || passesThrough(url.pathname)) return;
  event.respondWith(networkFirst(event));
});

/**
 * Notifications while the tab is in the background (administration §2 "Other"; decisions D158): the page
 * posts `{type: 'notify', title, body, tag, url}` when `document.hidden`, and the worker shows it through its
 * registration, which keeps working when the tab is not in front. A click focuses an open tab of the app
 * (navigating it to `url`) or opens one.
 */
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'notify' || typeof data.title !== 'string') return;
  event.waitUntil(
    self.registration.showNotification(data.title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      icon: typeof data.icon === 'string' ? data.icon : undefined,
      data: { url: typeof data.url === 'string' ? data.url : '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || '/';
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const tab = tabs.find((c) => new URL(c.url).origin === self.location.origin);
      if (tab) {
        await tab.focus();
        if ('navigate' in tab) await tab.navigate(url);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
