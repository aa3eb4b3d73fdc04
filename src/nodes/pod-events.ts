// The events a kubelet records for a pod (Pulling, Pulled, Created, Started, BackOff,
// DeadlineExceeded, Killing), each sent once per change of the pod's simulated state, at most
// --event-qps over all nodes (beyond: dropped, as an overloaded kubelet's recorder drops them).
import type { Clock } from '../client/clock.js';
import { TokenBucket } from '../client/rate-limit.js';
import { nameOf, namespaceOf } from '../api/meta/object.js';
import type { Pod } from '../api/types.js';
import type { NodeAgentOptions, NodeAgentStats } from './options.js';
import type { SimulateResult } from './simulate.js';

/** What was already reported of one pod, so that each event is sent once. */
export interface PodEventsSent {
  uid: string;
  /** Per container: the run start last reported (Created/Started), the back-off reported. */
  runs: Map<string, number>;
  backoffs: Map<string, number>;
  killingSent: boolean;
  deadlineSent?: boolean;
  /** The pod's deletion as the node saw it (Killing is due). */
  deletion?: { at: number; graceMs: number };
}

export class PodEvents {
  private readonly bucket: TokenBucket;

  constructor(
    private readonly recorder: NodeAgentOptions['recorder'],
    eventQps: number | undefined,
    private readonly stats: NodeAgentStats,
    clock: Clock,
  ) {
    this.bucket = new TokenBucket({ qps: eventQps ?? 50, burst: Math.max(1, (eventQps ?? 50) * 4), clock });
  }

  event(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const r = this.recorder;
    if (!r) return;
    if (!this.bucket.tryTake()) {
      this.stats.eventsDropped++;
      return;
    }
    const recorder = typeof r === 'function' ? r(pod.spec?.nodeName ?? '') : r;
    recorder.event({ apiVersion: 'v1', kind: 'Pod', metadata: pod.metadata }, type, reason, message);
  }

  /** Sends the events `result` (the pod's simulated state now) calls for and `rec` has not sent yet. */
  emit(pod: Pod, rec: PodEventsSent, result: SimulateResult): void {
    const spec = pod.spec ?? {};
    const all = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
    const states = new Map([...result.initContainers, ...result.containers]);
    for (const c of all) {
      const name = c.name ?? '';
      const st = states.get(name);
      if (!st) continue;
      const runStart = st.kind === 'running' ? st.runStart : st.kind === 'terminated' ? st.terminated!.startedAt : undefined;
      if (runStart !== undefined && rec.runs.get(name) !== runStart) {
        const first = !rec.runs.has(name);
        rec.runs.set(name, runStart);
        const image = c.image ?? '';
        if (first) {
          this.event(pod, 'Normal', 'Pulling', `Pulling image "${image}"`);
          this.event(pod, 'Normal', 'Pulled', `Successfully pulled image "${image}" in 0s (0s including waiting). Image size: 0 bytes.`);
        } else this.event(pod, 'Normal', 'Pulled', `Container image "${image}" already present on machine`);
        this.event(pod, 'Normal', 'Created', `Created container: ${name}`);
        this.event(pod, 'Normal', 'Started', `Started container ${name}`);
      }
      if (st.kind === 'waiting' && st.waitingReason === 'CrashLoopBackOff' && st.last && rec.backoffs.get(name) !== st.last.finishedAt) {
        rec.backoffs.set(name, st.last.finishedAt);
        this.event(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${name} in pod ${nameOf(pod)}_${namespaceOf(pod)}(${rec.uid})`);
      }
    }
    if (result.status.reason === 'DeadlineExceeded' && !rec.deadlineSent) {
      rec.deadlineSent = true;
      this.event(pod, 'Warning', 'DeadlineExceeded', 'Pod was active on the node longer than the specified deadline');
    }
    if (rec.deletion && !rec.killingSent) {
      rec.killingSent = true;
      for (const c of spec.containers ?? []) {
        const name = c.name ?? '';
        if (result.containers.get(name)?.kind === 'running' || result.containers.get(name)?.killed) {
          this.event(pod, 'Normal', 'Killing', `Stopping container ${name}`);
        }
      }
    }
  }
}
