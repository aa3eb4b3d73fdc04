// Shared informers (client-go's SharedInformerFactory + Reflector + DeltaFIFO, simplified to what
// a single-threaded process needs): one list+watch per resource for the whole process, an indexed
// cache, handlers called in event order.
//
// - The initial list is paginated (limit 500) and consistent; the watch starts at the list's
//   resourceVersion with bookmarks, and resumes from the last resourceVersion seen when the
//   stream ends or drops. 410 Expired (at watch start or as an ERROR event) relists; objects the
//   relist no longer returns are delivered as tombstones (DeletedFinalStateUnknown); objects it
//   returns again are delivered as updates.
// - A resync every resyncPeriod..2× resyncPeriod (kube-controller-manager's --min-resync-period,
//   12 h) calls every handler's onUpdate(obj, obj) for every cached object.
// - Handlers added after start get synthetic adds (isInInitialList true) of the cache.
// - Metadata-only informers list and watch PartialObjectMetadata (the garbage collector's).
// - A handler that throws is logged; the informer goes on.
import { resourceVersionOf } from '../api/meta/object.js';
import { keyOf, Store } from './cache.js';
import { realClock, type Clock, type TimerHandle } from './clock.js';
import { isApiStatusError, isResourceExpired } from './errors.js';
import { plainRef } from './rest.js';
import { informerKey, type Clientset, type EventHandler, type InformerFactory, type InformerOptions, type KubeObject, type ResourceClient, type ResourceRef, type SharedInformer, type Tombstone, type Watch } from './types.js';

export interface SharedInformerFactoryOptions {
  /** --min-resync-period (ms); each informer resyncs every period..2×period. 0 disables. Default 12 h. */
  resyncPeriodMs?: number;
  /** Page size of the initial list (default 500). */
  pageSize?: number;
  /** Server-side timeout of each watch, seconds; default random 300..600 as client-go. */
  watchTimeoutSeconds?: number | (() => number);
  clock?: Clock;
  /** Back-off after a failed list or watch: initial and cap (ms). Default 800 ms → 30 s. */
  backoffMs?: { initial: number; max: number };
  log?: (fields: Record<string, unknown>) => void;
  /**
   * Applied to every object before it is cached and handed to handlers (client-go's
   * WithTransform), e.g. stripManagedFields.
   */
  transform?: (o: KubeObject) => KubeObject;
  /**
   * The caches hold no metadata.managedFields, as kube-controller-manager's and kube-scheduler's
   * (see stripManagedFields): protobuf answers are decoded without them (their FieldsV1 JSON was
   * 3-6% of these clients' CPU), JSON ones stripped after parsing. Applied before `transform`.
   */
  dropManagedFields?: boolean;
}

/**
 * An informer transform that drops metadata.managedFields, as kube-controller-manager and
 * kube-scheduler do for their caches: nothing they run reads them, and they were ~30% of what a
 * cached pod costs (with 10,000 pods Running, 230 MiB over the controller manager, scheduler and
 * nodes). An update sent from a cached object then carries no managedFields, which keeps the live
 * ones. The object given is not changed.
 */
export function stripManagedFields(o: KubeObject): KubeObject {
  const m = o.metadata as Record<string, unknown> | undefined;
  if (m === undefined || m.managedFields === undefined) return o;
  const { managedFields: _dropped, ...metadata } = m;
  return { ...o, metadata };
}

/** The factory's options with their defaults, as each informer reads them. */
type FactoryOptions = Required<Omit<SharedInformerFactoryOptions, 'watchTimeoutSeconds' | 'transform' | 'dropManagedFields'>> &
  Pick<SharedInformerFactoryOptions, 'dropManagedFields'> &
  Pick<SharedInformerFactoryOptions, 'transform'> & { watchTimeoutSeconds: () => number };

function abortableSleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    let timer: TimerHandle | undefined = undefined;
    const onAbort = () => {
      timer?.cancel();
      resolve();
    };
    timer = clock.setTimer(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The PartialObjectMetadata of an object this informer decoded for itself (a server that answers
 * a metadata request with whole objects): its metadata is taken, not copied — nobody else holds it,
 * and a copy of every pod's metadata on every event was the controller manager's largest cost.
 */
function metadataOnlyView(o: KubeObject): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata ?? {} };
}

/** Counters per informer (for /metrics and tests). */
export interface InformerStats {
  lists: number;
  watches: number;
  relists: number;
  events: number;
}

export class RestSharedInformer implements SharedInformer {
  readonly lister: Store = new Store();
  readonly stats: InformerStats = { lists: 0, watches: 0, relists: 0, events: 0 };
  private readonly handlers: EventHandler[] = [];
  private synced = false;
  private rv = '';
  private started = false;
  private syncWaiters: (() => void)[] = [];
  private readonly client: ResourceClient;
  /** The list and watch options that select the objects (none: all), and how to decode them. */
  private readonly selection: { fieldSelector?: string; skipManagedFields?: boolean };
  private currentWatch: Watch | undefined;

  constructor(
    readonly ref: ResourceRef,
    clientset: Clientset,
    private readonly opts: InformerOptions,
    private readonly fo: FactoryOptions,
  ) {
    const meta = (clientset as { metadataResource?: (ref: ResourceRef) => ResourceClient }).metadataResource;
    this.client = opts.metadataOnly && typeof meta === 'function' ? meta.call(clientset, ref) : clientset.resource(ref);
    this.selection = { ...(opts.fieldSelector ? { fieldSelector: opts.fieldSelector } : {}), ...(fo.dropManagedFields ? { skipManagedFields: true } : {}) };
  }

  private view(o: KubeObject): KubeObject {
    let v = this.opts.metadataOnly && o.kind !== 'PartialObjectMetadata' ? metadataOnlyView(o) : o;
    if (this.fo.dropManagedFields) v = stripManagedFields(v);
    return this.fo.transform ? this.fo.transform(v) : v;
  }

  addEventHandler(handler: EventHandler): void {
    this.handlers.push(handler);
    if (this.synced) for (const o of this.lister.list()) this.call(() => handler.onAdd?.(o, true));
  }

  hasSynced(): boolean {
    return this.synced;
  }

  get isStarted(): boolean {
    return this.started;
  }

  lastSyncResourceVersion(): string {
    return this.rv;
  }

  /** Resolves once synced (or when `signal` aborts: false). */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.syncWaiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      });
    });
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.fo.log({ msg: 'informer handler failed', resource: this.ref.resource, error: e instanceof Error ? e.message : String(e) });
    }
  }

  private notifyAdd(o: KubeObject, initial: boolean): void {
    for (const h of this.handlers) this.call(() => h.onAdd?.(o, initial));
  }
  private notifyUpdate(old: KubeObject, o: KubeObject): void {
    for (const h of this.handlers) this.call(() => h.onUpdate?.(old, o));
  }
  private notifyDelete(o: KubeObject | Tombstone): void {
    for (const h of this.handlers) this.call(() => h.onDelete?.(o));
  }

  /** Runs the reflector until `signal` aborts. */
  run(signal: AbortSignal): void {
    if (this.started) return;
    this.started = true;
    void this.loop(signal);
    this.scheduleResync(signal);
  }

  private scheduleResync(signal: AbortSignal): void {
    const period = this.fo.resyncPeriodMs;
    if (!(period > 0) || signal.aborted) return;
    const timer = this.fo.clock.setTimer(() => {
      signal.removeEventListener('abort', cancel);
      if (signal.aborted) return;
      this.resync();
      this.scheduleResync(signal);
    }, period * (1 + Math.random()));
    const cancel = () => timer.cancel();
    signal.addEventListener('abort', cancel, { once: true });
  }

  /** onUpdate(obj, obj) for every cached object (a periodic resync). */
  resync(): void {
    if (!this.synced) return;
    for (const o of this.lister.list()) this.notifyUpdate(o, o);
  }

  private async loop(signal: AbortSignal): Promise<void> {
    let needList = true;
    let failures = 0;
    const onAbort = () => this.currentWatch?.close();
    signal.addEventListener('abort', onAbort, { once: true });
    while (!signal.aborted) {
      try {
        if (needList) {
          await this.listAndReplace(signal);
          needList = false;
          if (signal.aborted) break;
        }
        this.stats.watches++;
        const w = await this.client.watch('', { resourceVersion: this.rv, allowWatchBookmarks: true, timeoutSeconds: this.fo.watchTimeoutSeconds(), ...this.selection });
        this.currentWatch = w;
        if (signal.aborted) w.close();
        const started = this.fo.clock.now();
        let events = 0;
        for await (const ev of w) {
          if (ev.type === 'ERROR') {
            const code = Number(ev.object.code);
            if (code === 410 || ev.object.reason === 'Expired' || ev.object.reason === 'Gone') needList = true;
            else this.fo.log({ msg: 'watch error event', resource: this.ref.resource, status: ev.object });
            w.close();
            break;
          }
          events++;
          this.stats.events++;
          const rv = resourceVersionOf(ev.object);
          if (ev.type === 'BOOKMARK') {
            if (rv) this.rv = rv;
            continue;
          }
          const o = this.view(ev.object);
          if (ev.type === 'DELETED') {
            const old = this.lister.remove(keyOf(o));
            this.notifyDelete(o);
            void old;
          } else {
            const old = this.lister.set(o);
            if (old) this.notifyUpdate(old, o);
            else this.notifyAdd(o, false);
          }
          if (rv) this.rv = rv;
        }
        this.currentWatch = undefined;
        if (needList) {
          this.stats.relists++;
          this.fo.log({ msg: 'watch expired; relisting', resource: this.ref.resource, resourceVersion: this.rv });
        }
        // A stream that ends at once without events, again and again, is backed off.
        if (events === 0 && this.fo.clock.now() - started < 1000 && !needList) {
          failures++;
          await abortableSleep(this.fo.clock, this.backoff(failures), signal);
        } else failures = 0;
      } catch (e) {
        this.currentWatch = undefined;
        if (signal.aborted) break;
        if (isResourceExpired(e)) {
          needList = true;
          this.stats.relists++;
          this.fo.log({ msg: 'watch expired; relisting', resource: this.ref.resource, resourceVersion: this.rv });
          continue;
        }
        failures++;
        const delay = this.backoff(failures);
        this.fo.log({
          msg: needList ? 'list failed; retrying' : 'watch failed; retrying',
          resource: this.ref.resource,
          error: e instanceof Error ? e.message : String(e),
          code: isApiStatusError(e) ? e.code : undefined,
          retryInMs: Math.round(delay),
        });
        await abortableSleep(this.fo.clock, delay, signal);
      }
    }
    signal.removeEventListener('abort', onAbort);
  }

  private backoff(failures: number): number {
    const { initial, max } = this.fo.backoffMs;
    return Math.min(max, initial * 2 ** Math.max(0, failures - 1)) * (1 + Math.random() * 0.1);
  }

  private async listAndReplace(signal: AbortSignal): Promise<void> {
    this.stats.lists++;
    const items: KubeObject[] = [];
    let cont: string | undefined;
    let rv = '';
    do {
      const page = await this.client.list('', { limit: this.fo.pageSize, continue: cont, ...this.selection });
      if (signal.aborted) return;
      items.push(...page.items);
      rv = page.metadata.resourceVersion ?? rv;
      cont = page.metadata.continue || undefined;
    } while (cont);
    this.replace(items.map((o) => this.view(o)));
    this.rv = rv;
    if (!this.synced) {
      this.synced = true;
      const waiters = this.syncWaiters;
      this.syncWaiters = [];
      for (const w of waiters) w();
    }
  }

  private replace(items: KubeObject[]): void {
    const initial = !this.synced;
    const seen = new Set<string>();
    for (const o of items) {
      const key = keyOf(o);
      seen.add(key);
      const old = this.lister.set(o);
      if (old) this.notifyUpdate(old, o);
      else this.notifyAdd(o, initial);
    }
    for (const key of this.lister.keys()) {
      if (seen.has(key)) continue;
      const old = this.lister.remove(key)!;
      this.notifyDelete({ key, obj: old, finalStateUnknown: true });
    }
  }
}

export class SharedInformerFactory implements InformerFactory {
  private readonly informers = new Map<string, RestSharedInformer>();
  /** Each informer's own stop, so that one can end (its resource is no longer served) while the others run. */
  private readonly stops = new Map<string, AbortController>();
  private signal: AbortSignal | undefined;
  private readonly fo: FactoryOptions;

  constructor(
    private readonly clientset: Clientset,
    opts: SharedInformerFactoryOptions = {},
  ) {
    const wt = opts.watchTimeoutSeconds;
    this.fo = {
      resyncPeriodMs: opts.resyncPeriodMs ?? 12 * 3600_000,
      pageSize: opts.pageSize ?? 500,
      clock: opts.clock ?? realClock,
      backoffMs: opts.backoffMs ?? { initial: 800, max: 30_000 },
      log: opts.log ?? (() => {}),
      ...(opts.transform ? { transform: opts.transform } : {}),
      ...(opts.dropManagedFields ? { dropManagedFields: true } : {}),
      watchTimeoutSeconds: typeof wt === 'function' ? wt : typeof wt === 'number' ? () => wt : () => 300 + Math.floor(Math.random() * 300),
    };
  }

  informer(ref: ResourceRef, opts: InformerOptions = {}): RestSharedInformer {
    const k = informerKey(ref, opts);
    let inf = this.informers.get(k);
    if (!inf) {
      inf = new RestSharedInformer(plainRef(ref), this.clientset, opts, this.fo);
      this.informers.set(k, inf);
      if (this.signal) this.run(k, inf, this.signal);
    }
    return inf;
  }

  private run(key: string, inf: RestSharedInformer, signal: AbortSignal): void {
    const stop = new AbortController();
    this.stops.set(key, stop);
    const onAbort = () => stop.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    stop.signal.addEventListener('abort', () => signal.removeEventListener('abort', onAbort), { once: true });
    inf.run(stop.signal);
  }

  start(signal: AbortSignal): void {
    this.signal = signal;
    for (const [k, inf] of this.informers) if (!inf.isStarted) this.run(k, inf, signal);
  }

  /**
   * Stops an informer and forgets it (its resource is gone from discovery): waitForCacheSync no
   * longer waits for it, and a later informer() for the resource starts afresh.
   */
  remove(ref: ResourceRef, opts: InformerOptions = {}): void {
    const k = informerKey(ref, opts);
    this.stops.get(k)?.abort();
    this.stops.delete(k);
    this.informers.delete(k);
  }

  async waitForCacheSync(signal?: AbortSignal): Promise<boolean> {
    const results = await Promise.all([...this.informers.values()].filter((i) => i.isStarted).map((i) => i.waitForSync(signal)));
    return results.every(Boolean);
  }

  /** Every informer requested so far. */
  all(): RestSharedInformer[] {
    return [...this.informers.values()];
  }
}
