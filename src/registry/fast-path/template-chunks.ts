// Objects made from one template — a Deployment's 10,000 pods, a Job's — have nearly the same
// served JSON: a name, a uid, timestamps and a generated volume name differ, the kilobytes of spec
// around them do not. The watch cache holds each object's own bytes (json-parts.ts); this module
// lets an object hold only the bytes that differ from the first object of its template and refer
// to that object's bytes for the rest, as it already refers to the template's shared FieldsV1.
//
// The bytes are cut where a rolling hash of the last few bytes hits a pattern (content-defined
// chunking, FastCDC's gear hash): cuts follow the content, not the offsets, so a longer name or an
// extra label shifts no cut after it. A chunk found among the template's chunks (same hash, same
// bytes) becomes an insert of the template's bytes. 10,000 bench pods: 3.1 KB of own bytes each
// become ~0.45 KB plus 8 references (5 runs of the template's bytes).

/** FastCDC's gear table: 256 fixed pseudo-random 32-bit values (xorshift32 from a fixed seed). */
const GEAR = (() => {
  const table = new Uint32Array(256);
  let x = 0x9e3779b9;
  for (let i = 0; i < 256; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    table[i] = x >>> 0;
  }
  return table;
})();

/** Chunks are 32–256 bytes, ~64 on average: small enough that a differing name spoils little. */
const MIN_CHUNK = 32;
const MAX_CHUNK = 256;
/**
 * A cut where the hash's top five bits are 0. They depend on the last 32 bytes; the low bits on
 * the last few only, which in JSON's repetitive text cut too rarely: chunks then end at
 * MAX_CHUNK, at offsets that a longer name shifts, and never line up again.
 */
const CUT_MASK = 0xf8000000;

/** Below this many bytes shared, an object keeps its bytes whole (references cost memory too). */
const MIN_SHARED_BYTES = 512;
/** What each reference costs the object that holds it: an offset and a pointer. */
const BYTES_PER_REFERENCE = 16;

/** The first object written from a template, as other objects refer to it. */
export class Template {
  /** Its chunks in order: views of its bytes. */
  readonly sequence: Uint8Array[] = [];
  /** All its bytes (the chunks are consecutive views of them). */
  bytes: Uint8Array | undefined;
  /** Where each chunk key (hash and length) first occurs in `sequence`. */
  readonly chunks = new Map<number, number>();
  /**
   * Runs of consecutive chunks that objects share, as one view each, by position: the objects of
   * a template differ in the same places, so they share the same runs, and a list copies one
   * range per run instead of one per chunk.
   */
  private readonly runs = new Map<number, Uint8Array>();

  /** One view of the template's bytes [byteOffset, byteOffset + length) of `buffer`. */
  run(buffer: ArrayBufferLike, byteOffset: number, length: number): Uint8Array {
    const key = byteOffset * 0x10000 + length;
    let view = this.runs.get(key);
    if (view === undefined || view.buffer !== buffer || view.byteOffset !== byteOffset || view.length !== length) {
      view = new Uint8Array(buffer, byteOffset, length);
      if (this.runs.size < MAX_RUNS) this.runs.set(key, view);
    }
    return view;
  }
}

/** Runs remembered per template (objects that differ from it everywhere make new views instead). */
const MAX_RUNS = 4096;

export type Insert = Uint8Array | 'rv';

export interface SharedLayout<I extends Insert = Insert> {
  base: Buffer;
  /** Where each insert goes in `base`, ascending. */
  offsets: number[];
  /** The given inserts, and views of the template's bytes. */
  inserts: Array<I | Uint8Array>;
}

/** The end and key of the chunk `nextChunk` found last (two numbers, without an object per chunk). */
let chunkEnd = 0;
let chunkKey = 0;

/** Finds the chunk of bytes [from, to) that starts at `from`: sets chunkEnd and chunkKey. */
function nextChunk(bytes: Uint8Array, from: number, to: number): void {
  let h = 0;
  for (let i = from; i < to; i++) {
    h = ((h << 1) + GEAR[bytes[i]!]!) | 0;
    const n = i - from + 1;
    if ((n >= MIN_CHUNK && (h & CUT_MASK) === 0) || n >= MAX_CHUNK) {
      chunkEnd = i + 1;
      chunkKey = (h ^ Math.imul(n, 0x9e3779b1)) >>> 0;
      return;
    }
  }
  chunkEnd = to;
  chunkKey = (h ^ Math.imul(to - from, 0x9e3779b1)) >>> 0;
}

/** Makes `base` (held as it is by its object) the template: its chunks, indexed as views of it. */
export function indexTemplate(template: Template, base: Uint8Array, offsets: readonly number[]): void {
  template.bytes = base;
  forEachSegment(base, offsets, (from, to) => {
    for (let pos = from; pos < to; pos = chunkEnd) {
      nextChunk(base, pos, to);
      if (!template.chunks.has(chunkKey)) template.chunks.set(chunkKey, template.sequence.length);
      template.sequence.push(base.subarray(pos, chunkEnd));
    }
  });
}

/** Calls `each(from, to)` for the stretches of `base` between insert offsets (chunks never span one). */
function forEachSegment(base: Uint8Array, offsets: readonly number[], each: (from: number, to: number) => void): void {
  let from = 0;
  for (const at of offsets) {
    if (at > from) each(from, at);
    from = Math.max(from, at);
  }
  if (from < base.length) each(from, base.length);
}

/** How many bytes of `a` from `aStart` and `b` from `bStart` are equal, up to `max`. */
function commonPrefix(a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, max: number): number {
  let n = 0;
  while (n < max && a[aStart + n] === b[bStart + n]) n++;
  return n;
}

/**
 * `base` with its inserts (at `offsets`, ascending), re-expressed against a template's chunks:
 * chunks of `base` the index holds become inserts of the template's bytes, the rest is copied into
 * a new, smaller base. Inserts stay where they were. undefined when too little would be shared to
 * pay for the references.
 */
export function shareWithTemplate<I extends Insert>(template: Template, base: Buffer, offsets: readonly number[], inserts: readonly I[]): SharedLayout<I> | undefined {
  const { chunks: index, sequence } = template;
  const bytes = template.bytes;
  if (bytes === undefined) return undefined;
  // Per piece of `base`, in order: its end and, when it is the template's, where in the
  // template's buffer (-1: the object's own bytes).
  const ends: number[] = [];
  const found: number[] = [];
  let sharedBytes = 0;
  let sharedCount = 0;
  forEachSegment(base, offsets, (from, to) => {
    // After a chunk found in the template, the template's next chunks are tried first, by
    // comparing bytes without hashing them: objects of one template differ in a few places, so
    // most of an object is a run of the template's chunks in order, compared in one pass and taken
    // as whole chunks. The rolling hash is only how a stretch is found again after a difference.
    let predicted = -1;
    for (let pos = from; pos < to; ) {
      if (predicted >= 0 && predicted < sequence.length) {
        const start = sequence[predicted]!.byteOffset;
        const inTemplate = start - bytes.byteOffset;
        const equal = commonPrefix(base, pos, bytes, inTemplate, Math.min(to - pos, bytes.byteLength - inTemplate));
        let length = 0;
        let next = predicted;
        while (next < sequence.length && length + sequence[next]!.length <= equal) length += sequence[next++]!.length;
        if (next > predicted) {
          pos += length;
          ends.push(pos);
          found.push(start);
          sharedBytes += length;
          sharedCount += next - predicted;
          predicted = next;
          continue;
        }
      }
      nextChunk(base, pos, to);
      const at = index.get(chunkKey);
      const t = at === undefined ? undefined : sequence[at]!;
      if (t !== undefined && t.length === chunkEnd - pos && commonPrefix(t, 0, base, pos, t.length) === t.length) {
        predicted = at! + 1;
        found.push(t.byteOffset);
        sharedBytes += t.length;
        sharedCount++;
      } else {
        predicted = -1;
        found.push(-1);
      }
      pos = chunkEnd;
      ends.push(pos);
    }
  });
  if (sharedBytes < MIN_SHARED_BYTES + BYTES_PER_REFERENCE * sharedCount) return undefined;

  const own = Buffer.allocUnsafeSlow(base.length - sharedBytes);
  const outOffsets: number[] = [];
  const outInserts: Array<I | Uint8Array> = [];
  let pos = 0;
  let next = 0; // the next of the given inserts to place
  // The run of template bytes being extended: consecutive shared pieces that follow each other in
  // the template too, with no given insert between them, become one insert.
  let runStart = -1;
  let runEnd = 0;
  const endRun = (): void => {
    if (runStart < 0) return;
    outOffsets.push(pos);
    outInserts.push(template.run(bytes.buffer, runStart, runEnd - runStart));
    runStart = -1;
  };
  for (let c = 0; c < ends.length; c++) {
    const start = c === 0 ? 0 : ends[c - 1]!;
    const end = ends[c]!;
    if (next < offsets.length && offsets[next]! <= start) endRun();
    while (next < offsets.length && offsets[next]! <= start) {
      outOffsets.push(pos);
      outInserts.push(inserts[next++]!);
    }
    const at = found[c]!;
    if (at < 0) {
      endRun();
      pos += base.copy(own, pos, start, end);
    } else if (runStart >= 0 && runEnd === at) runEnd += end - start;
    else {
      endRun();
      runStart = at;
      runEnd = at + end - start;
    }
  }
  endRun();
  while (next < offsets.length) {
    outOffsets.push(pos);
    outInserts.push(inserts[next++]!);
  }
  return { base: own, offsets: outOffsets, inserts: outInserts };
}

/**
 * The bytes an object keeps, with their inserts: `base` (a scratch buffer, which may be a slice of
 * Node's pool) re-expressed against `template` when that pays, else copied out at exactly its size
 * (an object's bytes never pin a pool chunk). The first object of a template becomes the template.
 */
export function ownLayout<I extends Insert>(template: Template | undefined, base: Buffer, offsets: number[], inserts: I[]): SharedLayout<I> {
  if (template !== undefined && template.chunks.size > 0) {
    const shared = shareWithTemplate(template, base, offsets, inserts);
    if (shared !== undefined) return shared;
  }
  const exact = Buffer.allocUnsafeSlow(base.length);
  base.copy(exact);
  if (template !== undefined && template.chunks.size === 0) indexTemplate(template, exact, offsets);
  return { base: exact, offsets, inserts };
}
