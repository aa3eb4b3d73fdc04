// The container logs of the pods a node agent runs: for each container its current and previous
// run (the kubelet keeps the logs of the running and the last terminated instance), fed from the
// pod's simulated states as the agent computes them (observe), and the container statuses last
// computed, which say which run a request for logs reads (logStatus.ts).
//
// What a run's log holds (README.md, "Container logs"): kubelite's lifecycle lines, the pod's
// `kubelite.dev/log` lines, its command's `echo` output (script-output.ts), the host file of
// `kubelite.dev/log-file`, and at its end the exit code and termination message.
import { annotationsOf, uidOf } from '../../api/meta/object.js';
import type { Container, ContainerStatus, Pod } from '../../api/types.js';
import { ANNOTATION_PREFIX } from '../behaviour.js';
import { containerID, normalizeImage, type ContainerState, type SimulateResult } from '../simulate.js';
import { ContainerLog } from './container-log.js';
import { commandOutput, type Horizon, type PrintedLine } from './script-output.js';

export const LOG_ANNOTATION = `${ANNOTATION_PREFIX}log`;
export const LOG_FILE_ANNOTATION = `${ANNOTATION_PREFIX}log-file`;
/** Prefix of the lines kubelite itself writes into a container's log. */
export const LIFECYCLE_PREFIX = '[kubelite] ';

interface PodLogs {
  /** Container name → its runs, oldest first (at most two: previous and current). */
  runs: Map<string, ContainerLog[]>;
  statuses: ContainerStatus[];
}

/** A container's annotation: `kubelite.dev/<container>.<key>`, else `kubelite.dev/<key>`. */
function annotation(pod: Pod, container: string, key: string): string | undefined {
  const a = annotationsOf(pod);
  return a[`${ANNOTATION_PREFIX}${container}.${key}`] ?? a[`${ANNOTATION_PREFIX}${key}`];
}

function* startLines(pod: Pod, c: Container, horizon: Horizon, real: boolean): Generator<PrintedLine> {
  const name = c.name ?? '';
  yield { offsetMs: 0, text: `${LIFECYCLE_PREFIX}started container ${name} (image ${normalizeImage(c.image ?? '').ref})` };
  // a container run as a real process prints for itself
  if (real) return;
  const literal = annotation(pod, name, 'log');
  if (literal !== undefined) for (const text of literal.replace(/\n$/, '').split('\n')) yield { offsetMs: 0, text };
  yield* commandOutput(c, new Map([['HOSTNAME', pod.metadata?.name ?? '']]), horizon);
}

function endLines(name: string, t: { exitCode: number; reason: string; message?: string }): string[] {
  const lines = [`${LIFECYCLE_PREFIX}container ${name} exited with code ${t.exitCode} (${t.reason})`];
  if (t.message !== undefined && t.message !== '') for (const m of t.message.replace(/\n$/, '').split('\n')) lines.push(`${LIFECYCLE_PREFIX}termination message: ${m}`);
  return lines;
}

export class ContainerLogs {
  private readonly pods = new Map<string, PodLogs>();

  constructor(
    private readonly now: () => number,
    private readonly maxBytes?: number,
  ) {}

  /**
   * Brings the logs of `pod` up to its simulated state `result`. `real`: the containers run as
   * processes (their output is what they print, written with `printed`).
   */
  observe(pod: Pod, result: SimulateResult, real?: (c: Container) => boolean): void {
    const uid = uidOf(pod);
    let logs = this.pods.get(uid);
    if (!logs) this.pods.set(uid, (logs = { runs: new Map(), statuses: [] }));
    logs.statuses = [...(result.status.initContainerStatuses ?? []), ...(result.status.containerStatuses ?? []), ...(result.status.ephemeralContainerStatuses ?? [])];
    const spec = pod.spec ?? {};
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...((spec.ephemeralContainers ?? []) as Container[])]) {
      const name = c.name ?? '';
      const st = result.initContainers.get(name) ?? result.containers.get(name) ?? result.ephemeralContainers.get(name);
      if (st) this.observeContainer(pod, uid, c, st, logs, real?.(c) === true);
    }
  }

  /** A line a container run as a process printed, in its run `restartCount` started at `runStart`. */
  printed(pod: Pod, c: Container, restartCount: number, runStart: number, text: string, at: number): void {
    const uid = uidOf(pod);
    let logs = this.pods.get(uid);
    if (!logs) this.pods.set(uid, (logs = { runs: new Map(), statuses: [] }));
    this.runOf(pod, uid, c, logs, containerID(uid, c.name ?? '', restartCount), runStart, true, false).write({ at, text });
  }

  private observeContainer(pod: Pod, uid: string, c: Container, st: ContainerState, logs: PodLogs, real: boolean): void {
    const name = c.name ?? '';
    if (st.last) logs.runs.get(name)?.find((r) => r.id === containerID(uid, name, Math.max(0, st.restartCount - 1)))?.end(st.last.finishedAt, endLines(name, st.last));
    const runStart = st.kind === 'running' ? st.runStart : st.kind === 'terminated' ? st.terminated?.startedAt : undefined;
    if (runStart === undefined) return;
    const run = this.runOf(pod, uid, c, logs, containerID(uid, name, st.restartCount), runStart, real, st.kind === 'running');
    if (st.kind === 'terminated' && st.terminated) run.end(st.terminated.finishedAt, endLines(name, st.terminated));
  }

  /** The log of run `id`, begun at `runStart` when it is new. */
  private runOf(pod: Pod, uid: string, c: Container, logs: PodLogs, id: string, runStart: number, real: boolean, running: boolean): ContainerLog {
    const name = c.name ?? '';
    let runs = logs.runs.get(name);
    if (!runs) logs.runs.set(name, (runs = []));
    let run = runs.find((r) => r.id === id);
    if (!run) {
      // A run the agent did not see end (it restarted in between) ends where the new one starts.
      for (const r of runs) r.end(runStart, []);
      const horizon: Horizon = { untilMs: 0, keepBytes: 0 };
      run = new ContainerLog(id, runStart, startLines(pod, c, horizon, real), this.maxBytes, horizon);
      run.catchUp(this.now());
      const file = annotation(pod, name, 'log-file');
      if (file !== undefined && file !== '' && running && !real) run.followFile(file, this.now);
      runs.push(run);
      while (runs.length > 2) runs.shift()!.close(this.now());
    }
    return run;
  }

  /** The run of `containerID` of a container of pod `uid`. */
  run(uid: string, container: string, id: string): ContainerLog | undefined {
    return this.pods.get(uid)?.runs.get(container)?.find((r) => r.id === id);
  }

  /** The container statuses last computed for pod `uid` (init, regular, ephemeral). */
  statuses(uid: string): readonly ContainerStatus[] | undefined {
    return this.pods.get(uid)?.statuses;
  }

  /** Drops the logs of a pod that is gone (the kubelet removes its containers and their logs). */
  forget(uid: string): void {
    const logs = this.pods.get(uid);
    if (!logs) return;
    for (const runs of logs.runs.values()) for (const r of runs) r.close(this.now());
    this.pods.delete(uid);
  }
}
