// forward(): a copy as pipe() makes it — every byte in order, the end passed on, the source paused
// while the destination holds too much — with the chunks read in one turn of the event loop written as one batch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PassThrough, Writable } from 'node:stream';
import { forward } from './forward.js';

test('copies every byte in order, writes the chunks of one turn of the event loop as one batch, and passes the end on', async () => {
  const batches: Buffer[][] = [];
  const to = new Writable({
    writev(chunks, cb) {
      batches.push(chunks.map((c) => c.chunk as Buffer));
      cb();
    },
    write(chunk: Buffer, _enc, cb) {
      batches.push([chunk]);
      cb();
    },
  });
  const from = new PassThrough();
  forward(from, to);
  const finished = new Promise((r) => to.once('finish', r));
  // three chunks in one turn of the loop but in ticks of their own (as a TLS socket hands over its
  // records), then one more later
  from.write(Buffer.from('a'));
  process.nextTick(() => from.write(Buffer.from('b')));
  process.nextTick(() => process.nextTick(() => from.write(Buffer.from('c'))));
  await new Promise((r) => setImmediate(r));
  from.end(Buffer.from('d'));
  await finished;
  assert.equal(Buffer.concat(batches.flat()).toString(), 'abcd');
  assert.equal(batches[0]!.map(String).join(','), 'a,b,c', `batches: ${JSON.stringify(batches.map((b) => b.map(String)))}`);
});

test('pauses the source while the destination holds 256 KiB or more, and resumes it on drain', async () => {
  const pending: Array<() => void> = [];
  const to = new Writable({
    highWaterMark: 16 * 1024,
    write(_chunk: Buffer, _enc, cb) {
      pending.push(cb);
    },
  });
  const from = new PassThrough({ highWaterMark: 1024 * 1024 });
  forward(from, to);
  for (let i = 0; i < 40; i++) from.write(Buffer.alloc(16 * 1024));
  await new Promise((r) => setImmediate(r));
  assert.equal(from.isPaused(), true);
  assert.ok(to.writableLength >= 256 * 1024);
  // the destination takes everything: the source flows again and the rest arrives
  for (let i = 0; i < 1000 && (from.isPaused() || pending.length > 0); i++) {
    pending.splice(0).forEach((cb) => cb());
    await new Promise((r) => setImmediate(r));
  }
  assert.equal(from.isPaused(), false);
  assert.equal(from.readableLength, 0);
});
