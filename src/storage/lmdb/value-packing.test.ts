import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { COMPRESS_FROM_BYTES, packValue, unpackValue } from './value-packing.js';

const pod = Buffer.from(JSON.stringify({ kind: 'Pod', spec: { containers: Array.from({ length: 60 }, (_, i) => ({ name: `c${i}`, image: 'registry.k8s.io/pause:3.9' })) } }));

describe('lmdb value packing', () => {
  it('round-trips small, compressible and incompressible values, compressing only what shrinks', () => {
    assert.ok(pod.length >= COMPRESS_FROM_BYTES);
    const small = Buffer.from('{"kind":"Lease"}');
    const noise = randomBytes(COMPRESS_FROM_BYTES * 2);
    for (const value of [Buffer.alloc(0), small, pod, noise, new Uint8Array(pod)]) {
      const packed = packValue(value);
      assert.deepEqual(new Uint8Array(unpackValue(packed, 7, 0)), new Uint8Array(value));
    }
    assert.equal(packValue(small).length, small.length + 1);
    assert.equal(packValue(noise).length, noise.length + 1);
    assert.ok(packValue(pod).length < pod.length / 2, 'a pod is compressed');
    // Values below the threshold are kept as they are even when they would shrink.
    const repetitive = Buffer.alloc(COMPRESS_FROM_BYTES - 1, 'a');
    assert.equal(packValue(repetitive).length, repetitive.length + 1);
  });

  it('returns values of revisions before the packed layout as lmdb-js read them', () => {
    const legacy = Buffer.from([1, 2, 3]);
    assert.equal(unpackValue(legacy, 4, 5), legacy);
    // From packedFrom on, the first byte is the layout's tag.
    assert.deepEqual([...unpackValue(Buffer.from([0, 2, 3]), 5, 5)], [2, 3]);
  });

  it('refuses damaged bytes instead of returning garbage', () => {
    const packed = packValue(pod);
    const damaged = [
      Buffer.alloc(0),
      Buffer.from([7, 1, 2]),
      packed.subarray(0, 4),
      packed.subarray(0, packed.length - 10),
      Buffer.concat([packed.subarray(0, 1), Buffer.from([0xff, 0xff, 0xff, 0x7f]), packed.subarray(5)]),
      Buffer.concat([packed.subarray(0, 1), Buffer.from([1, 0, 0, 0]), packed.subarray(5)]),
    ];
    for (const bytes of damaged) assert.throws(() => unpackValue(bytes, 9, 0), /the stored value of revision 9 is damaged/);
  });
});
