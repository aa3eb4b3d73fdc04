// client-go's leader election (k8s.io/client-go/tools/leaderelection) over the ResourceClient
// contract. A lock is one object holding a LeaderElectionRecord: a coordination.k8s.io/v1 Lease
// (the record is the Lease's spec), or an Endpoints / ConfigMap whose annotation
// `control-plane.alpha.kubernetes.io/leader` holds the record as JSON, exactly as Kubernetes
// writes it. Candidates try to create the lock or take over a record whose holder has not renewed
// it for its lease duration (measured on the candidate's own clock since it last saw the record
// change, so clock skew between hosts does not matter); the leader renews it every retry period
// and stops leading when it cannot renew within the renew deadline. Writes carry the
// resourceVersion read, so two candidates never both win: the loser gets a 409 and tries again
// next period.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { realClock, type Clock, type TimerHandle } from '../client/clock.js';
import type { Clientset, KubeObject, ResourceClient } from '../client/types.js';

export const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';
const JITTER_FACTOR = 1.2;

/** client-go's LeaderElectionRecord, in its JSON form (times are RFC 3339 strings). */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaderTransitions: number;
}

/** Sleeps `ms` on `clock`; resolves early (without error) when `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    let handle: TimerHandle | undefined;
    const done = (): void => {
      handle?.cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    handle = clock.setTimer(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** A lock: reads and writes the record of one object. */
export interface ResourceLock {
  /** The record and its raw form (to detect changes), or undefined when the object does not exist. */
  get(): Promise<{ record: LeaderElectionRecord; raw: string } | undefined>;
  create(record: LeaderElectionRecord): Promise<void>;
  /** Writes over the object last read (its resourceVersion: a concurrent write makes this a 409). */
  update(record: LeaderElectionRecord): Promise<void>;
  describe(): string;
}

function isNotFound(err: unknown): boolean {
  return (err as { code?: number }).code === 404;
}

/** metav1.Time: seconds precision. */
export function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** metav1.MicroTime: microseconds (six digits). */
export function formatMicroTime(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString(); // ...SS.mmmZ
  const micros = Math.floor((ms - Math.floor(ms)) * 1000)
    .toString()
    .padStart(3, '0');
  return iso.replace(/Z$/, `${micros}Z`);
}

/** The Lease lock (coordination.k8s.io/v1): the record is the Lease's spec. */
export class LeaseLock implements ResourceLock {
  private last: KubeObject | undefined;
  constructor(
    private readonly client: ResourceClient,
    readonly namespace: string,
    readonly name: string,
  ) {}

  async get(): Promise<{ record: LeaderElectionRecord; raw: string } | undefined> {
    let obj: KubeObject;
    try {
      obj = await this.client.get(this.namespace, this.name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    this.last = obj;
    const spec = (obj.spec ?? {}) as Record<string, unknown>;
    const record: LeaderElectionRecord = {
      holderIdentity: (spec.holderIdentity as string | undefined) ?? '',
      leaseDurationSeconds: (spec.leaseDurationSeconds as number | undefined) ?? 0,
      acquireTime: (spec.acquireTime as string | undefined) ?? '',
      renewTime: (spec.renewTime as string | undefined) ?? '',
      leaderTransitions: (spec.leaseTransitions as number | undefined) ?? 0,
    };
    return { record, raw: JSON.stringify(record) };
  }

  private spec(r: LeaderElectionRecord): Record<string, unknown> {
    const spec: Record<string, unknown> = {
      holderIdentity: r.holderIdentity,
      leaseDurationSeconds: r.leaseDurationSeconds,
      leaseTransitions: r.leaderTransitions,
    };
    if (r.acquireTime) spec.acquireTime = r.acquireTime;
    if (r.renewTime) spec.renewTime = r.renewTime;
    return spec;
  }

  async create(r: LeaderElectionRecord): Promise<void> {
    this.last = await this.client.create(this.namespace, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.name, namespace: this.namespace },
      spec: this.spec(r),
    });
  }

  async update(r: LeaderElectionRecord): Promise<void> {
    if (!this.last) throw new Error('lease not initialized, call get or create first');
    this.last = await this.client.update(this.namespace, { ...this.last, spec: this.spec(r) });
  }

  describe(): string {
    return `${this.namespace}/${this.name}`;
  }
}

/** The Endpoints / ConfigMap locks: the record is JSON in the leader annotation. */
export class AnnotationLock implements ResourceLock {
  private last: KubeObject | undefined;
  constructor(
    private readonly client: ResourceClient,
    private readonly kind: 'Endpoints' | 'ConfigMap',
    readonly namespace: string,
    readonly name: string,
  ) {}

  async get(): Promise<{ record: LeaderElectionRecord; raw: string } | undefined> {
    let obj: KubeObject;
    try {
      obj = await this.client.get(this.namespace, this.name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    this.last = obj;
    const annotations = ((obj.metadata as Record<string, unknown> | undefined)?.annotations ?? {}) as Record<string, string>;
    const raw = annotations[LEADER_ANNOTATION];
    if (raw === undefined) {
      // the object exists without a record: an empty record anyone may take
      return { record: { holderIdentity: '', leaseDurationSeconds: 0, acquireTime: '', renewTime: '', leaderTransitions: 0 }, raw: '' };
    }
    let parsed: Partial<LeaderElectionRecord>;
    try {
      parsed = JSON.parse(raw) as Partial<LeaderElectionRecord>;
    } catch (err) {
      throw new Error(`${this.describe()}: the ${LEADER_ANNOTATION} annotation is not JSON: ${(err as Error).message}`);
    }
    return {
      record: {
        holderIdentity: parsed.holderIdentity ?? '',
        leaseDurationSeconds: parsed.leaseDurationSeconds ?? 0,
        acquireTime: parsed.acquireTime ?? '',
        renewTime: parsed.renewTime ?? '',
        leaderTransitions: parsed.leaderTransitions ?? 0,
      },
      raw,
    };
  }

  private static encode(r: LeaderElectionRecord): string {
    // field order of client-go's struct
    return JSON.stringify({
      holderIdentity: r.holderIdentity,
      leaseDurationSeconds: r.leaseDurationSeconds,
      acquireTime: r.acquireTime || null,
      renewTime: r.renewTime || null,
      leaderTransitions: r.leaderTransitions,
    });
  }

  async create(r: LeaderElectionRecord): Promise<void> {
    this.last = await this.client.create(this.namespace, {
      apiVersion: 'v1',
      kind: this.kind,
      metadata: { name: this.name, namespace: this.namespace, annotations: { [LEADER_ANNOTATION]: AnnotationLock.encode(r) } },
    });
  }

  async update(r: LeaderElectionRecord): Promise<void> {
    if (!this.last) throw new Error(`${this.kind.toLowerCase()} not initialized, call get or create first`);
    const meta = (this.last.metadata ?? {}) as Record<string, unknown>;
    const annotations = { ...((meta.annotations ?? {}) as Record<string, string>), [LEADER_ANNOTATION]: AnnotationLock.encode(r) };
    this.last = await this.client.update(this.namespace, { ...this.last, metadata: { ...meta, annotations } });
  }

  describe(): string {
    return `${this.namespace}/${this.name}`;
  }
}

/** client-go's MultiLock (endpointsleases, configmapsleases): the primary decides, the secondary follows. */
export class MultiLock implements ResourceLock {
  private secondaryExists = false;
  constructor(
    private readonly primary: ResourceLock,
    private readonly secondary: ResourceLock,
  ) {}

  async get(): Promise<{ record: LeaderElectionRecord; raw: string } | undefined> {
    const p = await this.primary.get();
    if (!p) return undefined;
    const s = await this.secondary.get();
    this.secondaryExists = s !== undefined;
    if (!s) return p;
    // both must agree, or the record counts as changed
    return s.raw === p.raw ? p : { record: p.record, raw: `${p.raw},${s.raw}` };
  }

  async create(r: LeaderElectionRecord): Promise<void> {
    await this.primary.create(r);
    try {
      await this.secondary.create(r);
      this.secondaryExists = true;
    } catch (err) {
      if ((err as { code?: number }).code !== 409) throw err;
    }
  }

  async update(r: LeaderElectionRecord): Promise<void> {
    await this.primary.update(r);
    if (this.secondaryExists) await this.secondary.update(r);
    else {
      await this.secondary.create(r);
      this.secondaryExists = true;
    }
  }

  describe(): string {
    return `${this.primary.describe()}+${this.secondary.describe()}`;
  }
}

export type LockKind = 'endpoints' | 'configmaps' | 'leases' | 'endpointsleases' | 'configmapsleases';

export const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
export const ENDPOINTS = { group: '', version: 'v1', resource: 'endpoints' };
export const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

/** The lock `--leader-elect-resource-lock` names. */
export function newResourceLock(kind: LockKind, clientset: Clientset, namespace: string, name: string): ResourceLock {
  const lease = () => new LeaseLock(clientset.resource(LEASES), namespace, name);
  const endpoints = () => new AnnotationLock(clientset.resource(ENDPOINTS), 'Endpoints', namespace, name);
  const configmaps = () => new AnnotationLock(clientset.resource(CONFIGMAPS), 'ConfigMap', namespace, name);
  switch (kind) {
    case 'leases':
      return lease();
    case 'endpoints':
      return endpoints();
    case 'configmaps':
      return configmaps();
    case 'endpointsleases':
      return new MultiLock(endpoints(), lease());
    case 'configmapsleases':
      return new MultiLock(configmaps(), lease());
  }
}

/** hostname + '_' + a random UUID, as kube-controller-manager. */
export function newIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

export interface LeaderCallbacks {
  /** Called once leadership is acquired; `signal` aborts when it is lost or the elector stops. */
  onStartedLeading(signal: AbortSignal): void;
  /** Called when leadership is lost (or the elector stops while leading). */
  onStoppedLeading(): void;
  /** Called when the observed leader changes (including to ourselves). */
  onNewLeader?(identity: string): void;
}

export interface LeaderElectionConfig {
  lock: ResourceLock;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  callbacks: LeaderCallbacks;
  /** Give the lock up (empty holder) when the elector stops while leading. */
  releaseOnCancel?: boolean;
  clock?: Clock;
  /** For logs and metrics: the name of the election (kube-controller-manager). */
  name?: string;
  log?: (fields: Record<string, unknown>) => void;
  /** Random in [0, 1), for jitter (injectable for tests). */
  random?: () => number;
}

export class LeaderElector {
  private readonly clock: Clock;
  private observedRecord: LeaderElectionRecord | undefined;
  private observedRaw: string | undefined;
  private observedTime = 0;
  private reportedLeader = '';
  private leading = false;
  /** The last error of an attempt to read or write the lock (undefined after a success). */
  lastError: string | undefined;

  constructor(readonly config: LeaderElectionConfig) {
    if (config.renewDeadlineMs > config.leaseDurationMs) throw new Error('leaseDuration must be greater than or equal to renewDeadline');
    if (config.renewDeadlineMs <= JITTER_FACTOR * config.retryPeriodMs) throw new Error('renewDeadline must be greater than retryPeriod*JitterFactor');
    if (config.leaseDurationMs < 1 || config.renewDeadlineMs < 1 || config.retryPeriodMs < 1) throw new Error('durations must be positive');
    if (config.identity === '') throw new Error('identity must not be empty');
    this.clock = config.clock ?? realClock;
  }

  isLeader(): boolean {
    return this.leading;
  }

  /** The identity of the leader last observed ('' when none). */
  getLeader(): string {
    return this.observedRecord?.holderIdentity ?? '';
  }

  /**
   * client-go's HealthzAdaptor: a leader that has not renewed for longer than the lease duration
   * plus `toleranceMs` is unhealthy; a non-leader is always healthy.
   */
  check(toleranceMs: number): string | undefined {
    if (!this.leading) return undefined;
    if (this.clock.now() > this.observedTime + this.config.leaseDurationMs + toleranceMs) {
      return `failed election to renew leadership on lease ${this.config.lock.describe()}`;
    }
    return undefined;
  }

  private log(fields: Record<string, unknown>): void {
    this.config.log?.({ component: 'leaderelection', lock: this.config.lock.describe(), ...fields });
  }

  private jittered(ms: number): number {
    return ms + (this.config.random ?? Math.random)() * JITTER_FACTOR * ms;
  }

  /**
   * Campaigns until leading, leads until the lock cannot be renewed within the renew deadline or
   * `signal` aborts. Resolves when done; `onStoppedLeading` has then been called if it ever led.
   */
  async run(signal: AbortSignal): Promise<void> {
    const acquired = await this.acquire(signal);
    if (!acquired) return;
    const leaderAbort = new AbortController();
    setMaxListeners(0, leaderAbort.signal);
    const onAbort = () => leaderAbort.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      this.config.callbacks.onStartedLeading(leaderAbort.signal);
      await this.renew(signal);
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.leading = false;
      leaderAbort.abort();
      // the release is bounded: a stop never waits longer than the renew deadline for it
      if (signal.aborted && this.config.releaseOnCancel) await this.withTimeout(this.release().then(() => true), this.config.renewDeadlineMs, new AbortController().signal);
      this.config.callbacks.onStoppedLeading();
    }
  }

  private async acquire(signal: AbortSignal): Promise<boolean> {
    this.log({ msg: 'attempting to acquire leader lease' });
    while (!signal.aborted) {
      // a request that hangs must not hold up a stop, nor the next attempt for long
      const ok = await this.withTimeout(this.tryAcquireOrRenew(), this.config.renewDeadlineMs, signal);
      this.maybeReportTransition();
      if (ok) {
        this.leading = true;
        this.log({ msg: 'successfully acquired lease', identity: this.config.identity });
        return true;
      }
      await sleep(this.clock, this.jittered(this.config.retryPeriodMs), signal);
    }
    return false;
  }

  private async renew(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const deadline = this.clock.now() + this.config.renewDeadlineMs;
      let renewed = false;
      // PollImmediateUntil(retryPeriod, tryAcquireOrRenew, deadline)
      for (;;) {
        if (signal.aborted) return;
        const remaining = deadline - this.clock.now();
        if (remaining <= 0) break;
        renewed = await this.withTimeout(this.tryAcquireOrRenew(), remaining, signal);
        if (renewed || signal.aborted) break;
        const left = deadline - this.clock.now();
        if (left <= 0) break;
        await sleep(this.clock, Math.min(this.config.retryPeriodMs, left), signal);
        if (this.clock.now() >= deadline) break;
      }
      this.maybeReportTransition();
      if (signal.aborted) return;
      if (!renewed) {
        this.log({ msg: 'failed to renew lease: timed out waiting for the condition', error: this.lastError, level: 'error' });
        return;
      }
      await sleep(this.clock, this.config.retryPeriodMs, signal);
    }
  }

  private async withTimeout(p: Promise<boolean>, ms: number, signal: AbortSignal): Promise<boolean> {
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([
        p,
        sleep(this.clock, ms, stop.signal).then(() => {
          if (!stop.signal.aborted) this.lastError = 'request timed out';
          return false;
        }),
      ]);
    } finally {
      stop.abort();
      signal.removeEventListener('abort', onAbort);
    }
  }

  private inflight: Promise<boolean> | undefined;

  /** One attempt: create the lock, take over an expired record, or renew our own. */
  tryAcquireOrRenew(): Promise<boolean> {
    const p = this.attempt();
    this.inflight = p;
    void p.finally(() => {
      if (this.inflight === p) this.inflight = undefined;
    });
    return p;
  }

  private async attempt(): Promise<boolean> {
    const now = this.clock.now();
    const record: LeaderElectionRecord = {
      holderIdentity: this.config.identity,
      leaseDurationSeconds: Math.max(1, Math.round(this.config.leaseDurationMs / 1000)),
      acquireTime: '',
      renewTime: '',
      leaderTransitions: 0,
    };
    const stamp = this.config.lock instanceof LeaseLock ? formatMicroTime : formatTime;
    record.acquireTime = stamp(now);
    record.renewTime = stamp(now);

    // fast path (client-go ≥ 1.27): a leader whose lease is still valid updates the object it
    // last wrote without reading it first; any error falls back to the slow path
    const observed = this.observedRecord;
    if (observed && observed.holderIdentity === this.config.identity && this.observedTime + this.config.leaseDurationMs > now) {
      const renewal = { ...record, acquireTime: observed.acquireTime || record.acquireTime, leaderTransitions: observed.leaderTransitions };
      try {
        await this.config.lock.update(renewal);
        this.setObserved(renewal, JSON.stringify(renewal), this.clock.now());
        this.lastError = undefined;
        return true;
      } catch (err) {
        if ((err as { code?: number }).code !== 409) this.log({ msg: `failed to update lock optimistically: ${(err as Error).message}, falling back to slow path`, level: 'warning' });
      }
    }

    let old: { record: LeaderElectionRecord; raw: string } | undefined;
    try {
      old = await this.config.lock.get();
    } catch (err) {
      this.lastError = `error retrieving resource lock ${this.config.lock.describe()}: ${(err as Error).message}`;
      this.log({ msg: this.lastError, level: 'error' });
      return false;
    }
    if (!old) {
      try {
        await this.config.lock.create(record);
      } catch (err) {
        this.lastError = `error initially creating leader election record: ${(err as Error).message}`;
        this.log({ msg: this.lastError, level: 'error' });
        return false;
      }
      this.setObserved(record, JSON.stringify(record), this.clock.now());
      this.lastError = undefined;
      return true;
    }

    if (old.raw !== this.observedRaw) {
      this.setObserved(old.record, old.raw, this.clock.now());
    }
    const holder = old.record.holderIdentity;
    const isHolder = holder === this.config.identity;
    const leaseMs = (old.record.leaseDurationSeconds > 0 ? old.record.leaseDurationSeconds * 1000 : this.config.leaseDurationMs);
    if (holder !== '' && !isHolder && this.observedTime + leaseMs > now) {
      this.lastError = undefined;
      return false; // held by someone else and not expired
    }

    if (isHolder) {
      record.acquireTime = old.record.acquireTime || record.acquireTime;
      record.leaderTransitions = old.record.leaderTransitions;
    } else {
      record.leaderTransitions = old.record.leaderTransitions + 1;
    }
    try {
      await this.config.lock.update(record);
    } catch (err) {
      const code = (err as { code?: number }).code;
      this.lastError = `failed to update lock ${this.config.lock.describe()}: ${(err as Error).message}`;
      if (code !== 409) this.log({ msg: this.lastError, level: 'error' });
      return false;
    }
    this.setObserved(record, JSON.stringify(record), this.clock.now());
    this.lastError = undefined;
    return true;
  }

  private setObserved(record: LeaderElectionRecord, raw: string, time: number): void {
    this.observedRecord = record;
    this.observedRaw = raw;
    this.observedTime = time;
  }

  private maybeReportTransition(): void {
    const leader = this.getLeader();
    if (leader === this.reportedLeader) return;
    this.reportedLeader = leader;
    if (leader === '') return;
    this.log({ msg: leader === this.config.identity ? 'became leader' : 'new leader elected', leader });
    this.config.callbacks.onNewLeader?.(leader);
  }

  /** Gives the lock up: an empty holder with a 1 s lease, so a standby takes over at once. */
  private async release(): Promise<void> {
    // let an attempt still in flight finish first (its write would make ours a conflict)
    if (this.inflight) await this.withTimeout(this.inflight, this.config.retryPeriodMs, new AbortController().signal);
    for (let attempt = 0; attempt < 2; attempt++) {
      if (attempt > 0) {
        // a conflict: read the record again; release only if it is still ours
        try {
          const cur = await this.config.lock.get();
          if (!cur || cur.record.holderIdentity !== this.config.identity) return;
          this.setObserved(cur.record, cur.raw, this.clock.now());
        } catch {
          return;
        }
      }
      if (await this.releaseOnce()) return;
    }
  }

  private async releaseOnce(): Promise<boolean> {
    if (!this.observedRecord || this.observedRecord.holderIdentity !== this.config.identity) return true;
    const now = this.clock.now();
    const stamp = this.config.lock instanceof LeaseLock ? formatMicroTime : formatTime;
    const record: LeaderElectionRecord = {
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: stamp(now),
      renewTime: stamp(now),
      leaderTransitions: this.observedRecord.leaderTransitions,
    };
    try {
      await this.config.lock.update(record);
      this.setObserved(record, JSON.stringify(record), now);
      this.log({ msg: 'released leader lease' });
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 409) return false;
      this.log({ msg: `failed to release lock: ${(err as Error).message}`, level: 'error' });
      return true;
    }
  }
}
