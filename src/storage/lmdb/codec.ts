// Byte layouts of everything the lmdb backend stores. Keys are raw bytes compared by LMDB with
// memcmp, so every encoding here is chosen to sort correctly: object keys as UTF-8 (no NUL can
// occur, validateKey refuses it), revisions as fixed-width big-endian integers.

/** Revisions are stored as two big-endian uint32 halves: exact up to 2^53, and memcmp-ordered. */
const REV_BYTES = 8;
const TWO_32 = 0x1_0000_0000;

function writeRev(buf: Buffer, offset: number, rev: number): void {
  buf.writeUInt32BE(Math.floor(rev / TWO_32), offset);
  buf.writeUInt32BE(rev >>> 0, offset + 4);
}

function readRev(buf: Uint8Array, offset: number): number {
  const b = buf as Buffer;
  return b.readUInt32BE(offset) * TWO_32 + b.readUInt32BE(offset + 4);
}

export function keyBytes(key: string): Buffer {
  return Buffer.from(key, 'utf8');
}

export function keyString(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** A bound above every key that starts with `prefix` (0xFF never occurs in UTF-8). */
export function prefixEnd(prefix: Buffer): Buffer {
  return Buffer.concat([prefix, Buffer.of(0xff)]);
}

/** Key of the values and events sub-databases: the revision alone. */
export function revKey(rev: number): Buffer {
  const buf = Buffer.allocUnsafe(REV_BYTES);
  writeRev(buf, 0, rev);
  return buf;
}

export function decodeRevKey(buf: Uint8Array): number {
  return readRev(buf, 0);
}

/**
 * History sub-database key: key bytes, a NUL separator, then the version's modRevision. The NUL
 * sorts below every key byte, so all versions of "a" come before any version of "a/b", and the
 * versions of one key sort by revision.
 */
export function historyKey(key: Buffer, modRevision: number): Buffer {
  const buf = Buffer.allocUnsafe(key.length + 1 + REV_BYTES);
  key.copy(buf, 0);
  buf[key.length] = 0;
  writeRev(buf, key.length + 1, modRevision);
  return buf;
}

/** The lowest possible history key of `key`: an exclusive lower bound for its versions. */
export function historyKeyFloor(key: Buffer): Buffer {
  return Buffer.concat([key, Buffer.of(0)]);
}

/** Bytes an object key may use so that its history key still fits LMDB's key size limit. */
export function maxObjectKeyBytes(lmdbMaxKeySize: number): number {
  return lmdbMaxKeySize - 1 - REV_BYTES;
}

/** Metadata of a key's version, without its value. */
export interface VersionMeta {
  createRevision: number;
  modRevision: number;
  version: number;
}

// Current record (keyed by object key): createRevision | modRevision | version. The value lives in
// the values sub-database under modRevision.
const META_BYTES = 3 * REV_BYTES;

export function encodeMeta(meta: VersionMeta): Buffer {
  const buf = Buffer.allocUnsafe(META_BYTES);
  writeRev(buf, 0, meta.createRevision);
  writeRev(buf, 8, meta.modRevision);
  writeRev(buf, 16, meta.version);
  return buf;
}

export function decodeMeta(buf: Uint8Array): VersionMeta {
  return { createRevision: readRev(buf, 0), modRevision: readRev(buf, 8), version: readRev(buf, 16) };
}

export function metaModRevision(buf: Uint8Array): number {
  return readRev(buf, 8);
}

// History record (keyed by object key + modRevision): the version's metadata plus endRevision,
// the revision that superseded it (an update or a delete). The version is the key's state at
// every revision r with modRevision <= r < endRevision.
export function encodeHistory(meta: VersionMeta, endRevision: number): Buffer {
  const buf = Buffer.allocUnsafe(META_BYTES + REV_BYTES);
  writeRev(buf, 0, meta.createRevision);
  writeRev(buf, 8, meta.modRevision);
  writeRev(buf, 16, meta.version);
  writeRev(buf, 24, endRevision);
  return buf;
}

export function historyEndRevision(buf: Uint8Array): number {
  return readRev(buf, 24);
}

// Event record (keyed by its revision): type | createRevision | prevModRevision (0: none) | key.
// Values are not repeated here: a put's value is in the values sub-database under the event's
// revision, the previous value under prevModRevision.
const EVENT_HEADER = 1 + 2 * REV_BYTES;
const PUT = 1;
const DELETE = 2;

export interface EventRecord {
  type: 'put' | 'delete';
  key: string;
  keyBytes: Buffer;
  createRevision: number;
  prevModRevision: number;
}

export function encodeEvent(type: 'put' | 'delete', key: Buffer, createRevision: number, prevModRevision: number): Buffer {
  const buf = Buffer.allocUnsafe(EVENT_HEADER + key.length);
  buf[0] = type === 'put' ? PUT : DELETE;
  writeRev(buf, 1, createRevision);
  writeRev(buf, 9, prevModRevision);
  key.copy(buf, EVENT_HEADER);
  return buf;
}

export function decodeEvent(buf: Uint8Array): EventRecord {
  const b = buf as Buffer;
  const kb = b.subarray(EVENT_HEADER);
  return {
    type: b[0] === DELETE ? 'delete' : 'put',
    key: kb.toString('utf8'),
    keyBytes: kb,
    createRevision: readRev(b, 1),
    prevModRevision: readRev(b, 9),
  };
}

/** A revision as an 8-byte value (meta records, tombstones). */
export function encodeRev(rev: number): Buffer {
  return revKey(rev);
}

export function decodeRev(buf: Uint8Array): number {
  return readRev(buf, 0);
}
