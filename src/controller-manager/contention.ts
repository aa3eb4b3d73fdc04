// --contention-profiling: Go's block profile has no lock to watch in Node, whose code never blocks on
// a mutex. What waits instead is work: an item in a controller's work queue waiting for a worker,
// and callbacks waiting for the event loop. This profile (/debug/pprof/block, pprof's format) has
// one entry per work queue (`workqueue <name>`: items taken and the time they waited) and one for
// the event loop (its delay, sampled every 20 ms, as perf_hooks measures it), since the start.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { workQueueMetrics, type WorkQueueMetricsSet } from '../client/workqueue.js';
import { waitsToPprof, type Wait } from './pprof.js';

export class ContentionProfile {
  private readonly loop: IntervalHistogram = monitorEventLoopDelay({ resolution: 20 });
  private readonly startedAt = Date.now();

  /** `queues`: the controller manager's work queues (default: the process's made outside one). */
  constructor(private readonly queues?: WorkQueueMetricsSet) {
    this.loop.enable();
  }

  waits(): Wait[] {
    const out: Wait[] = workQueueMetrics(this.queues).map((m) => ({ what: `workqueue ${m.name}`, count: m.queueLatencyCount, delayNanos: m.queueLatencyMsSum * 1e6 }));
    // The histogram's samples are delays of a 20 ms timer: count them and their sum above the period.
    const count = this.loop.count;
    if (count > 0) out.push({ what: 'event loop', count, delayNanos: Math.max(0, this.loop.mean - 20e6) * count });
    return out;
  }

  pprof(): Buffer {
    return waitsToPprof(this.waits(), this.startedAt);
  }

  stop(): void {
    this.loop.disable();
  }
}
