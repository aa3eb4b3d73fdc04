// Reads at a revision from one LMDB read transaction. The transaction may already contain commits
// newer than the revision asked for (a commit is visible a moment before its promise resolves, and
// old reads ask for old revisions on purpose); every newer version found in "current" is replaced
// by the version that was live at the revision, taken from history. When nothing newer exists
// (the common case: a read at the newest revision) only current keys are touched.
import type { Transaction } from 'lmdb';
import type { KeyValue, WatchEvent } from '../types.js';
import {
  decodeEvent,
  decodeMeta,
  decodeRev,
  decodeRevKey,
  historyEndRevision,
  historyKey,
  historyKeyFloor,
  keyString,
  metaModRevision,
  prefixEnd,
  revKey,
  type EventRecord,
  type VersionMeta,
} from './codec.js';
import { getIn, META_REV, readValue, type LmdbEnv } from './env.js';

type Entry = { key: Buffer; value: Buffer };

const EMPTY = new Uint8Array(0);

export class SnapshotReader {
  /** The newest revision committed in this transaction's snapshot. */
  readonly snapshotRevision: number;

  constructor(
    private readonly env: LmdbEnv,
    private readonly txn: Transaction,
  ) {
    const rev = getIn(env.meta, META_REV, txn);
    this.snapshotRevision = rev === undefined ? 0 : decodeRev(rev);
  }

  get(key: string, keyBuf: Buffer, at: number): KeyValue | undefined {
    const meta = getIn(this.env.current, keyBuf, this.txn);
    if (meta !== undefined && metaModRevision(meta) <= at) return this.withValue(key, decodeMeta(meta));
    // Absent now and nothing happened after `at`: it was absent then too.
    if (meta === undefined && this.snapshotRevision <= at) return undefined;
    return this.historyAt(key, keyBuf, at);
  }

  /** The version of `key` live at `at`, from history (it was superseded or deleted after `at`). */
  historyAt(key: string, keyBuf: Buffer, at: number): KeyValue | undefined {
    // The newest version with modRevision <= at; it is live at `at` unless it ended at or before.
    for (const { value } of this.env.history.getRange({
      start: historyKey(keyBuf, at),
      end: historyKeyFloor(keyBuf),
      reverse: true,
      limit: 1,
      transaction: this.txn,
    }) as Iterable<Entry>) {
      return historyEndRevision(value) > at ? this.withValue(key, decodeMeta(value)) : undefined;
    }
    return undefined;
  }

  list(prefix: Buffer, startAfter: Buffer | undefined, at: number, limit: number): { items: KeyValue[]; more: boolean } {
    const end = prefixEnd(prefix);
    const exclusive = startAfter !== undefined && Buffer.compare(startAfter, prefix) >= 0;
    const start = exclusive ? startAfter! : prefix;
    const items: KeyValue[] = [];
    if (Buffer.compare(start, end) >= 0) return { items, more: false };
    const range = { start, end, exclusiveStart: exclusive, transaction: this.txn };
    const currentIt = (this.env.current.getRange(range) as Iterable<Entry>)[Symbol.iterator]();
    // Keys deleted after `at` existed then but are gone from current: merge them in by key order.
    // Only needed when the snapshot holds commits after `at`.
    const deletedIt =
      this.snapshotRevision > at ? (this.env.tombstones.getRange(range) as Iterable<Entry>)[Symbol.iterator]() : undefined;
    try {
      let cur = currentIt.next();
      let del = deletedIt?.next();
      while (!cur.done || (del !== undefined && !del.done)) {
        let kv: KeyValue | undefined;
        const takeCurrent = !cur.done && (del === undefined || del.done || Buffer.compare(cur.value.key, del.value.key) < 0);
        if (takeCurrent) {
          const { key, value } = cur.value as Entry;
          if (metaModRevision(value) <= at) kv = this.withValue(keyString(key), decodeMeta(value));
          else kv = this.historyAt(keyString(key), key, at);
          cur = currentIt.next();
        } else {
          // A key is never in both: a create removes its tombstone in the same transaction.
          const { key, value } = (del as IteratorYieldResult<Entry>).value;
          if (decodeRev(value) > at) kv = this.historyAt(keyString(key), key, at);
          del = deletedIt!.next();
        }
        if (kv === undefined) continue;
        if (items.length === limit) return { items, more: true };
        items.push(kv);
      }
      return { items, more: false };
    } finally {
      currentIt.return?.();
      deletedIt?.return?.();
    }
  }

  /**
   * Events with revisions in (after, upTo], scanning at most `max`, those under `prefix` returned
   * with their values (and previous values when `prevValues`). `through` is the last revision covered.
   */
  events(prefix: string, after: number, upTo: number, max: number, prevValues: boolean): { events: WatchEvent[]; through: number } {
    const events: WatchEvent[] = [];
    let scanned = 0;
    for (const { key, value } of this.env.events.getRange({
      start: revKey(after + 1),
      end: revKey(upTo + 1),
      transaction: this.txn,
    }) as Iterable<Entry>) {
      const rev = decodeRevKey(key);
      const rec = decodeEvent(value);
      if (rec.key.startsWith(prefix)) events.push(this.eventAt(rev, rec, prevValues));
      if (++scanned === max) return { events, through: rev };
    }
    return { events, through: upTo };
  }

  /** The value written at `revision`, which must not have been compacted away. */
  value(revision: number): Uint8Array {
    const value = readValue(this.env, revision, this.txn);
    if (value === undefined) throw new Error(`lmdb storage is inconsistent: the value of revision ${revision} is missing`);
    return value;
  }

  private withValue(key: string, meta: VersionMeta): KeyValue {
    return { key, value: this.value(meta.modRevision), ...meta };
  }

  private eventAt(rev: number, rec: EventRecord, prevValues: boolean): WatchEvent {
    return {
      type: rec.type,
      key: rec.key,
      value: rec.type === 'put' ? this.value(rev) : EMPTY,
      prevValue: prevValues && rec.prevModRevision > 0 ? this.value(rec.prevModRevision) : undefined,
      modRevision: rev,
      createRevision: rec.createRevision,
    };
  }
}
