// Writing and reading the commands' streams: writes wait for 'drain' (backpressure: a slow
// client slows `cat` of a big file instead of buffering it), a reader that went away is a broken
// pipe (the writer ends as if killed by SIGPIPE), big buffers go out in slices so the event loop
// is never held for long.
import { PassThrough, Readable, Writable } from 'node:stream';

/** The reader of a pipe went away: the writing command stops with 128 + SIGPIPE. */
export class BrokenPipe extends Error {
  constructor() {
    super('Broken pipe');
  }
}
export const SIGPIPE_STATUS = 141;

const SLICE_BYTES = 64 * 1024;

/** Writes `data` and waits until the stream takes more (or rejects with BrokenPipe when it closed). */
export async function write(stream: Writable, data: string | Buffer): Promise<void> {
  const buf = typeof data === 'string' ? Buffer.from(data) : data;
  for (let off = 0; off < buf.length; off += SLICE_BYTES) {
    if (stream.destroyed || stream.writableEnded) throw new BrokenPipe();
    const slice = buf.subarray(off, off + SLICE_BYTES);
    const more = stream.write(slice);
    if (stream instanceof FileSink && stream.failure) throw stream.failure;
    if (!more) await drained(stream);
    else if (buf.length > SLICE_BYTES) await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function drained(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
      stream.off('error', onClose);
    };
    const onDrain = (): void => {
      cleanup();
      resolve();
    };
    const onClose = (): void => {
      cleanup();
      reject(new BrokenPipe());
    };
    stream.on('drain', onDrain);
    stream.on('close', onClose);
    stream.on('error', onClose);
  });
}

/** The chunks of `stream` as Buffers, leaving the stream open when the reader stops early. */
export async function* chunks(stream: Readable): AsyncGenerator<Buffer> {
  if (stream.destroyed || stream.readableEnded) return;
  for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
    yield typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
  }
}

/** Everything `stream` holds, as one Buffer. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks(stream)) parts.push(c);
  return Buffer.concat(parts);
}

/** Lines of `stream` (without their newline; a last line without one is still a line). */
export async function* lines(stream: Readable): AsyncGenerator<string> {
  let pending = '';
  for await (const c of chunks(stream)) {
    pending += c.toString('utf8');
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      yield pending.slice(0, nl);
      pending = pending.slice(nl + 1);
    }
  }
  if (pending !== '') yield pending;
}

export function emptyReadable(): Readable {
  return Readable.from([]);
}

/** A pipe between two commands; errors are the reader's business (a write after close is a BrokenPipe). */
export function pipe(): PassThrough {
  const p = new PassThrough({ highWaterMark: SLICE_BYTES });
  p.on('error', () => {});
  return p;
}

/**
 * A Writable that hands each chunk to `sink` (a file of the vfs, synchronously): the first error
 * (ENOSPC) is kept in `failure` and thrown to the writing command by `write`, as a write(2) error.
 */
export class FileSink extends Writable {
  failure: Error | undefined;
  constructor(private readonly sink: (chunk: Buffer) => void) {
    super();
    this.on('error', () => {});
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, callback: () => void): void {
    if (this.failure === undefined) {
      try {
        this.sink(chunk);
      } catch (err) {
        this.failure = err as Error;
      }
    }
    callback();
  }
}

/** A Writable collecting what is written (command substitution). */
export class Collector extends Writable {
  private parts: Buffer[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, callback: () => void): void {
    this.parts.push(chunk);
    callback();
  }
  text(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }
}
