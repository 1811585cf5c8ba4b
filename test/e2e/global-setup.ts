import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startTestCloud } from '../helpers/test-cloud';
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
  const built = resolve('frontend/dist');
  if (!existsSync(join(built, 'index.html'))) {
    throw new Error('frontend/dist is missing: run `npm run build:web` first (npm run test:e2e does)');
  }
  const { cloud, fakeGraphUrl, stop } = await startTestCloud('e2e', async () => built);
  await seedDemoData();
  project.provide('appUrl', cloud.gatewayUrl);
  // The Meta channels talk to the test cloud's fake Graph API (decisions D40); tests register numbers there.
  project.provide('fakeGraphUrl', fakeGraphUrl);
  // Files that set up their company in storage (workspace-company.ts) use the cloud's own environment.
  project.provide('localCloudEnv', cloud.env);
  return stop;
}
