// Protobuf wire primitives, hand-rolled for the shapes Kubernetes objects have (thousands of short
// ASCII strings, nested length-delimited messages):
// - Writer: one growable Buffer reused across calls; nested messages reserve their length prefix
//   from a per-site size hint and are shifted only when the size class guess was wrong; short
//   ASCII strings are written byte by byte without TextEncoder.
// - Reader: plain functions over (Uint8Array, position); short ASCII strings decoded with
//   String.fromCharCode, long ones with Buffer#utf8Slice.
// Errors are DecodeFailure with gogo-protobuf's messages ("unexpected EOF", "proto: wrong
// wireType = 0 for field Name", ...).
import { DecodeFailure } from './common.js';

export class Writer {
  buf: Buffer;
  pos = 0;

  constructor(size = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }

  reset(): void {
    this.pos = 0;
  }

  grow(need: number): void {
    let size = this.buf.length * 2;
    while (size < this.pos + need) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** A copy of the bytes written. */
  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }

  byte(b: number): void {
    if (this.pos + 1 > this.buf.length) this.grow(1);
    this.buf[this.pos++] = b;
  }

  tag2(a: number, b: number): void {
    if (this.pos + 2 > this.buf.length) this.grow(2);
    this.buf[this.pos++] = a;
    this.buf[this.pos++] = b;
  }

  /** Unsigned varint of a non-negative integer below 2^53. */
  uvarint(n: number): void {
    if (this.pos + 10 > this.buf.length) this.grow(10);
    const buf = this.buf;
    let p = this.pos;
    while (n >= 128) {
      buf[p++] = (n % 128) | 128;
      n = Math.floor(n / 128);
    }
    buf[p++] = n;
    this.pos = p;
  }

  /** int32 / int64 as Go writes them: negative numbers as 10-byte two's complement varints. */
  int64(n: number): void {
    if (n >= 0) {
      if (n < 128) {
        if (this.pos + 1 > this.buf.length) this.grow(1);
        this.buf[this.pos++] = n;
        return;
      }
      if (n <= Number.MAX_SAFE_INTEGER) return this.uvarint(n);
    }
    this.bigVarint(BigInt.asUintN(64, BigInt(Math.trunc(n))));
  }

  bigVarint(u: bigint): void {
    if (this.pos + 10 > this.buf.length) this.grow(10);
    while (u >= 128n) {
      this.buf[this.pos++] = Number(u & 127n) | 128;
      u >>= 7n;
    }
    this.buf[this.pos++] = Number(u);
  }

  double(n: number): void {
    if (this.pos + 8 > this.buf.length) this.grow(8);
    this.buf.writeDoubleLE(n, this.pos);
    this.pos += 8;
  }

  /** A length-prefixed UTF-8 string. */
  string(s: string): void {
    const n = s.length;
    if (n < 43) {
      // At most 126 bytes: the length fits one byte.
      if (this.pos + 1 + 3 * n > this.buf.length) this.grow(1 + 3 * n);
      const buf = this.buf;
      const start = this.pos;
      let p = start + 1;
      for (let i = 0; i < n; i++) {
        let c = s.charCodeAt(i);
        if (c < 0x80) buf[p++] = c;
        else if (c < 0x800) {
          buf[p++] = 0xc0 | (c >> 6);
          buf[p++] = 0x80 | (c & 63);
        } else {
          if (c >= 0xd800 && c < 0xdc00 && i + 1 < n) {
            const d = s.charCodeAt(i + 1);
            if (d >= 0xdc00 && d < 0xe000) {
              c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
              i++;
              buf[p++] = 0xf0 | (c >> 18);
              buf[p++] = 0x80 | ((c >> 12) & 63);
              buf[p++] = 0x80 | ((c >> 6) & 63);
              buf[p++] = 0x80 | (c & 63);
              continue;
            }
          }
          if (c >= 0xd800 && c < 0xe000) c = 0xfffd; // lone surrogate
          buf[p++] = 0xe0 | (c >> 12);
          buf[p++] = 0x80 | ((c >> 6) & 63);
          buf[p++] = 0x80 | (c & 63);
        }
      }
      buf[start] = p - start - 1;
      this.pos = p;
      return;
    }
    const len = Buffer.byteLength(s, 'utf8');
    this.uvarint(len);
    if (this.pos + len > this.buf.length) this.grow(len);
    this.buf.write(s, this.pos, len, 'utf8');
    this.pos += len;
  }

  /** Length-prefixed raw bytes. */
  bytes(b: Uint8Array): void {
    this.uvarint(b.length);
    if (this.pos + b.length > this.buf.length) this.grow(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Length-prefixed bytes of a base64 string (Go's []byte in JSON). */
  base64(s: string): void {
    this.bytes(Buffer.from(s, 'base64'));
  }

  /**
   * Starts a length-delimited message: reserves `hint` bytes for its length (the varint size the
   * last message at this site needed). Returns the position to pass to `join`.
   */
  fork(hint: number): number {
    if (this.pos + hint > this.buf.length) this.grow(hint);
    const start = this.pos;
    this.pos += hint;
    return start;
  }

  /** Ends a message begun with fork: writes its length, moving the content if the hint was wrong. Returns the varint size used. */
  join(start: number, hint: number): number {
    const len = this.pos - start - hint;
    const size = len < 128 ? 1 : len < 16384 ? 2 : len < 2097152 ? 3 : len < 268435456 ? 4 : 5;
    if (size !== hint) {
      if (size > hint && this.pos + size - hint > this.buf.length) this.grow(size - hint);
      this.buf.copyWithin(start + size, start + hint, this.pos);
      this.pos += size - hint;
    }
    const buf = this.buf;
    let p = start;
    let n = len;
    while (n >= 128) {
      buf[p++] = (n & 127) | 128;
      n >>>= 7;
    }
    buf[p] = n;
    return size;
  }
}

// ---------------------------------------------------------------------------------------------
// Reading.
// ---------------------------------------------------------------------------------------------

/** Node's Buffer with its (long-standing, undocumented) fast slice decoders. */
type FastBuffer = Buffer & {
  utf8Slice(start: number, end: number): string;
  base64Slice(start: number, end: number): string;
};

export interface Reader {
  buf: Uint8Array;
  pos: number;
  /** Buffer view of buf (for utf8Slice / base64). */
  b: FastBuffer;
}

export function reader(bytes: Uint8Array): Reader {
  const b = (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as FastBuffer;
  return { buf: b, pos: 0, b };
}

export function eof(): never {
  throw new DecodeFailure('unexpected EOF', { reason: 'FieldValueInvalid', message: 'truncated protobuf message' });
}

export function protoError(message: string): never {
  throw new DecodeFailure(message, { reason: 'FieldValueInvalid', message });
}

/** A varint as a number (exact below 2^53; larger values lose precision). */
export function readVarint(r: Reader, end: number): number {
  const buf = r.buf;
  let p = r.pos;
  if (p >= end) eof();
  let b = buf[p++]!;
  if (b < 128) {
    r.pos = p;
    return b;
  }
  let n = b & 127;
  let mul = 128;
  for (let k = 1; k < 10; k++) {
    if (p >= end) eof();
    b = buf[p++]!;
    n += (b & 127) * mul;
    if (b < 128) {
      r.pos = p;
      return n;
    }
    mul *= 128;
  }
  return protoError('proto: integer overflow');
}

/** A varint as a 64-bit unsigned bigint. */
export function readVarintBig(r: Reader, end: number): bigint {
  const buf = r.buf;
  let p = r.pos;
  let n = 0n;
  let shift = 0n;
  for (let k = 0; k < 10; k++) {
    if (p >= end) eof();
    const b = buf[p++]!;
    n |= BigInt(b & 127) << shift;
    if (b < 128) {
      r.pos = p;
      return BigInt.asUintN(64, n);
    }
    shift += 7n;
  }
  return protoError('proto: integer overflow');
}

/** int64 (two's complement varint) as a number. */
export function readInt64(r: Reader, end: number): number {
  const start = r.pos;
  const n = readVarint(r, end);
  if (n <= Number.MAX_SAFE_INTEGER && r.pos - start < 10) return n;
  r.pos = start;
  return Number(BigInt.asIntN(64, readVarintBig(r, end)));
}

/** int32: the low 32 bits of the varint, signed. */
export function readInt32(r: Reader, end: number): number {
  const start = r.pos;
  const n = readVarint(r, end);
  if (n < 2147483648) return n;
  r.pos = start;
  return Number(BigInt.asIntN(32, readVarintBig(r, end)));
}

export function readBool(r: Reader, end: number): boolean {
  return readVarint(r, end) !== 0;
}

export function readDouble(r: Reader, end: number): number {
  if (r.pos + 8 > end) eof();
  const v = r.b.readDoubleLE(r.pos);
  r.pos += 8;
  return v;
}

/** Reads a length prefix; returns the end offset of the length-delimited value. */
export function readLenEnd(r: Reader, end: number): number {
  const len = readVarint(r, end);
  const e = r.pos + len;
  if (e > end) eof();
  return e;
}

const ASCII_CHARS: string[] = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));

export function readString(r: Reader, end: number): string {
  const e = readLenEnd(r, end);
  const p = r.pos;
  r.pos = e;
  const n = e - p;
  if (n === 0) return '';
  if (n === 1) {
    const c = r.buf[p]!;
    if (c < 128) return ASCII_CHARS[c]!;
  }
  // Node's native UTF-8 slice is the fastest for every length (invalid sequences become U+FFFD).
  return r.b.utf8Slice(p, e);
}

export function readBytes(r: Reader, end: number): Uint8Array {
  const e = readLenEnd(r, end);
  const out = r.buf.subarray(r.pos, e);
  r.pos = e;
  return out;
}

export function readBase64(r: Reader, end: number): string {
  const e = readLenEnd(r, end);
  const s = r.b.base64Slice(r.pos, e);
  r.pos = e;
  return s;
}

/** Skips a field of the given wire type (validating lengths). */
export function skipField(r: Reader, wireType: number, end: number): void {
  switch (wireType) {
    case 0:
      readVarint(r, end);
      return;
    case 1:
      if (r.pos + 8 > end) eof();
      r.pos += 8;
      return;
    case 2:
      r.pos = readLenEnd(r, end);
      return;
    case 5:
      if (r.pos + 4 > end) eof();
      r.pos += 4;
      return;
    default:
      protoError(`proto: illegal wireType ${wireType}`);
  }
}

/** Reads a field tag (key); throws on tag 0 as gogo does. */
export function readTag(r: Reader, end: number, message: string): number {
  const buf = r.buf;
  const p = r.pos;
  let t: number;
  if (p < end && buf[p]! < 128) {
    t = buf[p]!;
    r.pos = p + 1;
  } else t = readVarint(r, end);
  if (t < 8) protoError(`proto: ${message}: illegal tag ${t >>> 3} (wire type ${t & 7})`);
  return t;
}

