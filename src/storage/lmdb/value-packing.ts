// How values sit in the values sub-database: one tag byte, then the bytes as written (tag 0) or
// their LZ4 block with the length prepended (tag 1).
//
// Why not lmdb-js's own compression: it hands every compressible value to libuv's thread pool as a
// job of its own, and queueing that job (a native async-work object, a lock, a thread wake-up) cost
// the main thread more than compressing the value there does: ~35 µs per pod against ~9 µs, and
// the main thread is what limits the API server's create rate. Compression itself still pays for
// itself: an uncompressed pod (~3 KiB with its managedFields) fills LMDB leaf pages three times as
// fast, and every page LMDB's writes fault in counts in resident memory.
//
// Stores written before this layout (format 1) hold values untagged, compressed by lmdb-js when
// large; `packedFrom` is the first revision written in this layout, and older values are returned
// as lmdb-js reads them.
import { compressSync, uncompressSync } from 'lz4-napi';

const RAW = 0;
const LZ4 = 1;
/** Values from this size up are compressed (below it they fit LMDB leaf pages as they are). */
export const COMPRESS_FROM_BYTES = 2 * 1024;
/** A stored length above this is damage, not a value (requests are capped at 3 MiB). */
const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;

export function packValue(value: Uint8Array): Buffer {
  if (value.length >= COMPRESS_FROM_BYTES) {
    const block = compressSync(Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    if (block.length + 1 < value.length) {
      const packed = Buffer.allocUnsafe(block.length + 1);
      packed[0] = LZ4;
      block.copy(packed, 1);
      return packed;
    }
  }
  const packed = Buffer.allocUnsafe(value.length + 1);
  packed[0] = RAW;
  packed.set(value, 1);
  return packed;
}

/**
 * The value written at `revision` from its stored bytes; throws on bytes that are not a value in
 * this layout (damage).
 */
export function unpackValue(stored: Buffer, revision: number, packedFrom: number): Buffer {
  if (revision < packedFrom) return stored;
  const tag = stored[0];
  if (tag === RAW) return stored.subarray(1);
  if (tag === LZ4 && stored.length >= 5) {
    const length = stored.readUInt32LE(1);
    if (length <= MAX_UNPACKED_BYTES) {
      let value: Buffer | undefined;
      try {
        value = uncompressSync(stored.subarray(1));
      } catch {
        // lz4's own message ("offset not contained in the buffer"...) says less than ours.
      }
      if (value?.length === length) return value;
    }
  }
  throw new Error(`the stored value of revision ${revision} is damaged`);
}
