/**
 * How much history the embedded backends keep for watches and snapshot reads: at least the last
 * five minutes and at least the last 1,000 revisions (the seed's figures). A revision is compacted
 * only when it is both older than `minAgeMs` and more than `minRevisions` behind the newest.
 */
export interface HistoryRetention {
  minAgeMs: number;
  minRevisions: number;
  /** How often the backend looks for compactable history. */
  checkIntervalMs: number;
}

export const DEFAULT_RETENTION: HistoryRetention = {
  minAgeMs: 5 * 60_000,
  minRevisions: 1000,
  checkIntervalMs: 10_000,
};

/**
 * Remembers when each revision was committed (sampled: one mark per check interval is enough)
 * and answers which revision may be compacted now under a retention policy.
 */
export class RevisionClock {
  private marks: Array<{ revision: number; at: number }> = [];

  constructor(private readonly retention: HistoryRetention) {}

  /** Records that `revision` was the newest one at time `now`. */
  mark(revision: number, now = Date.now()): void {
    const last = this.marks[this.marks.length - 1];
    // One mark a second is plenty; revisions between marks count as committed at the next mark,
    // which only ever keeps history longer, never shorter.
    if (last && (last.revision === revision || now - last.at < 1000)) return;
    this.marks.push({ revision, at: now });
  }

  /**
   * The highest revision that is safe to compact at `now`, given the newest revision, or 0 when
   * nothing may be compacted yet.
   */
  compactTarget(newest: number, now = Date.now()): number {
    const byCount = newest - this.retention.minRevisions;
    let byAge = 0;
    // The newest mark at least minAgeMs old: everything at or before it is old enough.
    while (this.marks.length > 0 && now - this.marks[0]!.at >= this.retention.minAgeMs) {
      const next = this.marks[1];
      if (next && now - next.at >= this.retention.minAgeMs) {
        this.marks.shift();
        continue;
      }
      byAge = this.marks[0]!.revision;
      break;
    }
    return Math.max(0, Math.min(byCount, byAge));
  }
}
