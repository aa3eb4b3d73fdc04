// Conversions between the Storage types and etcd's wire shapes (keys as bytes, revisions as
// decimal strings, because the client decodes int64 fields as strings).
import type { IKeyValue } from 'etcd3';
import type { KeyValue } from '../types.js';

export function keyBytes(key: string): Buffer {
  return Buffer.from(key, 'utf8');
}

/** A zero-copy Buffer over the caller's bytes: they are serialized before the call returns. */
export function valueBytes(value: Uint8Array): Buffer {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** The smallest key greater than every key starting with `prefix` (etcd's range_end for a prefix). */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  // All 0xff: to the end of the keyspace.
  return Buffer.from([0]);
}

/** The first key of a range that starts after `startAfter` but not before `prefix`. */
export function rangeStart(prefix: Buffer, startAfter: string | undefined): Buffer {
  if (startAfter === undefined) return prefix;
  const after = Buffer.concat([keyBytes(startAfter), Buffer.from([0])]);
  return Buffer.compare(after, prefix) > 0 ? after : prefix;
}

export function revision(s: string | number | undefined | null): number {
  return s === undefined || s === null || s === '' ? 0 : Number(s);
}

/** A plain Uint8Array view, so values look the same whichever backend produced them. */
export function bytesOf(b: Buffer | Uint8Array | undefined | null): Uint8Array {
  if (!b) return new Uint8Array(0);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export function toKeyValue(kv: IKeyValue): KeyValue {
  return {
    key: kv.key.toString('utf8'),
    value: bytesOf(kv.value),
    createRevision: revision(kv.create_revision),
    modRevision: revision(kv.mod_revision),
    version: revision(kv.version),
  };
}
