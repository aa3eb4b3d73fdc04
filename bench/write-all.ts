// The writer of the throughput benchmarks (pod-io, its TLS floor): the same bytes in the same
// chunks, with back-pressure, whatever the socket.
import type { Writable } from 'node:stream';

const CHUNK = Buffer.alloc(256 * 1024, 7);

/** Writes `bytes` to `s` in 256 KiB chunks, waiting for 'drain' whenever the socket asks to. */
export async function writeAll(s: Writable, bytes: number): Promise<void> {
  let sent = 0;
  while (sent < bytes) {
    const n = Math.min(CHUNK.length, bytes - sent);
    if (!s.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) await new Promise((r) => s.once('drain', r));
    sent += n;
  }
}
