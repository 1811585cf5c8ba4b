import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCloud, type LocalCloud } from '../../infra/local/cloud';
import { startFakeGraph } from './fake-graph';

/** The Meta app the test cloud's functions are configured with (decisions D40); Graph calls go to a local fake. */
export const TEST_META_APP = {
  META_APP_ID: '700000000000001',
  META_APP_SECRET: 'test-meta-app-secret-0123456789',
  META_VERIFY_TOKEN: 'test-meta-verify-token',
} as const;

/**
 * WhatsApp worker heartbeat and lease in tests: a dead worker's connections move within ~3.5 s, and a live
 * worker starved of CPU for up to 3 s (the whole suite runs four projects on two cores) is not taken for
 * dead — with 1.5 s that happened once and failed the lease tests together.
 */
export const TEST_WORKER_TIMINGS = { heartbeatMs: 400, leaseMs: 3_000 } as const;

/**
 * The local cloud as test runs use it: a throw-away data directory, DynamoDB in memory, free loopback
 * ports, the real pollers and ticks, the WhatsApp worker with the simulator driver, a fresh app secret,
 * quiet logs, e-mails written to an outbox folder inside it. `stop()` removes everything.
 */
export const startTestCloud = async (
  name: string,
  frontend: (dataDir: string) => Promise<string>,
): Promise<{
  cloud: LocalCloud;
  frontendDir: string;
  fakeGraphUrl: string;
  fakeOpenAiUrl: string;
  fakeIntegrationsUrl: string;
  stop: () => Promise<void>;
}> => {
  const dataDir = await mkdtemp(join(tmpdir(), `zapdesk-${name}-`));
  const frontendDir = await frontend(dataDir);
  const graph = await startFakeGraph();
  // Tests never reach OpenAI: the local cloud starts its stand-in only when the shell names no real one.
  delete process.env.OPENAI_API_URL;
  const cloud = await startLocalCloud({
    dataDir,
    port: 0,
    inMemory: true,
    serveFrontend: true,
    frontendDir,
    pollers: true,
    ticks: true,
    quiet: true,
    appSecret: randomBytes(32).toString('base64url'),
    logLevel: 'warn',
    outboxDir: join(dataDir, 'outbox'),
    // The simulator, whatever the shell says; leases short enough for takeover tests to take seconds.
    whatsappDriver: 'simulator',
    worker: { heartbeatMs: TEST_WORKER_TIMINGS.heartbeatMs, leaseMs: TEST_WORKER_TIMINGS.leaseMs },
    extraEnv: {
      ...TEST_META_APP,
      GRAPH_API_URL: graph.url,
      // Queue integrations (D162; the fakes are the local cloud's, D174): a short debounce and a timeout the
      // scripted slow answers pass.
      INTEGRATION_DEBOUNCE_SECONDS: '2',
      INTEGRATION_TIMEOUT_MS: '1500',
    },
  });
  return {
    cloud,
    frontendDir,
    fakeGraphUrl: graph.url,
    fakeOpenAiUrl: cloud.fakes.openAiUrl!,
    fakeIntegrationsUrl: cloud.fakes.integrationsUrl,
    stop: async () => {
      await cloud.stop();
      await graph.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};
