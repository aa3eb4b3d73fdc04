// The public types of the watch cache ("cacher"): what the cache holds per object, what a watcher
// receives, and the typed errors the API layer maps to Kubernetes Status answers.
import type { JsonParts } from './json-parts.js';

/**
 * One object as the cache serves it. Built once per stored version by the registry's
 * `materialize` function and then shared, unchanged, by every list, get and watcher: nothing below
 * the API layer copies or re-serializes it. Treat it as immutable.
 */
export interface CachedObject {
  /** The storage key (`/registry/pods/<ns>/<name>`). */
  readonly key: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
  readonly name: string;
  /** The revision this version was written at (for a deleted object: the delete's revision). */
  readonly revision: number;
  /**
   * The served bytes (JSON with metadata.resourceVersion set), in one piece. For an object held in
   * `parts` this is a fresh copy each time: read `parts` (or `jsonLength`) where that matters.
   */
  readonly json: Uint8Array;
  /** When set: the served bytes as parts (see json-parts.ts), which lists copy directly. */
  readonly parts?: JsonParts;
  /** Label set, for label selectors. */
  readonly labels: Readonly<Record<string, string>>;
  /** Selectable fields (`metadata.name`, `spec.nodeName`, ...), for field selectors. */
  readonly fields: Readonly<Record<string, string>>;
  /** Optional decoded form; may be left out to save memory. */
  readonly object?: unknown;
}

/** The length of an object's served bytes (without joining its parts). */
export function jsonLength(o: CachedObject): number {
  return o.parts !== undefined ? o.parts.byteLength : o.json.byteLength;
}

/**
 * Turns stored bytes into a CachedObject. `modRevision` is the revision to report as the object's
 * resourceVersion (for a delete: the delete's revision, as Kubernetes reports it). May throw: the
 * object is then left out of the cache and counted in `materializeErrors`.
 */
export type Materialize = (key: string, value: Uint8Array, modRevision: number, createRevision: number) => CachedObject;

/** Decides whether a watcher or list wants an object (label/field selectors). Must be pure. */
export type ObjectFilter = (object: CachedObject) => boolean;

export type ObjectEventType = 'ADDED' | 'MODIFIED' | 'DELETED';
export type WatchCacheEventType = ObjectEventType | 'BOOKMARK' | 'ERROR';

/** A change of one object. The same event object (and its `object.json`) is shared by all watchers. */
export interface ObjectEvent {
  readonly type: ObjectEventType;
  readonly object: CachedObject;
  /** The revision of the change (== object.revision). */
  readonly revision: number;
}

/** "Everything up to `revision` has been sent": the API layer builds the kind's bookmark object. */
export interface BookmarkEvent {
  readonly type: 'BOOKMARK';
  readonly revision: number;
  /**
   * True for the bookmark that ends the initial events of a `sendInitialEvents` watch: the API
   * layer annotates it `k8s.io/initial-events-end: "true"`.
   */
  readonly initialEventsEnd: boolean;
}

/** The watch ended; always the last event a watcher receives. */
export interface ErrorEvent {
  readonly type: 'ERROR';
  readonly error: CacheError;
  /** The cache revision when the watch ended. */
  readonly revision: number;
}

export type WatchCacheEvent = ObjectEvent | BookmarkEvent | ErrorEvent;

export type CacheErrorCode =
  /** Watch from a revision older than the event window. API: HTTP 200 + one ERROR event, Status 410 Expired. */
  | 'Expired'
  /**
   * A read or watch asked for a revision the cache did not reach in time. API: 504 Timeout
   * "Timeout: Too large resource version: X, current: Y", cause ResourceVersionTooLarge, retryAfterSeconds 1.
   */
  | 'TooLargeResourceVersion'
  /** The watcher fell too far behind and was cut off. API: end the stream (Kubernetes closes it silently). */
  | 'TooSlow'
  /**
   * The cache lost its storage watch and re-listed; its watchers are ended. API: ERROR event with a
   * 410 Expired Status (or just end the stream) so the client re-lists / re-watches.
   */
  | 'Reinitialized'
  /** The cache is not (yet, or no longer) initialised. API: 503 / 429 with Retry-After. */
  | 'NotReady'
  /** The cache was stopped (storage closed or stop()). API: end the stream / 503. */
  | 'Stopped';

export class CacheError extends Error {
  constructor(
    readonly code: CacheErrorCode,
    message: string,
    /** Expired: the requested revision; TooLargeResourceVersion: the requested revision. */
    readonly requested?: number,
    /** Expired: the oldest revision a watch may start from; TooLargeResourceVersion: the cache revision. */
    readonly current?: number,
  ) {
    super(message);
    this.name = 'CacheError';
  }

  /** For TooLargeResourceVersion: the Retry-After Kubernetes sends. */
  get retryAfterSeconds(): number | undefined {
    return this.code === 'TooLargeResourceVersion' ? 1 : undefined;
  }
}

export function isCacheError(err: unknown, code?: CacheErrorCode): err is CacheError {
  return err instanceof CacheError && (code === undefined || err.code === code);
}

/** The bounded window of recent events a resource keeps for watches that start in the past. */
export interface WindowOptions {
  /** Events younger than this are kept unless `maxEvents` / `maxBytes` is exceeded (default 5 min). */
  minAgeMs: number;
  /** The newest this-many events are kept whatever their age (default 1,000). */
  minEvents: number;
  /** Hard cap on events (default 100,000). */
  maxEvents: number;
  /** Hard cap on the bytes the window holds (object json + previous raw value; default 256 MiB). */
  maxBytes: number;
}

export const DEFAULT_WINDOW: WindowOptions = {
  minAgeMs: 5 * 60_000,
  minEvents: 1000,
  maxEvents: 100_000,
  maxBytes: 256 * 1024 * 1024,
};

export interface ListOptions {
  /** The resource prefix or a namespace prefix under it (`/registry/pods/ns/`), or an exact key with `exactKey`. */
  prefix: string;
  filter?: ObjectFilter;
  /** At most this many matching items (> 0). */
  limit?: number;
  /** Only keys strictly greater than this one. */
  startAfter?: string;
}

export interface ListResult {
  /** Matching objects in key order; the caller concatenates their `json`. */
  items: CachedObject[];
  /** The cache revision the list reflects (use as the list's resourceVersion). */
  revision: number;
  /** True when keys beyond the last returned one remain under the prefix (whether or not they match). */
  more: boolean;
  /**
   * With `more` and no filter: how many keys remain after the last returned one
   * (`remainingItemCount`; Kubernetes leaves it out when a selector is set).
   */
  remaining?: number;
  /** The last key examined (the continue position); set when `more`. */
  lastKey?: string;
}

export interface WatchOptions {
  /** Watch keys under this prefix (the resource prefix or a namespace prefix). Exclusive with `key`. */
  prefix?: string;
  /** Watch exactly this key (a `metadata.name` field selector). */
  key?: string;
  /**
   * Deliver changes with a revision strictly greater than this one ('now': from the current cache
   * revision). Older than the window → ERROR Expired; newer than the cache → waits up to
   * `waitTimeoutMs`, then ERROR TooLargeResourceVersion.
   */
  fromRevision: number | 'now';
  filter?: ObjectFilter;
  /**
   * The watcher's filter only matches objects whose `fields[indexField]` equals this value (e.g.
   * the node of a kubelet's `spec.nodeName=` selector); the resource must be registered with that
   * `indexField`. Events for other values then never reach this watcher (Kubernetes' "triggers").
   */
  indexValue?: string;
  /**
   * Legacy "no resourceVersion" / resourceVersion=0 semantics: first a synthetic ADDED for every
   * current matching object (at the cache revision, once it is >= fromRevision), then live events.
   */
  initialEvents?: boolean;
  /**
   * Streaming-list semantics: as `initialEvents`, then, with `allowBookmarks`, a BOOKMARK with
   * `initialEventsEnd: true` at the snapshot revision.
   */
  sendInitialEvents?: boolean;
  allowBookmarks?: boolean;
  /** Period of BOOKMARK events when `allowBookmarks` (default from the cacher: 60 s). */
  bookmarkIntervalMs?: number;
  /** Live events the watcher may have queued before it is cut off (TooSlow); default from the cacher. */
  maxQueueEvents?: number;
  /** Bytes (of object json) the watcher may have queued before it is cut off; default from the cacher. */
  maxQueueBytes?: number;
  /** How long a watch from a future revision waits (default from the cacher: 3 s). */
  waitTimeoutMs?: number;
}

/** One watch on the cache: an async iterable of events, ending after an ERROR event or close(). */
export interface CacheWatch extends AsyncIterable<WatchCacheEvent> {
  /**
   * Resolves with the next events (at most `max`), waiting when none are queued; an empty array
   * means the watch has ended. An ERROR event is always the last one delivered.
   */
  nextBatch(max?: number): Promise<WatchCacheEvent[]>;
  /** Queues a BOOKMARK at the current cache revision now (e.g. shortly before a watch timeout). */
  bookmark(): void;
  /** Ends the watch and releases everything it holds. Idempotent. */
  close(): void;
  /** True once closed by the consumer or terminated by the cache. */
  readonly done: boolean;
  /** Live events queued and not yet read. */
  readonly queued: number;
}

/** Per-resource counters and gauges, for the API server's Prometheus exporter. */
export interface ResourceCacheMetrics {
  prefix: string;
  /** Objects currently cached. */
  objects: number;
  /** Events processed since start (all types). */
  events: number;
  /** Events currently held in the window. */
  windowEvents: number;
  /** Bytes held by the window (approximate). */
  windowBytes: number;
  /** The oldest revision a watch may start from. */
  windowStart: number;
  /** Watchers currently open (including those still waiting to start). */
  watchers: number;
  /** Events queued to watchers since start (after filtering). */
  eventsSent: number;
  /** Watchers cut off for falling behind, since start. */
  watchersTerminatedTooSlow: number;
  /** Objects `materialize` failed on, since start. */
  materializeErrors: number;
}
