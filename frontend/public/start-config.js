/* global window */
// Starts GET /config.json while the app's JavaScript is still downloading, so the first screen does not wait
// for the entry to run before asking for it (decisions D177). main.tsx takes this request (config.ts,
// takeEarlyConfigFetch); if this script runs late or not at all, the app fetches config.json itself.
(function () {
  var request = fetch('/config.json', { cache: 'no-store', headers: { accept: 'application/json' } });
  // The app reads the outcome later; a failure here must not also surface as an unhandled rejection.
  request.catch(function () {});
  window.__zapdeskConfigRequest = request;
})();
