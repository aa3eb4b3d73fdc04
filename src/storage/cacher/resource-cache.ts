import { isStorageError, type KeyValue, type Storage, type WatchEvent } from '../types.js';
import { KeyIndex } from './key-index.js';
import {
  CacheError,
  DEFAULT_WINDOW,
  jsonLength,
  type CachedObject,
  type CacheWatch,
  type ListOptions,
  type ListResult,
  type Materialize,
  type ObjectEvent,
  type ResourceCacheMetrics,
  type WatchOptions,
  type WindowOptions,
} from './types.js';
import { CacheWatcher, type WatcherHost } from './watcher.js';
import { Change, EventWindow } from './window.js';

/** How a resource is registered with the cacher. */
export interface ResourceConfig {
  /** The resource's key prefix, ending with '/': `/registry/pods/`, `/registry/apps/deployments/`. */
  prefix: string;
  materialize: Materialize;
  /**
   * A `fields` name whose value indexes watchers that pass `indexValue` (e.g. `spec.nodeName` for
   * pods). An object without the field counts as ''.
   */
  indexField?: string;
  window?: Partial<WindowOptions>;
}

/** What a resource cache needs from the cacher that owns it. */
export interface ResourceHost {
  readonly revision: number;
  readonly stopped: boolean;
  readonly storage: Storage;
  readonly pageSize: number;
  readonly defaults: {
    bookmarkIntervalMs: number;
    maxQueueEvents: number;
    maxQueueBytes: number;
    waitTimeoutMs: number;
  };
  /** Calls `fn` synchronously once the cacher's revision reaches `revision`; returns a canceller. */
  whenRevision(revision: number, fn: () => void): () => void;
  log(fields: Record<string, unknown>): void;
  backoff(attempt: number): Promise<void>;
}

/** The state a (re-)list builds off to the side before it is swapped in. */
export class StateBuilder {
  readonly objects = new Map<string, ObjectEvent>();
  readonly index = new KeyIndex();
  errors = 0;
}

interface Bucket {
  all: Set<CacheWatcher>;
  byIndex: Map<string, Set<CacheWatcher>> | undefined;
}

/** Rough per-change overhead on top of the payload bytes, for the window's byte bound. */
const CHANGE_OVERHEAD = 200;

/**
 * The cache of one resource: its current objects (in a map, plus key order) as shared ADDED
 * views, its window of recent changes, and its watchers, bucketed by the prefix or key they watch
 * (and by index value) so a change only visits the watchers that can want it.
 */
export class ResourceCache implements WatcherHost {
  readonly prefix: string;
  readonly materialize: Materialize;
  private readonly indexField: string | undefined;
  private readonly windowOptions: WindowOptions;

  private objects = new Map<string, ObjectEvent>();
  private index = new KeyIndex();
  private window: EventWindow;
  private loaded = false;
  /** While a late registration lists its prefix: the changes that arrived meanwhile. */
  private loadBuffer: WatchEvent[] | undefined;
  private loadGeneration = 0;

  private readonly watchers = new Set<CacheWatcher>();
  /** Watchers waiting for the resource to be (re)loaded before they start. */
  private readonly waitingForLoad = new Map<CacheWatcher, WatchOptions>();
  /** Callers of whenLoaded() waiting for the next install. */
  private loadedCallbacks: Array<() => void> = [];
  private rootBucket: Bucket | undefined;
  private readonly prefixBuckets = new Map<string, Bucket>();
  private readonly keyBuckets = new Map<string, Bucket>();
  private readonly scanned = new Set<CacheWatcher>();
  private registered = 0;

  private eventsTotal = 0;
  private sentTotal = 0;
  private tooSlowTotal = 0;
  private materializeErrorsTotal = 0;

  constructor(
    private readonly host: ResourceHost,
    config: ResourceConfig,
  ) {
    this.prefix = config.prefix;
    this.materialize = config.materialize;
    this.indexField = config.indexField;
    this.windowOptions = { ...DEFAULT_WINDOW, ...config.window };
    this.window = new EventWindow(this.windowOptions, 0);
  }

  /** Whether a late registration is listing the resource's prefix. */
  get loading(): boolean {
    return this.loadBuffer !== undefined;
  }

  /** Whether the resource holds a complete state (list and get answer). */
  get ready(): boolean {
    return this.loaded;
  }

  // ---------------------------------------------------------------- reads

  get(key: string): CachedObject | undefined {
    this.checkLoaded();
    return this.objects.get(key)?.object;
  }

  /**
   * Lists current objects in key order at the cache revision, O(returned + skipped). Lists at an
   * exact older revision, and continue pages of a limited list (bound to the first page's
   * revision), are not served here: the caller reads storage at that revision.
   */
  list(opts: ListOptions): ListResult {
    this.checkLoaded();
    const { prefix, filter, startAfter } = opts;
    this.checkPrefix(prefix);
    const limit = opts.limit ?? Infinity;
    if (!(limit > 0)) throw new RangeError(`limit must be positive, got ${opts.limit}`);
    const index = this.index;
    const objects = this.objects;
    const end = index.rangeEnd(prefix);
    let i = index.rangeStart(prefix, startAfter);
    const items: CachedObject[] = [];
    if (filter === undefined) {
      const stop = Math.min(end, i + limit);
      for (; i < stop; i++) items.push(objects.get(index.at(i)!)!.object);
    } else {
      for (; i < end && items.length < limit; i++) {
        const o = objects.get(index.at(i)!)!.object;
        if (filter(o)) items.push(o);
      }
    }
    const result: ListResult = { items, revision: this.host.revision, more: i < end };
    // `more` implies the limit was reached, so at least one item was returned.
    if (result.more) {
      result.lastKey = items[items.length - 1]!.key;
      if (filter === undefined) result.remaining = end - i;
    }
    return result;
  }

  /**
   * Lists objects as they were at an older `revision` — the current state with the window's
   * changes after `revision` undone — in key order, as `list` does (Kubernetes serves continue
   * pages and exact-revision lists from watch-cache snapshots the same way). undefined when the
   * window no longer reaches back to `revision` (or it is ahead of the cache): read storage then.
   * O(returned + skipped + changes after `revision`).
   */
  listAt(revision: number, opts: ListOptions): ListResult | undefined {
    this.checkLoaded();
    const { prefix, filter, startAfter } = opts;
    this.checkPrefix(prefix);
    const limit = opts.limit ?? Infinity;
    if (!(limit > 0)) throw new RangeError(`limit must be positive, got ${opts.limit}`);
    if (!Number.isInteger(revision) || revision < this.window.start || revision > this.host.revision) return undefined;
    // Per key changed since `revision`: its state then (null: it did not exist).
    const then = new Map<string, CachedObject | null>();
    for (const c of this.window.since(revision)) {
      if (then.has(c.key) || !c.key.startsWith(prefix)) continue;
      then.set(c.key, c.type === 'ADDED' ? null : c.prev!);
    }
    // Keys gone since (deleted after `revision`), which the index no longer has, in order.
    const gone: string[] = [];
    for (const [key, o] of then) {
      if (o !== null && !this.objects.has(key) && (startAfter === undefined || key > startAfter)) gone.push(key);
    }
    gone.sort();
    const index = this.index;
    const end = index.rangeEnd(prefix);
    let i = index.rangeStart(prefix, startAfter);
    let g = 0;
    /** The next key that existed at `revision`, with its state then. */
    const next = (): CachedObject | undefined => {
      for (;;) {
        const a = i < end ? index.at(i)! : undefined;
        const b = g < gone.length ? gone[g]! : undefined;
        if (a === undefined && b === undefined) return undefined;
        let key: string;
        if (b === undefined || (a !== undefined && a < b)) {
          key = a!;
          i++;
        } else {
          key = b;
          g++;
        }
        const o = then.has(key) ? then.get(key)! : this.objects.get(key)!.object;
        if (o !== null) return o;
      }
    };
    const items: CachedObject[] = [];
    let o: CachedObject | undefined;
    while (items.length < limit && (o = next()) !== undefined) {
      if (filter === undefined || filter(o)) items.push(o);
    }
    const result: ListResult = { items, revision, more: items.length >= limit && next() !== undefined };
    if (result.more) result.lastKey = items[items.length - 1]!.key;
    return result;
  }

  // ---------------------------------------------------------------- watch

  watch(opts: WatchOptions): CacheWatch {
    const target = this.watchTarget(opts);
    const from = opts.fromRevision;
    if (from !== 'now' && (!Number.isInteger(from) || from < 0)) throw new RangeError(`invalid fromRevision ${String(from)}`);
    const d = this.host.defaults;
    const indexValue = this.indexField !== undefined ? opts.indexValue : undefined;
    const w = new CacheWatcher(this, target, opts.filter, indexValue, {
      maxQueueEvents: opts.maxQueueEvents ?? d.maxQueueEvents,
      maxQueueBytes: opts.maxQueueBytes ?? d.maxQueueBytes,
    });
    this.watchers.add(w);
    if (this.host.stopped) {
      w.terminate(new CacheError('Stopped', 'watch cache stopped'));
      return w;
    }
    if (from !== 'now' && from > this.host.revision) {
      // Waiting for a future revision is bounded, as in Kubernetes.
      const timer = setTimeout(() => {
        w.terminate(
          new CacheError('TooLargeResourceVersion', `Too large resource version: ${from}, current: ${this.host.revision}`, from, this.host.revision),
        );
      }, opts.waitTimeoutMs ?? d.waitTimeoutMs);
      w.onStartOrEnd(() => clearTimeout(timer));
    }
    this.tryStart(w, opts);
    return w;
  }

  private watchTarget(opts: WatchOptions): { prefix: string; exactKey: boolean } {
    if (opts.key !== undefined) {
      if (opts.prefix !== undefined) throw new TypeError('watch takes a prefix or a key, not both');
      if (!opts.key.startsWith(this.prefix) || opts.key.length === this.prefix.length) {
        throw new RangeError(`key ${JSON.stringify(opts.key)} is not under ${this.prefix}`);
      }
      return { prefix: opts.key, exactKey: true };
    }
    const prefix = opts.prefix ?? this.prefix;
    this.checkPrefix(prefix);
    return { prefix, exactKey: false };
  }

  private tryStart(w: CacheWatcher, opts: WatchOptions): void {
    if (w.done) return;
    if (!this.loaded) {
      this.waitingForLoad.set(w, opts);
      return;
    }
    const from = opts.fromRevision;
    if (from !== 'now' && from > this.host.revision) {
      w.onStartOrEnd(this.host.whenRevision(from, () => this.tryStart(w, opts)));
      return;
    }
    this.start(w, opts);
  }

  /** Replay (or snapshot) and registration for live events, in one synchronous step: no gap, no duplicate. */
  private start(w: CacheWatcher, opts: WatchOptions): void {
    const revision = this.host.revision;
    if (opts.initialEvents || opts.sendInitialEvents) {
      const snapshot: ObjectEvent[] = [];
      if (w.exactKey) {
        const v = this.objects.get(w.prefix);
        if (v !== undefined) snapshot.push(v);
      } else {
        const end = this.index.rangeEnd(w.prefix);
        for (let i = this.index.rangeStart(w.prefix); i < end; i++) snapshot.push(this.objects.get(this.index.at(i)!)!);
      }
      const endBookmark =
        opts.sendInitialEvents && opts.allowBookmarks ? { type: 'BOOKMARK' as const, revision, initialEventsEnd: true } : undefined;
      w.setInitial(snapshot, endBookmark);
    } else {
      const from = opts.fromRevision === 'now' ? revision : opts.fromRevision;
      if (from < this.window.start) {
        w.terminate(new CacheError('Expired', `too old resource version: ${from} (${this.window.start})`, from, this.window.start));
        return;
      }
      w.setReplay(this.window.since(from));
    }
    this.register(w);
    w.markStarted();
    if (opts.allowBookmarks) {
      const timer = setInterval(() => w.pushBookmark(), opts.bookmarkIntervalMs ?? this.host.defaults.bookmarkIntervalMs);
      timer.unref();
      w.onEnd(() => clearInterval(timer));
    }
  }

  private bucketMapFor(w: CacheWatcher): Map<string, Bucket> | undefined {
    if (w.exactKey) return this.keyBuckets;
    if (w.prefix === this.prefix) return undefined;
    return w.prefix.endsWith('/') ? this.prefixBuckets : undefined;
  }

  private register(w: CacheWatcher): void {
    this.registered++;
    if (!w.exactKey && w.prefix !== this.prefix && !w.prefix.endsWith('/')) {
      this.scanned.add(w);
      return;
    }
    const map = this.bucketMapFor(w);
    let bucket = map === undefined ? this.rootBucket : map.get(w.prefix);
    if (bucket === undefined) {
      bucket = { all: new Set(), byIndex: undefined };
      if (map === undefined) this.rootBucket = bucket;
      else map.set(w.prefix, bucket);
    }
    if (w.indexValue === undefined) {
      bucket.all.add(w);
    } else {
      bucket.byIndex ??= new Map();
      let set = bucket.byIndex.get(w.indexValue);
      if (set === undefined) bucket.byIndex.set(w.indexValue, (set = new Set()));
      set.add(w);
    }
  }

  /** WatcherHost: a watcher ended. */
  detach(w: CacheWatcher): void {
    this.watchers.delete(w);
    this.waitingForLoad.delete(w);
    if (!w.started) return;
    w.started = false;
    this.registered--;
    if (this.scanned.delete(w)) return;
    const map = this.bucketMapFor(w);
    const bucket = map === undefined ? this.rootBucket : map.get(w.prefix);
    if (bucket === undefined) return;
    if (w.indexValue === undefined) {
      bucket.all.delete(w);
    } else {
      const set = bucket.byIndex?.get(w.indexValue);
      set?.delete(w);
      if (set !== undefined && set.size === 0) bucket.byIndex!.delete(w.indexValue);
    }
    if (bucket.all.size === 0 && (bucket.byIndex === undefined || bucket.byIndex.size === 0)) {
      if (map === undefined) this.rootBucket = undefined;
      else map.delete(w.prefix);
    }
  }

  revisionNow(): number {
    return this.host.revision;
  }

  countSent(n: number): void {
    this.sentTotal += n;
  }

  countTooSlow(): void {
    this.tooSlowTotal++;
  }

  // ---------------------------------------------------------------- applying changes

  /** Applies one storage change (the cacher calls this in revision order). */
  apply(ev: WatchEvent, now: number): void {
    if (this.loadBuffer !== undefined) {
      this.loadBuffer.push(ev);
      return;
    }
    if (!this.loaded) return;
    this.eventsTotal++;
    const key = ev.key;
    const current = this.objects.get(key);
    let change: Change;
    if (ev.type === 'put') {
      let object: CachedObject;
      try {
        object = this.materialize(key, ev.value, ev.modRevision, ev.createRevision);
      } catch (err) {
        this.materializeFailed(key, ev.modRevision, err);
        return;
      }
      const bytes = jsonLength(object) + CHANGE_OVERHEAD;
      if (current === undefined) {
        change = new Change('ADDED', key, ev.modRevision, object, undefined, ev.createRevision, now, bytes);
        this.index.insert(key);
      } else {
        change = new Change('MODIFIED', key, ev.modRevision, object, current.object, ev.createRevision, now, bytes);
      }
      this.objects.set(key, change.added!);
    } else {
      // A key the cache does not hold (its materialize failed): no watcher saw it, nothing to tell.
      if (current === undefined) return;
      // As Kubernetes, the last state with the delete's resourceVersion. The cache's current
      // object is that state (events arrive in order): its served bytes decode to the stored
      // object but for the resourceVersion, which materializing sets.
      let object: CachedObject;
      try {
        object = this.materialize(key, current.object.json, ev.modRevision, ev.createRevision);
      } catch (err) {
        this.materializeFailed(key, ev.modRevision, err);
        object = current.object;
      }
      change = new Change('DELETED', key, ev.modRevision, object, current.object, ev.createRevision, now, jsonLength(object) + CHANGE_OVERHEAD);
      this.objects.delete(key);
      this.index.remove(key);
    }
    this.window.push(change, now);
    if (this.registered > 0) this.fanOut(change);
  }

  private materializeFailed(key: string, revision: number, err: unknown): void {
    this.materializeErrorsTotal++;
    this.host.log({ msg: 'watch cache: cannot materialize object', key, revision, err: String(err) });
  }

  /** Offers a change to every watcher that can want it: O(watchers of the key's buckets). */
  private fanOut(change: Change): void {
    const key = change.key;
    let idxNew: string | undefined;
    let idxOld: string | undefined;
    if (this.indexField !== undefined) {
      const f = this.indexField;
      idxNew = change.type === 'DELETED' ? undefined : (change.object.fields[f] ?? '');
      idxOld = change.prev === undefined ? undefined : (change.prev.fields[f] ?? '');
    }
    if (this.rootBucket !== undefined) offerBucket(this.rootBucket, change, idxNew, idxOld);
    if (this.prefixBuckets.size > 0) {
      for (let i = key.indexOf('/', this.prefix.length); i !== -1; i = key.indexOf('/', i + 1)) {
        const bucket = this.prefixBuckets.get(key.slice(0, i + 1));
        if (bucket !== undefined) offerBucket(bucket, change, idxNew, idxOld);
      }
    }
    if (this.keyBuckets.size > 0) {
      const bucket = this.keyBuckets.get(key);
      if (bucket !== undefined) offerBucket(bucket, change, idxNew, idxOld);
    }
    for (const w of this.scanned) if (w.wantsKey(key)) w.offer(change);
  }

  /** Drops window changes past their age (the cacher runs this periodically). */
  sweep(now: number): void {
    this.window.evict(now);
  }

  // ---------------------------------------------------------------- (re)initialisation

  /** Adds a listed key/value to a builder. */
  addListed(builder: StateBuilder, kv: KeyValue): void {
    let object: CachedObject;
    try {
      object = this.materialize(kv.key, kv.value, kv.modRevision, kv.createRevision);
    } catch (err) {
      builder.errors++;
      this.materializeFailed(kv.key, kv.modRevision, err);
      return;
    }
    builder.objects.set(kv.key, { type: 'ADDED', object, revision: kv.modRevision });
    builder.index.insert(kv.key);
  }

  /** Swaps in a listed state at `revision`; the window starts empty there. Cancels a late load. */
  install(builder: StateBuilder, revision: number): void {
    this.loadGeneration++;
    this.loadBuffer = undefined;
    this.objects = builder.objects;
    this.index = builder.index;
    this.window = new EventWindow(this.windowOptions, revision);
    this.loaded = true;
    const callbacks = this.loadedCallbacks;
    this.loadedCallbacks = [];
    for (const cb of callbacks) cb();
    const waiting = [...this.waitingForLoad];
    this.waitingForLoad.clear();
    for (const [w, opts] of waiting) this.tryStart(w, opts);
  }

  /**
   * The cacher lost its storage watch: ends every started watcher with `error`; the state stays
   * until the re-list replaces it, but list/get refuse (NotReady) meanwhile. Watchers that have
   * not started yet keep waiting.
   */
  invalidate(error: CacheError): void {
    this.loaded = false;
    this.loadGeneration++;
    this.loadBuffer = undefined;
    for (const w of [...this.watchers]) if (w.started) w.terminate(error);
  }

  /** Resolves once the resource holds a listed state (at once if it does). */
  whenLoaded(): Promise<void> {
    if (this.loaded) return Promise.resolve();
    return new Promise((resolve) => this.loadedCallbacks.push(resolve));
  }

  /** Ends every watcher, started or not. */
  stop(error: CacheError): void {
    this.loaded = false;
    this.loadGeneration++;
    this.loadBuffer = undefined;
    for (const w of [...this.watchers]) w.terminate(error);
  }

  /**
   * Registration after the cacher started: list the prefix at the cacher's revision, buffering the
   * changes that arrive meanwhile, then apply those after the listed revision.
   */
  async loadLate(): Promise<void> {
    const generation = ++this.loadGeneration;
    this.loadBuffer = [];
    for (let attempt = 0; ; attempt++) {
      if (generation !== this.loadGeneration || this.host.stopped) return;
      const revision = this.host.revision;
      try {
        const builder = new StateBuilder();
        let startAfter: string | undefined;
        for (;;) {
          const page = await this.host.storage.list(this.prefix, { revision, limit: this.host.pageSize, startAfter });
          if (generation !== this.loadGeneration) return;
          for (const kv of page.items) this.addListed(builder, kv);
          if (!page.more || page.items.length === 0) break;
          startAfter = page.items[page.items.length - 1]!.key;
        }
        const buffered = this.loadBuffer ?? [];
        this.install(builder, revision);
        const now = Date.now();
        for (const ev of buffered) if (ev.modRevision > revision) this.apply(ev, now);
        this.host.log({ msg: 'watch cache: resource loaded', prefix: this.prefix, revision, objects: this.objects.size });
        return;
      } catch (err) {
        if (generation !== this.loadGeneration || this.host.stopped || isStorageError(err, 'Closed')) return;
        this.host.log({ msg: 'watch cache: loading resource failed', prefix: this.prefix, err: String(err), attempt });
        if (!isStorageError(err, 'Compacted')) await this.host.backoff(attempt);
      }
    }
  }

  // ---------------------------------------------------------------- misc

  get metrics(): ResourceCacheMetrics {
    return {
      prefix: this.prefix,
      objects: this.objects.size,
      events: this.eventsTotal,
      windowEvents: this.window.size,
      windowBytes: this.window.bytes,
      windowStart: this.window.start,
      watchers: this.watchers.size,
      eventsSent: this.sentTotal,
      watchersTerminatedTooSlow: this.tooSlowTotal,
      materializeErrors: this.materializeErrorsTotal,
    };
  }

  private checkLoaded(): void {
    if (this.loaded) return;
    throw new CacheError(this.host.stopped ? 'Stopped' : 'NotReady', `watch cache for ${this.prefix} is not ready`);
  }

  private checkPrefix(prefix: string): void {
    if (typeof prefix !== 'string' || !prefix.startsWith(this.prefix)) {
      throw new RangeError(`prefix ${JSON.stringify(prefix)} is not under ${this.prefix}`);
    }
  }
}

function offerBucket(bucket: Bucket, change: Change, idxNew: string | undefined, idxOld: string | undefined): void {
  for (const w of bucket.all) w.offer(change);
  const byIndex = bucket.byIndex;
  if (byIndex === undefined) return;
  if (idxNew !== undefined) {
    const set = byIndex.get(idxNew);
    if (set !== undefined) for (const w of set) w.offer(change);
  }
  if (idxOld !== undefined && idxOld !== idxNew) {
    const set = byIndex.get(idxOld);
    if (set !== undefined) for (const w of set) w.offer(change);
  }
}
