import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { drainedOrClosed } from './drained.js';

test('each wait for drain leaves no listener behind, however many times a writer waits', async () => {
  const writer = new EventEmitter();
  for (let i = 0; i < 50; i++) {
    const waited = drainedOrClosed(writer);
    assert.equal(writer.listenerCount('close'), 1);
    writer.emit('drain');
    await waited;
  }
  assert.equal(writer.listenerCount('drain'), 0);
  assert.equal(writer.listenerCount('close'), 0);
});

test('a close ends the wait too, and takes the drain listener with it', async () => {
  const writer = new EventEmitter();
  const waited = drainedOrClosed(writer);
  writer.emit('close');
  await waited;
  assert.equal(writer.listenerCount('drain'), 0);
  assert.equal(writer.listenerCount('close'), 0);
});
