import type { LocalCloud } from '../infra/local/cloud';

/**
 * The contract every benchmark in bench/benchmarks/ follows. A benchmark measures, returns its figures as
 * a markdown table and says whether its goal is met; the runner (bench/run.ts) prints the table and
 * rewrites the benchmark's own section of docs/benchmarks.md.
 */

/** What the runner hands a benchmark. */
export interface BenchContext {
  /** Absolute path of the repository root. */
  repoRoot: string;
  /** A scratch directory for this benchmark under `.bench/` (gitignored), emptied before the run. */
  workDir: string;
  /**
   * The local cloud (in memory, free loopback ports), started once per run when a chosen benchmark
   * declared `needsCloud: true`. It has set process.env, so the repositories in functions/data/ work here.
   */
  cloud: LocalCloud | undefined;
  /** Progress lines on stderr, so stdout stays the tables. */
  log: (message: string) => void;
}

export interface BenchResult {
  /** The figures, as a markdown table. */
  table: string;
  goalMet: boolean;
  /** One or two sentences: the headline figure against the goal. */
  summary: string;
  /** Optional markdown after the table: method, caveats, what dominates. */
  notes?: string;
}

/** What a benchmark's quick CI check found (decisions D116): one line per figure, and whether all held. */
export interface QuickResult {
  ok: boolean;
  lines: string[];
}

export interface Benchmark {
  /** kebab-case; the CLI argument and the docs/benchmarks.md section marker. */
  name: string;
  /** What is measured, one sentence. */
  description: string;
  /** The goal in words, as recorded beside the figures. */
  goal: string;
  needsCloud: boolean;
  run: (ctx: BenchContext) => Promise<BenchResult>;
  /**
   * The quick check `npm run bench -- --quick` runs in CI (decisions D116): no local cloud, compares with
   * bench/baseline.json, fails only on a large regression, never rewrites docs/benchmarks.md.
   */
  quick?: (ctx: BenchContext) => Promise<QuickResult>;
}
