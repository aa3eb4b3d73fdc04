// Served JSON held in parts: a base buffer with byte strings inserted at offsets. The registry
// holds an object this way when some of its text is shared with other objects — above all the
// FieldsV1 of managedFields, which pods made from one template have in common and which is about
// half of a pod's JSON — and to put the resourceVersion in without copying the rest. Ten thousand
// such pods keep one copy of their FieldsV1 instead of ten thousand. Lists copy the parts straight
// into their response chunks; whoever needs the bytes in one piece joins them (`joinParts`).

export interface JsonParts {
  /** The bytes that are this object's own. */
  readonly base: Uint8Array;
  /** Where each insert goes in `base`, ascending (equal offsets: in array order). */
  readonly offsets: readonly number[];
  /** The inserted byte strings (shared ones are never written to). */
  readonly inserts: readonly Uint8Array[];
  /** base + inserts. */
  readonly byteLength: number;
}

export function partsOf(base: Uint8Array, offsets: readonly number[], inserts: readonly Uint8Array[]): JsonParts {
  let byteLength = base.byteLength;
  for (const b of inserts) byteLength += b.byteLength;
  return { base, offsets, inserts, byteLength };
}

/**
 * Calls `put(src, start, end)` for the byte ranges that make up bytes [from, to) of the joined
 * parts, in order.
 */
export function forEachRange(p: JsonParts, from: number, to: number, put: (src: Uint8Array, start: number, end: number) => void): void {
  // A plain loop, no closure per call: lists run this for every item, and an object held against
  // its template (registry/fast-path/template-chunks.ts) is a dozen ranges.
  const { base, offsets, inserts } = p;
  const n = inserts.length;
  let pos = 0; // position in the joined bytes
  let basePos = 0; // position in base
  for (let i = 0; i <= n && pos < to; i++) {
    const at = i < n ? offsets[i]! : base.byteLength;
    let len = at - basePos;
    if (len > 0) {
      const a = from > pos ? from : pos;
      const b = to < pos + len ? to : pos + len;
      if (a < b) put(base, basePos + (a - pos), basePos + (b - pos));
      pos += len;
    }
    basePos = at;
    if (i === n || pos >= to) break;
    const insert = inserts[i]!;
    len = insert.byteLength;
    const a = from > pos ? from : pos;
    const b = to < pos + len ? to : pos + len;
    if (a < b) put(insert, a - pos, b - pos);
    pos += len;
  }
}

/** The parts as one buffer (a copy). */
export function joinParts(p: JsonParts): Uint8Array {
  const out = new Uint8Array(p.byteLength);
  let at = 0;
  forEachRange(p, 0, p.byteLength, (src, start, end) => {
    out.set(start === 0 && end === src.byteLength ? src : src.subarray(start, end), at);
    at += end - start;
  });
  return out;
}

/** Whether the joined parts start with `prefix`. */
export function partsStartWith(p: JsonParts, prefix: Uint8Array): boolean {
  if (p.byteLength < prefix.byteLength) return false;
  let i = 0;
  let same = true;
  forEachRange(p, 0, prefix.byteLength, (src, start, end) => {
    for (let j = start; j < end && same; j++) same = src[j] === prefix[i++];
  });
  return same;
}

/** The parts as consecutive views (no copy), to be written one after another. */
export function partsPieces(p: JsonParts): Uint8Array[] {
  const out: Uint8Array[] = [];
  forEachRange(p, 0, p.byteLength, (src, start, end) => out.push(start === 0 && end === src.byteLength ? src : src.subarray(start, end)));
  return out;
}
