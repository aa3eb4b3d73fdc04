import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { indexTemplate, shareWithTemplate, Template, type Insert } from './template-chunks.js';

/** The bytes a layout stands for (inserts at their offsets; 'rv' as the text "RV"). */
function joined(base: Uint8Array, offsets: readonly number[], inserts: readonly Insert[]): string {
  let out = '';
  let pos = 0;
  inserts.forEach((ins, i) => {
    out += Buffer.from(base.subarray(pos, offsets[i])).toString('latin1');
    pos = offsets[i]!;
    out += ins === 'rv' ? 'RV' : Buffer.from(ins).toString('latin1');
  });
  return out + Buffer.from(base.subarray(pos)).toString('latin1');
}

/** Random printable text (so chunk cuts depend on content, as in JSON). */
function text(n: number, seed: Buffer = randomBytes(n)): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(0x21 + (seed[i]! % 90));
  return s;
}

describe('template chunks', () => {
  it('keeps the same bytes in the same order, for variants of every kind, and shares most of a similar object', () => {
    const template = text(4000);
    const fields = Buffer.from('FIELDS');
    const layoutOf = (t: string) => {
      // Two inserts: the resourceVersion slot and a shared byte string, at content positions.
      const a = t.indexOf(template.slice(1000, 1010));
      const b = t.indexOf(template.slice(3000, 3010));
      return { base: Buffer.from(t, 'latin1'), offsets: [a === -1 ? 0 : a, b === -1 ? t.length : b], inserts: ['rv', fields] as Insert[] };
    };
    const index = new Template();
    const first = layoutOf(template);
    indexTemplate(index, first.base, first.offsets);
    assert.ok(index.chunks.size > 20);
    const variants = [
      template.slice(0, 100) + 'changed' + template.slice(107),
      template.slice(0, 500) + 'a longer insertion here' + template.slice(500),
      template.slice(0, 2000) + template.slice(2050),
      template.slice(0, 10) + 'X' + template.slice(11, 3500) + 'YY' + template.slice(3502),
      template,
    ];
    for (const v of variants) {
      const l = layoutOf(v);
      const shared = shareWithTemplate(index, l.base, l.offsets, l.inserts);
      assert.ok(shared !== undefined, 'a near copy shares');
      assert.equal(joined(shared.base, shared.offsets, shared.inserts), joined(l.base, l.offsets, l.inserts));
      assert.ok(shared.base.length < 800, `own bytes: ${shared.base.length}`);
      // Shared chunks in a row are one insert: a few per difference, not one per chunk.
      assert.ok(shared.inserts.length <= 12, `inserts: ${shared.inserts.length}`);
      for (let i = 1; i < shared.offsets.length; i++) assert.ok(shared.offsets[i]! >= shared.offsets[i - 1]!);
      // The given inserts keep their order.
      assert.deepEqual(shared.inserts.filter((x) => x === 'rv' || x === fields), ['rv', fields]);
    }
    // Unrelated bytes share nothing.
    const other = layoutOf(text(4000));
    assert.equal(shareWithTemplate(index, other.base, other.offsets, other.inserts), undefined);
  });

  it('a chunk whose hash matches but whose bytes differ is not shared', () => {
    const template = text(2000);
    const index = new Template();
    indexTemplate(index, Buffer.from(template, 'latin1'), []);
    // Other bytes under the same keys: nothing matches.
    const copy = new Template();
    for (const [k, at] of index.chunks) copy.chunks.set(k, at);
    for (const v of index.sequence) copy.sequence.push(Buffer.from(v).fill(0x20));
    assert.equal(shareWithTemplate(copy, Buffer.from(template, 'latin1'), [], []), undefined);
  });
});
