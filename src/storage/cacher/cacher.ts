import { setTimeout as sleep } from 'node:timers/promises';
import { isStorageError, KEY_PREFIX, StorageError, type Storage, type Watch, type WatchEvent } from '../types.js';
import { ResourceCache, StateBuilder, type ResourceConfig, type ResourceHost } from './resource-cache.js';
import { CacheError, type ResourceCacheMetrics } from './types.js';

export interface CacherOptions {
  /** Items per page of the (re-)list (default 5,000). */
  pageSize?: number;
  /** Default period of watch bookmarks (default 60 s). */
  bookmarkIntervalMs?: number;
  /** Default live events a watcher may have queued before it is cut off (default 10,000). */
  maxQueueEvents?: number;
  /** Default bytes a watcher may have queued before it is cut off (default 64 MiB). */
  maxQueueBytes?: number;
  /** How long a read or watch waits for a revision the cache has not reached (default 3 s). */
  waitTimeoutMs?: number;
  /** How often age-expired window events are dropped in quiet periods (default 10 s). */
  sweepIntervalMs?: number;
  /** Backoff between re-initialisation attempts: first delay and cap (default 100 ms, 5 s). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** One structured line per notable event (default: none). */
  log?: (fields: Record<string, unknown>) => void;
}

/** Cacher-wide counters, next to the per-resource ones. */
export interface CacherMetrics {
  revision: number;
  ready: boolean;
  /** Times the cache re-listed after losing its storage watch. */
  reinitializations: number;
  /** Storage events processed (including keys under no registered prefix). */
  storageEvents: number;
  resources: ResourceCacheMetrics[];
}

interface RevisionWaiter {
  revision: number;
  fn: () => void;
}

const DEFAULTS = {
  pageSize: 5000,
  bookmarkIntervalMs: 60_000,
  maxQueueEvents: 10_000,
  maxQueueBytes: 64 * 1024 * 1024,
  waitTimeoutMs: 3000,
  sweepIntervalMs: 10_000,
  retryBaseMs: 100,
  retryMaxMs: 5000,
};

type State = 'new' | 'initializing' | 'ready' | 'stopped';

/**
 * The watch cache (kube-apiserver's "cacher"): ONE storage watch on `/registry/`, started at the
 * revision of a paginated list of everything, feeding per-resource caches registered by key
 * prefix (longest prefix wins). Every revision belongs to some key under `/registry/`, so the
 * cacher's `revision` follows storage exactly, and a consistent read only has to wait until
 * `revision >= storage.currentRevision()`.
 *
 * Served from the cache: gets and lists of the current state (after `waitForRevision` /
 * `waitUntilFresh` for consistent reads), and watches from any revision inside each resource's
 * window. NOT served from the cache: lists at an exact older revision and continue pages of a
 * limited list (bound to their first page's snapshot revision) — the caller reads storage at that
 * revision.
 *
 * Life cycle: register resources, `start()`, await `ready`. When the storage watch fails
 * (Compacted, WatchOverflow, Unavailable), every started watcher is ended with `Reinitialized`,
 * the cache re-lists and re-watches (with backoff), and reads answer `NotReady` meanwhile. When
 * storage is closed, the cacher stops.
 */
export class Cacher implements ResourceHost {
  readonly storage: Storage;
  readonly pageSize: number;
  readonly defaults: ResourceHost['defaults'];
  private readonly options: Required<Omit<CacherOptions, 'log'>> & Pick<CacherOptions, 'log'>;

  private readonly resources = new Map<string, ResourceCache>();
  /** Longest number of path segments after `/registry/` among registered prefixes. */
  private maxDepth = 0;
  private state: State = 'new';
  private currentRevision = 0;
  private waiters: RevisionWaiter[] = [];
  private storageWatch: Watch | undefined;
  private loop: Promise<void> | undefined;
  private readyPromise: Promise<void>;
  private resolveReady!: () => void;
  private rejectReady!: (err: Error) => void;
  private sweepTimer: NodeJS.Timeout | undefined;
  private wakeBackoff: AbortController | undefined;
  private reinitCount = 0;
  private storageEventCount = 0;
  /** The key of the last applied event (see dispatch). */
  private lastKey: string | undefined;

  constructor(storage: Storage, options: CacherOptions = {}) {
    this.storage = storage;
    this.options = { ...DEFAULTS, ...stripUndefined(options) };
    this.pageSize = this.options.pageSize;
    this.defaults = {
      bookmarkIntervalMs: this.options.bookmarkIntervalMs,
      maxQueueEvents: this.options.maxQueueEvents,
      maxQueueBytes: this.options.maxQueueBytes,
      waitTimeoutMs: this.options.waitTimeoutMs,
    };
    this.readyPromise = this.newReadyPromise();
  }

  // ---------------------------------------------------------------- public API

  /**
   * Registers a resource by key prefix. Before `start()` any prefixes may be registered (the
   * longest prefix wins); afterwards a new prefix may not overlap an existing one, and the
   * resource loads by listing its prefix (its `ready` turns true then).
   */
  register(config: ResourceConfig): ResourceCache {
    const prefix = config.prefix;
    if (typeof prefix !== 'string' || !prefix.startsWith(KEY_PREFIX) || !prefix.endsWith('/') || prefix.length <= KEY_PREFIX.length) {
      throw new RangeError(`resource prefix ${JSON.stringify(prefix)} must be under ${KEY_PREFIX} and end with "/"`);
    }
    if (this.resources.has(prefix)) throw new RangeError(`resource prefix ${prefix} is already registered`);
    if (this.state === 'stopped') throw new CacheError('Stopped', 'watch cache stopped');
    if (this.state !== 'new') {
      for (const other of this.resources.keys()) {
        if (other.startsWith(prefix) || prefix.startsWith(other)) {
          throw new RangeError(`resource prefix ${prefix} overlaps ${other}; overlapping prefixes must be registered before start()`);
        }
      }
    }
    const resource = new ResourceCache(this, config);
    this.resources.set(prefix, resource);
    this.maxDepth = Math.max(this.maxDepth, depth(prefix));
    // Ready: list the new prefix now. (Re-)initialising: the running list notices the new
    // resource and starts over (initialize()), or becomeReady() loads it.
    if (this.state === 'ready') void resource.loadLate();
    return resource;
  }

  /**
   * Stops caching a prefix registered after start (a custom resource no longer served): its
   * watchers end; registering the prefix again lists it afresh.
   */
  unregister(prefix: string): void {
    const resource = this.resources.get(prefix);
    if (resource === undefined) return;
    this.resources.delete(prefix);
    resource.stop(new CacheError('Stopped', `the resource ${prefix} is no longer served`));
  }

  /** The resource registered for exactly this prefix. */
  resource(prefix: string): ResourceCache | undefined {
    return this.resources.get(prefix);
  }

  /** The resource a key belongs to (longest registered prefix), if any. */
  resourceFor(key: string): ResourceCache | undefined {
    let found: ResourceCache | undefined;
    let d = 0;
    for (let i = key.indexOf('/', KEY_PREFIX.length); i !== -1 && d < this.maxDepth; i = key.indexOf('/', i + 1)) {
      d++;
      const r = this.resources.get(key.slice(0, i + 1));
      if (r !== undefined) found = r;
    }
    return found;
  }

  /** Starts the initial list and the storage watch. Idempotent. */
  start(): this {
    if (this.state !== 'new') return this;
    this.state = 'initializing';
    this.sweepTimer = setInterval(() => {
      const now = Date.now();
      for (const r of this.resources.values()) r.sweep(now);
    }, this.options.sweepIntervalMs);
    this.sweepTimer.unref();
    this.loop = this.run();
    return this;
  }

  /** Resolves when the cache holds a complete state (again); rejects if it stops first. */
  get ready(): Promise<void> {
    return this.readyPromise;
  }

  get isReady(): boolean {
    return this.state === 'ready';
  }

  get stopped(): boolean {
    return this.state === 'stopped';
  }

  /** The newest storage revision the cache has applied (the resourceVersion of its lists). */
  get revision(): number {
    return this.currentRevision;
  }

  /**
   * Resolves once the cache is ready and has applied `revision`; rejects with
   * TooLargeResourceVersion after `timeoutMs` (default 3 s), or Stopped.
   */
  waitForRevision(revision: number, timeoutMs = this.options.waitTimeoutMs): Promise<void> {
    if (this.state === 'ready' && this.currentRevision >= revision) return Promise.resolve();
    if (this.state === 'stopped') return Promise.reject(new CacheError('Stopped', 'watch cache stopped'));
    return new Promise<void>((resolve, reject) => {
      let cancel: () => void = () => undefined;
      const timer = setTimeout(() => {
        cancel();
        reject(
          new CacheError('TooLargeResourceVersion', `Too large resource version: ${revision}, current: ${this.currentRevision}`, revision, this.currentRevision),
        );
      }, timeoutMs);
      cancel = this.whenRevision(revision, () => {
        clearTimeout(timer);
        if (this.state === 'stopped') reject(new CacheError('Stopped', 'watch cache stopped'));
        else resolve();
      });
    });
  }

  /**
   * A consistent read's wait: resolves with storage's current revision once the cache has
   * applied it (the resourceVersion a quorum read would have returned).
   */
  async waitUntilFresh(timeoutMs = this.options.waitTimeoutMs): Promise<number> {
    const revision = await this.storage.currentRevision();
    await this.waitForRevision(revision, timeoutMs);
    return revision;
  }

  /** Stops the cache: ends every watcher (Stopped), rejects pending waits, closes the storage watch. */
  async stop(): Promise<void> {
    this.shutdown(new CacheError('Stopped', 'watch cache stopped'));
    await this.loop;
  }

  get metrics(): CacherMetrics {
    return {
      revision: this.currentRevision,
      ready: this.state === 'ready',
      reinitializations: this.reinitCount,
      storageEvents: this.storageEventCount,
      resources: [...this.resources.values()].map((r) => r.metrics),
    };
  }

  // ---------------------------------------------------------------- ResourceHost

  /**
   * Calls `fn` synchronously once the cache is ready at `revision` or later (or at once if it is
   * now), or when the cache stops; returns a canceller.
   */
  whenRevision(revision: number, fn: () => void): () => void {
    if (this.state === 'stopped' || (this.state === 'ready' && this.currentRevision >= revision)) {
      fn();
      return () => undefined;
    }
    const waiter: RevisionWaiter = { revision, fn };
    // Keep waiters sorted by revision so each applied event only looks at the head.
    let lo = 0;
    let hi = this.waiters.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.waiters[mid]!.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    this.waiters.splice(lo, 0, waiter);
    return () => {
      const i = this.waiters.indexOf(waiter);
      if (i !== -1) this.waiters.splice(i, 1);
    };
  }

  log(fields: Record<string, unknown>): void {
    this.options.log?.(fields);
  }

  async backoff(attempt: number): Promise<void> {
    const ms = Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** Math.min(attempt, 20));
    const ac = new AbortController();
    this.wakeBackoff = ac;
    try {
      await sleep(ms, undefined, { signal: ac.signal });
    } catch {
      // Woken by stop().
    } finally {
      if (this.wakeBackoff === ac) this.wakeBackoff = undefined;
    }
  }

  // ---------------------------------------------------------------- internals

  private newReadyPromise(): Promise<void> {
    const p = new Promise<void>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // Nobody may be awaiting it; a stop before readiness must not be an unhandled rejection.
    p.catch(() => undefined);
    return p;
  }

  private async run(): Promise<void> {
    for (let attempt = 0; !this.stopped; ) {
      try {
        const revision = await this.initialize();
        if (this.stopped) return;
        const watchedSince = Date.now();
        // The cache holds every current object, so it needs no previous values (each one a read
        // of the replaced value in lmdb, and the whole previous object on the wire from etcd).
        const watch = this.storage.watch(KEY_PREFIX, { fromRevision: revision, prevValues: false });
        this.storageWatch = watch;
        if (this.stopped) {
          watch.close();
          return;
        }
        this.becomeReady();
        try {
          for await (const ev of watch) this.dispatch(ev);
        } finally {
          // A watch that held for a while resets the backoff; one that fails at once does not,
          // so a storage that keeps failing is not re-listed in a tight loop.
          if (Date.now() - watchedSince >= this.options.retryMaxMs) attempt = 0;
        }
        if (this.stopped) return;
        throw new StorageError('Unavailable', 'storage watch ended');
      } catch (err) {
        if (this.stopped) return;
        if (isStorageError(err, 'Closed')) {
          this.log({ msg: 'watch cache: storage closed, stopping' });
          this.shutdown(new CacheError('Stopped', 'storage closed'));
          return;
        }
        this.storageWatch?.close();
        this.storageWatch = undefined;
        this.log({ msg: 'watch cache: storage watch or list failed, re-initialising', err: String(err), revision: this.currentRevision, attempt });
        this.becomeNotReady(err);
        if (attempt > 0) await this.backoff(attempt - 1);
        attempt++;
      }
    }
  }

  /** Lists everything under /registry/ at one revision, page by page, and installs it. */
  private async initialize(): Promise<number> {
    for (;;) {
      const resources = [...this.resources.values()];
      const builders = new Map(resources.map((r) => [r, new StateBuilder()] as const));
      let revision: number | undefined;
      let startAfter: string | undefined;
      let count = 0;
      try {
        for (;;) {
          const page = await this.storage.list(KEY_PREFIX, { revision, limit: this.pageSize, startAfter });
          if (this.stopped) return 0;
          revision = page.revision;
          for (const kv of page.items) {
            const r = this.resourceFor(kv.key);
            if (r !== undefined) {
              // A resource registered during this list is not in `builders`: it is installed with
              // whatever it has (nothing) and then filled by the restart below.
              const b = builders.get(r);
              if (b !== undefined) r.addListed(b, kv);
            }
          }
          count += page.items.length;
          if (!page.more || page.items.length === 0) break;
          startAfter = page.items[page.items.length - 1]!.key;
        }
      } catch (err) {
        // The snapshot revision was compacted between pages: list again at a newer one.
        if (isStorageError(err, 'Compacted') && revision !== undefined) continue;
        throw err;
      }
      if (this.resources.size !== resources.length) continue; // registered meanwhile: list again
      revision ??= 0;
      this.currentRevision = revision;
      this.lastKey = undefined;
      for (const [r, b] of builders) r.install(b, revision);
      this.log({ msg: 'watch cache: initialised', revision, keys: count, resources: resources.length });
      return revision;
    }
  }

  private becomeReady(): void {
    this.state = 'ready';
    // A resource registered after the list finished and before this point is not loaded yet.
    for (const r of this.resources.values()) if (!r.ready && !r.loading) void r.loadLate();
    this.resolveReady();
    this.fireWaiters();
  }

  private becomeNotReady(cause: unknown): void {
    if (this.state === 'ready') {
      this.reinitCount++;
      this.readyPromise = this.newReadyPromise();
    }
    this.state = 'initializing';
    const error = new CacheError('Reinitialized', `watch cache re-initialising after: ${String(cause instanceof Error ? cause.message : cause)}`);
    for (const r of this.resources.values()) r.invalidate(error);
  }

  private dispatch(ev: WatchEvent): void {
    // A resumed storage watch must not apply a change twice (the same revision may legitimately
    // carry several keys when another etcd client wrote them in one transaction).
    if (ev.modRevision < this.currentRevision || (ev.modRevision === this.currentRevision && ev.key === this.lastKey)) {
      this.log({ msg: 'watch cache: skipping an event already applied', key: ev.key, revision: ev.modRevision });
      return;
    }
    this.lastKey = ev.key;
    this.storageEventCount++;
    const r = this.resourceFor(ev.key);
    if (r !== undefined) r.apply(ev, Date.now());
    if (ev.modRevision > this.currentRevision) this.currentRevision = ev.modRevision;
    if (this.waiters.length > 0 && this.waiters[0]!.revision <= this.currentRevision) this.fireWaiters();
  }

  /** Runs the waiters whose revision the cache has reached (only while ready). */
  private fireWaiters(): void {
    let n = 0;
    while (n < this.waiters.length && this.waiters[n]!.revision <= this.currentRevision) n++;
    if (n === 0) return;
    const due = this.waiters.splice(0, n);
    for (const w of due) w.fn();
  }

  private shutdown(error: CacheError): void {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    this.rejectReady(error);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.wakeBackoff?.abort();
    this.storageWatch?.close();
    this.storageWatch = undefined;
    for (const r of this.resources.values()) r.stop(error);
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.fn();
  }
}

function depth(prefix: string): number {
  let n = 0;
  for (let i = prefix.indexOf('/', KEY_PREFIX.length); i !== -1; i = prefix.indexOf('/', i + 1)) n++;
  return n;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
