// The scheduling queue (kube-scheduler's PriorityQueue): an active queue ordered by priority then
// arrival, a back-off queue (1 s doubling to 10 s per failed attempt), and the unschedulable pods,
// which a cluster event (node added or changed, pod deleted, ...) moves back — to the back-off
// queue while their back-off lasts — and which are flushed anyway after 60 s.
import { realClock, type Clock, type TimerHandle } from '../client/clock.js';
import { nameOf, namespaceOf } from '../api/meta/object.js';
import type { Pod } from '../api/types.js';

export interface QueuedPod {
  key: string;
  pod: Pod;
  priority: number;
  attempts: number;
  /** When it was added to the queue (or last moved to the unschedulable pods). */
  timestamp: number;
  /** When its back-off ends. */
  backoffUntil: number;
  seq: number;
}

export interface SchedulingQueueOptions {
  clock?: Clock;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** How long a pod stays unschedulable without a cluster event (60 s). */
  unschedulableFlushMs?: number;
}

function priorityOf(pod: Pod): number {
  const p = pod.spec?.priority;
  return typeof p === 'number' ? p : 0;
}

/**
 * What of a pod can make it schedulable: all but its status (except its resource claims'),
 * resourceVersion, generation, managedFields and finalizers (kube-scheduler's isPodUpdated).
 */
function schedulingView(pod: Pod): string {
  const { resourceVersion: _rv, generation: _g, managedFields: _mf, finalizers: _f, ...meta } = pod.metadata ?? {};
  return JSON.stringify([meta, pod.spec, pod.status?.resourceClaimStatuses]);
}

/** Whether an update of a pending pod may have made it schedulable. */
export function podUpdated(old: Pod, pod: Pod): boolean {
  return schedulingView(old) !== schedulingView(pod);
}

function keyOfPod(pod: Pod): string {
  return `${namespaceOf(pod)}/${nameOf(pod)}`;
}

/** A binary heap: higher priority first, then lower seq. */
class Heap {
  private readonly a: QueuedPod[] = [];
  private readonly index = new Map<string, number>();

  get size(): number {
    return this.a.length;
  }
  has(key: string): boolean {
    return this.index.has(key);
  }
  get(key: string): QueuedPod | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.a[i];
  }
  private less(x: QueuedPod, y: QueuedPod): boolean {
    return x.priority !== y.priority ? x.priority > y.priority : x.seq < y.seq;
  }
  private swap(i: number, j: number): void {
    const t = this.a[i]!;
    this.a[i] = this.a[j]!;
    this.a[j] = t;
    this.index.set(this.a[i]!.key, i);
    this.index.set(this.a[j]!.key, j);
  }
  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(this.a[i]!, this.a[p]!)) break;
      this.swap(i, p);
      i = p;
    }
  }
  private down(i: number): void {
    const n = this.a.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(this.a[l]!, this.a[m]!)) m = l;
      if (r < n && this.less(this.a[r]!, this.a[m]!)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
  push(e: QueuedPod): void {
    this.a.push(e);
    this.index.set(e.key, this.a.length - 1);
    this.up(this.a.length - 1);
  }
  pop(): QueuedPod | undefined {
    if (this.a.length === 0) return undefined;
    const top = this.a[0]!;
    this.remove(top.key);
    return top;
  }
  remove(key: string): QueuedPod | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    const e = this.a[i]!;
    const last = this.a.length - 1;
    if (i !== last) this.swap(i, last);
    this.a.pop();
    this.index.delete(key);
    if (i < this.a.length) {
      this.down(i);
      this.up(i);
    }
    return e;
  }
  /** Re-sorts an entry whose priority changed. */
  fix(key: string): void {
    const i = this.index.get(key);
    if (i === undefined) return;
    this.down(i);
    this.up(i);
  }
}

export class SchedulingQueue {
  private readonly active = new Heap();
  private readonly backoff = new Map<string, QueuedPod>();
  private readonly unschedulable = new Map<string, QueuedPod>();
  /** Pods popped and not yet done (their cycle runs); an update then is kept for their return. */
  private readonly inFlight = new Map<string, QueuedPod>();
  private readonly attempts = new Map<string, number>();
  private seq = 0;
  private waiters: ((e: QueuedPod | undefined) => void)[] = [];
  private closed = false;
  private readonly clock: Clock;
  private readonly initialBackoff: number;
  private readonly maxBackoff: number;
  private readonly flushAfter: number;
  private backoffTimer: TimerHandle | undefined;
  private backoffTimerAt = Infinity;
  private flushTimer: TimerHandle | undefined;
  /** Bumped by each cluster event: a pod whose cycle saw an older value goes to back-off, not unschedulable. */
  private moveCycle = 0;
  private readonly cycleOf = new Map<string, number>();

  constructor(opts: SchedulingQueueOptions = {}) {
    this.clock = opts.clock ?? realClock;
    this.initialBackoff = opts.initialBackoffMs ?? 1000;
    this.maxBackoff = opts.maxBackoffMs ?? 10_000;
    this.flushAfter = opts.unschedulableFlushMs ?? 60_000;
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.closed) return;
    this.flushTimer = this.clock.setTimer(() => {
      this.flushUnschedulable();
      this.scheduleFlush();
    }, Math.min(1000, this.flushAfter));
  }

  /** Pods that sat unschedulable longer than the flush interval go back to the queues. */
  flushUnschedulable(): void {
    const now = this.clock.now();
    for (const [key, e] of this.unschedulable) {
      if (now - e.timestamp < this.flushAfter) continue;
      this.unschedulable.delete(key);
      this.requeue(e, now);
    }
  }

  private requeue(e: QueuedPod, now: number): void {
    if (e.backoffUntil > now) {
      this.backoff.set(e.key, e);
      this.armBackoff(e.backoffUntil);
    } else this.pushActive(e);
  }

  private pushActive(e: QueuedPod): void {
    const w = this.waiters.shift();
    if (w) {
      this.inFlight.set(e.key, e);
      this.cycleOf.set(e.key, this.moveCycle);
      w(e);
    } else this.active.push(e);
  }

  private armBackoff(at: number): void {
    if (this.closed || at >= this.backoffTimerAt) return;
    this.backoffTimer?.cancel();
    this.backoffTimerAt = at;
    this.backoffTimer = this.clock.setTimer(() => {
      this.backoffTimerAt = Infinity;
      this.backoffTimer = undefined;
      this.flushBackoff();
    }, Math.max(0, at - this.clock.now()));
  }

  /** Pods whose back-off ended go to the active queue. */
  flushBackoff(): void {
    const now = this.clock.now();
    let next = Infinity;
    for (const [key, e] of this.backoff) {
      if (e.backoffUntil <= now) {
        this.backoff.delete(key);
        this.pushActive(e);
      } else if (e.backoffUntil < next) next = e.backoffUntil;
    }
    if (next < Infinity) this.armBackoff(next);
  }

  /**
   * A new (or updated) pending pod. An unschedulable pod goes back only when the update may make it
   * schedulable (`old` given: kube-scheduler's isPodUpdated; a status written about it, such as its
   * own PodScheduled=False, does not).
   */
  add(pod: Pod, old?: Pod): void {
    if (this.closed) return;
    const key = keyOfPod(pod);
    const live = this.inFlight.get(key);
    if (live) {
      live.pod = pod;
      return;
    }
    const inActive = this.active.get(key);
    if (inActive) {
      inActive.pod = pod;
      const pr = priorityOf(pod);
      if (pr !== inActive.priority) {
        inActive.priority = pr;
        this.active.fix(key);
      }
      return;
    }
    const waiting = this.backoff.get(key) ?? this.unschedulable.get(key);
    if (waiting) {
      // An update may make the pod schedulable: it goes back (to back-off while that lasts).
      waiting.pod = pod;
      waiting.priority = priorityOf(pod);
      if ((old === undefined || podUpdated(old, pod)) && this.unschedulable.delete(key)) this.requeue(waiting, this.clock.now());
      return;
    }
    this.pushActive({ key, pod, priority: priorityOf(pod), attempts: this.attempts.get(key) ?? 0, timestamp: this.clock.now(), backoffUntil: 0, seq: this.seq++ });
  }

  /** The pod is gone, or scheduled by someone: forget it. */
  delete(key: string): void {
    this.active.remove(key);
    this.backoff.delete(key);
    this.unschedulable.delete(key);
    this.attempts.delete(key);
  }

  /** The next pod to schedule (undefined once closed). */
  pop(): Promise<QueuedPod | undefined> {
    const e = this.active.pop();
    if (e) {
      this.inFlight.set(e.key, e);
      this.cycleOf.set(e.key, this.moveCycle);
      return Promise.resolve(e);
    }
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Synchronous pop: the next active pod, if any. */
  tryPop(): QueuedPod | undefined {
    const e = this.active.pop();
    if (e) {
      this.inFlight.set(e.key, e);
      this.cycleOf.set(e.key, this.moveCycle);
    }
    return e;
  }

  /** The pod was bound (or dropped): its cycle is over. */
  done(key: string): void {
    this.inFlight.delete(key);
    this.cycleOf.delete(key);
    this.attempts.delete(key);
  }

  /**
   * The pod's attempt failed: it waits in the unschedulable pods (or the back-off queue when a
   * cluster event happened during its cycle, or `backoffOnly` for errors such as a failed bind).
   */
  addUnschedulable(key: string, backoffOnly = false): void {
    const e = this.inFlight.get(key);
    if (!e) return;
    this.inFlight.delete(key);
    const cycle = this.cycleOf.get(key) ?? -1;
    this.cycleOf.delete(key);
    if (this.closed) return;
    const attempts = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, attempts);
    const now = this.clock.now();
    e.attempts = attempts;
    e.timestamp = now;
    e.backoffUntil = now + this.backoffDuration(attempts);
    e.seq = this.seq++;
    if (backoffOnly || this.moveCycle > cycle) {
      this.backoff.set(key, e);
      this.armBackoff(e.backoffUntil);
    } else this.unschedulable.set(key, e);
  }

  backoffDuration(attempts: number): number {
    let d = this.initialBackoff;
    for (let i = 1; i < attempts && d < this.maxBackoff; i++) d *= 2;
    return Math.min(d, this.maxBackoff);
  }

  /** A cluster event: every unschedulable pod goes back (to back-off while it lasts). */
  moveAllToActiveOrBackoff(): void {
    this.moveCycle++;
    if (this.unschedulable.size === 0) return;
    const now = this.clock.now();
    const entries = [...this.unschedulable.values()];
    this.unschedulable.clear();
    for (const e of entries) this.requeue(e, now);
  }

  close(): void {
    this.closed = true;
    this.backoffTimer?.cancel();
    this.flushTimer?.cancel();
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w(undefined);
  }

  stats(): { active: number; backoff: number; unschedulable: number; inFlight: number } {
    return { active: this.active.size, backoff: this.backoff.size, unschedulable: this.unschedulable.size, inFlight: this.inFlight.size };
  }
}
