// A byte copy from one stream to another for the relays of exec, attach and port-forward (the API
// server between client and kubelet, a node between a port-forward stream and its target).
import type { Duplex, Readable, Writable } from 'node:stream';

/** Bytes a direction may have waiting to be written before its source is paused. */
const FORWARD_BUFFER_BYTES = 256 * 1024;

export interface ForwardOptions {
  /** How a chunk read from the source goes out (framed, unframed...); by default as it is. */
  write?: (chunk: Buffer, to: Writable) => void;
  /** What the source's end does; by default it ends the destination. */
  end?: (to: Writable) => void;
}

/**
 * Copies `from` to `to` as pipe() does (back-pressure; an end is passed on), with `to` corked until
 * the event loop's check phase: what one poll of the sockets read goes out in one write (one
 * system call, one TLS encryption) instead of one write per read. A TLS socket hands each 16 KiB
 * record to JavaScript in a callback of its own, and kubectl writes a record of a few bytes
 * between its 16 KiB ones (a frame header): written one by one, the API server sent the kubelet as
 * many tiny TLS records and the node its target as many small writes (bench/NOTES.md, session 16).
 */
export function forward(from: Readable | Duplex, to: Writable | Duplex, options: ForwardOptions = {}): void {
  const { write, end } = options;
  let corked = false;
  const uncork = () => {
    corked = false;
    to.uncork();
  };
  from.on('data', (chunk: Buffer) => {
    if (!corked) {
      corked = true;
      to.cork();
      setImmediate(uncork);
    }
    if (write) write(chunk, to);
    else to.write(chunk);
    if (to.writableLength >= FORWARD_BUFFER_BYTES) from.pause();
  });
  to.on('drain', () => from.resume());
  from.once('end', () => (end ? end(to) : to.end()));
}

/** Resolves `closed` once either stream errors or closes; `close()` ends it sooner. Both are destroyed by then. */
export function untilEitherCloses(a: Duplex, b: Duplex): { closed: Promise<void>; close(): void } {
  let close!: () => void;
  const closed = new Promise<void>((resolve) => {
    let done = false;
    close = () => {
      if (done) return;
      done = true;
      a.destroy();
      b.destroy();
      resolve();
    };
  });
  for (const s of [a, b]) {
    s.once('error', close);
    s.once('close', close);
  }
  return { closed, close };
}
