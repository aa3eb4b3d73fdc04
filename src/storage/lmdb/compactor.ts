// Physical compaction: after the compacted revision moves to C, delete what no read at or after C
// and no watch from C can need — every event at or before C, the version each such event
// superseded (history record and value: its end revision is <= C), and tombstones of deletes at
// or before C. Driven by the
// event log, so the work is proportional to the revisions compacted, never to the whole history,
// and cut into chunks that ride along with ordinary write batches (one transaction, one fsync).
import type { Transaction } from 'lmdb';
import { decodeEvent, decodeRev, decodeRevKey, historyKey, revKey } from './codec.js';
import { getIn, type BinaryDb, type LmdbEnv } from './env.js';

export interface CompactionChunk {
  /** Issues the deletes; called inside the batch that commits them. */
  apply(): void;
  /** Whether this chunk reaches the target (no events at or before it remain afterwards). */
  finishes: boolean;
  target: number;
}

export class Compactor {
  private target = 0;
  private pending = false;

  constructor(private readonly env: LmdbEnv) {}

  /** Whether events at or before the target may still be on disk. */
  get hasWork(): boolean {
    return this.pending;
  }

  setTarget(compacted: number): void {
    if (compacted <= this.target && !this.pending) return;
    this.target = Math.max(this.target, compacted);
    this.pending = true;
  }

  /**
   * The next chunk of up to `maxEvents` events, planned against `txn`, a snapshot holding every
   * commit so far (no write may be in flight while planning, or a tombstone check could be stale).
   */
  plan(txn: Transaction, maxEvents: number): CompactionChunk | undefined {
    if (!this.pending) return undefined;
    const removals: Array<[BinaryDb, Buffer]> = [];
    const { events, history, values, tombstones } = this.env;
    let scanned = 0;
    for (const { key, value } of events.getRange({ end: revKey(this.target + 1), limit: maxEvents, transaction: txn }) as Iterable<{
      key: Buffer;
      value: Buffer;
    }>) {
      scanned++;
      const rev = decodeRevKey(key);
      const rec = decodeEvent(value);
      removals.push([events, key]);
      if (rec.prevModRevision > 0) {
        removals.push([history, historyKey(rec.keyBytes, rec.prevModRevision)]);
        removals.push([values, revKey(rec.prevModRevision)]);
      }
      if (rec.type === 'delete') {
        // Only the tombstone of this very delete: a later delete of the key keeps its own.
        const tomb = getIn(tombstones, rec.keyBytes, txn);
        if (tomb !== undefined && decodeRev(tomb) === rev) removals.push([tombstones, rec.keyBytes]);
      }
    }
    const finishes = scanned < maxEvents;
    if (scanned === 0) {
      this.pending = false;
      return undefined;
    }
    return {
      apply: () => {
        for (const [db, key] of removals) void db.remove(key);
      },
      finishes,
      target: this.target,
    };
  }

  /** The chunk's batch committed. */
  committed(chunk: CompactionChunk): void {
    if (chunk.finishes && chunk.target === this.target) this.pending = false;
  }
}
