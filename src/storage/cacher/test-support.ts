// Helpers for the watch cache tests: a JSON materialize (what the registry does, minus the
// schema), a storage wrapper that can break its watches, and a background watch reader.
import { MemoryStorage, type MemoryStorageOptions } from '../memory.js';
import {
  StorageError,
  type DeleteOptions,
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
} from '../types.js';
import type { CachedObject, CacheWatch, WatchCacheEvent } from './types.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

export interface TestObject {
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; resourceVersion?: string };
  spec?: { nodeName?: string; [k: string]: unknown };
  [k: string]: unknown;
}

/** Stored bytes of a test object. */
export function encode(obj: TestObject): Uint8Array {
  return enc.encode(JSON.stringify(obj));
}

export function obj(name: string, namespace: string | undefined, labels?: Record<string, string>, spec?: TestObject['spec']): TestObject {
  return { metadata: { name, ...(namespace !== undefined ? { namespace } : {}), ...(labels ? { labels } : {}) }, ...(spec ? { spec } : {}) };
}

/** Decodes stored JSON, sets metadata.resourceVersion, serializes once, extracts selector attributes. */
export function jsonMaterialize(key: string, value: Uint8Array, modRevision: number): CachedObject {
  const o = JSON.parse(dec.decode(value)) as TestObject;
  o.metadata.resourceVersion = String(modRevision);
  return {
    key,
    namespace: o.metadata.namespace ?? '',
    name: o.metadata.name,
    revision: modRevision,
    json: enc.encode(JSON.stringify(o)),
    labels: o.metadata.labels ?? {},
    fields: {
      'metadata.name': o.metadata.name,
      'metadata.namespace': o.metadata.namespace ?? '',
      'spec.nodeName': o.spec?.nodeName ?? '',
    },
    object: o,
  };
}

/** The decoded JSON a watcher or list would serve. */
export function served(o: CachedObject): TestObject {
  return JSON.parse(dec.decode(o.json)) as TestObject;
}

/** Reads a cache watch in the background. */
export function collect(w: CacheWatch): { events: WatchCacheEvent[]; ended: Promise<void> } {
  const events: WatchCacheEvent[] = [];
  const ended = (async () => {
    for await (const ev of w) events.push(ev);
  })();
  return { events, ended };
}

/**
 * A MemoryStorage whose watches the test can break (`failWatches`) and whose lists it can count
 * or make fail: the faults an etcd connection produces, on demand.
 */
export class FaultyStorage implements Storage {
  readonly backend = 'memory' as const;
  readonly inner: MemoryStorage;
  private readonly watches = new Set<{ fail(err: StorageError): void }>();
  lists = 0;
  failNextLists = 0;
  /** Per list call, in order: an error to throw, or undefined to answer normally. */
  listFaults: Array<StorageError | undefined> = [];
  /** Deliver every watch event twice (a resumed watch repeating itself). */
  duplicateEvents = false;

  constructor(opts: MemoryStorageOptions = {}) {
    this.inner = new MemoryStorage(opts);
  }

  get activeWatches(): number {
    return this.watches.size;
  }

  failWatches(err: StorageError): void {
    for (const w of [...this.watches]) w.fail(err);
  }

  get(key: string, opts?: GetOptions): Promise<KeyValue | undefined> {
    return this.inner.get(key, opts);
  }
  async list(prefix: string, opts?: ListOptions): Promise<ListResult> {
    this.lists++;
    const fault = this.listFaults.shift();
    if (fault) throw fault;
    if (this.failNextLists > 0) {
      this.failNextLists--;
      throw new StorageError('Unavailable', 'injected list failure');
    }
    return this.inner.list(prefix, opts);
  }
  create(key: string, value: Uint8Array): Promise<number> {
    return this.inner.create(key, value);
  }
  update(key: string, value: Uint8Array, opts?: UpdateOptions): Promise<number> {
    return this.inner.update(key, value, opts);
  }
  delete(key: string, opts?: DeleteOptions): Promise<DeleteResult> {
    return this.inner.delete(key, opts);
  }
  compact(revision: number): Promise<void> {
    return this.inner.compact(revision);
  }
  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }
  compactedRevision(): Promise<number> {
    return this.inner.compactedRevision();
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  watch(prefix: string, opts: WatchOptions): Watch {
    const inner = this.inner.watch(prefix, opts);
    let failure: StorageError | undefined;
    let wake: (() => void) | undefined;
    const entry = {
      fail: (err: StorageError) => {
        failure = err;
        wake?.();
      },
    };
    this.watches.add(entry);
    const watches = this.watches;
    const twice = () => this.duplicateEvents;
    const iterator = inner[Symbol.asyncIterator]();
    return {
      close: () => {
        watches.delete(entry);
        inner.close();
      },
      async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
        try {
          for (;;) {
            if (failure) throw failure;
            const next = iterator.next();
            const failed = new Promise<'failed'>((resolve) => (wake = () => resolve('failed')));
            const r = await Promise.race([next, failed]);
            if (r === 'failed' || failure) throw failure!;
            if (r.done) return;
            yield r.value;
            if (twice()) yield r.value;
          }
        } finally {
          watches.delete(entry);
          inner.close();
        }
      },
    };
  }
}
