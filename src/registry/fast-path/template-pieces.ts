// The text of a template cut into fixed pieces around holes: the variable leaves of a JsonShape
// (json-shape.ts), and inserts the caller supplies per object (the resourceVersion slot, a shared
// FieldsV1's bytes). An object that matches the shape is then written without JSON.stringify:
// its stored bytes are the pieces, its leaves' JSON and the inserts, one after another; the bytes
// the watch cache keeps for it are its leaves alone, with the template's pieces referred to (as
// template-chunks.ts does for objects that do not match).
import type { Insert, SharedLayout } from './template-chunks.js';

/** Pieces shorter than this are copied into the object's own bytes: a reference costs ~16 bytes. */
const INLINE_BELOW = 32;

/** A hole: a variable leaf's slot (≥ 0), or the insert `-1 - h` of the caller's inserts. */
export type Hole = number;

export interface TemplateWrite<I extends Insert> extends SharedLayout<I> {
  /** The whole text (inserts that are bytes included, 'rv' left out). */
  stored: Buffer;
}

/** JSON of a leaf's value as Go writes it, or undefined when Go's escaping would change it. */
function leafJson(value: unknown): string | undefined {
  const json = JSON.stringify(value);
  if (typeof value !== 'string') return json;
  // The characters Go escapes and JSON.stringify does not (status.ts's goEscape), and the
  // escapes it writes differently (\b, \f): such a leaf takes the general path.
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029 || c === 0x5c) return undefined;
  }
  return json;
}

export class TemplatePieces {
  private readonly pieces: Buffer[];
  private readonly inlined: boolean[];
  private readonly fixedBytes: number;
  private readonly inlinedBytes: number;

  /** `pieces.length === holes.length + 1`: piece i comes before hole i. */
  constructor(
    pieces: readonly string[],
    private readonly holes: readonly Hole[],
  ) {
    this.pieces = pieces.map((p) => Buffer.from(p));
    this.inlined = this.pieces.map((p) => p.length < INLINE_BELOW);
    this.fixedBytes = this.pieces.reduce((n, p) => n + p.length, 0);
    this.inlinedBytes = this.pieces.reduce((n, p, i) => n + (this.inlined[i] ? p.length : 0), 0);
  }

  /**
   * The write of an object whose variable leaves hold `values` (by slot), with `inserts` in the
   * holes that are the caller's; undefined when a leaf's JSON would need Go's escaping.
   */
  write<I extends Insert>(values: readonly unknown[], inserts: readonly I[]): TemplateWrite<I> | undefined {
    const holes = this.holes;
    const json: string[] = [];
    let leafBytes = 0;
    let insertBytes = 0;
    for (const h of holes) {
      if (h >= 0) {
        const j = leafJson(values[h]);
        if (j === undefined) return undefined;
        json.push(j);
        leafBytes += Buffer.byteLength(j);
      } else {
        const ins = inserts[-1 - h]!;
        if (ins !== 'rv') insertBytes += ins.length;
      }
    }
    const base = Buffer.allocUnsafeSlow(this.inlinedBytes + leafBytes);
    const stored = Buffer.allocUnsafeSlow(this.fixedBytes + leafBytes + insertBytes);
    const offsets: number[] = [];
    const out: Array<I | Uint8Array> = [];
    let own = 0;
    let at = 0;
    let leaf = 0;
    for (let i = 0; ; i++) {
      const piece = this.pieces[i]!;
      if (this.inlined[i]) {
        base.set(piece, own);
        own += piece.length;
      } else {
        offsets.push(own);
        out.push(piece);
      }
      stored.set(piece, at);
      at += piece.length;
      if (i === holes.length) break;
      const h = holes[i]!;
      if (h >= 0) {
        const n = base.write(json[leaf++]!, own);
        base.copy(stored, at, own, own + n);
        own += n;
        at += n;
      } else {
        const ins = inserts[-1 - h]!;
        offsets.push(own);
        out.push(ins);
        if (ins !== 'rv') {
          stored.set(ins, at);
          at += ins.length;
        }
      }
    }
    return { base, offsets, inserts: out, stored };
  }
}
