// The pod timeline: given when the node accepted a pod, how its containers behave, and whether it
// is being deleted, the status a kubelet would report at a moment — and when it next changes.
// Pure (no I/O, no clock): the agent calls it whenever a pod's timer fires or the pod changes.
import { createHash } from 'node:crypto';
import { nameOf, namespaceOf, uidOf } from '../api/meta/object.js';
import type { Container, ContainerState as ReportedState, ContainerStatus, Pod, PodCondition, PodStatus } from '../api/types.js';
import { containerBehaviour, DEFAULT_BEHAVIOUR, type BehaviourDefaults, type ContainerBehaviour } from './behaviour.js';
import { IMAGE_BACKOFF_INITIAL_MS, pullTimeline, type ImagePlan, type PullState } from './image-pull.js';
import { stopping } from './probes.js';
import { containerResources, type Allocation } from './resize.js';

export const BACKOFF_INITIAL_MS = 10_000;
export const BACKOFF_MAX_MS = 300_000;
/** A container that ran this long resets its crash back-off (kubelet: 2 × the maximum back-off). */
const BACKOFF_RESET_MS = 600_000;
const DEADLINE_MESSAGE = 'Pod was active on the node longer than the specified deadline';

export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** `nginx` → `docker.io/library/nginx:latest` (the registry, repository and tag a runtime reports). */
export function normalizeImage(image: string): { ref: string; repo: string } {
  let name = image;
  let tag = '';
  const at = name.indexOf('@');
  if (at >= 0) name = name.slice(0, at);
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon > slash) {
    tag = name.slice(colon + 1);
    name = name.slice(0, colon);
  }
  const first = name.split('/')[0]!;
  if (!name.includes('/')) name = `docker.io/library/${name}`;
  else if (!first.includes('.') && !first.includes(':') && first !== 'localhost') name = `docker.io/${name}`;
  const ref = at >= 0 ? `${name}${image.slice(image.indexOf('@'))}` : `${name}:${tag || 'latest'}`;
  return { ref, repo: name };
}

export function imageID(image: string): string {
  const { repo } = normalizeImage(image);
  const at = image.indexOf('@');
  return at >= 0 ? `${repo}${image.slice(at)}` : `${repo}@sha256:${sha256(`image:${normalizeImage(image).ref}`)}`;
}

export function containerID(podUID: string, name: string, restartCount: number): string {
  return `kubelite://${sha256(`${podUID}/${name}/${restartCount}`)}`;
}

/** When the pod stops: a deletion (SIGTERM, then SIGKILL at the grace period's end) or the active deadline (at once). */
export interface Kill {
  at: number;
  graceMs: number;
  hard: boolean;
}

/** How a container run ended. */
export interface Terminated {
  exitCode: number;
  reason: string;
  message?: string;
  startedAt: number;
  finishedAt: number;
  killed: boolean;
  /** The probe whose failures ended the run. */
  probe?: ProbeFailure;
  /** Stopped by the kubelet to be started again at once (an in-place resize with RestartContainer). */
  restartNow?: boolean;
}

/** A liveness or startup probe that failed failureThreshold times: when the kubelet decided to kill the container. */
export interface ProbeFailure {
  type: 'Liveness' | 'Startup';
  at: number;
  failures: number;
}

/** One container's state at a moment. */
export interface ContainerState {
  kind: 'waiting' | 'running' | 'terminated';
  waitingReason?: string;
  waitingMessage?: string;
  runStart?: number;
  /** Running and past its startup probe (`started`). */
  started?: boolean;
  ready: boolean;
  restartCount: number;
  terminated?: Terminated;
  last?: Terminated;
  /** The next moment this container's state changes (undefined: never, by itself). */
  next?: number;
  /** Whether the container was stopped by the kill. */
  killed: boolean;
  /** The current back-off when waiting in CrashLoopBackOff. */
  backoffMs?: number;
  /** A running container made unready by its readiness probe: the failures in a row that did it. */
  readinessFailures?: number;
  /** A running container being killed for its failed probe. */
  probeFailure?: ProbeFailure;
  /** Where its image stands (absent: the container has no image plan). */
  pull?: PullState;
}

type RunEnding = Pick<Terminated, 'exitCode' | 'reason' | 'killed' | 'probe' | 'restartNow'>;

/** How a stopped process exits: 0 when it handled SIGTERM in time, 137 when SIGKILL ended it. */
const exitOf = (stop: { exitCode: 0 | 137 }): Pick<Terminated, 'exitCode' | 'reason'> => ({ exitCode: stop.exitCode, reason: stop.exitCode === 0 ? 'Completed' : 'Error' });

/**
 * When a run that started at `runStart` ends, and how: its natural end, a probe's kill (the preStop
 * hook, SIGTERM, SIGKILL at the probe's grace period's end), a resize's restart, or the pod's
 * `kill`; `stoppingFrom`: when the kubelet started stopping it (not ready from then).
 */
function runEnd(b: ContainerBehaviour, runStart: number, kill: Kill | undefined): { end: number; stoppingFrom: number; term?: RunEnding } {
  let end = runStart + b.runMs;
  let stoppingFrom = Infinity;
  let term: RunEnding | undefined;
  const pk = b.probeKill;
  const probeAt = pk ? runStart + pk.afterMs : Infinity;
  if (pk && probeAt < end && !(kill && kill.at <= probeAt)) {
    const stop = stopping(pk.graceMs, b.stopMs, b.preStop?.ms);
    if (probeAt + stop.ms < end) {
      [end, stoppingFrom] = [probeAt + stop.ms, probeAt];
      term = { ...exitOf(stop), killed: false, probe: { type: pk.probe, at: probeAt, failures: pk.failures } };
    }
  }
  // a resize that restarts the container (RestartContainer): stopped as for any kill, started again at once
  const restartAt = b.restartsAt?.find((t) => t > runStart && t < end && !(kill && kill.at <= t));
  if (restartAt !== undefined) {
    const stop = stopping(b.restartGraceMs ?? 30_000, b.stopMs, b.preStop?.ms);
    if (restartAt + stop.ms < end) {
      [end, stoppingFrom] = [restartAt + stop.ms, restartAt];
      term = { ...exitOf(stop), killed: false, restartNow: true };
    }
  }
  if (kill && kill.at < end) {
    const stop = kill.hard ? { ms: 0, exitCode: 137 as const } : stopping(kill.graceMs, b.stopMs, b.preStop?.ms);
    const killEnd = Math.max(runStart, kill.at + stop.ms);
    stoppingFrom = Math.min(stoppingFrom, kill.at);
    if (killEnd < end) {
      end = killEnd;
      term = { ...exitOf(stop), killed: true };
    }
  }
  return { end, stoppingFrom, ...(term ? { term } : {}) };
}

/**
 * One container's life from `start`: runs of `b.runMs` (or until a probe kills them), exits with
 * `b.exitCode`, restarts as `policy` says with back-off (the first restart at once, then 10 s
 * doubling to 5 min), stopped by `kill`.
 */
export function containerTimeline(b: ContainerBehaviour, policy: 'Always' | 'OnFailure' | 'Never', start: number, now: number, kill: Kill | undefined, label = ''): ContainerState {
  let runStart = start;
  let restarts = 0;
  let backoff = 0;
  let last: Terminated | undefined;
  for (;;) {
    if (kill && (runStart > kill.at || (last !== undefined && runStart >= kill.at))) {
      return { kind: 'waiting', waitingReason: last ? 'CrashLoopBackOff' : 'ContainerCreating', ready: false, restartCount: restarts, ...(last ? { last } : {}), killed: false };
    }
    const { end, stoppingFrom, term: ended } = runEnd(b, runStart, kill);
    const killed = ended?.killed === true;
    if (now < end) {
      const startedAt = runStart + (b.startedAfterMs ?? 0);
      const readyAt = b.neverReady ? Infinity : runStart + b.readyAfterMs;
      const unreadyAt = b.unreadyAfterMs !== undefined ? runStart + b.unreadyAfterMs : Infinity;
      const probeKillAt = b.probeKill ? runStart + b.probeKill.afterMs : Infinity;
      let next = end;
      for (const t of [readyAt, unreadyAt, startedAt, probeKillAt, stoppingFrom]) if (t > now && t < next) next = t;
      return {
        kind: 'running',
        runStart,
        started: now >= startedAt,
        ready: now >= readyAt && now < unreadyAt && now < stoppingFrom,
        restartCount: restarts,
        ...(last ? { last } : {}),
        ...(Number.isFinite(next) ? { next } : {}),
        killed: false,
        ...(now >= probeKillAt && ended?.probe ? { probeFailure: ended.probe } : {}),
        ...(now >= unreadyAt ? { readinessFailures: b.unreadyFailures ?? 1 } : {}),
      };
    }
    const term: Terminated = ended
      ? { ...ended, startedAt: runStart, finishedAt: end }
      : { exitCode: b.exitCode, reason: b.exitReason ?? (b.exitCode === 0 ? 'Completed' : 'Error'), ...(b.terminationMessage !== undefined ? { message: b.terminationMessage } : {}), startedAt: runStart, finishedAt: end, killed: false };
    // a container killed for a failed probe restarts unless the policy is Never (the kubelet's shouldRestartOnFailure)
    const restart = !killed && (policy === 'Always' || term.restartNow === true || (policy === 'OnFailure' && (term.exitCode !== 0 || term.probe !== undefined)));
    if (!restart) return { kind: 'terminated', ready: false, restartCount: restarts, terminated: term, ...(last ? { last } : {}), killed };
    if (end - runStart >= BACKOFF_RESET_MS) backoff = 0;
    const restartAt = term.restartNow ? end : end + backoff + (b.restartPullMs ?? 0);
    if ((kill && restartAt >= kill.at) || now < restartAt) {
      const next = kill && restartAt >= kill.at ? undefined : restartAt;
      return {
        kind: 'waiting',
        waitingReason: 'CrashLoopBackOff',
        waitingMessage: `back-off ${Math.round(backoff / 1000)}s restarting failed container=${label}`,
        ready: false,
        restartCount: restarts,
        last: term,
        ...(next !== undefined ? { next } : {}),
        killed: false,
        backoffMs: backoff,
      };
    }
    restarts++;
    last = term;
    runStart = restartAt;
    if (!term.restartNow) backoff = backoff === 0 ? BACKOFF_INITIAL_MS : Math.min(backoff * 2, BACKOFF_MAX_MS);
  }
}

/**
 * Runs some containers for real (the process runtime): their state comes from the runner, not
 * from the simulated timeline. `undefined`: the container is simulated.
 */
export interface ContainerRunner {
  state(c: Container, role: 'init' | 'main' | 'ephemeral', policy: 'Always' | 'OnFailure' | 'Never', kill: Kill | undefined, now: number): ContainerState | undefined;
}

export interface SimulateInput {
  pod: Pod;
  /** When the node accepted the pod (status.startTime). */
  acceptedAt: number;
  /** ContainerCreating lasts this long. */
  startDelayMs: number;
  now: number;
  /** The deletion as the node saw it: when, and the grace period. */
  deletion?: { at: number; graceMs: number };
  defaults?: BehaviourDefaults;
  hostIP: string;
  podIP: string;
  /** The pod's IPv6 address on a dual-stack node (status.podIPs' second). */
  podIPv6?: string;
  /** Report PodScheduled too (a pod created with spec.nodeName, that no scheduler bound). */
  reportScheduled?: boolean;
  /** The conditions last reported (their lastTransitionTime is kept while their status holds). */
  previousConditions?: PodCondition[];
  /** When the node first saw each ephemeral container (kubectl debug adds them to a running pod). */
  ephemeralStarts?: ReadonlyMap<string, number>;
  /** What starting each container does with its image (by container name; absent: already present). */
  images?: ReadonlyMap<string, ImagePlan>;
  /** The image back-off's first wait (default the kubelet's 10 s). */
  imageBackoffMs?: number;
  /** The kubelet evicted the pod (node pressure or a local storage limit), or refused it (`refused`): when, and its message. */
  eviction?: { at: number; message: string; refused?: boolean };
  /** The containers run for real (the process runtime). */
  runner?: ContainerRunner;
  /** The cpu and memory the node allocated each container (in-place resize); absent: the spec's. */
  allocation?: Allocation;
  /** A resize the node did not allocate (PodResizePending). */
  resizePending?: { reason: string; message: string };
  /** When an allocated resize restarted each container (resizePolicy RestartContainer). */
  resizeRestarts?: ReadonlyMap<string, readonly number[]>;
}

export interface SimulateResult {
  /** The status fields the node owns (a strategic merge patch's `status`). */
  status: PodStatus;
  phase: string;
  /** The next moment the status changes by itself. */
  next?: number;
  /** No container runs and none will: the pod is terminal, or stopped for its deletion. */
  stopped: boolean;
  containers: Map<string, ContainerState>;
  initContainers: Map<string, ContainerState>;
  ephemeralContainers: Map<string, ContainerState>;
}

function statusOf(pod: Pod, c: Container, st: ContainerState, uid: string, allocation: Allocation | undefined): ContainerStatus {
  const name = c.name ?? '';
  const image = c.image ?? '';
  const norm = normalizeImage(image).ref;
  const term = (t: Terminated, restartCount: number): ReportedState => ({
    terminated: {
      exitCode: t.exitCode,
      reason: t.reason,
      ...(t.message !== undefined ? { message: t.message } : {}),
      startedAt: rfc3339(t.startedAt),
      finishedAt: rfc3339(t.finishedAt),
      containerID: containerID(uid, name, restartCount),
    },
  });
  let state: ReportedState;
  let started = false;
  let cid: string | undefined;
  if (st.kind === 'running') {
    state = { running: { startedAt: rfc3339(st.runStart!) } };
    started = st.started !== false;
    cid = containerID(uid, name, st.restartCount);
  } else if (st.kind === 'terminated') {
    state = term(st.terminated!, st.restartCount);
    cid = containerID(uid, name, st.restartCount);
  } else {
    const msg = st.waitingReason === 'CrashLoopBackOff' ? `${st.waitingMessage ?? ''} pod=${nameOf(pod)}_${namespaceOf(pod)}(${uid})` : st.waitingMessage;
    state = { waiting: { reason: st.waitingReason ?? 'ContainerCreating', ...(msg ? { message: msg } : {}) } };
    if (st.last) cid = containerID(uid, name, st.restartCount - 1 < 0 ? 0 : st.restartCount - 1);
  }
  const everRan = st.kind !== 'waiting' || st.last !== undefined;
  // the resources actuated: the node's allocation (an in-place resize it accepted), else the spec's
  const resources = allocation?.has(name) ? allocation.get(name) : containerResources(c);
  return {
    name,
    state,
    ...(resources && st.kind === 'running' ? { resources } : {}),
    lastState: st.last ? term(st.last, st.restartCount - 1) : {},
    ready: st.ready,
    restartCount: st.restartCount,
    image: norm,
    imageID: everRan ? imageID(image) : '',
    ...(cid ? { containerID: cid } : {}),
    started,
  };
}

function condition(type: string, status: boolean, at: number, prev: PodCondition[] | undefined, reason?: string, message?: string): PodCondition {
  const s = status ? 'True' : 'False';
  const old = prev?.find((c) => c.type === type);
  const lt = old && old.status === s && typeof old.lastTransitionTime === 'string' ? old.lastTransitionTime : rfc3339(at);
  return { type, status: s, lastProbeTime: null, lastTransitionTime: lt, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

const containerName = (c: Container): string => c.name ?? '';

/** spec.restartPolicy as the kubelet reads it (empty: Always, its default). */
function restartPolicyOf(p: string | null | undefined): 'Always' | 'OnFailure' | 'Never' {
  return p === 'OnFailure' || p === 'Never' ? p : 'Always';
}

/**
 * When every main container has stopped for good (for the sidecars to be stopped after them):
 * terminated and not restarting, or never started. Undefined while one runs or will run again.
 */
function mainsDoneAt(mains: ReadonlyMap<string, ContainerState>, rp: 'Always' | 'OnFailure' | 'Never', kill: Kill | undefined, mainStart: number | undefined): number | undefined {
  if (mainStart === undefined) return kill?.at;
  let at = kill?.at ?? -Infinity;
  for (const st of mains.values()) {
    if (st.kind === 'terminated') at = Math.max(at, st.terminated!.finishedAt);
    else if (!(kill && st.kind === 'waiting' && st.next === undefined)) return undefined;
  }
  return kill || rp !== 'Always' ? at : undefined;
}

/** A sidecar's stop: SIGTERM once the containers after it stopped, with what is left of the pod's grace period (the kubelet's 2 s minimum). */
function sidecarKillAt(at: number, podKill: Kill | undefined, terminationGracePeriodSeconds: number | null | undefined): Kill {
  if (podKill?.hard) return { at, graceMs: 0, hard: true };
  if (podKill) return { at, graceMs: Math.max(podKill.graceMs - (at - podKill.at), 2000), hard: false };
  return { at, graceMs: (typeof terminationGracePeriodSeconds === 'number' ? terminationGracePeriodSeconds : 30) * 1000, hard: false };
}

/** The status of `pod` at `input.now`. */
export function simulatePod(input: SimulateInput): SimulateResult {
  const { pod, now } = input;
  const spec = pod.spec ?? {};
  const uid = uidOf(pod);
  const rp = restartPolicyOf(spec.restartPolicy);
  const defaults = input.defaults ?? DEFAULT_BEHAVIOUR;
  const inits = spec.initContainers ?? [];
  const mains = spec.containers ?? [];
  const startAt = input.acceptedAt + input.startDelayMs;
  const ads = typeof spec.activeDeadlineSeconds === 'number' ? spec.activeDeadlineSeconds : undefined;
  const deadlineAt = ads !== undefined ? input.acceptedAt + ads * 1000 : Infinity;
  let kill: Kill | undefined;
  if (input.deletion) kill = { at: input.deletion.at, graceMs: input.deletion.graceMs, hard: false };
  if (deadlineAt < (kill?.at ?? Infinity)) kill = { at: deadlineAt, graceMs: 0, hard: true };
  const eviction = input.eviction;
  if (eviction && eviction.at < (kill?.at ?? Infinity)) kill = { at: eviction.at, graceMs: 0, hard: true };
  const backoffMs = input.imageBackoffMs ?? IMAGE_BACKOFF_INITIAL_MS;
  const podGraceMs = (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30) * 1000;
  // The image first (pulled, or failing with its back-off), then the container's runs.
  const run = (c: Container, b: ContainerBehaviour, policy: 'Always' | 'OnFailure' | 'Never', start: number, kill: Kill | undefined): ContainerState => {
    const name = containerName(c);
    const plan = input.images?.get(name);
    const pull = pullTimeline(plan, c.image ?? '', start, now, kill?.at, backoffMs);
    if (pull.runStart === undefined) {
      return { kind: 'waiting', waitingReason: pull.waitingReason ?? 'ContainerCreating', ...(pull.waitingMessage !== undefined ? { waitingMessage: pull.waitingMessage } : {}), ready: false, restartCount: 0, killed: false, ...(pull.next !== undefined ? { next: pull.next } : {}), pull };
    }
    const repull = plan?.kind === 'pull' && plan.everyStart ? plan.pullMs : 0;
    const restartsAt = input.resizeRestarts?.get(name);
    const behaviour = { ...b, ...(repull > 0 ? { restartPullMs: repull } : {}), ...(restartsAt ? { restartsAt, restartGraceMs: podGraceMs } : {}) };
    return { ...containerTimeline(behaviour, policy, pull.runStart, now, kill, name), pull };
  };

  const initStates = new Map<string, ContainerState>();
  const mainStates = new Map<string, ContainerState>();
  let next: number | undefined;
  const consider = (t: number | undefined) => {
    if (t !== undefined && t > now && (next === undefined || t < next)) next = t;
  };
  // a container's state: the runner's when it runs the container, else its simulated timeline
  const timeline = (c: Container, role: 'init' | 'main' | 'ephemeral', policy: 'Always' | 'OnFailure' | 'Never', start: number, behaviourPolicy: 'Always' | 'OnFailure' | 'Never', containerKill = kill): ContainerState =>
    input.runner?.state(c, role, policy, containerKill, now) ?? run(c, containerBehaviour(pod, c, defaults, behaviourPolicy), policy, start, containerKill);
  const waiting = (reason: string): ContainerState => ({ kind: 'waiting', waitingReason: reason, ready: false, restartCount: 0, killed: false });

  const sidecarStarts = new Map<string, number>();
  let initFailed = false;
  let initialized = inits.every((c) => c.restartPolicy === 'Always');
  let mainStart: number | undefined;
  const sandboxReady = now >= startAt && !(kill && kill.at < startAt);
  if (now < startAt || (kill && kill.at < startAt)) {
    for (const c of inits) initStates.set(containerName(c), waiting('PodInitializing'));
    for (const c of mains) mainStates.set(containerName(c), waiting(inits.length > 0 ? 'PodInitializing' : 'ContainerCreating'));
    if (!(kill && kill.at < startAt)) consider(startAt);
    initialized = inits.length === 0;
  } else {
    let cursor = startAt;
    let blocked = false;
    for (const c of inits) {
      const name = containerName(c);
      if (blocked) {
        initStates.set(name, waiting('PodInitializing'));
        continue;
      }
      // An init container runs to completion whatever the pod's restartPolicy (a command the
      // simulation does not recognise: a job's run time); only sidecars keep running.
      if (c.restartPolicy === 'Always') {
        // (without the pod's kill: a sidecar stops only after the main containers, below)
        const st = timeline(c, 'init', 'Always', cursor, 'Always', undefined);
        initStates.set(name, st);
        sidecarStarts.set(name, cursor);
        // the next init container (or the main ones) starts once the sidecar has started (its startup probe succeeded)
        if ((st.kind === 'waiting' && !st.last) || (st.kind === 'running' && st.started === false && st.restartCount === 0)) {
          consider(st.next);
          blocked = true;
          continue;
        }
        if (st.kind === 'running' && st.restartCount === 0) cursor = Math.max(cursor, st.runStart! + (containerBehaviour(pod, c, defaults, 'Always').startedAfterMs ?? 0));
        continue;
      }
      const st = timeline(c, 'init', rp === 'Never' ? 'Never' : 'OnFailure', cursor, 'Never');
      initStates.set(name, st);
      consider(st.next);
      if (st.kind === 'terminated' && st.terminated!.exitCode === 0 && !st.terminated!.killed) {
        cursor = st.terminated!.finishedAt;
        continue;
      }
      blocked = true;
      if (st.kind === 'terminated') initFailed = true;
    }
    if (!blocked) {
      initialized = true;
      mainStart = cursor;
    }
    for (const c of mains) {
      const name = containerName(c);
      if (mainStart === undefined || (kill && kill.at < mainStart)) {
        mainStates.set(name, waiting('PodInitializing'));
        continue;
      }
      const st = timeline(c, 'main', rp, mainStart, rp);
      mainStates.set(name, st);
      consider(st.next);
    }
    // Sidecars stop after the main containers, in reverse order: on the pod's deletion, or once a
    // Job-style pod's main containers have all ended (the sidecars never hold it back from completing).
    const sidecars = inits.filter((c) => c.restartPolicy === 'Always' && sidecarStarts.has(containerName(c))).reverse();
    let doneAt = mainsDoneAt(mainStates, rp, kill, mainStart);
    for (const c of sidecars) {
      const name = containerName(c);
      const sidecarKill = doneAt === undefined ? undefined : sidecarKillAt(doneAt, kill, spec.terminationGracePeriodSeconds);
      const st = timeline(c, 'init', 'Always', sidecarStarts.get(name)!, 'Always', sidecarKill);
      initStates.set(name, st);
      consider(st.next);
      doneAt = st.kind === 'terminated' ? st.terminated!.finishedAt : st.kind === 'waiting' && st.next === undefined && sidecarKill ? sidecarKill.at : undefined;
    }
  }

  // Phase (kubelet's getPhase, plus the terminal phase of a pod stopped for its deletion).
  const all = [...initStates.values(), ...mainStates.values()];
  const anyRunning = all.some((s) => s.kind === 'running');
  const pendingRestart = all.some((s) => s.kind === 'waiting' && s.next !== undefined);
  const stopped = !anyRunning && !pendingRestart && kill !== undefined && now >= kill.at;
  const ms = [...mainStates.values()];
  const allMainsTerminated = ms.length > 0 && ms.every((s) => s.kind === 'terminated');
  const sidecarRunning = inits.some((c) => c.restartPolicy === 'Always' && initStates.get(containerName(c))?.kind === 'running');
  let phase: string;
  let reason: string | undefined;
  let message: string | undefined;
  const deadlineHit = now >= deadlineAt && kill?.hard === true;
  if (initFailed) phase = 'Failed';
  // (the kubelet reports the terminal phase only once its sidecars have stopped too)
  else if (allMainsTerminated && !sidecarRunning) phase = ms.every((s) => s.terminated!.exitCode === 0) ? 'Succeeded' : 'Failed';
  else if (allMainsTerminated) phase = 'Running';
  // (the kubelet's getPhase: a container that has not started yet, its image still coming, keeps the pod Pending)
  else if (mainStart === undefined || ms.some((s) => s.kind === 'waiting' && !s.last)) phase = stopped ? 'Failed' : 'Pending';
  else phase = stopped ? 'Failed' : 'Running';
  if (deadlineHit && (all.some((s) => s.killed) || !allMainsTerminated)) {
    phase = 'Failed';
    reason = 'DeadlineExceeded';
    message = DEADLINE_MESSAGE;
  }
  const evicted = eviction !== undefined && now >= eviction.at && kill?.at === eviction.at;
  if (evicted) {
    phase = 'Failed';
    reason = 'Evicted';
    message = eviction.message;
  }
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const isStopped = terminal || stopped;

  // Ephemeral containers start once the node sees them in a started pod, run as their command
  // says (a debugging shell: until it is stopped), never restart, and count for no condition.
  const ephemerals = (spec.ephemeralContainers ?? []) as Container[];
  const ephemeralStates = new Map<string, ContainerState>();
  for (const c of ephemerals) {
    const name = containerName(c);
    const seen = input.ephemeralStarts?.get(name);
    if (seen === undefined || mainStart === undefined || (terminal && seen >= now)) {
      ephemeralStates.set(name, waiting('ContainerCreating'));
      continue;
    }
    // (never ready: ephemeral containers have no probes and count for no readiness)
    const st = { ...containerTimeline(containerBehaviour(pod, c, defaults, 'Always'), 'Never', Math.max(seen, mainStart), now, kill, name), ready: false };
    ephemeralStates.set(name, st);
    if (!terminal) consider(st.next);
  }

  // Conditions.
  const prev = input.previousConditions;
  const notReadyNames = mains.filter((c) => !mainStates.get(containerName(c))!.ready).map((c) => containerName(c));
  const containersReady = notReadyNames.length === 0 && !terminal;
  const gates = spec.readinessGates ?? [];
  const podConds = pod.status?.conditions ?? [];
  const failedGates = gates.map((g) => g.conditionType ?? '').filter((t) => !podConds.some((c) => c.type === t && c.status === 'True'));
  const conditions: PodCondition[] = [];
  if (input.reportScheduled) conditions.push(condition('PodScheduled', true, input.acceptedAt, prev));
  if (input.resizePending && !terminal) conditions.push(condition('PodResizePending', true, now, prev, input.resizePending.reason, input.resizePending.message));
  // The kubelet marks the pods it evicts (PodDisruptionConditions, GA in 1.31).
  if (evicted && !eviction.refused) conditions.push(condition('DisruptionTarget', true, eviction.at, prev, 'TerminationByKubelet', eviction.message));
  conditions.push(condition('PodReadyToStartContainers', sandboxReady && !isStopped, now, prev));
  const incompleteInits = inits.filter((c) => c.restartPolicy !== 'Always' && !(initStates.get(containerName(c))?.kind === 'terminated' && initStates.get(containerName(c))!.terminated!.exitCode === 0)).map((c) => containerName(c));
  conditions.push(
    initialized || (terminal && !initFailed)
      ? condition('Initialized', true, now, prev)
      : condition('Initialized', false, now, prev, 'ContainersNotInitialized', `containers with incomplete status: [${incompleteInits.join(' ')}]`),
  );
  if (terminal) {
    conditions.push(condition('Ready', false, now, prev, 'PodCompleted'));
    conditions.push(condition('ContainersReady', false, now, prev, 'PodCompleted'));
  } else {
    const crMsg = `containers with unready status: [${notReadyNames.join(' ')}]`;
    conditions.push(containersReady ? condition('ContainersReady', true, now, prev) : condition('ContainersReady', false, now, prev, 'ContainersNotReady', crMsg));
    if (containersReady && failedGates.length === 0) conditions.push(condition('Ready', true, now, prev));
    else if (!containersReady) conditions.push(condition('Ready', false, now, prev, 'ContainersNotReady', crMsg));
    else conditions.push(condition('Ready', false, now, prev, 'ReadinessGatesNotReady', `corresponding condition of pod readiness gate "${failedGates[0]}" does not exist.`));
  }

  const hostNetwork = spec.hostNetwork === true;
  const ip = hostNetwork ? input.hostIP : input.podIP;
  const status: PodStatus = {
    phase,
    conditions,
    ...(reason ? { reason, message } : {}),
    hostIP: input.hostIP,
    hostIPs: [{ ip: input.hostIP }],
    ...(sandboxReady || mainStart !== undefined ? { podIP: ip, podIPs: [{ ip }, ...(input.podIPv6 !== undefined && !hostNetwork ? [{ ip: input.podIPv6 }] : [])] } : {}),
    startTime: rfc3339(input.acceptedAt),
    ...(inits.length > 0 ? { initContainerStatuses: inits.map((c) => statusOf(pod, c, initStates.get(containerName(c))!, uid, input.allocation)) } : {}),
    containerStatuses: mains.map((c) => statusOf(pod, c, mainStates.get(containerName(c))!, uid, input.allocation)),
    ...(ephemerals.length > 0 ? { ephemeralContainerStatuses: ephemerals.map((c) => statusOf(pod, c, ephemeralStates.get(containerName(c))!, uid, undefined)) } : {}),
  };
  if (kill) consider(kill.at);
  if (terminal) next = undefined;
  return { status, phase, ...(next !== undefined ? { next } : {}), stopped: isStopped, containers: mainStates, initContainers: initStates, ephemeralContainers: ephemeralStates };
}
