import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Insert } from './template-chunks.js';
import { TemplatePieces } from './template-pieces.js';

/** The bytes a layout stands for ('rv' as the text "RV"). */
function joined(base: Uint8Array, offsets: readonly number[], inserts: readonly Insert[]): string {
  let out = '';
  let pos = 0;
  inserts.forEach((ins, i) => {
    out += Buffer.from(base.subarray(pos, offsets[i])).toString();
    pos = offsets[i]!;
    out += ins === 'rv' ? 'RV' : Buffer.from(ins).toString();
  });
  return out + Buffer.from(base.subarray(pos)).toString();
}

const long = (s: string) => s + '.'.repeat(40);

describe('TemplatePieces', () => {
  // {"name":<slot 0>,"rv":<insert 0><insert 1>,"uid":<slot 1>,"fields":<insert 2>}
  const pieces = new TemplatePieces(['{"name":', long(',"rv":'), '', long(',"uid":'), ',"fields":', '}'], [0, -1, -2, 1, -3]);
  const fields = Buffer.from('{"f:spec":{}}');

  it('writes the stored bytes and a layout of the same text around the resourceVersion', () => {
    const w = pieces.write(['pod-é', 42], ['rv', Buffer.from('"x"'), fields])!;
    const expected = `{"name":"pod-é"${long(',"rv":')}"x"${long(',"uid":')}42,"fields":{"f:spec":{}}}`;
    assert.equal(w.stored.toString(), expected);
    assert.equal(joined(w.base, w.offsets, w.inserts), `{"name":"pod-é"${long(',"rv":')}RV"x"${long(',"uid":')}42,"fields":{"f:spec":{}}}`);
    // Short pieces are the object's own bytes; long ones are referred to, not copied.
    assert.equal(w.base.toString(), '{"name":"pod-é"42,"fields":}');
    assert.equal(w.inserts.filter((i) => i !== 'rv' && i !== fields).length, 3);
  });

  it('leaves to the general path a leaf Go would escape differently', () => {
    for (const v of ['<b>', 'a&b', 'x>', '\u2028', '\u2029', 'tab\t', 'quote"', 'back\\slash', '\b\f']) {
      assert.equal(pieces.write([v, 1], ['rv', Buffer.from('1'), fields]), undefined, JSON.stringify(v));
    }
    assert.ok(pieces.write([null, true], ['rv', Buffer.from('1'), fields]) !== undefined);
  });
});
