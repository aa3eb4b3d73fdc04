import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyIndex, successor } from './key-index.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The reference: one sorted array. */
function lowerBound(keys: string[], key: string): number {
  let i = 0;
  while (i < keys.length && keys[i]! < key) i++;
  return i;
}

describe('KeyIndex', () => {
  it('matches a sorted array under random inserts and removes (positions, ranges, bounds)', () => {
    const random = rng(42);
    const index = new KeyIndex();
    const ref: string[] = [];
    const key = () => `/registry/pods/ns${Math.floor(random() * 5)}/p${Math.floor(random() * 4000)}`;
    for (let step = 0; step < 20_000; step++) {
      const k = key();
      if (random() < 0.7) {
        index.insert(k);
        const i = lowerBound(ref, k);
        if (ref[i] !== k) ref.splice(i, 0, k);
      } else {
        index.remove(k);
        const i = lowerBound(ref, k);
        if (ref[i] === k) ref.splice(i, 1);
      }
      if (step % 997 === 0) {
        assert.equal(index.size, ref.length);
        for (let i = 0; i < ref.length; i += 37) assert.equal(index.at(i), ref[i]);
        assert.equal(index.at(ref.length), undefined);
        for (const p of ['/registry/pods/ns1/', '/registry/pods/ns3/p1', '/registry/pods/']) {
          const start = index.rangeStart(p);
          const end = index.rangeEnd(p);
          assert.equal(start, lowerBound(ref, p));
          assert.deepEqual(ref.slice(start, end), ref.filter((r) => r.startsWith(p)));
          const after = ref[start + 3];
          if (after !== undefined && after.startsWith(p)) assert.equal(index.rangeStart(p, after), start + 4);
        }
      }
    }
    // A full walk, in order.
    const walked: string[] = [];
    for (let i = 0; i < index.size; i++) walked.push(index.at(i)!);
    assert.deepEqual(walked, ref);
  });

  it('appends keys that come in order and removes down to empty', () => {
    const index = new KeyIndex();
    const keys = Array.from({ length: 3000 }, (_, i) => `/k/${String(i).padStart(5, '0')}`);
    for (const k of keys) index.insert(k);
    index.insert(keys[10]!);
    assert.equal(index.size, 3000);
    assert.equal(index.at(2999), keys[2999]);
    assert.equal(index.lowerBound('/k/01500'), 1500);
    for (const k of keys) index.remove(k);
    assert.equal(index.size, 0);
    assert.equal(index.at(0), undefined);
    assert.equal(index.rangeEnd('/k/'), 0);
    assert.equal(successor('/a/'), '/a0');
  });
});
