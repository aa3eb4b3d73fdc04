// The kubelet's probes on the simulated timeline: when a startup probe first succeeds, when a
// liveness or startup probe has failed failureThreshold times in a row (the container is killed),
// and when a readiness probe makes a container unready. Pure: times are milliseconds from a run's start.
import type { LifecycleHandler, Probe } from '../api/types.js';
import { parseShellForm } from './shell-form.js';

export type ProbeType = 'Liveness' | 'Readiness' | 'Startup';

/** A probe whose failures kill the container (liveness, or a startup probe that never succeeds in time). */
export interface ProbeKill {
  probe: 'Liveness' | 'Startup';
  /** When the kubelet decides to kill it (the failureThreshold-th failure). */
  afterMs: number;
  /** Failures in a row up to then (each an `Unhealthy` event). */
  failures: number;
  /** The grace period of that kill: the probe's terminationGracePeriodSeconds, else the pod's. */
  graceMs: number;
}

/** The kubelet's defaults for a probe's fields (the API server sets them too; pods built in tests may not have them). */
function timing(p: Probe): { delayMs: number; periodMs: number; failures: number } {
  const period = typeof p.periodSeconds === 'number' && p.periodSeconds > 0 ? p.periodSeconds : 10;
  const failures = typeof p.failureThreshold === 'number' && p.failureThreshold > 0 ? p.failureThreshold : 3;
  const delay = typeof p.initialDelaySeconds === 'number' && p.initialDelaySeconds > 0 ? p.initialDelaySeconds : 0;
  return { delayMs: delay * 1000, periodMs: period * 1000, failures };
}

/**
 * The first probe at or after `fromMs`. A probe worker ticks every period from the container's start
 * and skips the ticks before initialDelaySeconds.
 */
export function probeAtOrAfter(p: Probe, fromMs: number): number {
  const { delayMs, periodMs } = timing(p);
  const from = Math.max(fromMs, delayMs, 0);
  return Math.ceil(from / periodMs) * periodMs;
}

/** When the failureThreshold-th failure in a row happens, for a probe failing from `failingFromMs`. */
export function failedAt(p: Probe, failingFromMs: number): { atMs: number; failures: number } {
  const { periodMs, failures } = timing(p);
  return { atMs: probeAtOrAfter(p, failingFromMs) + (failures - 1) * periodMs, failures };
}

/**
 * When a startup probe succeeds (the first probe at or after `succeedsAfterMs`), or, if it fails
 * failureThreshold times first, the kill.
 */
export function startupOutcome(p: Probe, succeedsAfterMs: number, graceMs: number): { startedAfterMs: number } | { kill: ProbeKill } {
  const success = probeAtOrAfter(p, succeedsAfterMs);
  const failed = failedAt(p, 0);
  if (success <= failed.atMs && succeedsAfterMs !== Infinity) return { startedAfterMs: success };
  return { kill: { probe: 'Startup', afterMs: failed.atMs, failures: failed.failures, graceMs: probeGraceMs(p, graceMs) } };
}

/** A liveness probe failing from `failingFromMs` (but probed only once the container started). */
export function livenessKill(p: Probe, failingFromMs: number, startedAfterMs: number, graceMs: number): ProbeKill {
  const failed = failedAt(p, Math.max(failingFromMs, startedAfterMs));
  return { probe: 'Liveness', afterMs: failed.atMs, failures: failed.failures, graceMs: probeGraceMs(p, graceMs) };
}

function probeGraceMs(p: Probe, podGraceMs: number): number {
  return typeof p.terminationGracePeriodSeconds === 'number' ? p.terminationGracePeriodSeconds * 1000 : podGraceMs;
}

/** What a failing probe reports after `<type> probe failed: ` (the prober's output for its handler). */
export function probeFailureOutput(p: Probe, podIP: string): string {
  if (p.httpGet) return 'HTTP probe failed with statuscode: 500';
  if (p.tcpSocket) return `dial tcp ${podIP}:${String(p.tcpSocket.port)}: connect: connection refused`;
  if (p.grpc) return 'service unhealthy (responded with "NOT_SERVING")';
  // an exec probe reports the command's output: a simulated command prints nothing
  return '';
}

/** The preStop hook as run: how long it takes, and whether it fails (a FailedPreStopHook event). */
export function preStopHook(h: LifecycleHandler | null | undefined): { ms: number; fails: boolean } | undefined {
  if (!h) return undefined;
  if (h.sleep && typeof h.sleep.seconds === 'number') return { ms: Math.max(0, h.sleep.seconds) * 1000, fails: false };
  if (h.exec) {
    const form = parseShellForm(h.exec.command ?? undefined, undefined);
    const seconds = form?.forever ? Infinity : (form?.runSeconds ?? 0);
    return { ms: seconds * 1000, fails: (form?.exitCode ?? 0) !== 0 };
  }
  return { ms: 0, fails: false };
}

/**
 * How long a container takes to stop once the kubelet decides to kill it with `graceMs`, and how it
 * exits: the preStop hook runs first (up to the grace period), then SIGTERM with what is left of it
 * (at least 2 s after a hook, the kubelet's minimum), then SIGKILL.
 */
export function stopping(graceMs: number, stopMs: number, preStopMs: number | undefined): { ms: number; exitCode: 0 | 137 } {
  if (preStopMs === undefined) return stopMs <= graceMs ? { ms: stopMs, exitCode: 0 } : { ms: graceMs, exitCode: 137 };
  const hook = Math.min(preStopMs, graceMs);
  const left = Math.max(graceMs - hook, 2000);
  return stopMs <= left ? { ms: hook + stopMs, exitCode: 0 } : { ms: hook + left, exitCode: 137 };
}
