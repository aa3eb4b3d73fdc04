// The events a kubelet records for a pod (Pulling, Pulled, Created, Started, BackOff,
// DeadlineExceeded, Killing), each sent once per change of the pod's simulated state, at most
// --event-qps over all nodes (beyond: dropped, as an overloaded kubelet's recorder drops them).
import type { Clock } from '../client/clock.js';
import { TokenBucket } from '../client/rate-limit.js';
import { nameOf, namespaceOf } from '../api/meta/object.js';
import type { Container, Pod } from '../api/types.js';
import { goDuration, type ImagePlan } from './image-pull.js';
import type { NodeAgentOptions, NodeAgentStats } from './options.js';
import { preStopHook, probeFailureOutput } from './probes.js';
import type { ContainerState, SimulateResult } from './simulate.js';

/** What was already reported of one pod, so that each event is sent once. */
export interface PodEventsSent {
  uid: string;
  /** Per container: the run start last reported (Created/Started), the back-off reported. */
  runs: Map<string, number>;
  backoffs: Map<string, number>;
  killingSent: boolean;
  deadlineSent?: boolean;
  /** Per container: the image pull stages reported (`<attempt>:pulling|failed|backoff`, `error`). */
  pullStages?: Map<string, Set<string>>;
  /** What starting each container does with its image. */
  images?: ReadonlyMap<string, ImagePlan>;
  /** The pod's eviction (Killing is due). */
  eviction?: { at: number; message: string; refused?: boolean };
  /** Per container: the run whose failed probe was reported (Unhealthy, Killing), and the run reported unready. */
  probeKills?: Map<string, number>;
  unready?: Map<string, number>;
  /** The sidecars reported stopped after a Job-style pod's main containers ended. */
  sidecarsStopped?: Set<string>;
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
      const plan = rec.images?.get(name);
      this.imageEvents(pod, rec, name, c.image ?? '', plan, st);
      if (runStart !== undefined && rec.runs.get(name) !== runStart) {
        const first = !rec.runs.has(name);
        rec.runs.set(name, runStart);
        const image = c.image ?? '';
        const pulled = (ms: number, size: number) => `Successfully pulled image "${image}" in ${goDuration(ms)} (${goDuration(ms)} including waiting). Image size: ${size} bytes.`;
        if (first && plan?.kind === 'pull') this.event(pod, 'Normal', 'Pulled', pulled(plan.pullMs, plan.sizeBytes));
        else if (!first && plan?.kind === 'pull' && plan.everyStart) {
          this.event(pod, 'Normal', 'Pulling', `Pulling image "${image}"`);
          this.event(pod, 'Normal', 'Pulled', pulled(plan.pullMs, plan.sizeBytes));
        } else this.event(pod, 'Normal', 'Pulled', `Container image "${image}" already present on machine`);
        this.event(pod, 'Normal', 'Created', `Created container: ${name}`);
        this.event(pod, 'Normal', 'Started', `Started container ${name}`);
      }
      this.probeEvents(pod, rec, c, st, result.status.podIP ?? '');
      if (st.kind === 'waiting' && st.waitingReason === 'CrashLoopBackOff' && st.last && rec.backoffs.get(name) !== st.last.finishedAt) {
        rec.backoffs.set(name, st.last.finishedAt);
        this.event(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${name} in pod ${nameOf(pod)}_${namespaceOf(pod)}(${rec.uid})`);
      }
    }
    this.sidecarStops(pod, rec, result);
    if (result.status.reason === 'DeadlineExceeded' && !rec.deadlineSent) {
      rec.deadlineSent = true;
      this.event(pod, 'Warning', 'DeadlineExceeded', 'Pod was active on the node longer than the specified deadline');
    }
    const sidecars = (spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
    if ((rec.deletion || rec.eviction) && !rec.killingSent) {
      rec.killingSent = true;
      for (const c of [...(spec.containers ?? []), ...sidecars.reverse()]) {
        const name = c.name ?? '';
        const st = result.containers.get(name) ?? result.initContainers.get(name);
        if (st?.kind === 'running' || st?.killed || (rec.eviction && st?.terminated?.killed)) {
          this.event(pod, 'Normal', 'Killing', `Stopping container ${name}`);
          if (!rec.eviction && preStopHook(c.lifecycle?.preStop)?.fails) this.event(pod, 'Warning', 'FailedPreStopHook', 'PreStopHook failed');
        }
      }
    }
  }

  /** A Job-style pod's sidecars, stopped once its main containers ended: Killing, once each. */
  private sidecarStops(pod: Pod, rec: PodEventsSent, result: SimulateResult): void {
    if (rec.deletion || rec.eviction) return;
    for (const c of pod.spec?.initContainers ?? []) {
      const name = c.name ?? '';
      const st = result.initContainers.get(name);
      if (c.restartPolicy !== 'Always' || !st?.killed || (rec.sidecarsStopped ??= new Set()).has(name)) continue;
      rec.sidecarsStopped.add(name);
      this.event(pod, 'Normal', 'Killing', `Stopping container ${name}`);
    }
  }

  /**
   * The prober's and the kubelet's events for a probe that failed: `Unhealthy` for each failure in
   * a row (the recorder aggregates them), then for liveness and startup `Killing` (and the preStop
   * hook's failure); once per run.
   */
  private probeEvents(pod: Pod, rec: PodEventsSent, c: Container, st: ContainerState, podIP: string): void {
    const name = c.name ?? '';
    const failure = st.probeFailure ?? st.terminated?.probe ?? st.last?.probe;
    const runStart = st.probeFailure ? st.runStart : (st.terminated ?? st.last)?.startedAt;
    if (failure && runStart !== undefined && (rec.probeKills ??= new Map()).get(name) !== runStart) {
      rec.probeKills.set(name, runStart);
      const probe = failure.type === 'Liveness' ? c.livenessProbe : c.startupProbe;
      const output = probe ? probeFailureOutput(probe, podIP) : '';
      for (let i = 0; i < failure.failures; i++) this.event(pod, 'Warning', 'Unhealthy', `${failure.type} probe failed: ${output}`);
      const restart = pod.spec?.restartPolicy !== 'Never';
      this.event(pod, 'Normal', 'Killing', `Container ${name} failed ${failure.type.toLowerCase()} probe${restart ? ', will be restarted' : ''}`);
      if (preStopHook(c.lifecycle?.preStop)?.fails) this.event(pod, 'Warning', 'FailedPreStopHook', 'PreStopHook failed');
    }
    if (st.kind === 'running' && st.readinessFailures !== undefined && (rec.unready ??= new Map()).get(name) !== st.runStart) {
      rec.unready.set(name, st.runStart!);
      const output = c.readinessProbe ? probeFailureOutput(c.readinessProbe, podIP) : '';
      for (let i = 0; i < st.readinessFailures; i++) this.event(pod, 'Warning', 'Unhealthy', `Readiness probe failed: ${output}`);
    }
  }

  /** The image manager's events for one container: each pull attempt, its failure and back-off, or why none is made. */
  private imageEvents(pod: Pod, rec: PodEventsSent, name: string, image: string, plan: ImagePlan | undefined, st: ContainerState): void {
    const pull = st.pull;
    if (!plan || !pull || plan.kind === 'present') return;
    const stages = (rec.pullStages ??= new Map()).get(name) ?? new Set<string>();
    rec.pullStages.set(name, stages);
    const once = (stage: string, send: () => void) => {
      if (stages.has(stage)) return;
      stages.add(stage);
      send();
    };
    if (plan.kind === 'invalid' || plan.kind === 'never') {
      once('error', () => {
        const reason = plan.kind === 'invalid' ? 'InvalidImageName' : 'ErrImageNeverPull';
        this.event(pod, 'Warning', plan.kind === 'invalid' ? 'InspectFailed' : 'ErrImageNeverPull', plan.message);
        this.event(pod, 'Warning', 'Failed', `Error: ${reason}`);
      });
      return;
    }
    const k = pull.attempts;
    if (k === 0) return;
    once(`${k}:pulling`, () => this.event(pod, 'Normal', 'Pulling', `Pulling image "${image}"`));
    if (plan.kind !== 'fail') return;
    if (st.waitingReason === 'ErrImagePull' || pull.backingOff) {
      once(`${k}:failed`, () => {
        this.event(pod, 'Warning', 'Failed', `Failed to pull image "${image}": ${plan.error}`);
        this.event(pod, 'Warning', 'Failed', 'Error: ErrImagePull');
      });
    }
    if (pull.backingOff) {
      once(`${k}:backoff`, () => {
        this.event(pod, 'Normal', 'BackOff', `Back-off pulling image "${image}"`);
        this.event(pod, 'Warning', 'Failed', 'Error: ImagePullBackOff');
      });
    }
  }
}
