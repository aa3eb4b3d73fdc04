/**
 * The key order of one resource cache: a sorted array of keys with binary search. Like
 * storage/sorted-keys.ts, plus positional access, so a list can count what remains after a page
 * (remainingItemCount) in O(log n) and walk a range without a generator per call. Appending keys
 * in order (the initial list) is O(1) each; other inserts and removes move the tail (memmove-fast
 * up to a few hundred thousand keys).
 */
export class KeyIndex {
  private keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  at(i: number): string | undefined {
    return this.keys[i];
  }

  insert(key: string): void {
    const n = this.keys.length;
    if (n === 0 || this.keys[n - 1]! < key) {
      this.keys.push(key);
      return;
    }
    const i = this.lowerBound(key);
    if (this.keys[i] !== key) this.keys.splice(i, 0, key);
  }

  remove(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] === key) this.keys.splice(i, 1);
  }

  /** Index of the first key >= `key`. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the first key under `prefix` that is strictly after `startAfter` (when given). */
  rangeStart(prefix: string, startAfter?: string): number {
    if (startAfter === undefined || startAfter < prefix) return this.lowerBound(prefix);
    const i = this.lowerBound(startAfter);
    return this.keys[i] === startAfter ? i + 1 : i;
  }

  /** Index one past the last key that starts with `prefix`. */
  rangeEnd(prefix: string): number {
    const succ = successor(prefix);
    return succ === undefined ? this.keys.length : this.lowerBound(succ);
  }
}

/** The smallest string greater than every string that starts with `prefix`, if there is one. */
export function successor(prefix: string): string | undefined {
  for (let i = prefix.length - 1; i >= 0; i--) {
    const c = prefix.charCodeAt(i);
    if (c < 0xffff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
  }
  return undefined;
}
