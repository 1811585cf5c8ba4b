import type { ConnectionSummary } from '@/api/connections';

/** One company's line of the platform owner's overview (core spec §2 Connections, decisions D22). */
export interface CompanyCounts {
  companyId: number;
  companyName: string;
  connected: number;
  /** Every connection that is not CONNECTED (so connected + disconnected = total). */
  disconnected: number;
  total: number;
}

/** Adds a page of summaries to the counts so far (pages come by company, then id; order does not matter). */
export const addToCounts = (counts: CompanyCounts[], page: ConnectionSummary[]): CompanyCounts[] => {
  const byCompany = new Map(counts.map((c) => [c.companyId, { ...c }]));
  for (const w of page) {
    const line = byCompany.get(w.companyId) ?? {
      companyId: w.companyId,
      companyName: w.company?.name ?? '',
      connected: 0,
      disconnected: 0,
      total: 0,
    };
    if (w.status === 'CONNECTED') line.connected += 1;
    else line.disconnected += 1;
    line.total += 1;
    byCompany.set(w.companyId, line);
  }
  return [...byCompany.values()];
};

/** The totals row: the sums of every company's counts. */
export const totalsOf = (counts: CompanyCounts[]): Omit<CompanyCounts, 'companyId' | 'companyName'> =>
  counts.reduce(
    (sum, c) => ({
      connected: sum.connected + c.connected,
      disconnected: sum.disconnected + c.disconnected,
      total: sum.total + c.total,
    }),
    { connected: 0, disconnected: 0, total: 0 },
  );
