/** Small, dependency-free helpers for figures and tables. */

/** Nearest-rank percentile (p in 0..100) of samples; the samples need not be sorted. */
export const percentile = (samples: readonly number[], p: number): number => {
  if (samples.length === 0) throw new Error('percentile of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
};

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** A markdown table; `align` per column: 'l' (default) or 'r'. Cells are escaped for `|`. */
export const markdownTable = (
  headers: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  align: readonly ('l' | 'r')[] = [],
): string => {
  const cell = (v: string | number) => String(v).replace(/\|/g, '\\|');
  const rule = headers.map((_, i) => (align[i] === 'r' ? '---:' : '---'));
  return [headers.map(cell), rule, ...rows.map((r) => r.map(cell))].map((r) => `| ${r.join(' | ')} |`).join('\n');
};

export const kb = (bytes: number): string => (bytes / 1024).toFixed(1);

export const ms = (value: number, digits = 1): string => value.toFixed(digits);
