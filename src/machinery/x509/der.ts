// ASN.1 DER, as much as X.509 certificates need (ITU-T X.690): encoders for the universal types a
// certificate uses, and a reader that walks the TLVs of an existing certificate (to copy its
// subject and key identifier into the certificates it signs). Definite lengths only, as DER wants.

/** Tag numbers of the universal types used here. */
const TAG = { boolean: 0x01, integer: 0x02, bitString: 0x03, octetString: 0x04, null: 0x05, oid: 0x06, utf8String: 0x0c, ia5String: 0x16, utcTime: 0x17, generalizedTime: 0x18, sequence: 0x30, set: 0x31 } as const;

function lengthBytes(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return [0x80 | out.length, ...out];
}

/** One TLV: `tag` is the whole identifier octet (class, constructed bit and number). */
export function tlv(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag, ...lengthBytes(body.length)]), body]);
}

export const sequence = (...items: Buffer[]): Buffer => tlv(TAG.sequence, ...items);

/** SET OF, its elements sorted by their encodings as DER requires. */
export const setOf = (...items: Buffer[]): Buffer => tlv(TAG.set, ...[...items].sort(Buffer.compare));

export const boolean = (value: boolean): Buffer => tlv(TAG.boolean, Buffer.from([value ? 0xff : 0x00]));

export const nullValue = (): Buffer => tlv(TAG.null);

export const octetString = (bytes: Buffer): Buffer => tlv(TAG.octetString, bytes);

export const utf8String = (s: string): Buffer => tlv(TAG.utf8String, Buffer.from(s, 'utf8'));

export const ia5String = (s: string): Buffer => tlv(TAG.ia5String, Buffer.from(s, 'ascii'));

/** A non-negative INTEGER from its big-endian magnitude (minimal: no redundant leading zeros, a 0x00 before a high bit). */
export function unsignedInteger(magnitude: Buffer): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const bytes = magnitude.subarray(start);
  return tlv(TAG.integer, bytes.length === 0 || (bytes[0]! & 0x80) !== 0 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

export const smallInteger = (n: number): Buffer => unsignedInteger(Buffer.from([n]));

/** An OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const out = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const base128: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) base128.unshift(0x80 | (v & 0x7f));
    out.push(...base128);
  }
  return tlv(TAG.oid, Buffer.from(out));
}

/** A BIT STRING of whole bytes (a signature, a public key). */
export const bitString = (bytes: Buffer): Buffer => tlv(TAG.bitString, Buffer.from([0]), bytes);

/**
 * A named-bit BIT STRING (KeyUsage): bit 0 is the most significant bit of the first byte, and
 * DER drops trailing zero bits, saying in the first octet how many bits of the last byte are unused.
 */
export function namedBits(bits: readonly number[]): Buffer {
  if (bits.length === 0) return tlv(TAG.bitString, Buffer.from([0]));
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const b of bits) bytes[b >> 3]! |= 0x80 >> (b & 7);
  return tlv(TAG.bitString, Buffer.from([7 - (highest & 7)]), bytes);
}

/** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050, to the second, in UTC. */
export function time(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-11-22T08:15:30.123Z
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  const year = date.getUTCFullYear();
  return year < 2050 ? tlv(TAG.utcTime, Buffer.from(digits.slice(2), 'ascii')) : tlv(TAG.generalizedTime, Buffer.from(digits, 'ascii'));
}

/** A TLV read from DER: its identifier octet, the whole encoding and the contents. */
export interface Element {
  tag: number;
  /** Tag, length and contents, as they were encoded. */
  raw: Buffer;
  contents: Buffer;
}

/** The TLV at `offset` of `der`. Throws on a truncated or indefinite-length encoding. */
export function readElement(der: Buffer, offset = 0): Element {
  const tag = der[offset];
  let lengthByte = der[offset + 1];
  if (tag === undefined || lengthByte === undefined) throw new Error('DER: truncated');
  if ((tag & 0x1f) === 0x1f) throw new Error('DER: multi-byte tags are not supported');
  let header = 2;
  let length = lengthByte;
  if (lengthByte & 0x80) {
    const n = lengthByte & 0x7f;
    if (n === 0 || n > 4) throw new Error('DER: unsupported length');
    length = 0;
    for (let i = 0; i < n; i++) {
      lengthByte = der[offset + 2 + i];
      if (lengthByte === undefined) throw new Error('DER: truncated');
      length = length * 256 + lengthByte;
    }
    header += n;
  }
  const end = offset + header + length;
  if (end > der.length) throw new Error('DER: truncated');
  return { tag, raw: der.subarray(offset, end), contents: der.subarray(offset + header, end) };
}

/** The elements inside a constructed element (a SEQUENCE, a SET, an explicit tag). */
export function children(element: Element): Element[] {
  const out: Element[] = [];
  for (let offset = 0; offset < element.contents.length; ) {
    const child = readElement(element.contents, offset);
    out.push(child);
    offset += child.raw.length;
  }
  return out;
}

/** The dotted form of an OBJECT IDENTIFIER's contents. */
export function oidString(contents: Buffer): string {
  const first = contents[0] ?? 0;
  const arcs = [Math.min(2, Math.floor(first / 40)), first - 40 * Math.min(2, Math.floor(first / 40))];
  let v = 0;
  for (const b of contents.subarray(1)) {
    v = v * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      arcs.push(v);
      v = 0;
    }
  }
  return arcs.join('.');
}
