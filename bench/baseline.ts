import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The figures the quick CI check (`npm run bench -- --quick`, decisions D116) compares against:
 * `bench/baseline.json`, rewritten by each full run of a benchmark that records one (its own key only), and
 * committed with docs/benchmarks.md. Sizes are exact; times are the full run's medians on this machine kind.
 */
export interface LambdaBaseline {
  /** Median import of the deployed bundle in a fresh process, ms. */
  importMs: number;
  /** The deployed `index.mjs`, bytes. */
  bytes: number;
}

export interface Baseline {
  'bundle-size'?: Record<string, LambdaBaseline>;
  'tickets-first-load'?: { firstScreenJsGzipBytes: number };
}

const file = (repoRoot: string) => join(repoRoot, 'bench', 'baseline.json');

export const readBaseline = (repoRoot: string): Baseline => {
  try {
    return JSON.parse(readFileSync(file(repoRoot), 'utf8')) as Baseline;
  } catch {
    return {};
  }
};

export const writeBaseline = <K extends keyof Baseline>(repoRoot: string, key: K, value: Baseline[K]): void => {
  const all = { ...readBaseline(repoRoot), [key]: value };
  writeFileSync(file(repoRoot), `${JSON.stringify(all, null, 2)}\n`);
};
