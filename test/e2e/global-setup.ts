import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalCloud } from '../../infra/local/cloud';
import { seedDemoData } from '../../infra/local/seed';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The local cloud serving the built app, as `npm start` would (fresh data, demo seed). */
    appUrl: string;
  }
}

/**
 * Browser tests run the product the way a person tries it: the built frontend (frontend/dist, built by
 * `npm run test:e2e` before this runs), the gateway and the real handlers, with the demo data seeded.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const frontendDir = resolve('frontend/dist');
  if (!existsSync(join(frontendDir, 'index.html'))) {
    throw new Error('frontend/dist is missing: run `npm run build:web` first (npm run test:e2e does)');
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'zapdesk-e2e-'));
  const cloud = await startLocalCloud({
    dataDir,
    port: 0,
    inMemory: true,
    serveFrontend: true,
    frontendDir,
    pollers: true,
    ticks: true,
    quiet: true,
    logLevel: 'warn',
  });
  await seedDemoData();
  project.provide('appUrl', cloud.gatewayUrl);
  return async () => {
    await cloud.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
