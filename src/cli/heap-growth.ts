// How far V8 lets the old generation grow past what survived its last full collection before it
// collects again. By default the factor adapts to how fast collections are, up to 4× on a machine
// with plenty of memory; with 10,000 pods in the API server's cache it is ~2.2×, so the process's
// resident memory at any moment includes up to a live heap's worth of garbage, more or less
// depending on when the last collection happened (the API server bench's RSS with 10,000 pods was
// bimodal: ~175 or ~197 MiB). A fixed factor of 1.5 (what Go's GOGC=50 would be) keeps that
// garbage to half the live heap: 157–166 MiB. The bench's CPU per create did not move beyond its
// noise (A/B); creating pods in process, without HTTP, costs ~5% more.
//
// Half a small heap is little room, though: V8 counts the ArrayBuffers of socket reads against the
// same limit until a young collection frees them (it runs one per 32 MiB of them), so a stream
// relayed at hundreds of MiB/s through an API server of ~30 MiB (port-forward, exec) started a full
// collection every ~34 MiB relayed: 16 per 512 MiB, a third of the API server's CPU
// (bench/NOTES.md, session 16). The growth is therefore never less than a floor in bytes, set
// again after each full collection from what survived it.
//
// A user who sets the flag for node (NODE_OPTIONS or node's arguments) keeps their value.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { nodeFlagGiven } from '../machinery/flags.js';

let observer: PerformanceObserver | undefined;

/**
 * Old-generation growth between full collections: (1 + percent/100) × what survived the last,
 * and at least `minGrowthBytes`.
 */
export function limitHeapGrowth(percent: number, minGrowthBytes = 0): void {
  if (nodeFlagGiven('--heap-growing-percent', process.execArgv, process.env.NODE_OPTIONS)) return;
  let current = 0;
  const apply = () => {
    const live = getHeapStatistics().used_heap_size;
    const wanted = Math.max(percent, live > 0 ? Math.ceil((100 * minGrowthBytes) / live) : 0);
    if (wanted === current) return;
    current = wanted;
    setFlagsFromString(`--heap-growing-percent=${wanted}`);
  };
  apply();
  if (minGrowthBytes <= 0 || observer !== undefined) return;
  observer = new PerformanceObserver((list) => {
    if (list.getEntries().some((e) => (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) apply();
  });
  observer.observe({ entryTypes: ['gc'] });
}
