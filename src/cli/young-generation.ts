// A cap on V8's young generation for long-running components. Under sustained allocation V8 grows
// the young generation to its maximum, two 16 MB semi-spaces on 64-bit, and keeps them resident:
// 32 MB of a component's memory that buys it nothing measurable (kubelite apiserver creates pods
// as fast with 16 MB). `node --max-semi-space-size=8` would set the cap, but kubelite cannot choose
// the flags of the node that runs it, and V8 reads that one only at startup. Growth is stopped
// instead: once a collection leaves the young generation at the cap, the semi-space growth factor
// (which V8 reads at each growth) becomes 1; if V8 shrinks it again, growth is allowed again.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

let observer: PerformanceObserver | undefined;

/** Keeps the young generation (both semi-spaces) at or below `maxBytes` from now on. */
export function capYoungGeneration(maxBytes: number): void {
  if (observer !== undefined) return;
  let capped = false;
  const check = () => {
    const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size;
    if (young === undefined) return;
    if (!capped && young >= maxBytes) {
      setFlagsFromString('--semi-space-growth-factor=1');
      capped = true;
    } else if (capped && young < maxBytes) {
      setFlagsFromString('--semi-space-growth-factor=2');
      capped = false;
    }
  };
  observer = new PerformanceObserver(check);
  observer.observe({ entryTypes: ['gc'] });
}
