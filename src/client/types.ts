// The client layer's contracts (client-go's, in TypeScript): controllers, the scheduler and the
// nodes reach the API server only through these. Implementations: the HTTP client and shared
// informers (src/client/), and in-memory fakes for unit tests (src/client/fake/).

import type { DiscoveryInterface } from './discovery.js';

/** A Kubernetes object in JSON form. */
export type KubeObject = Record<string, unknown>;

/** Which resource a client talks to: group '' for core, plural resource name. */
export interface ResourceRef {
  group: string;
  version: string;
  resource: string;
  /**
   * Scope and kind of a resource the compiled kind table does not know (a custom resource), as
   * discovery tells them; ignored for built-in resources.
   */
  namespaced?: boolean;
  kind?: string;
}

/** The error every client call throws for a non-2xx answer: the server's Status. */
export interface ApiStatusError extends Error {
  readonly code: number;
  /** Status.reason: NotFound, AlreadyExists, Conflict, Invalid, Expired, TooManyRequests, ... */
  readonly reason: string;
  readonly status: KubeObject;
}

export interface WriteOptions {
  dryRun?: boolean;
  /** Defaults to the client's user agent's program name, as client-go does. */
  fieldManager?: string;
  /**
   * Client side, not sent: the answer comes without metadata.managedFields, skipped undecoded where
   * it is protobuf, dropped after parsing where JSON (for writers that read none of what they wrote).
   */
  skipManagedFields?: boolean;
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  timeoutSeconds?: number;
  /**
   * Client side, not sent: the objects come without metadata.managedFields, skipped undecoded
   * where the answer is protobuf, dropped after parsing where JSON (for readers that drop them, as
   * informers' caches do).
   */
  skipManagedFields?: boolean;
}

export interface WatchOptions extends ListOptions {
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
}

export interface ObjectList {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: KubeObject[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  /** The object (for ERROR: a Status). */
  object: KubeObject;
}

/** A watch: events until the server ends the stream or `close()` is called. */
export interface Watch extends AsyncIterable<WatchEvent> {
  close(): void;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export interface DeleteOptions extends WriteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** One resource of one group/version. `namespace` is '' for cluster-scoped resources or all namespaces. */
export interface ResourceClient {
  readonly ref: ResourceRef;
  /** GET of the object (or of its `subresource`: 'scale', 'status'). */
  get(namespace: string, name: string, opts?: { subresource?: string }): Promise<KubeObject>;
  list(namespace: string, opts?: ListOptions): Promise<ObjectList>;
  watch(namespace: string, opts?: WatchOptions): Promise<Watch>;
  create(namespace: string, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject>;
  /** PUT of the main resource (or `subresource`: 'status', 'scale', 'finalize'). */
  update(namespace: string, obj: KubeObject, opts?: WriteOptions & { subresource?: string }): Promise<KubeObject>;
  patch(namespace: string, name: string, type: PatchType, patch: unknown, opts?: WriteOptions & { subresource?: string; force?: boolean }): Promise<KubeObject>;
  /** Resolves with the object when it still exists (graceful or finalizers), undefined when gone. */
  delete(namespace: string, name: string, opts?: DeleteOptions): Promise<KubeObject | undefined>;
  /** POST to a subresource of an object (pods/binding, pods/eviction, deployments/rollback). */
  createSubresource(namespace: string, name: string, subresource: string, body: KubeObject, opts?: WriteOptions): Promise<KubeObject>;
}

/** The client of a whole cluster: one ResourceClient per resource, sharing one connection pool and rate limiter. */
export interface Clientset {
  resource(ref: ResourceRef): ResourceClient;
  /** The server's discovery (absent from clientsets that cannot read it). */
  discovery?(): DiscoveryInterface;
}

/** Reads an informer's local cache (client-go's lister + indexer). Never hits the API server. */
export interface Lister {
  get(namespace: string, name: string): KubeObject | undefined;
  /** All objects, or those of one namespace, optionally filtered by a label selector. */
  list(namespace?: string, labelSelector?: string | ((labels: Record<string, string>) => boolean)): KubeObject[];
  /**
   * Objects by a registered index: 'namespace', 'ownerUid' (ownerReferences[].uid), 'orphan' (the
   * namespace of objects without a controller ownerReference), 'nodeName' (pods' spec.nodeName).
   */
  byIndex(index: string, value: string): KubeObject[];
}

/** A deleted object as a handler may receive it when the delete was missed (client-go's DeletedFinalStateUnknown). */
export interface Tombstone {
  key: string;
  obj: KubeObject;
  finalStateUnknown: true;
}

export interface EventHandler {
  onAdd?(obj: KubeObject, isInInitialList: boolean): void;
  onUpdate?(oldObj: KubeObject, newObj: KubeObject): void;
  onDelete?(obj: KubeObject | Tombstone): void;
}

export interface SharedInformer {
  readonly ref: ResourceRef;
  readonly lister: Lister;
  addEventHandler(handler: EventHandler): void;
  hasSynced(): boolean;
  /** The resourceVersion of the last event or list seen. */
  lastSyncResourceVersion(): string;
}

export interface InformerOptions {
  /** Only metadata (PartialObjectMetadata), as the garbage collector's informers. */
  metadataOnly?: boolean;
  /**
   * Only the objects this field selector selects, filtered by the server (a kubelet's pods:
   * `spec.nodeName=<node>`); an object that stops matching leaves the cache as if deleted.
   */
  fieldSelector?: string;
}

/** Which informer of a factory serves `ref` with `opts`: one per resource, metadata-only view and field selector. */
export function informerKey(ref: ResourceRef, opts: InformerOptions): string {
  return `${ref.group}/${ref.version}/${ref.resource}${opts.metadataOnly ? '#meta' : ''}${opts.fieldSelector ? `?${opts.fieldSelector}` : ''}`;
}

/** One informer per resource for the whole process (client-go's SharedInformerFactory). */
export interface InformerFactory {
  informer(ref: ResourceRef, opts?: InformerOptions): SharedInformer;
  /** Starts every informer requested so far (and any requested later). */
  start(signal: AbortSignal): void;
  /** Resolves when every started informer has listed once. */
  waitForCacheSync(signal?: AbortSignal): Promise<boolean>;
  /** Stops and forgets an informer whose resource is no longer served (the garbage collector's monitors). */
  remove?(ref: ResourceRef, opts?: InformerOptions): void;
}

/** client-go's rate-limited, de-duplicating work queue. */
export interface WorkQueue<T = string> {
  add(item: T): void;
  /** Adds after the item's per-item back-off (and the overall rate limit). */
  addRateLimited(item: T): void;
  addAfter(item: T, delayMs: number): void;
  /** Clears the item's back-off after a successful sync. */
  forget(item: T): void;
  numRequeues(item: T): number;
  /** The next item, or undefined once the queue is shut down and drained. */
  get(): Promise<T | undefined>;
  /** Marks an item from get() as processed (it may be queued again now). */
  done(item: T): void;
  shutDown(): void;
  len(): number;
}

/** Emits core/v1 Events about objects, as client-go's EventRecorder (aggregated and rate-limited). */
export interface EventRecorder {
  event(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** What a controller gets from the controller manager. */
export interface ControllerContext {
  clientset: Clientset;
  informers: InformerFactory;
  /** A recorder whose events name this controller as their source. */
  recorder: (component: string) => EventRecorder;
  /** The controller manager's options (seed 001's flags), already validated. */
  options: Readonly<Record<string, unknown>>;
  /** Milliseconds since the epoch (injectable for tests, e.g. CronJob schedules). */
  now(): number;
  log(fields: Record<string, unknown>): void;
}

/** One control loop. `run` resolves once `signal` aborts and its workers have stopped. */
export interface Controller {
  readonly name: string;
  run(workers: number, signal: AbortSignal): Promise<void>;
}

export type ControllerConstructor = (ctx: ControllerContext) => Controller;
