import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCloud, type LocalCloud } from '../../infra/local/cloud';

/**
 * The local cloud as test runs use it: a throw-away data directory, DynamoDB in memory, free loopback
 * ports, the real pollers and ticks, a fresh app secret, quiet logs, e-mails written to an outbox folder
 * inside it. `stop()` removes everything.
 */
export const startTestCloud = async (
  name: string,
  frontend: (dataDir: string) => Promise<string>,
): Promise<{ cloud: LocalCloud; frontendDir: string; stop: () => Promise<void> }> => {
  const dataDir = await mkdtemp(join(tmpdir(), `zapdesk-${name}-`));
  const frontendDir = await frontend(dataDir);
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
  });
  return {
    cloud,
    frontendDir,
    stop: async () => {
      await cloud.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};
