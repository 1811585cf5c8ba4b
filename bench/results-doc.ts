import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, totalmem } from 'node:os';
import type { Benchmark, BenchResult } from './benchmark';

/**
 * docs/benchmarks.md: a short header, then one section per benchmark between
 * `<!-- bench:<name> -->` and `<!-- /bench:<name> -->`. Running one benchmark rewrites only its own
 * section; a benchmark that has never run gets its section appended.
 */
export const DOC_HEADER = `# Benchmarks

Figures for the speeds and sizes the issues name, measured by \`bench/\` (DESIGN §9: tests never assert
wall-clock time; benchmarks print the figure and record it here).

- \`npm run bench\` runs every benchmark; \`npm run bench -- <name> [<name>…]\` runs the ones named.
  Benchmarks that need it start the local cloud (in memory, on free loopback ports) once and stop it.
- Each run prints its table and rewrites only its own section below, between the \`bench:<name>\` comment
  markers; the other sections keep their last recorded figures.
- Every section says when and where it was measured (CPU, cores, Node), the goal, and whether the goal was
  met. Figures are from one run on one machine: compare runs on the same machine kind, and read a missed
  goal as a finding to act on, not as noise to re-run away.
- Adding a benchmark: a module in \`bench/benchmarks/<name>.ts\` (see \`bench/benchmark.ts\`) and one line
  in \`bench/registry.ts\`.
`;

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
  os: string;
  memoryGb: number;
  /** 1-minute load average when the benchmark started: a busy machine explains slow figures. */
  load: number;
}

export const machine = (): Machine => {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() || 'unknown CPU',
    cores: list.length,
    node: process.version,
    os: `${platform()} ${arch()}`,
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    load: loadavg()[0] ?? 0,
  };
};

const startMarker = (name: string) => `<!-- bench:${name} -->`;
const endMarker = (name: string) => `<!-- /bench:${name} -->`;

export const renderSection = (bench: Benchmark, result: BenchResult, when: Date, m: Machine): string =>
  [
    startMarker(bench.name),
    `## ${bench.name}`,
    '',
    bench.description,
    '',
    `- **Measured:** ${when.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- **Machine:** ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node}; load average ` +
      `${m.load.toFixed(2)} at the start`,
    `- **Goal:** ${bench.goal} — **${result.goalMet ? 'met' : 'NOT met'}**`,
    `- **Result:** ${result.summary}`,
    '',
    result.table,
    ...(result.notes ? ['', result.notes] : []),
    '',
    `Re-run: \`npm run bench -- ${bench.name}\``,
    endMarker(bench.name),
  ].join('\n');

/** Replaces (or appends) one benchmark's section of the document text. */
export const replaceSection = (doc: string, name: string, section: string): string => {
  const start = doc.indexOf(startMarker(name));
  const end = doc.indexOf(endMarker(name));
  if (start !== -1 && end > start) {
    return doc.slice(0, start) + section + doc.slice(end + endMarker(name).length);
  }
  if (start !== -1 || end !== -1) throw new Error(`docs/benchmarks.md: unbalanced markers for '${name}'`);
  return `${doc.trimEnd()}\n\n${section}\n`;
};

export const recordSection = (docPath: string, name: string, section: string): void => {
  const doc = existsSync(docPath) ? readFileSync(docPath, 'utf8') : DOC_HEADER;
  writeFileSync(docPath, replaceSection(doc, name, section));
};
