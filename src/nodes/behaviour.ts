// How a simulated container behaves: from annotations on its pod, the common shell forms of its
// command/args, its readiness probe, and cluster-wide defaults (see README.md in this folder).
import { annotationsOf } from '../api/meta/object.js';
import { limitOf, podDemand } from '../api/metrics/usage.js';
import type { Container, Pod } from '../api/types.js';
import { failedAt, livenessKill, preStopHook, startupOutcome, type ProbeKill } from './probes.js';
import { parseShellForm } from './shell-form.js';


export const ANNOTATION_PREFIX = 'kubelite.dev/';

/** What one container does once started. Times in milliseconds; Infinity: forever. */
export interface ContainerBehaviour {
  /** How long a run lasts before the process exits (Infinity: until stopped). */
  runMs: number;
  exitCode: number;
  /** Ready this long after each start. */
  readyAfterMs: number;
  neverReady: boolean;
  /** How long the process takes to exit after SIGTERM (Infinity: only the grace period's SIGKILL stops it). */
  stopMs: number;
  /** The termination message written when it exits on its own. */
  terminationMessage?: string;
  /** The reason its exits report (default: Completed for 0, Error otherwise). */
  exitReason?: string;
  /** The pull before each restart (imagePullPolicy Always pulls again). */
  restartPullMs?: number;
  /** Started (`started: true`, probes other than startup run) this long after each start: its startup probe's first success. */
  startedAfterMs?: number;
  /** A liveness or startup probe that fails and kills each run. */
  probeKill?: ProbeKill;
  /** Unready (a readiness probe failing failureThreshold times) this long after each start. */
  unreadyAfterMs?: number;
  /** The readiness probe's failureThreshold (its failures in a row until unready). */
  unreadyFailures?: number;
  /** When the kubelet restarts the container to apply a resize (absolute times), and the grace period of those stops. */
  restartsAt?: readonly number[];
  restartGraceMs?: number;
  /** The preStop hook: how long it runs, and whether it fails. */
  preStop?: { ms: number; fails: boolean };
}

/** Cluster-wide defaults (flags of `kubelite nodes`). Seconds. */
export interface BehaviourDefaults {
  /** Run time of restartPolicy Never/OnFailure pods' containers (default 1). */
  jobRunSeconds: number;
  /** Run time of restartPolicy Always pods' containers (default Infinity: forever). */
  serviceRunSeconds: number;
  exitCode: number;
  readyAfterSeconds: number;
  /**
   * Time a container takes to exit on SIGTERM. Undefined (the default): as real processes do — a
   * recognised shell form (`sleep`, `sh -c`) runs as PID 1 and ignores SIGTERM, so it stops when
   * its run or the grace period ends; any other command (a server such as nginx) exits at once.
   */
  stopSeconds?: number;
}

/** How long a container whose memory outgrows its limit runs before the kernel's OOM killer ends it (exit 137). */
export const OOM_KILL_AFTER_MS = 1000;

export const DEFAULT_BEHAVIOUR: BehaviourDefaults = { jobRunSeconds: 1, serviceRunSeconds: Infinity, exitCode: 0, readyAfterSeconds: 0 };

function parseNumber(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const s = v.trim();
  if (s === 'infinity' || s === 'forever' || s === 'inf') return Infinity;
  if (s === '') return undefined;
  const n = Number(s.replace(/s$/, ''));
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function parseBool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  return v === 'true' || v === '1' || v === 'yes';
}

/**
 * The behaviour of one container of a pod. Precedence: per-container annotation
 * (`kubelite.dev/<container>.<key>`), pod annotation (`kubelite.dev/<key>`), the shell form of its
 * command, its readiness probe (readiness only), the defaults.
 */
export function containerBehaviour(pod: Pod, container: Container, defaults: BehaviourDefaults = DEFAULT_BEHAVIOUR, restartPolicy?: string): ContainerBehaviour {
  const annotations = annotationsOf(pod);
  const name = container.name ?? '';
  const get = (key: string): string | undefined => annotations[`${ANNOTATION_PREFIX}${name}.${key}`] ?? annotations[`${ANNOTATION_PREFIX}${key}`];
  const rp = restartPolicy ?? pod.spec?.restartPolicy ?? 'Always';
  const shell = parseShellForm(container.command ?? undefined, container.args ?? undefined);

  let runSeconds = rp === 'Always' ? defaults.serviceRunSeconds : defaults.jobRunSeconds;
  let exitCode = defaults.exitCode;
  if (shell) {
    if (shell.forever) runSeconds = Infinity;
    else if (shell.runSeconds !== undefined) runSeconds = shell.runSeconds;
    if (shell.exitCode !== undefined) exitCode = shell.exitCode;
  }
  const crash = parseNumber(get('crash-after-seconds'));
  if (crash !== undefined) {
    runSeconds = crash;
    exitCode = 1;
  }
  const run = parseNumber(get('run-seconds'));
  if (run !== undefined) runSeconds = run;
  const code = get('exit-code');
  if (code !== undefined && /^\d+$/.test(code.trim())) exitCode = Number(code.trim()) % 256;

  const probes = probeBehaviour(pod, container, get);
  const probeDelay = container.readinessProbe?.initialDelaySeconds;
  let readyAfter = defaults.readyAfterSeconds;
  if (typeof probeDelay === 'number') readyAfter = probeDelay;
  const ra = parseNumber(get('ready-after-seconds'));
  if (ra !== undefined) readyAfter = ra;
  // readiness probes run only once the startup probe succeeded
  const startedAfterMs = probes.startedAfterMs ?? 0;
  if (startedAfterMs > readyAfter * 1000) readyAfter = startedAfterMs / 1000;
  const neverReady = parseBool(get('never-ready')) ?? false;
  const stop = parseNumber(get('stop-seconds')) ?? defaults.stopSeconds ?? (shell ? Infinity : 0);
  const msg = get('termination-message');
  // A container that would use more memory than its limit (kubelite.dev/usage) is OOM-killed in each run.
  const limit = limitOf(container, 'memory');
  const demand = limit && (pod.spec?.containers ?? []).includes(container) ? podDemand(pod).containers.find((c) => c.name === name)?.usage.memory : undefined;
  const oom = limit !== undefined && demand !== undefined && demand.cmp(limit) > 0 && runSeconds * 1000 >= OOM_KILL_AFTER_MS;
  return {
    runMs: oom ? Math.min(runSeconds * 1000, OOM_KILL_AFTER_MS) : runSeconds * 1000,
    exitCode: oom ? 137 : exitCode,
    ...(oom ? { exitReason: 'OOMKilled' } : {}),
    readyAfterMs: readyAfter === Infinity ? Infinity : readyAfter * 1000,
    neverReady: neverReady || readyAfter === Infinity,
    stopMs: stop * 1000,
    ...(msg !== undefined ? { terminationMessage: msg } : {}),
    ...probes,
  };
}

/**
 * The container's probes as the simulation runs them: a startup probe succeeds at its first probe
 * from `startup-after-seconds` (0: the first one) unless failureThreshold failures come first; a
 * liveness probe fails from `liveness-fail-after-seconds`, a readiness probe from
 * `readiness-fail-after-seconds` (neither runs before the container started); without those
 * annotations probes succeed.
 */
function probeBehaviour(pod: Pod, c: Container, get: (key: string) => string | undefined): Pick<ContainerBehaviour, 'startedAfterMs' | 'probeKill' | 'unreadyAfterMs' | 'unreadyFailures' | 'preStop'> {
  const tgps = pod.spec?.terminationGracePeriodSeconds;
  const graceMs = (typeof tgps === 'number' ? tgps : 30) * 1000;
  let startedAfterMs = 0;
  let probeKill: ProbeKill | undefined;
  if (c.startupProbe) {
    const outcome = startupOutcome(c.startupProbe, (parseNumber(get('startup-after-seconds')) ?? 0) * 1000, graceMs);
    if ('kill' in outcome) {
      probeKill = outcome.kill;
      startedAfterMs = Infinity;
    } else startedAfterMs = outcome.startedAfterMs;
  }
  const livenessFails = parseNumber(get('liveness-fail-after-seconds'));
  if (!probeKill && c.livenessProbe && livenessFails !== undefined && livenessFails !== Infinity) {
    probeKill = livenessKill(c.livenessProbe, livenessFails * 1000, startedAfterMs, graceMs);
  }
  const readinessFails = parseNumber(get('readiness-fail-after-seconds'));
  const unready = c.readinessProbe && readinessFails !== undefined && readinessFails !== Infinity ? failedAt(c.readinessProbe, Math.max(readinessFails * 1000, startedAfterMs)) : undefined;
  const preStop = preStopHook(c.lifecycle?.preStop);
  return { startedAfterMs, ...(probeKill ? { probeKill } : {}), ...(unready ? { unreadyAfterMs: unready.atMs, unreadyFailures: unready.failures } : {}), ...(preStop ? { preStop } : {}) };
}
