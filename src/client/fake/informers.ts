// FakeInformerFactory: informers whose caches mirror a FakeClientset's tracker synchronously.
//
// - The cache follows the tracker from the moment the informer is requested (so a lister sees the
//   seeded objects and every write at once); handlers are called only after start(): start()
//   delivers an onAdd(obj, true) per cached object to the handlers added before it, a handler
//   added later gets its synthetic adds at once, and each tracker change is then delivered
//   synchronously, in write order, inside the write call.
// - `add/update/delete` on an informer change its cache (and notify handlers) without touching
//   the tracker: client-go tests' `informer.GetIndexer().Add(obj)`.
// - `flush()` lets queued promise callbacks and timers of 0 ms run (workers picking up keys).
// - Metadata-only informers hold PartialObjectMetadata objects, as the API server's.
import { Store, keyOf } from '../cache.js';
import { informerKey, type EventHandler, type InformerFactory, type InformerOptions, type KubeObject, type ResourceRef, type SharedInformer, type Tombstone } from '../types.js';
import { selectorMatcher, type FakeClientset } from './clientset.js';

export function toPartialObjectMetadata(obj: KubeObject): KubeObject {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: structuredClone(obj.metadata ?? {}) };
}

export class FakeSharedInformer implements SharedInformer {
  readonly lister: Store;
  private readonly handlers: EventHandler[] = [];
  private started = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    readonly ref: ResourceRef,
    private readonly clientset: FakeClientset | undefined,
    private readonly opts: InformerOptions = {},
  ) {
    this.lister = new Store();
    if (clientset) {
      const selected = selectorMatcher({ fieldSelector: opts.fieldSelector });
      for (const o of clientset.tracker.list(ref)) if (selected(o)) this.lister.set(this.view(o));
      // An object that stops matching the field selector leaves the cache, as a watch tells it.
      this.unsubscribe = clientset.tracker.subscribe(ref, (type, obj) => {
        if (type === 'DELETED' || !selected(obj)) this.delete(obj);
        else this.update(obj);
      });
    }
  }

  /** Objects as this informer stores them (metadata only when asked). */
  private view(o: KubeObject): KubeObject {
    return this.opts.metadataOnly ? toPartialObjectMetadata(o) : o;
  }

  addEventHandler(handler: EventHandler): void {
    this.handlers.push(handler);
    if (this.started) for (const o of this.lister.list()) handler.onAdd?.(o, true);
  }

  hasSynced(): boolean {
    return this.started;
  }

  lastSyncResourceVersion(): string {
    return this.clientset?.tracker.resourceVersion() ?? '';
  }

  /** @internal called by the factory. */
  start(): void {
    if (this.started) return;
    this.started = true;
    const objs = this.lister.list();
    for (const h of this.handlers) for (const o of objs) h.onAdd?.(o, true);
  }

  /** @internal called by the factory: no more events from the tracker. */
  stop(): void {
    this.unsubscribe?.();
    this.handlers.length = 0;
  }

  /** Adds or updates an object in the cache (and tells the handlers), as a watch event would. */
  add(obj: KubeObject): void {
    this.update(obj);
  }

  update(obj: KubeObject): void {
    const o = this.view(obj);
    const old = this.lister.set(o);
    if (!this.started) return;
    for (const h of this.handlers) {
      if (old) h.onUpdate?.(old, o);
      else h.onAdd?.(o, false);
    }
  }

  /** Removes an object from the cache; `tombstone` delivers it as a DeletedFinalStateUnknown. */
  delete(obj: KubeObject, tombstone = false): void {
    const o = this.view(obj);
    const key = keyOf(o);
    const old = this.lister.remove(key);
    if (!this.started || (!old && !tombstone)) return;
    const arg: KubeObject | Tombstone = tombstone ? { key, obj: old ?? o, finalStateUnknown: true } : o;
    for (const h of this.handlers) h.onDelete?.(arg);
  }

  /** Sends every cached object to the handlers' onUpdate(obj, obj), as a periodic resync does. */
  resync(): void {
    if (!this.started) return;
    for (const o of this.lister.list()) for (const h of this.handlers) h.onUpdate?.(o, o);
  }
}

export class FakeInformerFactory implements InformerFactory {
  private readonly informers = new Map<string, FakeSharedInformer>();
  private started = false;

  /** Without a clientset, informers start empty and are fed with add/update/delete only. */
  constructor(private readonly clientset?: FakeClientset) {}

  informer(ref: ResourceRef, opts: InformerOptions = {}): FakeSharedInformer {
    const k = informerKey(ref, opts);
    let inf = this.informers.get(k);
    if (!inf) {
      inf = new FakeSharedInformer({ group: ref.group, version: ref.version, resource: ref.resource }, this.clientset, opts);
      this.informers.set(k, inf);
      if (this.started) inf.start();
    }
    return inf;
  }

  start(_signal?: AbortSignal): void {
    this.started = true;
    for (const inf of this.informers.values()) inf.start();
  }

  async waitForCacheSync(): Promise<boolean> {
    return this.started;
  }

  /** Forgets an informer (its resource is no longer served); it receives no further events. */
  remove(ref: ResourceRef, opts: InformerOptions = {}): void {
    const k = informerKey(ref, opts);
    this.informers.get(k)?.stop();
    this.informers.delete(k);
  }

  /** Resyncs every informer (handlers' onUpdate with identical objects). */
  resync(): void {
    for (const inf of this.informers.values()) inf.resync();
  }
}

/** Lets pending promise callbacks and immediate timers run `rounds` times (default 10). */
export async function flush(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}
