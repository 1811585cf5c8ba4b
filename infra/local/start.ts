import { join } from 'node:path';
import { LOCAL_FAKE_PORTS, startLocalCloud, type LocalCloud } from './cloud';
import { REPO_ROOT } from './handler-modules';

/**
 * `npm start` / `npm run start:dev`: the local cloud with persistent data in `.data/`, the demo data,
 * and the URLs to open. Ctrl-C (or SIGTERM) stops everything, DynamoDB Local included.
 */
const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`PORT must be a port number, got "${process.env.PORT}"\n`);
  process.exit(1);
}

let cloud: LocalCloud | undefined;
let stoppingSince: number | undefined;
const STOP_DEADLINE_MS = 20_000;

/**
 * Ctrl-C reaches this process twice: from the terminal (the whole foreground group) and relayed by tsx.
 * A repeat within a second is that echo; a later one means "now", and the deadline covers a stuck stop.
 * DynamoDB Local runs in its own process group, so it is stopped by cloud.stop(), after the final
 * media snapshot and the $disconnect handlers that still need it.
 */
const shutdown = (signal: string) => {
  if (stoppingSince !== undefined) {
    if (Date.now() - stoppingSince < 1_000) return;
    process.stderr.write(`\n${signal} again: exiting now\n`);
    process.exit(1);
  }
  stoppingSince = Date.now();
  process.stdout.write(`\n${signal}: stopping the local cloud...\n`);
  setTimeout(() => {
    process.stderr.write('the local cloud did not stop in time: exiting\n');
    process.exit(1);
  }, STOP_DEADLINE_MS).unref();
  if (!cloud) return; // still starting: the start path stops it as soon as it is up
  void cloud.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`could not stop cleanly: ${String(err)}\n`);
      process.exit(1);
    },
  );
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));

try {
  cloud = await startLocalCloud({
    dataDir: join(REPO_ROOT, '.data'),
    port,
    serveFrontend: true,
    pollers: true,
    ticks: true,
    quiet: process.env.QUIET === '1',
    fakePorts: LOCAL_FAKE_PORTS,
  });
  if (stoppingSince !== undefined) {
    await cloud.stop();
    process.exit(0);
  }
  // Imported after the cloud set process.env: repositories read their configuration on first use.
  const { seedDemoData } = await import('./seed');
  const seed = await seedDemoData({ integrationsUrl: cloud.fakes.integrationsUrl });

  const app = cloud.gatewayUrl.replace('127.0.0.1', 'localhost');
  const lines = [
    '',
    'ZapDesk local cloud is running',
    '',
    `  App        ${app}/`,
    `  API        ${app}/api`,
    `  WebSocket  ${cloud.wsUrl.replace('127.0.0.1', 'localhost')}`,
    `  Data       ${join(REPO_ROOT, '.data')} (reset: stop, then rm -rf .data)`,
    `  E-mails    ${cloud.outboxDir} (one JSON file each: password-reset codes)`,
    `  Fakes      Typebot/n8n/Dialogflow ${cloud.fakes.integrationsUrl}, OpenAI ${cloud.fakes.openAiUrl ?? process.env.OPENAI_API_URL ?? ''}`,
    '',
    seed.seeded ? 'Demo data created. Logins:' : 'Demo data found from an earlier start. Logins:',
    ...seed.logins.map((l) => `  ${l.email.padEnd(28)} ${l.password.padEnd(14)} ${l.role}`),
    '',
    'Press Ctrl-C to stop.',
    '',
  ];
  process.stdout.write(lines.join('\n'));
} catch (err) {
  const message =
    (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
      ? `port ${port} is in use: set PORT to another port`
      : String(err);
  // A missing Java was already explained, with the command that installs it.
  if (!(err instanceof Error && err.name === 'JavaMissingError')) {
    process.stderr.write(`\nThe local cloud could not start: ${message}\n`);
  }
  await cloud?.stop();
  process.exit(1);
}
