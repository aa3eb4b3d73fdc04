// The node flags `kubelite up` starts its components with (and the benchmarks start a lone API
// server with, to measure it as `up` runs it).
//
// V8 keeps a pool of background threads for the garbage collector and the compiler: node's default
// is 4 on any machine. On two cores those four, the component's main thread, lmdb's writer and the
// other processes contend for the CPUs, and the main thread, which does every request, waits (7%
// of its time in the API server bench, 0.8% with one): the API server created ~10% more pods per
// second with a pool of one (three interleaved pairs; 12–20% with a pool of one or two in three
// more), CPU per create 316 → 291 µs. So the pool gets one thread fewer than the cores, at most
// node's four (node's own `--v8-pool-size=0` sizes it from the cores with no cap).
//
// A user who sets the flag (NODE_OPTIONS) keeps their value.
import { availableParallelism } from 'node:os';
import { nodeFlagGiven } from '../machinery/flags.js';

export function componentNodeFlags(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): string[] {
  // The components inherit the environment, not this process's own node arguments.
  if (nodeFlagGiven('--v8-pool-size', [], env.NODE_OPTIONS)) return [];
  return [`--v8-pool-size=${Math.min(4, Math.max(1, cores - 1))}`];
}
