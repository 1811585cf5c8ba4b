import type { Benchmark } from './benchmark';
import { bundleSize } from './benchmarks/bundle-size';
import { inboundThroughput } from './benchmarks/inbound-throughput';
import { listLatency } from './benchmarks/list-latency';
import { routeChunks } from './benchmarks/route-chunks';

/** Every benchmark, in the order `npm run bench` runs them and docs/benchmarks.md first lists them. */
export const BENCHMARKS: readonly Benchmark[] = [bundleSize, listLatency, routeChunks, inboundThroughput];
