// One container of a pod run by the process runtime: its runs as real child processes, as the
// kubelet runs a container's instances — started when the pod's timeline says it may start,
// restarted as its restart policy says with the kubelet's back-off (the first at once, then 10 s
// doubling to 5 min, reset after 10 min of running), its startup, readiness and liveness probes
// run on their periods, stopped with SIGTERM and SIGKILL at the end of the grace period.
// Its state is reported in the simulated timeline's terms (../simulate.ts), so phase, conditions
// and container statuses are computed the same way for real and simulated containers.
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { Container, Probe } from '../../api/types.js';
import { BACKOFF_INITIAL_MS, BACKOFF_MAX_MS, type ContainerState, type Kill, type Terminated } from '../simulate.js';
import type { HostCommand } from './host-command.js';
import { runProbe, type ProbeResult } from './probe.js';

const BACKOFF_RESET_MS = 600_000;
/** How much of a run's output is kept for a FallbackToLogsOnError termination message (the kubelet: 2 KiB). */
const TAIL_BYTES = 2048;

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';

export interface ContainerProcessEnv {
  command: HostCommand;
  env: Record<string, string>;
  cwd: string;
  podIP: string;
}

export interface ContainerProcessHooks {
  now(): number;
  /** The container's state changed by itself (a process started, exited, became ready). */
  changed(): void;
  /** A line the process printed, in the run `restartCount` that started at `runStart`. */
  output(restartCount: number, runStart: number, text: string, at: number): void;
  /** A kubelet event about the container (Unhealthy, Killing). */
  event(type: 'Normal' | 'Warning', reason: string, message: string): void;
}

interface Run {
  child: ChildProcess;
  start: number;
  ended?: Terminated;
  /** SIGTERM sent (the pod's kill, or a failed liveness probe). */
  stopping: boolean;
  /** Stopped because the pod is being killed: it does not restart. */
  forPodKill: boolean;
  ready: boolean;
  started: boolean;
  tail: string;
  timers: Set<NodeJS.Timeout>;
}

export class ContainerProcess {
  private run: Run | undefined;
  private restarts = 0;
  private last: Terminated | undefined;
  private backoffMs = 0;
  private restartAt: number | undefined;
  private closed = false;

  constructor(
    readonly container: Container,
    private readonly proc: ContainerProcessEnv,
    private readonly hooks: ContainerProcessHooks,
    /** The pod's terminationGracePeriodSeconds, for a liveness probe's kill. */
    private readonly podGraceSeconds: number,
  ) {}

  get env(): Record<string, string> {
    return this.proc.env;
  }

  get cwd(): string {
    return this.proc.cwd;
  }

  get pid(): number | undefined {
    return this.run && !this.run.ended ? this.run.child.pid : undefined;
  }

  /** The state at `now`, starting or stopping the process as the pod's timeline asks. */
  state(policy: RestartPolicy, kill: Kill | undefined, now: number, label: string): ContainerState {
    const run = this.run;
    if (kill && now >= kill.at) {
      if (run && !run.ended) {
        this.stop(run, kill.hard ? 0 : Math.max(0, kill.at + kill.graceMs - now), true);
        return this.running(run, false);
      }
      if (run?.ended && this.restartAt === undefined) return this.terminated(run.ended);
      return { kind: 'waiting', waitingReason: this.last ? 'CrashLoopBackOff' : 'ContainerCreating', ready: false, restartCount: this.restarts, ...(this.last ? { last: this.last } : {}), killed: false };
    }
    if (run && !run.ended) return this.running(run, run.ready && run.started);
    if (run?.ended) {
      if (this.restartAt === undefined) return this.terminated(run.ended);
      if (now < this.restartAt) {
        return {
          kind: 'waiting',
          waitingReason: 'CrashLoopBackOff',
          waitingMessage: `back-off ${Math.round(this.backoffMs / 1000)}s restarting failed container=${label}`,
          ready: false,
          restartCount: this.restarts,
          last: run.ended,
          next: this.restartAt,
          killed: false,
          backoffMs: this.backoffMs,
        };
      }
      this.last = run.ended;
      this.restarts++;
      this.restartAt = undefined;
      this.backoffMs = this.backoffMs === 0 ? BACKOFF_INITIAL_MS : Math.min(this.backoffMs * 2, BACKOFF_MAX_MS);
    }
    return this.running(this.spawn(policy, label), false);
  }

  private running(run: Run, ready: boolean): ContainerState {
    if (run.ended) return this.terminated(run.ended);
    return { kind: 'running', runStart: run.start, ready, restartCount: this.restarts, ...(this.last ? { last: this.last } : {}), killed: false };
  }

  private terminated(t: Terminated): ContainerState {
    return { kind: 'terminated', ready: false, restartCount: this.restarts, terminated: t, ...(this.last ? { last: this.last } : {}), killed: t.killed };
  }

  private spawn(policy: RestartPolicy, label: string): Run {
    const start = this.hooks.now();
    const restartCount = this.restarts;
    // its own process group, so that a stop reaches what a shell started too
    const child = spawn(this.proc.command.file, this.proc.command.args, { cwd: this.proc.cwd, env: this.proc.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const run: Run = { child, start, stopping: false, forPodKill: false, ready: !this.container.readinessProbe, started: !this.container.startupProbe, tail: '', timers: new Set() };
    this.run = run;
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        run.tail = (run.tail + chunk).slice(-TAIL_BYTES);
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        const at = this.hooks.now();
        for (const line of lines) this.hooks.output(restartCount, start, line, at);
      });
      stream?.on('end', () => {
        if (partial !== '') this.hooks.output(restartCount, start, partial, this.hooks.now());
        partial = '';
      });
    }
    child.once('error', (e) => this.exited(run, policy, { code: 128, reason: 'StartError', message: e.message }));
    child.once('exit', (code, signal) => {
      const exitCode = exitStatus(code, signal);
      this.exited(run, policy, { code: exitCode, reason: exitCode === 0 ? 'Completed' : 'Error' });
    });
    this.startProbes(run, label);
    return run;
  }

  private exited(run: Run, policy: RestartPolicy, how: { code: number; reason: string; message?: string }): void {
    if (run.ended) return;
    for (const t of run.timers) clearTimeout(t);
    run.timers.clear();
    const end = this.hooks.now();
    let message = how.message;
    if (message === undefined && how.code !== 0 && this.container.terminationMessagePolicy === 'FallbackToLogsOnError' && run.tail !== '') message = run.tail;
    run.ended = { exitCode: how.code, reason: how.reason, ...(message !== undefined ? { message } : {}), startedAt: run.start, finishedAt: end, killed: run.forPodKill };
    const restart = !run.forPodKill && !this.closed && (policy === 'Always' || (policy === 'OnFailure' && how.code !== 0));
    if (restart) {
      if (end - run.start >= BACKOFF_RESET_MS) this.backoffMs = 0;
      this.restartAt = end + this.backoffMs;
    }
    this.hooks.changed();
  }

  /** SIGTERM to the process group, SIGKILL after `graceMs` (at once with 0). */
  private stop(run: Run, graceMs: number, forPodKill: boolean): void {
    if (forPodKill) run.forPodKill = true;
    if (run.stopping) return;
    run.stopping = true;
    run.ready = false;
    signalGroup(run.child, graceMs === 0 ? 'SIGKILL' : 'SIGTERM');
    if (graceMs > 0) {
      const t = setTimeout(() => signalGroup(run.child, 'SIGKILL'), graceMs);
      run.timers.add(t);
    }
  }

  /** Stops the process at once (the pod is gone from the node, or the agent stops): resolves when it exited. */
  close(graceMs: number): Promise<void> {
    this.closed = true;
    this.restartAt = undefined;
    const run = this.run;
    if (!run || run.ended) return Promise.resolve();
    return new Promise((resolve) => {
      run.child.once('exit', () => resolve());
      run.child.once('error', () => resolve());
      this.stop(run, graceMs, true);
      if (run.ended) resolve();
    });
  }

  private startProbes(run: Run, label: string): void {
    const c = this.container;
    const target = { podIP: this.proc.podIP, container: c, env: this.proc.env, cwd: this.proc.cwd };
    const loop = (probe: Probe, kind: 'Startup' | 'Readiness' | 'Liveness', onResult: (ok: boolean, r: ProbeResult) => boolean) => {
      const period = Math.max(1, probe.periodSeconds ?? 10) * 1000;
      const tick = async () => {
        if (run.ended || run.stopping || (kind !== 'Startup' && !run.started)) return schedule(period);
        const r = await runProbe(probe, target);
        if (run.ended || run.stopping) return;
        if (!r.ok) this.hooks.event('Warning', 'Unhealthy', `${kind} probe failed: ${r.message}`);
        if (onResult(r.ok, r)) schedule(period);
      };
      const schedule = (ms: number) => {
        if (run.ended) return;
        const t = setTimeout(() => {
          run.timers.delete(t);
          void tick();
        }, ms);
        run.timers.add(t);
      };
      schedule(Math.max(0, probe.initialDelaySeconds ?? 0) * 1000);
    };
    const thresholds = (probe: Probe) => ({ success: Math.max(1, probe.successThreshold ?? 1), failure: Math.max(1, probe.failureThreshold ?? 3) });
    if (c.startupProbe) {
      const probe = c.startupProbe;
      const t = thresholds(probe);
      let failures = 0;
      loop(probe, 'Startup', (ok) => {
        if (ok) {
          run.started = true;
          this.hooks.changed();
          return false;
        }
        if (++failures >= t.failure) this.failedProbe(run, probe, label, 'startup');
        return true;
      });
    }
    if (c.readinessProbe) {
      const t = thresholds(c.readinessProbe);
      let successes = 0;
      let failures = 0;
      loop(c.readinessProbe, 'Readiness', (ok) => {
        if (ok) {
          failures = 0;
          if (++successes >= t.success && !run.ready) {
            run.ready = true;
            this.hooks.changed();
          }
        } else {
          successes = 0;
          if (++failures >= t.failure && run.ready) {
            run.ready = false;
            this.hooks.changed();
          }
        }
        return true;
      });
    }
    if (c.livenessProbe) {
      const probe = c.livenessProbe;
      const t = thresholds(probe);
      let failures = 0;
      loop(probe, 'Liveness', (ok) => {
        if (ok) failures = 0;
        else if (++failures >= t.failure) {
          this.failedProbe(run, probe, label, 'liveness');
          return false;
        }
        return true;
      });
    }
  }

  /** A liveness (or startup) probe failed its threshold: the kubelet kills the container, which restarts as its policy says. */
  private failedProbe(run: Run, probe: Probe, label: string, kind: 'liveness' | 'startup'): void {
    this.hooks.event('Normal', 'Killing', `Container ${label} failed ${kind} probe, will be restarted`);
    const grace = probe.terminationGracePeriodSeconds ?? this.podGraceSeconds;
    this.stop(run, Math.max(0, grace) * 1000, false);
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* gone already */
    }
  }
}

/** A process's exit status as a shell reports it: its code, or 128 + the signal that ended it. */
export function exitStatus(code: number | null, signal: NodeJS.Signals | null): number {
  return code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
}
