// Objects made from one template (a ReplicaSet's pods, a Job's) are the same JSON value but for a
// few strings: a name, a uid, a timestamp, a generated volume name. JSON.stringify of such an
// object is then the template's text with those strings put in, and comparing the object with the
// template costs a fraction of stringifying it (no text is made) and of finding the shared bytes
// afterwards (template-chunks.ts). A JsonShape is the template's value, parsed from its text, with
// the leaves that are known to vary ("variable") numbered as slots.
//
// Soundness: `match` succeeds only when the value JSON.stringify would walk has exactly the
// template's structure — the same keys in the same order at every level (keys JSON.stringify
// skips, those whose values are undefined, functions or symbols, skipped alike), the same array
// lengths, plain objects (no toJSON, no prototype but Object's) — and equal primitives at every
// leaf but the variable ones, where it holds a JSON primitive. JSON.stringify of it is then the
// template's text with each variable leaf's JSON in place of the template's.
//
// The value is kept flat, in the order JSON.stringify visits it (a tree of node objects took ten
// times the text's size): per node its kind and size, the objects' keys one after another, the
// leaves' values one after another. A walk advances three cursors through them.

type Primitive = string | number | boolean | null;

const OBJECT = 0;
const ARRAY = 1;
const LEAF = 2;

/** At most this many variable leaves per shape: beyond, objects are not one template's. */
export const MAX_SLOTS = 32;

function isPrimitive(v: unknown): v is Primitive {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null;
}

/** Whether JSON.stringify leaves out a property with this value. */
function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

export class JsonShape {
  /** Per node, in visiting order: its kind, and its number of keys or elements. */
  private readonly kinds: Uint8Array;
  private readonly sizes: Uint32Array;
  /** The objects' keys, in visiting order. */
  private readonly keys: string[] = [];
  /** The leaves' values, in visiting order. */
  private readonly leaves: Primitive[] = [];
  /** Per leaf: its slot when it is variable, else -1. */
  private slotOf: Int8Array;
  private slots = 0;
  /** Per match: the variable leaves' values, by slot, and the fixed leaves that differed. */
  private values: unknown[] = [];
  private differing: number[] | undefined;
  private node = 0;
  private key = 0;
  private leaf = 0;

  /** The shape of the JSON value `text` (which JSON.parse must accept). */
  constructor(text: string) {
    const kinds: number[] = [];
    const sizes: number[] = [];
    const visit = (v: unknown): void => {
      if (Array.isArray(v)) {
        kinds.push(ARRAY);
        sizes.push(v.length);
        for (const x of v) visit(x);
      } else if (typeof v === 'object' && v !== null) {
        const keys = Object.keys(v);
        kinds.push(OBJECT);
        sizes.push(keys.length);
        for (const k of keys) this.keys.push(k);
        for (const k of keys) visit((v as Record<string, unknown>)[k]);
      } else {
        kinds.push(LEAF);
        sizes.push(0);
        this.leaves.push(v as Primitive);
      }
    };
    visit(JSON.parse(text) as unknown);
    this.kinds = Uint8Array.from(kinds);
    this.sizes = Uint32Array.from(sizes);
    this.slotOf = new Int8Array(this.leaves.length).fill(-1);
  }

  get slotCount(): number {
    return this.slots;
  }

  /**
   * The values of the variable leaves of `value` (by slot; the array is reused by the next call),
   * or undefined when `value` is not the template with only those leaves changed.
   */
  match(value: unknown): readonly unknown[] | undefined {
    this.differing = undefined;
    return this.start(value) ? this.values : undefined;
  }

  /**
   * The fixed leaves in which `value` differs from the template, when that is all it differs in
   * (undefined when its structure differs, or a leaf holds what is not a JSON primitive).
   */
  differingLeaves(value: unknown): number[] | undefined {
    const differing: number[] = [];
    this.differing = differing;
    try {
      return this.start(value) ? differing : undefined;
    } finally {
      this.differing = undefined;
    }
  }

  /** Makes these leaves variable (each gets the next slot). */
  addSlots(leaves: readonly number[]): void {
    for (const leaf of leaves) if (this.slotOf[leaf] === -1) this.slotOf[leaf] = this.slots++;
    this.values = new Array<unknown>(this.slots).fill(null);
  }

  /** JSON.stringify of the template with each variable leaf replaced by `marker(slot)`. */
  textWithMarkers(marker: (slot: number) => string): string {
    this.node = this.key = this.leaf = 0;
    return JSON.stringify(this.rebuild(marker));
  }

  private rebuild(marker: (slot: number) => string): unknown {
    const node = this.node++;
    const size = this.sizes[node]!;
    switch (this.kinds[node]) {
      case LEAF: {
        const leaf = this.leaf++;
        const slot = this.slotOf[leaf]!;
        return slot >= 0 ? marker(slot) : this.leaves[leaf];
      }
      case ARRAY:
        return Array.from({ length: size }, () => this.rebuild(marker));
      default: {
        const keys = this.keys.slice(this.key, (this.key += size));
        const out: Record<string, unknown> = {};
        for (const k of keys) out[k] = this.rebuild(marker);
        return out;
      }
    }
  }

  private start(value: unknown): boolean {
    this.node = this.key = this.leaf = 0;
    return this.walk(value);
  }

  private walk(v: unknown): boolean {
    const node = this.node++;
    const kind = this.kinds[node];
    if (kind === LEAF) {
      const leaf = this.leaf++;
      const slot = this.slotOf[leaf]!;
      if (slot >= 0) {
        if (!isPrimitive(v)) return false;
        this.values[slot] = v;
        return true;
      }
      if (v === this.leaves[leaf]) return true;
      if (this.differing === undefined || !isPrimitive(v)) return false;
      this.differing.push(leaf);
      return true;
    }
    if (typeof v !== 'object' || v === null) return false;
    const size = this.sizes[node]!;
    if (kind === ARRAY) {
      if (!Array.isArray(v) || v.length !== size) return false;
      for (let i = 0; i < size; i++) if (!this.walk(v[i])) return false;
      return true;
    }
    // A plain object: no inherited enumerable keys (for-in would see them, JSON.stringify not),
    // and no toJSON of its own (enumerable or not: JSON.stringify calls it).
    if (Object.getPrototypeOf(v) !== Object.prototype || (v as { toJSON?: unknown }).toJSON !== undefined) return false;
    const keys = this.keys;
    const first = this.key;
    this.key += size;
    let i = 0;
    for (const k in v) {
      const x = (v as Record<string, unknown>)[k];
      if (skipped(x)) continue;
      if (i >= size || keys[first + i] !== k || !this.walk(x)) return false;
      i++;
    }
    return i === size;
  }
}
