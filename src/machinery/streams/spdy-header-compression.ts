// SPDY/3 header blocks: a count and length-prefixed names and values (several values of one name
// joined by NUL), compressed by one zlib stream per direction of a connection (preset with the
// SPDY dictionary), each block ended by a sync flush so the peer can inflate it on its own while
// the stream carries on.
//
// A frame must be encoded and decoded synchronously, in order, which Node's streaming zlib cannot
// do. After a sync flush a deflate stream is at a byte-aligned block boundary, and the only state
// that crosses into the next block is the 32 KiB window of earlier output; so each block is
// (de)compressed on its own by a raw one-shot call preset with that window — the dictionary
// followed by every header block so far — which yields the very bytes a long-lived context would.
import zlib from 'node:zlib';
import { SPDY_HEADER_DICTIONARY } from './spdy-dictionary.js';

/** Header names (lower case) to their values, as one SPDY header block carries them. */
export type SpdyHeaders = Record<string, string[]>;

/** A header block that inflates to more than this is refused (a zlib bomb, not headers). */
export const MAX_HEADER_BLOCK_BYTES = 256 * 1024;

const WINDOW_BYTES = 32 * 1024;

/** The zlib stream header: deflate with a 32 KiB window, best compression, preset dictionary. */
const ZLIB_HEADER = Buffer.from([0x78, 0xf9]);
const FDICT = 0x20;

/** The compressor's view of what the peer's inflater holds: the last 32 KiB of history. */
class Window {
  private bytes: Buffer = SPDY_HEADER_DICTIONARY;

  get current(): Buffer {
    return this.bytes;
  }

  append(data: Buffer): void {
    const joined = Buffer.concat([this.bytes, data]);
    this.bytes = joined.length > WINDOW_BYTES ? joined.subarray(joined.length - WINDOW_BYTES) : joined;
  }
}

export class HeaderCompressor {
  private readonly window = new Window();
  private started = false;

  compress(headers: SpdyHeaders): Buffer {
    const block = encodeHeaderBlock(headers);
    const deflated = zlib.deflateRawSync(block, { level: zlib.constants.Z_BEST_COMPRESSION, dictionary: this.window.current, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    this.window.append(block);
    if (this.started) return deflated;
    this.started = true;
    return Buffer.concat([ZLIB_HEADER, u32(adler32(SPDY_HEADER_DICTIONARY)), deflated]);
  }
}

export class HeaderDecompressor {
  private readonly window = new Window();
  private started = false;

  decompress(compressed: Buffer): SpdyHeaders {
    let deflated = compressed;
    if (!this.started) {
      if (compressed.length < 6 || (compressed[0]! & 0x0f) !== 8 || (compressed[0]! * 256 + compressed[1]!) % 31 !== 0) throw new Error('SPDY header block is not a zlib stream');
      if ((compressed[1]! & FDICT) === 0 || compressed.readUInt32BE(2) !== adler32(SPDY_HEADER_DICTIONARY)) throw new Error('SPDY header block does not use the SPDY dictionary');
      deflated = compressed.subarray(6);
      this.started = true;
    }
    const block = zlib.inflateRawSync(deflated, { dictionary: this.window.current, finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: MAX_HEADER_BLOCK_BYTES });
    this.window.append(block);
    return decodeHeaderBlock(block);
  }
}

function adler32(data: Buffer): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

export function encodeHeaderBlock(headers: SpdyHeaders): Buffer {
  const names = Object.keys(headers);
  const parts: Buffer[] = [u32(names.length)];
  for (const name of names) {
    const nameBytes = Buffer.from(name.toLowerCase(), 'utf8');
    const valueBytes = Buffer.from(headers[name]!.join('\0'), 'utf8');
    parts.push(u32(nameBytes.length), nameBytes, u32(valueBytes.length), valueBytes);
  }
  return Buffer.concat(parts);
}

export function decodeHeaderBlock(block: Buffer): SpdyHeaders {
  let offset = 0;
  const take = (n: number): Buffer => {
    if (offset + n > block.length) throw new Error('truncated SPDY header block');
    const out = block.subarray(offset, offset + n);
    offset += n;
    return out;
  };
  const count = take(4).readUInt32BE(0);
  const headers: SpdyHeaders = {};
  for (let i = 0; i < count; i++) {
    const name = take(take(4).readUInt32BE(0)).toString('utf8').toLowerCase();
    const value = take(take(4).readUInt32BE(0)).toString('utf8');
    (headers[name] ??= []).push(...value.split('\0'));
  }
  return headers;
}

/** The first value of a header, as Go's http.Header.Get gives it. */
export function headerValue(headers: SpdyHeaders, name: string): string {
  return headers[name.toLowerCase()]?.[0] ?? '';
}

/** A 32-bit big-endian unsigned integer, SPDY's word. */
export function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}
