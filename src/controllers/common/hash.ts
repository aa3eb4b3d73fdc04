// controller.ComputeHash: FNV-32a over the pod template (here its canonical JSON: keys sorted) plus
// the collision count as 8 little-endian bytes, rendered in decimal and mapped through
// rand.SafeEncodeString (no vowels, no confusable characters).
import type { KubeObject } from '../../client/types.js';

const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** FNV-1 (32 bit): multiply, then xor (Go's fnv.New32, as HashControllerRevision uses). */
export function fnv32(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) {
    h = Math.imul(h, 0x01000193) >>> 0;
    h ^= b;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += ALPHANUMS[ch.codePointAt(0)! % ALPHANUMS.length];
  return out;
}

export function canonicalJSON(v: unknown): string {
  return JSON.stringify(sortKeys(v));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

export function computeHash(template: KubeObject | undefined, collisionCount?: number | null): string {
  let h = fnv32a(new TextEncoder().encode(canonicalJSON(template ?? {})));
  if (collisionCount !== undefined && collisionCount !== null) {
    const buf = new Uint8Array(8);
    new DataView(buf.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(buf, h);
  }
  return safeEncodeString(String(h));
}
