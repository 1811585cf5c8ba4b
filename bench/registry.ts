import type { Benchmark } from './benchmark';
import { bundleSize } from './benchmarks/bundle-size';
import { contactImport } from './benchmarks/contact-import';
import { campaignThroughput } from './benchmarks/campaign-throughput';
import { dashboard } from './benchmarks/dashboard';
import { flowEngine } from './benchmarks/flow-engine';
import { governorPacing } from './benchmarks/governor-pacing';
import { inboundThroughput } from './benchmarks/inbound-throughput';
import { kanbanBoard } from './benchmarks/kanban-board';
import { listLatency } from './benchmarks/list-latency';
import { messagePageLatency } from './benchmarks/message-page-latency';
import { reportExport } from './benchmarks/report-export';
import { routeChunks } from './benchmarks/route-chunks';
import { ticketListLatency } from './benchmarks/ticket-list-latency';
import { ticketsFirstLoad } from './benchmarks/tickets-first-load';

/** Every benchmark, in the order `npm run bench` runs them and docs/benchmarks.md first lists them. */
export const BENCHMARKS: readonly Benchmark[] = [
  bundleSize,
  listLatency,
  routeChunks,
  inboundThroughput,
  ticketListLatency,
  messagePageLatency,
  ticketsFirstLoad,
  dashboard,
  reportExport,
  governorPacing,
  contactImport,
  kanbanBoard,
  campaignThroughput,
  flowEngine,
];
