// The process and Node.js metrics every component serves on its /metrics, as Kubernetes' components
// serve Go's (process_resident_memory_bytes, go_memstats_*): prom-client's default metrics
// (process_resident_memory_bytes, nodejs_heap_size_used_bytes, nodejs_heap_size_total_bytes,
// nodejs_external_memory_bytes, nodejs_heap_space_size_*, nodejs_eventloop_lag_p99_seconds, ...)
// plus the part of external memory held by ArrayBuffers (socket and TLS buffers, Buffer pools),
// which prom-client does not report: what a long run reads to tell a JavaScript leak from memory
// outside the heap. prom-client (some forty modules) is loaded on the first scrape, not at start.
import type { Registry } from 'prom-client';

/** Adds the process and Node.js metrics to `registry` (a component that keeps a registry of its own). */
export function registerProcessMetrics(prom: typeof import('prom-client'), registry: Registry): void {
  prom.collectDefaultMetrics({ register: registry });
  new prom.Gauge({
    name: 'nodejs_array_buffers_bytes',
    help: 'Memory of ArrayBuffers and SharedArrayBuffers, Node.js Buffers included (part of nodejs_external_memory_bytes), in bytes.',
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().arrayBuffers);
    },
  });
}

let processRegistry: Promise<Registry> | undefined;

/** The process and Node.js metrics in Prometheus' text format (one registry per isolate). */
export async function processMetricsText(): Promise<string> {
  processRegistry ??= import('prom-client').then((prom) => {
    const registry = new prom.Registry();
    registerProcessMetrics(prom, registry);
    return registry;
  });
  return (await processRegistry).metrics();
}
