import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ProxyOptions } from 'vite';

/**
 * The web app. `npm run build:web` (from the repo root) writes frontend/dist, which CloudFront serves at `/`
 * and the local gateway serves on http://localhost:3000. `vite --config frontend/vite.config.ts` is the dev
 * server: it proxies the same-origin paths to the local gateway so the browser sees one origin, as in AWS.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The local cloud's gateway (DESIGN §2); GATEWAY_URL points the dev server at another one (e.g. e2e). */
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:3000';
const proxy: Record<string, ProxyOptions> = {
  '/api': { target: gateway },
  '/ws': { target: gateway, ws: true },
  '/media': { target: gateway },
  '/config.json': { target: gateway },
};

/** A chunk per vendor family; priority decides which group keeps a module that several could claim. */
const vendor = (name: string, packages: string[], priority: number) => ({
  name,
  priority,
  test: new RegExp(`[\\\\/]node_modules[\\\\/](${packages.join('|')})[\\\\/]`),
});

export default defineConfig({
  root: here('.'),
  plugins: [react()],
  // `@contracts/`: the wire contracts shared with the server (functions/contracts/, DESIGN §3).
  resolve: { alias: { '@': here('./src'), '@contracts': here('../functions/contracts') } },
  server: { port: 5173, strictPort: true, proxy },
  preview: { port: 4173, strictPort: true, proxy },
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Rolldown's successor to manualChunks. Pages are split by their lazy route imports (App.tsx);
        // these groups keep the big libraries out of the entry chunk so it stays small and cacheable.
        codeSplitting: {
          groups: [
            vendor('react', ['react', 'react-dom', 'scheduler', 'react-router', 'react-router-dom', 'cookie'], 40),
            vendor('i18n', ['i18next', 'react-i18next', 'html-parse-stringify', 'void-elements'], 30),
            vendor('amplify', ['aws-amplify', '@aws-amplify', '@aws-crypto', '@smithy', '@aws-sdk', 'tslib'], 20),
            // The flow editor's canvas library and its own dependencies load only with the editor's page.
            vendor(
              'flow-canvas',
              [
                '@xyflow',
                'd3-drag',
                'd3-zoom',
                'd3-selection',
                'd3-transition',
                'd3-dispatch',
                'd3-ease',
                'd3-timer',
                'zustand',
                'classcat',
              ],
              15,
            ),
            {
              // Split by the set of pages that use each component: a page's own Cloudscape components
              // load with it instead of growing the chunk every page waits for. No merging of small pieces:
              // with 40 pages, 2 kB pieces the entry needs were merged into the Table's chunk, and the first
              // screen downloaded 35 KB gz of Table it never draws (decisions D178, replacing D28's 2 kB).
              ...vendor('cloudscape', ['@cloudscape-design'], 10),
              entriesAware: true,
              entriesAwareMergeThreshold: 0,
            },
            { name: 'vendor', test: /[\\/]node_modules[\\/]/, priority: 0 },
          ],
        },
      },
    },
  },
});
