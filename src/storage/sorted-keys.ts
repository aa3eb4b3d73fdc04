/**
 * A sorted set of strings with binary-search insert/remove and prefix range iteration: the key
 * index of the in-memory backend (and of caches that need keys in order).
 */
export class SortedKeys {
  private keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  insert(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] !== key) this.keys.splice(i, 0, key);
  }

  remove(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] === key) this.keys.splice(i, 1);
  }

  /** Keys starting with `prefix`, in order, strictly after `startAfter` when given. */
  *range(prefix: string, startAfter?: string): Generator<string> {
    let i = this.lowerBound(startAfter !== undefined && startAfter >= prefix ? startAfter : prefix);
    if (startAfter !== undefined && this.keys[i] === startAfter) i++;
    for (; i < this.keys.length; i++) {
      const key = this.keys[i]!;
      if (!key.startsWith(prefix)) return;
      yield key;
    }
  }

  /** Index of the first key >= `key`. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
