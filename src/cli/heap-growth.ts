// How far V8 lets the old generation grow past what survived its last full collection before it
// collects again. By default the factor adapts to how fast collections are, up to 4× on a machine
// with plenty of memory; with 10,000 pods in the API server's cache it is ~2.2×, so the process's
// resident memory at any moment includes up to a live heap's worth of garbage, more or less
// depending on when the last collection happened (the API server bench's RSS with 10,000 pods was
// bimodal: ~175 or ~197 MiB). A fixed factor of 1.5 (what Go's GOGC=50 would be) keeps that
// garbage to half the live heap: 157–166 MiB. The bench's CPU per create did not move beyond its
// noise (A/B); creating pods in process, without HTTP, costs ~5% more.
//
// A user who sets the flag for node (NODE_OPTIONS or node's arguments) keeps their value.
import { setFlagsFromString } from 'node:v8';
import { nodeFlagGiven } from '../machinery/flags.js';

/** Old-generation growth between full collections: (1 + percent/100) × what survived the last. */
export function limitHeapGrowth(percent: number): void {
  if (nodeFlagGiven('--heap-growing-percent', process.execArgv, process.env.NODE_OPTIONS)) return;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
