// The storage contract every backend (memory, lmdb, etcd) implements: an etcd v3-shaped key/value
// store with one global, strictly increasing revision that the API server exposes as
// `resourceVersion`. The API layers above never see which backend they run on.

/** One stored key at one revision. */
export interface KeyValue {
  key: string;
  value: Uint8Array;
  /** Revision at which the key was (last) created. */
  createRevision: number;
  /** Revision of the last write to the key. */
  modRevision: number;
  /** Number of writes since the key was created (1 after create), as etcd counts it. */
  version: number;
}

export interface GetOptions {
  /** Read the key as it was at this revision (must not be older than the compacted revision). */
  revision?: number;
}

export interface ListOptions {
  /** Read the range as it was at this revision; default: the current revision. */
  revision?: number;
  /** At most this many items (> 0); default: all. */
  limit?: number;
  /** Only keys strictly greater than this one (for the next page). */
  startAfter?: string;
}

export interface ListResult {
  items: KeyValue[];
  /** The revision the read was taken at; pass it back with `startAfter` for the next page. */
  revision: number;
  /** True when keys beyond the last returned one remain under the prefix. */
  more: boolean;
}

export interface UpdateOptions {
  /** Refuse with Conflict unless the key's current modRevision is this. */
  expectModRevision?: number;
}

export type DeleteOptions = UpdateOptions;

export interface DeleteResult {
  revision: number;
  /** The key as it was just before the delete. */
  prev: KeyValue;
}

export interface WatchOptions {
  /** Deliver every change with a revision strictly greater than this one. */
  fromRevision: number;
  /**
   * Whether events carry `prevValue` (etcd's prev_kv; default true). A consumer that keeps the
   * current values itself (the watch cache) passes false: lmdb then reads and decompresses no
   * replaced value per update or delete, and etcd sends none.
   */
  prevValues?: boolean;
}

export interface WatchEvent {
  type: 'put' | 'delete';
  key: string;
  /** The new value for a put; empty for a delete. */
  value: Uint8Array;
  /**
   * The value before this event: always set for a delete, set for a put that updated a key; never
   * set when the watch asked for no prevValues.
   */
  prevValue?: Uint8Array;
  /** The revision of this event. */
  modRevision: number;
  /**
   * For a put: the key's create revision (== modRevision when this put created it). For a delete:
   * the deleted version's, or 0 when the watch asked for no prevValues and the backend (etcd)
   * learns it only from the previous value.
   */
  createRevision: number;
}

/**
 * A watch is an async iterable of events in revision order. Iteration ends with a thrown
 * StorageError when the watch fails: `Compacted` when the start revision is no longer in history,
 * `WatchOverflow` when the consumer fell too far behind, `Unavailable` when the backend is lost.
 * `close()` ends iteration normally.
 */
export interface Watch extends AsyncIterable<WatchEvent> {
  close(): void;
}

export interface Storage {
  /** Which backend this is, for logs and metrics. */
  readonly backend: 'memory' | 'lmdb' | 'etcd';
  get(key: string, opts?: GetOptions): Promise<KeyValue | undefined>;
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;
  /**
   * Creates the key; AlreadyExists when it is present. Resolves with the write's revision. The
   * store may keep `value` itself (lmdb serves it from memory until its commit is on disk, and watch
   * events carry it): callers must not modify it afterwards. The same holds for `update`.
   */
  create(key: string, value: Uint8Array): Promise<number>;
  /** Replaces an existing key; NotFound when absent, Conflict when `expectModRevision` differs. */
  update(key: string, value: Uint8Array, opts?: UpdateOptions): Promise<number>;
  /** Deletes an existing key; NotFound when absent, Conflict when `expectModRevision` differs. */
  delete(key: string, opts?: DeleteOptions): Promise<DeleteResult>;
  watch(prefix: string, opts: WatchOptions): Watch;
  /** Discards history at and before `revision`; later reads/watches before it → Compacted. */
  compact(revision: number): Promise<void>;
  /** The newest committed revision (0 for an empty store). */
  currentRevision(): Promise<number>;
  /** The revision history was last compacted at (0 when never). */
  compactedRevision(): Promise<number>;
  close(): Promise<void>;
}

export type StorageErrorCode =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Compacted'
  | 'FutureRevision'
  | 'InvalidKey'
  | 'ValueTooLarge'
  | 'WatchOverflow'
  | 'Unavailable'
  /** The disk holding the data is full: the write was refused before it changed anything. */
  | 'NoSpace'
  /** The file system holding the data is read-only: the write was refused before it changed anything. */
  | 'ReadOnly'
  | 'Closed';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    /** For Conflict / AlreadyExists: the key's current modRevision when known; for Compacted: the compacted revision. */
    readonly revision?: number,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}

/** etcd's default maximum request size (`--max-request-bytes`, 1.5 MiB); we refuse larger values everywhere. */
export const MAX_VALUE_BYTES = 1.5 * 1024 * 1024;

/** Every key lives under this prefix; nothing else may be written. */
export const KEY_PREFIX = '/registry/';

const MAX_KEY_BYTES = 4096;

/** Throws InvalidKey unless `key` is a usable object key under `/registry/`. */
export function validateKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new StorageError('InvalidKey', 'key must not be empty');
  if (!key.startsWith(KEY_PREFIX) || key.length === KEY_PREFIX.length) {
    throw new StorageError('InvalidKey', `key ${JSON.stringify(key)} is not under ${KEY_PREFIX}`);
  }
  if (key.endsWith('/')) throw new StorageError('InvalidKey', `key ${JSON.stringify(key)} must not end with "/"`);
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new StorageError('InvalidKey', `key is longer than ${MAX_KEY_BYTES} bytes`);
  if (key.includes('\0')) throw new StorageError('InvalidKey', 'key must not contain NUL');
}

/** Throws InvalidKey unless `prefix` is a prefix under `/registry/` (it may end with "/"). */
export function validatePrefix(prefix: string): void {
  if (typeof prefix !== 'string' || !prefix.startsWith(KEY_PREFIX)) {
    throw new StorageError('InvalidKey', `prefix ${JSON.stringify(prefix)} is not under ${KEY_PREFIX}`);
  }
  if (prefix.includes('\0')) throw new StorageError('InvalidKey', 'prefix must not contain NUL');
}

/** Throws ValueTooLarge when `value` exceeds etcd's request limit. */
export function validateValue(value: Uint8Array): void {
  if (!(value instanceof Uint8Array)) throw new StorageError('InvalidKey', 'value must be bytes');
  if (value.byteLength > MAX_VALUE_BYTES) {
    throw new StorageError('ValueTooLarge', `value of ${value.byteLength} bytes exceeds the limit of ${MAX_VALUE_BYTES} bytes`);
  }
}

/** Throws InvalidKey for a limit that is not a positive integer. */
export function validateListOptions(opts: ListOptions | undefined): void {
  if (!opts) return;
  if (opts.limit !== undefined && (!Number.isInteger(opts.limit) || opts.limit <= 0)) {
    throw new StorageError('InvalidKey', `limit must be a positive integer, got ${opts.limit}`);
  }
  if (opts.revision !== undefined && (!Number.isInteger(opts.revision) || opts.revision < 0)) {
    throw new StorageError('InvalidKey', `revision must be a non-negative integer, got ${opts.revision}`);
  }
}

/**
 * How many events a watch buffers for a consumer that is not reading before it is cut off with
 * WatchOverflow. Large enough for bursts (a 10,000-object list-and-create), small enough that a
 * stuck consumer cannot grow memory without bound.
 */
export const DEFAULT_WATCH_BUFFER = 100_000;
