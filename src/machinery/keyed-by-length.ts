// A small bounded map for keys that are kilobytes of fresh text (a request body, an object's
// JSON): entries are found by the key's length and then compared whole, because hashing such a
// key for a Map would cost more than the comparison. Emptied when full: it caches what a few
// templates in use produce, not an unbounded set.
export class KeyedByLength<T extends { readonly key: string }> {
  private readonly byLength = new Map<number, T[]>();
  private size = 0;

  constructor(private readonly max: number) {}

  get(key: string): T | undefined {
    const candidates = this.byLength.get(key.length);
    if (candidates !== undefined) for (const e of candidates) if (e.key === key) return e;
    return undefined;
  }

  add(entry: T): void {
    if (this.size >= this.max) {
      this.byLength.clear();
      this.size = 0;
    }
    const candidates = this.byLength.get(entry.key.length);
    if (candidates === undefined) this.byLength.set(entry.key.length, [entry]);
    else candidates.push(entry);
    this.size++;
  }
}
