import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocalCloud } from '../infra/local/cloud';
import type { Benchmark } from './benchmark';
import { BENCHMARKS } from './registry';
import { machine, recordSection, renderSection } from './results-doc';

/**
 * `npm run bench` runs every benchmark; `npm run bench -- <name> [<name>…]` runs the ones named.
 * `npm run bench -- --quick [<name>…]` runs the quick CI checks instead (decisions D116): each benchmark's
 * `quick`, against bench/baseline.json, failing the run only on a large regression; nothing is recorded.
 * Starts the local cloud once, when the first benchmark that needs it runs; prints each benchmark's table
 * on stdout (progress goes to stderr) and rewrites that benchmark's section of docs/benchmarks.md. A
 * missed goal is a recorded figure, not a failure; a benchmark that cannot measure makes the run exit
 * non-zero and leaves its section as it was.
 */
const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));
const SCRATCH = join(REPO_ROOT, '.bench');
const DOC = join(REPO_ROOT, 'docs', 'benchmarks.md');
/** No benchmark may run longer than this; past it the run stops everything and fails. */
const BENCHMARK_DEADLINE_MS = 30 * 60_000;

const log = (message: string) => process.stderr.write(`${message}\n`);

const choose = (names: string[]): Benchmark[] => {
  if (names.length === 0) return [...BENCHMARKS];
  const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
  if (unknown.length > 0) {
    throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
  }
  return BENCHMARKS.filter((b) => names.includes(b.name));
};

/** A benchmark past its deadline may still be running: the run stops as a whole rather than go on beside it. */
class DeadlineExceeded extends Error {}

const withDeadline = <T>(what: string, work: Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DeadlineExceeded(`${what} ran past ${BENCHMARK_DEADLINE_MS / 60_000} min`)),
      BENCHMARK_DEADLINE_MS,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
};

let cloud: LocalCloud | undefined;

/** Starts the local cloud on first need: in memory, free loopback ports, no frontend, pollers or ticks. */
const ensureCloud = async (): Promise<LocalCloud> => {
  if (cloud) return cloud;
  log('starting the local cloud (in memory)...');
  const started = Date.now();
  // Imported only when needed: the cloud module pulls in the emulators.
  const { startLocalCloud } = await import('../infra/local/cloud');
  cloud = await startLocalCloud({
    dataDir: join(SCRATCH, 'cloud'),
    port: 0,
    inMemory: true,
    serveFrontend: false,
    pollers: false,
    ticks: false,
    quiet: true,
    // Per-request access lines would interleave with the tables; errors still print.
    logLevel: 'warn',
  });
  log(`local cloud up in ${((Date.now() - started) / 1000).toFixed(1)} s at ${cloud.gatewayUrl}`);
  return cloud;
};

const stopCloud = async (): Promise<void> => {
  const running = cloud;
  cloud = undefined;
  if (running) await running.stop();
};

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`\n${signal}: stopping`);
    void stopCloud().finally(() => process.exit(130));
  });
}

/** The quick checks: no cloud, no docs; exit 1 when one fails or cannot measure. */
const runQuick = async (chosen: Benchmark[]): Promise<number> => {
  let failures = 0;
  for (const bench of chosen) {
    const workDir = join(SCRATCH, `${bench.name}-quick`);
    rmSync(workDir, { recursive: true, force: true });
    mkdirSync(workDir, { recursive: true });
    log(`\n== ${bench.name} --quick`);
    try {
      const result = await withDeadline(
        bench.name,
        bench.quick!({ repoRoot: REPO_ROOT, workDir, cloud: undefined, log }),
      );
      process.stdout.write(`${bench.name} --quick: ${result.ok ? 'ok' : 'FAILED'}\n${result.lines.join('\n')}\n`);
      if (!result.ok) failures += 1;
    } catch (err) {
      if (err instanceof DeadlineExceeded) throw err;
      failures += 1;
      log(`${bench.name} --quick failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }
  return failures === 0 ? 0 : 1;
};

const main = async (): Promise<number> => {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(
      `usage: npm run bench [-- [--quick] <name> ...]\n\n${BENCHMARKS.map((b) => `  ${b.name.padEnd(16)} ${b.description}`).join('\n')}\n`,
    );
    return 0;
  }
  const quick = args.includes('--quick');
  const chosen = choose(args.filter((a) => a !== '--quick'));
  const m = machine();
  log(`machine: ${m.cpu}, ${m.cores} cores, Node ${m.node}, load ${m.load.toFixed(2)}`);
  if (quick) return runQuick(chosen.filter((b) => b.quick));

  let failures = 0;
  for (const bench of chosen) {
    const workDir = join(SCRATCH, bench.name);
    rmSync(workDir, { recursive: true, force: true });
    mkdirSync(workDir, { recursive: true });
    log(`\n== ${bench.name}`);
    const when = new Date();
    const where = machine();
    try {
      const result = await withDeadline(
        bench.name,
        bench.run({ repoRoot: REPO_ROOT, workDir, cloud: bench.needsCloud ? await ensureCloud() : undefined, log }),
      );
      process.stdout.write(
        `\n## ${bench.name}\n\n${result.table}\n\ngoal: ${bench.goal} — ${result.goalMet ? 'met' : 'NOT met'}\n${result.summary}\n`,
      );
      recordSection(DOC, bench.name, renderSection(bench, result, when, where));
      log(`recorded in docs/benchmarks.md`);
    } catch (err) {
      if (err instanceof DeadlineExceeded) throw err;
      failures += 1;
      log(`${bench.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }
  return failures === 0 ? 0 : 1;
};

let exitCode = 1;
try {
  exitCode = await main();
} catch (err) {
  log(err instanceof Error ? err.message : String(err));
} finally {
  await stopCloud();
}
// Keep-alive sockets and SDK agents would hold the process open for a while; the run is over.
process.exit(exitCode);
