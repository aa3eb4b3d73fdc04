// client-go's work queue: de-duplicating (an item queued twice is processed once), never handed
// to two workers at once (an item re-added while processing is queued again after done()),
// delaying (addAfter) and rate limited (per-item exponential back-off combined by max with an
// overall token bucket: workqueue.DefaultControllerRateLimiter()).
import { RegistrationScope } from '../machinery/registration-scope.js';
import { realClock, type Clock, type TimerHandle } from './clock.js';
import { TokenBucket } from './rate-limit.js';
import type { WorkQueue } from './types.js';

/** How long until an item may be retried (client-go's workqueue.RateLimiter). */
export interface ItemRateLimiter<T> {
  when(item: T): number;
  forget(item: T): void;
  numRequeues(item: T): number;
}

/** Per-item exponential back-off: base × 2^failures, capped (client-go: 5 ms → 1000 s). */
export class ItemExponentialRateLimiter<T> implements ItemRateLimiter<T> {
  private readonly failures = new Map<T, number>();
  constructor(
    readonly baseMs = 5,
    readonly maxMs = 1000_000,
  ) {}
  when(item: T): number {
    const n = this.failures.get(item) ?? 0;
    this.failures.set(item, n + 1);
    const d = this.baseMs * 2 ** n;
    return d > this.maxMs || !Number.isFinite(d) ? this.maxMs : d;
  }
  forget(item: T): void {
    this.failures.delete(item);
  }
  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** An overall token bucket as a rate limiter (client-go's BucketRateLimiter). */
export class BucketRateLimiter<T> implements ItemRateLimiter<T> {
  constructor(readonly bucket: TokenBucket) {}
  when(): number {
    return this.bucket.reserve();
  }
  forget(): void {}
  numRequeues(): number {
    return 0;
  }
}

/** The longest delay of several limiters (client-go's MaxOfRateLimiter). */
export class MaxOfRateLimiter<T> implements ItemRateLimiter<T> {
  private readonly limiters: ItemRateLimiter<T>[];
  constructor(...limiters: ItemRateLimiter<T>[]) {
    this.limiters = limiters;
  }
  when(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.when(item));
    return max;
  }
  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }
  numRequeues(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}

/** client-go's DefaultControllerRateLimiter: exponential 5 ms..1000 s, max with a 10 qps / 100 burst bucket. */
export function defaultControllerRateLimiter<T>(clock: Clock = realClock): ItemRateLimiter<T> {
  return new MaxOfRateLimiter<T>(new ItemExponentialRateLimiter<T>(5, 1000_000), new BucketRateLimiter<T>(new TokenBucket({ qps: 10, burst: 100, clock })));
}

/** Plain counters of one queue (the daemon exports them as workqueue_* Prometheus metrics). */
export interface WorkQueueMetrics {
  readonly name: string;
  /** Items waiting to be processed now. */
  depth: number;
  adds: number;
  retries: number;
  /** Time items waited in the queue before a worker took them (ms). */
  queueLatencyMsSum: number;
  queueLatencyCount: number;
  /** Time from get() to done() (ms). */
  workDurationMsSum: number;
  workDurationCount: number;
}

/** Named queues' metrics by name, the latest queue per name: a controller manager's own set. */
export type WorkQueueMetricsSet = Map<string, WorkQueueMetrics>;

/** Where named queues register: the process's set, or a controller manager's (registeringWorkQueuesIn). */
const queueSets = new RegistrationScope<WorkQueueMetricsSet>(new Map());

/**
 * Runs `construct` with the named queues it makes registered in `into` rather than the process's:
 * each controller manager reports its own queues even when several share a process (a
 * single-process cluster's event loop, two clusters in one test). Synchronous: controllers make
 * their queues in their constructors.
 */
export function registeringWorkQueuesIn<T>(into: WorkQueueMetricsSet, construct: () => T): T {
  return queueSets.within(into, construct);
}

/** The metrics of every named queue of `from` (default: those made outside any set). */
export function workQueueMetrics(from: WorkQueueMetricsSet = queueSets.processDefault): WorkQueueMetrics[] {
  return [...from.values()];
}

export interface WorkQueueOptions<T> {
  /** Names the queue's metrics (the controller's name); unnamed queues are not registered. */
  name?: string;
  clock?: Clock;
  rateLimiter?: ItemRateLimiter<T>;
}

export class RateLimitingQueue<T = string> implements WorkQueue<T> {
  private readonly queue: T[] = [];
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private readonly waiters: ((item: T | undefined) => void)[] = [];
  private readonly waiting = new Map<T, { at: number; timer: TimerHandle }>();
  private readonly addedAt = new Map<T, number>();
  private readonly startedAt = new Map<T, number>();
  private shuttingDown = false;
  private readonly clock: Clock;
  private readonly limiter: ItemRateLimiter<T>;
  readonly metrics: WorkQueueMetrics;

  constructor(opts: WorkQueueOptions<T> = {}) {
    this.clock = opts.clock ?? realClock;
    this.limiter = opts.rateLimiter ?? defaultControllerRateLimiter<T>(this.clock);
    this.metrics = { name: opts.name ?? '', depth: 0, adds: 0, retries: 0, queueLatencyMsSum: 0, queueLatencyCount: 0, workDurationMsSum: 0, workDurationCount: 0 };
    if (opts.name) queueSets.target.set(opts.name, this.metrics);
  }

  add(item: T): void {
    if (this.shuttingDown) return;
    if (this.dirty.has(item)) return;
    this.metrics.adds++;
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.push(item);
  }

  private push(item: T): void {
    this.queue.push(item);
    this.addedAt.set(item, this.clock.now());
    this.metrics.depth = this.queue.length;
    this.pump();
  }

  private pump(): void {
    while (this.waiters.length > 0 && (this.queue.length > 0 || this.shuttingDown)) {
      const w = this.waiters.shift()!;
      w(this.queue.length > 0 ? this.take() : undefined);
    }
  }

  private take(): T {
    const item = this.queue.shift()!;
    this.metrics.depth = this.queue.length;
    const now = this.clock.now();
    const added = this.addedAt.get(item);
    if (added !== undefined) {
      this.metrics.queueLatencyMsSum += now - added;
      this.metrics.queueLatencyCount++;
      this.addedAt.delete(item);
    }
    this.startedAt.set(item, now);
    this.processing.add(item);
    this.dirty.delete(item);
    return item;
  }

  get(): Promise<T | undefined> {
    if (this.queue.length > 0) return Promise.resolve(this.take());
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(item: T): void {
    if (!this.processing.delete(item)) return;
    const started = this.startedAt.get(item);
    if (started !== undefined) {
      this.metrics.workDurationMsSum += this.clock.now() - started;
      this.metrics.workDurationCount++;
      this.startedAt.delete(item);
    }
    if (this.dirty.has(item)) this.push(item);
  }

  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown) return;
    if (!(delayMs > 0)) {
      this.add(item);
      return;
    }
    const at = this.clock.now() + delayMs;
    const prev = this.waiting.get(item);
    if (prev) {
      if (prev.at <= at) return;
      prev.timer.cancel();
    }
    const timer = this.clock.setTimer(() => {
      this.waiting.delete(item);
      this.add(item);
    }, delayMs);
    // A retry waiting alone does not keep the process alive: the controller's owner decides that.
    timer.unref?.();
    this.waiting.set(item, { at, timer });
  }

  addRateLimited(item: T): void {
    this.metrics.retries++;
    this.addAfter(item, this.limiter.when(item));
  }

  forget(item: T): void {
    this.limiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.limiter.numRequeues(item);
  }

  shutDown(): void {
    this.shuttingDown = true;
    for (const w of this.waiting.values()) w.timer.cancel();
    this.waiting.clear();
    this.pump();
  }

  shuttingDownNow(): boolean {
    return this.shuttingDown;
  }

  len(): number {
    return this.queue.length;
  }
}

/** A queue with client-go's default controller rate limiter. */
export function newRateLimitingQueue<T = string>(opts: WorkQueueOptions<T> = {}): RateLimitingQueue<T> {
  return new RateLimitingQueue<T>(opts);
}

/**
 * Runs `workers` loops taking items from `queue` until it is shut down, which happens when `signal`
 * aborts (client-go's `wait.Until(worker)` per worker). `process` decides itself whether to forget
 * or requeue the item; a throw is reported through `onError` and the item requeued rate limited.
 */
export async function runWorkers<T>(
  queue: WorkQueue<T>,
  workers: number,
  signal: AbortSignal,
  process: (item: T) => Promise<void>,
  onError: (item: T, err: unknown) => void = () => {},
): Promise<void> {
  if (signal.aborted) {
    queue.shutDown();
    return;
  }
  signal.addEventListener('abort', () => queue.shutDown(), { once: true });
  const loop = async (): Promise<void> => {
    for (;;) {
      const item = await queue.get();
      if (item === undefined) return;
      try {
        await process(item);
      } catch (err) {
        onError(item, err);
        if (!signal.aborted) queue.addRateLimited(item);
      } finally {
        queue.done(item);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, workers) }, () => loop()));
}

/**
 * Runs workers over `sync(key)` with the usual handleErr of Kubernetes' controllers: a success
 * forgets the key's back-off; a failure is reported and retried rate limited until it has been
 * requeued `maxRetries` times, then dropped (until the next event about it).
 */
export function runSyncWorkers<T>(
  queue: WorkQueue<T>,
  workers: number,
  signal: AbortSignal,
  sync: (item: T) => Promise<void>,
  onError: (item: T, err: unknown) => void,
  maxRetries = 15,
): Promise<void> {
  return runWorkers(queue, workers, signal, async (item) => {
    try {
      await sync(item);
      queue.forget(item);
    } catch (err) {
      onError(item, err);
      if (queue.numRequeues(item) < maxRetries) queue.addRateLimited(item);
      else queue.forget(item);
    }
  });
}
