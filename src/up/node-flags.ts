// The node flags `kubelite up` starts its components with (and the benchmarks start a lone API
// server with, to measure it as `up` runs it).
//
// V8 keeps a pool of background threads for the garbage collector and the compiler: node's default
// is 4 on any machine. On two cores those four, the component's main thread, lmdb's writer and the
// other processes contend for the CPUs, and the main thread, which does every request, waits: the
// API server created 12–20% more pods per second with a pool of 1 or 2 (six interleaved runs of
// `npm run bench -- apiserver`, CPU per create 335 → 290 µs). `--v8-pool-size=0` lets node size
// the pool from the machine's parallelism (one thread on two cores, more on larger machines).
//
// A user who sets the flag (NODE_OPTIONS) keeps their value.
const POOL_SIZE = /--v8[-_]pool[-_]size/;

export function componentNodeFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  return POOL_SIZE.test(env.NODE_OPTIONS ?? '') ? [] : ['--v8-pool-size=0'];
}
