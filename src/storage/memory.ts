import { DEFAULT_RETENTION, RevisionClock, type HistoryRetention } from './history-retention.js';
import { SortedKeys } from './sorted-keys.js';
import {
  StorageError,
  validateKey,
  validateListOptions,
  validatePrefix,
  validateValue,
  type DeleteResult,
  type GetOptions,
  type KeyValue,
  type ListOptions,
  type ListResult,
  type Storage,
  type UpdateOptions,
  type Watch,
  type WatchEvent,
  type WatchOptions,
} from './types.js';
import { WatchQueue } from './watch-queue.js';

/** One change in the history log: what the key became (`kv`, absent for a delete) and what it was. */
interface Change {
  revision: number;
  key: string;
  kv: KeyValue | undefined;
  prev: KeyValue | undefined;
}

export interface MemoryStorageOptions {
  retention?: HistoryRetention;
  /** Events a watch may buffer before the consumer is cut off. */
  watchBuffer?: number;
}

/**
 * The in-process backend: current keys in a map plus a sorted key index, history as an array of
 * changes since the compacted revision. Reads at an older revision undo the changes made after it.
 * Used by unit tests and `--storage memory`; nothing survives the process.
 */
export class MemoryStorage implements Storage {
  readonly backend = 'memory' as const;
  private readonly current = new Map<string, KeyValue>();
  private readonly keys = new SortedKeys();
  private history: Change[] = [];
  private revision = 0;
  private compacted = 0;
  private readonly watchers = new Set<{ prefix: string; prevValues: boolean; queue: WatchQueue }>();
  private readonly clock: RevisionClock;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: MemoryStorageOptions = {}) {
    const retention = options.retention ?? DEFAULT_RETENTION;
    this.clock = new RevisionClock(retention);
    this.timer = setInterval(() => this.autoCompact(), retention.checkIntervalMs);
    this.timer.unref();
  }

  async get(key: string, opts: GetOptions = {}): Promise<KeyValue | undefined> {
    this.checkOpen();
    validateKey(key);
    const at = this.readRevision(opts.revision);
    if (at === this.revision) return this.current.get(key);
    return this.stateAt(key, at);
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.checkOpen();
    validatePrefix(prefix);
    validateListOptions(opts);
    const at = this.readRevision(opts.revision);
    const limit = opts.limit ?? Infinity;
    const items: KeyValue[] = [];
    let more = false;
    if (at === this.revision) {
      for (const key of this.keys.range(prefix, opts.startAfter)) {
        if (items.length === limit) {
          more = true;
          break;
        }
        items.push(this.current.get(key)!);
      }
      return { items, revision: at, more };
    }
    // An older snapshot: the keys touched since `at` may have other values (or not exist) then.
    const touched = this.changedSince(at);
    const candidates = new Set(this.keys.range(prefix, opts.startAfter));
    for (const key of touched.keys()) {
      if (key.startsWith(prefix) && (opts.startAfter === undefined || key > opts.startAfter)) candidates.add(key);
    }
    for (const key of [...candidates].sort()) {
      const kv = touched.has(key) ? touched.get(key) : this.current.get(key);
      if (!kv) continue;
      if (items.length === limit) {
        more = true;
        break;
      }
      items.push(kv);
    }
    return { items, revision: at, more };
  }

  async create(key: string, value: Uint8Array): Promise<number> {
    this.checkOpen();
    validateKey(key);
    validateValue(value);
    const existing = this.current.get(key);
    if (existing) throw new StorageError('AlreadyExists', `key ${key} already exists`, existing.modRevision);
    const revision = ++this.revision;
    const kv: KeyValue = { key, value: copy(value), createRevision: revision, modRevision: revision, version: 1 };
    this.current.set(key, kv);
    this.keys.insert(key);
    this.commit({ revision, key, kv, prev: undefined });
    return revision;
  }

  async update(key: string, value: Uint8Array, opts: UpdateOptions = {}): Promise<number> {
    this.checkOpen();
    validateKey(key);
    validateValue(value);
    const prev = this.existing(key, opts.expectModRevision);
    const revision = ++this.revision;
    const kv: KeyValue = {
      key,
      value: copy(value),
      createRevision: prev.createRevision,
      modRevision: revision,
      version: prev.version + 1,
    };
    this.current.set(key, kv);
    this.commit({ revision, key, kv, prev });
    return revision;
  }

  async delete(key: string, opts: UpdateOptions = {}): Promise<DeleteResult> {
    this.checkOpen();
    validateKey(key);
    const prev = this.existing(key, opts.expectModRevision);
    const revision = ++this.revision;
    this.current.delete(key);
    this.keys.remove(key);
    this.commit({ revision, key, kv: undefined, prev });
    return { revision, prev };
  }

  watch(prefix: string, opts: WatchOptions): Watch {
    this.checkOpen();
    validatePrefix(prefix);
    const entry = { prefix, prevValues: opts.prevValues !== false, queue: undefined as unknown as WatchQueue };
    entry.queue = new WatchQueue(() => this.watchers.delete(entry), this.options.watchBuffer);
    if (opts.fromRevision < this.compacted) {
      entry.queue.fail(
        new StorageError('Compacted', `revision ${opts.fromRevision} has been compacted (compacted revision ${this.compacted})`, this.compacted),
      );
      return entry.queue;
    }
    // Replay retained history after fromRevision, then go live: both happen in this same tick,
    // so no write can slip between them.
    for (let i = this.firstIndexAfter(opts.fromRevision); i < this.history.length; i++) {
      const change = this.history[i]!;
      if (change.key.startsWith(prefix)) entry.queue.push(toEvent(change, entry.prevValues));
    }
    this.watchers.add(entry);
    return entry.queue;
  }

  async compact(revision: number): Promise<void> {
    this.checkOpen();
    if (!Number.isInteger(revision) || revision < 0) throw new StorageError('InvalidKey', `invalid compaction revision ${revision}`);
    if (revision > this.revision) throw new StorageError('FutureRevision', `revision ${revision} is newer than the current revision ${this.revision}`);
    if (revision <= this.compacted) {
      throw new StorageError('Compacted', `revision ${revision} has already been compacted (compacted revision ${this.compacted})`, this.compacted);
    }
    this.history = this.history.slice(this.firstIndexAfter(revision));
    this.compacted = revision;
  }

  async currentRevision(): Promise<number> {
    this.checkOpen();
    return this.revision;
  }

  async compactedRevision(): Promise<number> {
    return this.compacted;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    for (const w of [...this.watchers]) w.queue.fail(new StorageError('Closed', 'storage closed'));
    this.watchers.clear();
  }

  private checkOpen(): void {
    if (this.closed) throw new StorageError('Closed', 'storage closed');
  }

  private existing(key: string, expectModRevision: number | undefined): KeyValue {
    const prev = this.current.get(key);
    if (!prev) throw new StorageError('NotFound', `key ${key} not found`);
    if (expectModRevision !== undefined && prev.modRevision !== expectModRevision) {
      throw new StorageError('Conflict', `key ${key} is at revision ${prev.modRevision}, not ${expectModRevision}`, prev.modRevision);
    }
    return prev;
  }

  private commit(change: Change): void {
    this.history.push(change);
    this.clock.mark(change.revision);
    // One event object per variant, shared by the watchers that asked for it.
    let withPrev: WatchEvent | undefined;
    let withoutPrev: WatchEvent | undefined;
    for (const w of this.watchers) {
      if (!change.key.startsWith(w.prefix)) continue;
      w.queue.push(w.prevValues ? (withPrev ??= toEvent(change, true)) : (withoutPrev ??= toEvent(change, false)));
    }
  }

  private readRevision(revision: number | undefined): number {
    if (revision === undefined || revision === 0) return this.revision;
    if (revision > this.revision) {
      throw new StorageError('FutureRevision', `revision ${revision} is newer than the current revision ${this.revision}`);
    }
    if (revision < this.compacted) {
      throw new StorageError('Compacted', `revision ${revision} has been compacted (compacted revision ${this.compacted})`, this.compacted);
    }
    return revision;
  }

  /** Index of the first change with a revision greater than `revision`. */
  private firstIndexAfter(revision: number): number {
    let lo = 0;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.history[mid]!.revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** For every key changed after `at`: its state at `at` (undefined when it did not exist). */
  private changedSince(at: number): Map<string, KeyValue | undefined> {
    const states = new Map<string, KeyValue | undefined>();
    for (let i = this.firstIndexAfter(at); i < this.history.length; i++) {
      const change = this.history[i]!;
      // The first change after `at` holds the key's state at `at` as its `prev`.
      if (!states.has(change.key)) states.set(change.key, change.prev);
    }
    return states;
  }

  private stateAt(key: string, at: number): KeyValue | undefined {
    for (let i = this.firstIndexAfter(at); i < this.history.length; i++) {
      const change = this.history[i]!;
      if (change.key === key) return change.prev;
    }
    return this.current.get(key);
  }

  private autoCompact(): void {
    this.clock.mark(this.revision);
    const target = this.clock.compactTarget(this.revision);
    if (target > this.compacted) void this.compact(target).catch(() => undefined);
  }
}

function toEvent(change: Change, prevValues: boolean): WatchEvent {
  if (change.kv) {
    return {
      type: 'put',
      key: change.key,
      value: change.kv.value,
      prevValue: prevValues ? change.prev?.value : undefined,
      modRevision: change.revision,
      createRevision: change.kv.createRevision,
    };
  }
  return {
    type: 'delete',
    key: change.key,
    value: EMPTY,
    prevValue: prevValues ? change.prev!.value : undefined,
    modRevision: change.revision,
    createRevision: change.prev!.createRevision,
  };
}

const EMPTY = new Uint8Array(0);

/** Callers may reuse their buffers; the store keeps its own copy. */
function copy(value: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(value);
}
