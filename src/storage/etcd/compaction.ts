// Periodic compaction as kube-apiserver does it (--etcd-compaction-interval, default 5 min): each
// tick compacts to the revision seen at the previous tick, so at least one interval of history
// always remains for watches and paginated lists. Several API servers sharing one etcd each run
// their own ticks; one compacting a revision another already compacted just gets Compacted.
import { isStorageError } from '../types.js';

export const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60_000;

export interface CompactionTarget {
  currentRevision(): Promise<number>;
  compact(revision: number): Promise<void>;
}

export class AutoCompactor {
  private timer: NodeJS.Timeout | undefined;
  private previous = 0;
  private stopped = false;
  /** For diagnostics: the last revision this compactor compacted, and the last failure. */
  lastCompacted = 0;
  lastError: unknown;

  constructor(
    private readonly target: CompactionTarget,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.intervalMs <= 0) return;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    // A chain of timeouts rather than an interval: a slow tick never overlaps the next one.
    this.timer = setTimeout(() => void this.tick().finally(() => this.schedule()), this.intervalMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const target = this.previous;
    try {
      this.previous = await this.target.currentRevision();
      if (target > 0) {
        await this.target.compact(target);
        this.lastCompacted = target;
      }
      this.lastError = undefined;
    } catch (err) {
      // Already compacted (by another API server, or etcd's own --auto-compaction): harmless.
      if (isStorageError(err, 'Compacted')) return;
      this.lastError = err;
    }
  }
}

/**
 * Finds etcd's compacted revision, which etcd reports only inside errors: a read at revision r
 * fails with Compacted exactly when r is below it. `known` is a revision history is known to be
 * compacted at (or 0); one probe confirms nothing newer happened, else a binary search finds it.
 */
export async function findCompactedRevision(
  known: number,
  readableAt: (revision: number) => Promise<boolean>,
  current: () => Promise<number>,
): Promise<number> {
  let lo = Math.max(known, 1);
  if (await readableAt(lo)) return known;
  // `lo` is below the compacted revision; the current revision never is.
  let hi = await current();
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (await readableAt(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
