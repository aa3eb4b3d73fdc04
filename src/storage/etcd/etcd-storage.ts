// The etcd v3 backend: every Storage call is one etcd request (a range or a single-key
// transaction), revisions are etcd's own, and watches are etcd watches with prevKV.
import type { Etcd3, IKeyValue, IRangeRequest, IRangeResponse, ITxnRequest, ITxnResponse } from 'etcd3';
import {
  KEY_PREFIX,
  StorageError,
  validateKey,
  validateListOptions,
  validatePrefix,
  validateValue,
  type DeleteOptions,
  type DeleteResult,
  type GetOptions,
  type KeyValue,
  type ListOptions,
  type ListResult,
  type Storage,
  type UpdateOptions,
  type Watch,
  type WatchOptions,
} from '../types.js';
import { WatchQueue } from '../watch-queue.js';
import { createEtcdClient, deadline, RetryFailed, withRetry } from './client.js';
import { keyBytes, prefixEnd, rangeStart, revision, toKeyValue, valueBytes } from './codec.js';
import { AutoCompactor, DEFAULT_COMPACTION_INTERVAL_MS, findCompactedRevision } from './compaction.js';
import { classifyEtcdError } from './errors.js';
import { EtcdWatch } from './watch.js';

export interface EtcdStorageOptions {
  /** Client URLs of etcd members, e.g. http://127.0.0.1:2379. */
  endpoints: string[];
  /** Events a watch may buffer before its consumer is cut off with WatchOverflow. */
  watchBuffer?: number;
  /** Compact history older than this, every this often, like kube-apiserver (default 5 min); 0 disables. */
  compactionIntervalMs?: number;
  /** How long `open` waits for etcd to answer (default 5 s). */
  dialTimeoutMs?: number;
  /** How long one call may take, retries included, before it fails with Unavailable (default 10 s). */
  requestTimeoutMs?: number;
  /** How long a broken watch may fail to reconnect before it fails with Unavailable (default 60 s). */
  watchReconnectTimeoutMs?: number;
}

// etcd's Compare enums, numerically (the proto's names differ from etcd3's TypeScript enums).
const EQUAL = 0;
const GREATER = 1;
const VERSION = 0;
const CREATE = 1;
const MOD = 2;

/** A key that is never an object key (validateKey refuses it), so reading it is always cheap. */
const PROBE_KEY = keyBytes(KEY_PREFIX);

export class EtcdStorage implements Storage {
  readonly backend = 'etcd' as const;
  private readonly watches = new Set<EtcdWatch>();
  private readonly compactor: AutoCompactor;
  private readonly requestTimeoutMs: number;
  private compacted = 0;
  private closed = false;

  private constructor(
    private readonly client: Etcd3,
    private readonly options: EtcdStorageOptions,
  ) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.compactor = new AutoCompactor(this, options.compactionIntervalMs ?? DEFAULT_COMPACTION_INTERVAL_MS);
  }

  /** Connects and waits until etcd answers a linearizable read; Unavailable when it does not in time. */
  static async open(opts: EtcdStorageOptions): Promise<EtcdStorage> {
    if (opts.endpoints.length === 0) throw new StorageError('Unavailable', 'no etcd endpoints given');
    const storage = new EtcdStorage(createEtcdClient(opts.endpoints), opts);
    try {
      await storage.range({ key: PROBE_KEY, count_only: true }, opts.dialTimeoutMs ?? 5000);
    } catch (err) {
      await storage.close();
      const cause = err instanceof StorageError ? err.message : String(err);
      throw new StorageError('Unavailable', `cannot reach etcd at ${opts.endpoints.join(',')}: ${cause}`);
    }
    storage.compactor.start();
    return storage;
  }

  async get(key: string, opts: GetOptions = {}): Promise<KeyValue | undefined> {
    this.checkOpen();
    validateKey(key);
    validateListOptions({ revision: opts.revision });
    const res = await this.range({ key: keyBytes(key), revision: opts.revision ?? 0 });
    const kv = res.kvs[0];
    return kv ? toKeyValue(kv) : undefined;
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.checkOpen();
    validatePrefix(prefix);
    validateListOptions(opts);
    const p = keyBytes(prefix);
    const res = await this.range({
      key: rangeStart(p, opts.startAfter),
      range_end: prefixEnd(p),
      revision: opts.revision ?? 0,
      limit: opts.limit ?? 0,
    });
    return {
      items: res.kvs.map(toKeyValue),
      // For a read at a past revision the header carries etcd's current revision, not the read's.
      revision: opts.revision || revision(res.header.revision),
      more: res.more,
    };
  }

  async create(key: string, value: Uint8Array): Promise<number> {
    this.checkOpen();
    validateKey(key);
    validateValue(value);
    const k = keyBytes(key);
    // No retry after an unknown outcome: had the first attempt created the key and someone deleted
    // it since, a second attempt would bring a deleted object back.
    const res = await this.txn(
      {
        compare: [{ key: k, target: CREATE, result: EQUAL, create_revision: 0 }],
        success: [{ request_put: { key: k, value: valueBytes(value) } }],
        failure: [{ request_range: { key: k, keys_only: true } }],
      },
      `create of ${key}`,
      false,
    );
    if (res.succeeded) return revision(res.header.revision);
    const existing = firstKv(res);
    throw new StorageError('AlreadyExists', `key ${key} already exists`, existing ? revision(existing.mod_revision) : undefined);
  }

  async update(key: string, value: Uint8Array, opts: UpdateOptions = {}): Promise<number> {
    this.checkOpen();
    validateKey(key);
    validateValue(value);
    const k = keyBytes(key);
    const res = await this.txn(
      {
        compare: preconditions(k, opts.expectModRevision),
        success: [{ request_put: { key: k, value: valueBytes(value) } }],
        failure: [{ request_range: { key: k, keys_only: true } }],
      },
      `update of ${key}`,
      opts.expectModRevision !== undefined,
    );
    if (res.succeeded) return revision(res.header.revision);
    throw refusal(key, firstKv(res), opts.expectModRevision);
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<DeleteResult> {
    this.checkOpen();
    validateKey(key);
    const k = keyBytes(key);
    const res = await this.txn(
      {
        compare: preconditions(k, opts.expectModRevision),
        success: [{ request_delete_range: { key: k, prev_kv: true } }],
        failure: [{ request_range: { key: k, keys_only: true } }],
      },
      `delete of ${key}`,
      opts.expectModRevision !== undefined,
    );
    if (!res.succeeded) throw refusal(key, firstKv(res), opts.expectModRevision);
    const prev = res.responses[0]?.response_delete_range?.prev_kvs[0];
    if (!prev) throw new StorageError('Unavailable', `etcd deleted ${key} but returned no previous value`);
    return { revision: revision(res.header.revision), prev: toKeyValue(prev) };
  }

  watch(prefix: string, opts: WatchOptions): Watch {
    this.checkOpen();
    validatePrefix(prefix);
    if (!Number.isInteger(opts.fromRevision) || opts.fromRevision < 0) {
      throw new StorageError('InvalidKey', `fromRevision must be a non-negative integer, got ${opts.fromRevision}`);
    }
    // etcd itself would still serve a watch starting exactly at the compacted revision, but not
    // the previous values of its first events; refuse it as the other backends do.
    if (opts.fromRevision < this.compacted) {
      const q = new WatchQueue(() => undefined, this.options.watchBuffer);
      q.fail(new StorageError('Compacted', `revision ${opts.fromRevision} has been compacted (compacted revision ${this.compacted})`, this.compacted));
      return q;
    }
    const w = new EtcdWatch(this.client, keyBytes(prefix), opts.fromRevision, this.options.watchBuffer, opts.prevValues !== false, {
      onCompacted: (rev) => this.sawCompacted(rev),
      onDone: (done) => this.watches.delete(done),
      reconnectTimeoutMs: this.options.watchReconnectTimeoutMs ?? 60_000,
    });
    this.watches.add(w);
    w.start();
    return w.queue;
  }

  async compact(rev: number): Promise<void> {
    this.checkOpen();
    if (!Number.isInteger(rev) || rev < 0) throw new StorageError('InvalidKey', `invalid compaction revision ${rev}`);
    let attempts = 0;
    try {
      // Not physical: etcd refuses older reads from the moment it answers, and frees the space in
      // the background instead of holding the call for a full pass over the database.
      await withRetry({ budgetMs: this.requestTimeoutMs, idempotent: true }, (ms) => {
        attempts++;
        return this.client.kv.compact({ revision: rev, physical: false }, deadline(ms));
      });
    } catch (err) {
      const e = unwrap(err);
      // After a lost answer, Compacted may be our own first attempt's doing: either way history
      // is now compacted at least to `rev`, which is all the caller asked for.
      if (e.code === 'Compacted' && attempts > 1) {
        this.sawCompacted(rev);
        return;
      }
      if (e.code === 'Compacted') {
        throw new StorageError('Compacted', `revision ${rev} has already been compacted (compacted revision ${Math.max(this.compacted, rev)} or later)`, this.compacted || undefined);
      }
      throw e;
    }
    this.sawCompacted(rev);
  }

  async currentRevision(): Promise<number> {
    this.checkOpen();
    return revision((await this.range({ key: PROBE_KEY, count_only: true })).header.revision);
  }

  /** The newest compaction known to etcd (other API servers may compact too), found by probing. */
  async compactedRevision(): Promise<number> {
    this.checkOpen();
    const found = await findCompactedRevision(
      this.compacted,
      async (rev) => {
        try {
          await this.range({ key: PROBE_KEY, count_only: true, revision: rev });
          return true;
        } catch (err) {
          if (err instanceof StorageError && err.code === 'Compacted') return false;
          throw err;
        }
      },
      () => this.currentRevision(),
    );
    this.sawCompacted(found);
    return this.compacted;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.compactor.stop();
    for (const w of [...this.watches]) w.fail(new StorageError('Closed', 'storage closed'));
    this.watches.clear();
    this.client.close();
  }

  /** Diagnostics for tests and metrics: each active watch's member, reconnect count and progress. */
  watchStats(): Array<{ memberId: string | undefined; reconnects: number; deliveredRevision: number }> {
    return [...this.watches].map((w) => ({ memberId: w.memberId, reconnects: w.reconnects, deliveredRevision: w.deliveredRevision }));
  }

  private checkOpen(): void {
    if (this.closed) throw new StorageError('Closed', 'storage closed');
  }

  private sawCompacted(rev: number): void {
    if (rev > this.compacted) this.compacted = rev;
  }

  /** A read: retried on any transient failure, since repeating it changes nothing. */
  private async range(req: IRangeRequest, budgetMs = this.requestTimeoutMs): Promise<IRangeResponse> {
    try {
      return await withRetry({ budgetMs, idempotent: true }, (ms) => this.client.kv.range(req, deadline(ms)));
    } catch (err) {
      throw unwrap(err);
    }
  }

  /**
   * A write. Retried when it certainly did not reach etcd; after an unknown outcome, retried only
   * when `guarded` (the transaction compares the key's modRevision, which the first attempt, had
   * it been applied, would have changed: so a second attempt either is the only one applied or
   * fails its compare). Otherwise the caller gets Unavailable saying the outcome is unknown.
   */
  private async txn(req: ITxnRequest, what: string, guarded: boolean): Promise<ITxnResponse> {
    let uncertain: StorageError | undefined;
    const start = Date.now();
    for (;;) {
      try {
        const res = await withRetry({ budgetMs: this.requestTimeoutMs - (Date.now() - start), idempotent: false }, (ms) =>
          this.client.kv.txn(req, deadline(ms)),
        );
        if (uncertain && !res.succeeded) {
          // The compare failed on the retry: possibly because the first attempt was applied.
          throw outcomeUnknown(what, uncertain);
        }
        return res;
      } catch (err) {
        if (!(err instanceof RetryFailed)) throw err;
        const { error, delivery } = err.classified;
        if (delivery === 'answered' || delivery === 'not-sent') {
          throw uncertain ? outcomeUnknown(what, error) : error;
        }
        if (!guarded || Date.now() - start >= this.requestTimeoutMs) throw outcomeUnknown(what, error);
        uncertain = error;
      }
    }
  }
}

/** The compares for update and delete: the key exists, and is at the expected modRevision if given. */
function preconditions(k: Buffer, expectModRevision: number | undefined): NonNullable<ITxnRequest['compare']> {
  const exists = { key: k, target: VERSION, result: GREATER, version: 0 };
  if (expectModRevision === undefined) return [exists];
  return [exists, { key: k, target: MOD, result: EQUAL, mod_revision: expectModRevision }];
}

/** The key as the failure branch read it: metadata only, since a refusal needs just its revision. */
function firstKv(res: ITxnResponse): IKeyValue | undefined {
  return res.responses[0]?.response_range?.kvs[0];
}

function refusal(key: string, current: IKeyValue | undefined, expected: number | undefined): StorageError {
  if (!current) return new StorageError('NotFound', `key ${key} not found`);
  const mod = revision(current.mod_revision);
  return new StorageError('Conflict', `key ${key} is at revision ${mod}, not ${expected}`, mod);
}

function outcomeUnknown(what: string, cause: StorageError): StorageError {
  return new StorageError(
    'Unavailable',
    `etcd: the ${what} may or may not have been applied (${cause.message}); read the key to find out before retrying`,
  );
}

function unwrap(err: unknown): StorageError {
  return err instanceof RetryFailed ? err.classified.error : classifyEtcdError(err).error;
}
