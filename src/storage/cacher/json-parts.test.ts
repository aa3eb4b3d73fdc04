import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachRange, joinParts, partsOf, partsStartWith } from './json-parts.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('json parts', () => {
  // "0123456789" with "ab" at 0, "cd" at 4, "" at 4, "ef" at 10: "ab0123cd456789ef"
  const p = partsOf(bytes('0123456789'), [0, 4, 4, 10], [bytes('ab'), bytes('cd'), bytes(''), bytes('ef')]);
  const whole = 'ab0123cd456789ef';

  it('joins inserts at their offsets', () => {
    assert.equal(p.byteLength, whole.length);
    assert.equal(text(joinParts(p)), whole);
    assert.equal(text(joinParts(partsOf(bytes('xyz'), [], []))), 'xyz');
  });

  it('copies any byte range of the joined bytes', () => {
    for (let from = 0; from <= whole.length; from++) {
      for (let to = from; to <= whole.length; to++) {
        let got = '';
        forEachRange(p, from, to, (src, start, end) => {
          assert.ok(start < end, 'no empty ranges');
          got += text(src.subarray(start, end));
        });
        assert.equal(got, whole.slice(from, to), `[${from}, ${to})`);
      }
    }
  });

  it('compares a prefix across parts', () => {
    assert.ok(partsStartWith(p, bytes('ab01')));
    assert.ok(partsStartWith(p, bytes(whole)));
    assert.ok(!partsStartWith(p, bytes('ab02')));
    assert.ok(!partsStartWith(p, bytes(`${whole}!`)));
  });
});
