/**
 * The key order of one resource cache, with positional access, so a list can count what remains
 * after a page (remainingItemCount) in O(log n) and walk a range without a generator per call.
 * Keys live in sorted chunks of at most CHUNK keys: an insert or remove moves at most a chunk's
 * tail (a single sorted array moved the whole tail: with tens of thousands of pods, a memmove of
 * hundreds of kilobytes per create). Appending keys in order (the initial list) is O(1) each.
 * Positions are resolved through the chunks' start offsets, recomputed after changes when next
 * needed, and sequential `at` calls (range walks) reuse the chunk they are in.
 */
const CHUNK = 512;

export class KeyIndex {
  private chunks: string[][] = [];
  /** Global position of each chunk's first key; valid unless `dirty`. */
  private starts: number[] = [];
  private dirty = false;
  private count = 0;
  /** The chunk of the last `at` (walks ask for consecutive positions). */
  private lastChunk = 0;

  get size(): number {
    return this.count;
  }

  at(i: number): string | undefined {
    if (i < 0 || i >= this.count) return undefined;
    if (this.dirty) this.reindex();
    let c = this.lastChunk;
    if (c >= this.chunks.length || i < this.starts[c]! || i >= this.starts[c]! + this.chunks[c]!.length) {
      c = this.chunkAt(i);
      this.lastChunk = c;
    }
    return this.chunks[c]![i - this.starts[c]!];
  }

  insert(key: string): void {
    const chunks = this.chunks;
    const n = chunks.length;
    if (n === 0) {
      chunks.push([key]);
      this.changed(1);
      return;
    }
    const last = chunks[n - 1]!;
    if (last[last.length - 1]! < key) {
      // In order (the initial list): fill the last chunk, then start a new one.
      if (last.length < CHUNK) last.push(key);
      else chunks.push([key]);
      this.changed(1);
      return;
    }
    const c = this.chunkFor(key);
    const chunk = chunks[c]!;
    const j = lowerBound(chunk, key);
    if (chunk[j] === key) return;
    chunk.splice(j, 0, key);
    if (chunk.length > CHUNK * 2) chunks.splice(c + 1, 0, chunk.splice(CHUNK));
    this.changed(1);
  }

  remove(key: string): void {
    if (this.chunks.length === 0) return;
    const c = this.chunkFor(key);
    const chunk = this.chunks[c]!;
    const j = lowerBound(chunk, key);
    if (chunk[j] !== key) return;
    chunk.splice(j, 1);
    if (chunk.length === 0) this.chunks.splice(c, 1);
    this.changed(-1);
  }

  /** Index of the first key >= `key`. */
  lowerBound(key: string): number {
    if (this.chunks.length === 0) return 0;
    if (this.dirty) this.reindex();
    const c = this.chunkFor(key);
    return this.starts[c]! + lowerBound(this.chunks[c]!, key);
  }

  /** Index of the first key under `prefix` that is strictly after `startAfter` (when given). */
  rangeStart(prefix: string, startAfter?: string): number {
    if (startAfter === undefined || startAfter < prefix) return this.lowerBound(prefix);
    const i = this.lowerBound(startAfter);
    return this.at(i) === startAfter ? i + 1 : i;
  }

  /** Index one past the last key that starts with `prefix`. */
  rangeEnd(prefix: string): number {
    const succ = successor(prefix);
    return succ === undefined ? this.count : this.lowerBound(succ);
  }

  private changed(delta: number): void {
    this.count += delta;
    this.dirty = true;
  }

  private reindex(): void {
    const starts = new Array<number>(this.chunks.length);
    let pos = 0;
    for (let c = 0; c < this.chunks.length; c++) {
      starts[c] = pos;
      pos += this.chunks[c]!.length;
    }
    this.starts = starts;
    this.dirty = false;
  }

  /** The chunk holding position `i` (starts valid). */
  private chunkAt(i: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The chunk where `key` is or would go: the first whose last key is >= key, else the last one. */
  private chunkFor(key: string): number {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = chunks[mid]!;
      if (c[c.length - 1]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The smallest string greater than every string that starts with `prefix`, if there is one. */
export function successor(prefix: string): string | undefined {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xffff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  return undefined;
}
