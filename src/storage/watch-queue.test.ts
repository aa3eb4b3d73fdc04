import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { WatchEvent } from './types.js';
import { WatchQueue } from './watch-queue.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('storage watch queue', () => {
  it('delivers events in order and keeps no reference to the ones consumed', async () => {
    const queue = new WatchQueue(() => {});
    const refs: Array<WeakRef<Uint8Array>> = [];
    for (let i = 0; i < 10; i++) {
      const value = new Uint8Array(64).fill(i);
      refs.push(new WeakRef(value));
      queue.push({ type: 'put', key: `/k/${i}`, value, modRevision: i + 1, createRevision: i + 1 } as WatchEvent);
    }
    const seen: number[] = [];
    const consumer = (async () => {
      for await (const event of queue) {
        seen.push(event.modRevision);
        if (seen.length === 11) break;
      }
    })();
    // Drained, and the consumer waits for more: what it consumed must be collectable.
    while (seen.length < 10) await nextTurn();
    assert.deepEqual(seen, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await nextTurn();
    gc();
    // The last one may still sit in the consumer's (and the generator's) frame.
    assert.equal(refs.slice(0, 9).filter((r) => r.deref() !== undefined).length, 0, 'consumed values were released');
    queue.push({ type: 'put', key: '/k/last', value: new Uint8Array(1), modRevision: 11, createRevision: 11 } as WatchEvent);
    await consumer;
    assert.equal(seen.at(-1), 11);
  });
});
