// The chunks a streamed response body is copied into (lists of thousands of objects are never one
// buffer): fixed-size, reused once the socket has written them.

/** A body written in chunks as the socket takes them (a list of thousands of objects is never one buffer). */
export interface StreamedBody {
  contentType: string;
  length: number;
  chunks: Iterable<Uint8Array>;
  /** Called with each chunk once the socket has written it (it may be reused then). */
  release?: (chunk: Uint8Array) => void;
}

/** Response chunks of this size: big enough for few writes, small enough never to hold a list whole. */
const STREAM_CHUNK = 256 * 1024;

// Chunks the socket has written are kept for the next lists (a few megabytes), instead of every
// list allocating a copy of itself and leaving it to the collector. A list has about
// STREAM_BUFFER (respond.ts, 1 MiB) of chunks in flight: eight cover two at a time.
const freeChunks: Buffer[] = [];
const MAX_FREE_CHUNKS = 8;

function newChunk(): Buffer {
  return freeChunks.pop() ?? Buffer.allocUnsafeSlow(STREAM_CHUNK);
}

/** A chunk of a streamed list that the socket has written. */
export function releaseChunk(chunk: Uint8Array): void {
  if (chunk.buffer.byteLength !== STREAM_CHUNK || chunk.byteOffset !== 0 || freeChunks.length >= MAX_FREE_CHUNKS) return;
  freeChunks.push(Buffer.from(chunk.buffer, 0, STREAM_CHUNK));
}

/** Ranges up to this long are copied byte by byte rather than through a view and `set`. */
const SMALL_COPY = 64;

/** Copies byte ranges into fixed-size chunks; `full` holds the chunks completed so far. */
export class ChunkCopier {
  private buf = newChunk();
  private pos = 0;
  full: Buffer[] = [];

  put(src: Uint8Array, start = 0, end = src.byteLength): void {
    while (start < end) {
      const n = Math.min(end - start, this.buf.length - this.pos);
      if (n <= SMALL_COPY) {
        // Objects held against a template are a dozen short ranges: copied by hand, a range
        // costs no view object.
        const buf = this.buf;
        for (let i = 0, p = this.pos; i < n; i++) buf[p + i] = src[start + i]!;
      } else this.buf.set(start === 0 && n === src.byteLength ? src : src.subarray(start, start + n), this.pos);
      this.pos += n;
      start += n;
      if (this.pos === this.buf.length) {
        this.full.push(this.buf);
        this.buf = newChunk();
        this.pos = 0;
      }
    }
  }

  byte(b: number): void {
    this.buf[this.pos++] = b;
    if (this.pos === this.buf.length) {
      this.full.push(this.buf);
      this.buf = newChunk();
      this.pos = 0;
    }
  }

  /** The completed chunks, handed over. */
  take(): Buffer[] {
    const out = this.full;
    this.full = [];
    return out;
  }

  /** The completed chunks and what is left of the current one. */
  finish(): Buffer[] {
    const out = this.take();
    if (this.pos > 0) out.push(this.buf.subarray(0, this.pos));
    return out;
  }
}
