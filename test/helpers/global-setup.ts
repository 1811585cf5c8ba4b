import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { LocalCloudEnv } from '../../infra/local/cloud';
import { seedDemoData } from '../../infra/local/seed';
import { startTestCloud } from './test-cloud';

/**
 * Integration tests run against ONE local cloud per run (STYLE 13): DynamoDB Local in memory, fauxqs,
 * the gateway on a free port, pollers and ticks per the real registries. Test files reach it through
 * `inject(...)`; integration-env.ts copies its environment into every worker before handlers load.
 * The demo seed runs first, so company 1 is the platform owner's (with its super admin) as in production,
 * and every company a test file creates is a plain tenant.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>`: the gateway (API under /api, media under /media, the app at /). */
    gatewayUrl: string;
    /** `ws://127.0.0.1:<port>/ws` */
    wsUrl: string;
    /** The functions' environment (TABLE_NAME, endpoints, QUEUE_URLS, APP_SECRET, ...). */
    localCloudEnv: LocalCloudEnv;
    /** A stand-in for frontend/dist the gateway serves, so static tests do not need a build. */
    frontendDir: string;
    /** Where the functions write e-mails (EMAIL_OUTBOX_DIR): one JSON file per message. */
    outboxDir: string;
    /** The fake Graph API the functions call (GRAPH_API_URL; test/helpers/fake-graph.ts). */
    fakeGraphUrl: string;
    /** The fake OpenAI API the functions call (OPENAI_API_URL; infra/local/fake-openai.ts). */
    fakeOpenAiUrl: string;
    /** The fake Typebot, n8n/webhook and Dialogflow servers (infra/local/fake-integrations.ts). */
    fakeIntegrationsUrl: string;
  }
}

/** A minimal built frontend: index.html and one hashed asset, like Vite's output. */
const writeFrontend = async (dir: string): Promise<void> => {
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-test.js"></script></head><body><div id="root" data-test="zapdesk-index"></div></body></html>\n',
  );
  await writeFile(join(dir, 'assets', 'index-test.js'), 'export const app = "zapdesk";\n');
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { cloud, frontendDir, fakeGraphUrl, fakeOpenAiUrl, fakeIntegrationsUrl, stop } = await startTestCloud(
    'integration',
    async (dataDir) => {
      const dir = join(dataDir, 'frontend-dist');
      await writeFrontend(dir);
      return dir;
    },
  );
  await seedDemoData();
  project.provide('gatewayUrl', cloud.gatewayUrl);
  project.provide('wsUrl', cloud.wsUrl);
  project.provide('localCloudEnv', cloud.env);
  project.provide('frontendDir', frontendDir);
  project.provide('outboxDir', cloud.outboxDir);
  project.provide('fakeGraphUrl', fakeGraphUrl);
  project.provide('fakeOpenAiUrl', fakeOpenAiUrl);
  project.provide('fakeIntegrationsUrl', fakeIntegrationsUrl);
  return stop;
}
