import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memberCut, memberRange, valueEnd } from './json-members.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array, start: number, end: number) => new TextDecoder().decode(b.subarray(start, end));

/** The text of `json` with `name` removed from its top-level object. */
function without(json: string, name: string): string {
  const b = bytes(json);
  const m = memberRange(b, 0, name);
  assert.ok(m, name);
  const cut = memberCut(b, 0, m);
  return text(b, 0, cut.start) + text(b, cut.end, b.length);
}

test('memberRange finds a member past values of every kind', () => {
  const json = '{"s":"a\\"}\\\\","n":-1.5e3,"t":true,"z":null,"o":{"k":["]",{"}":1}]},"a":[1,[2,{"x":"y"}]],"metadata":{"name":"p"}}';
  const b = bytes(json);
  const m = memberRange(b, 0, 'metadata')!;
  assert.equal(text(b, m.valueStart, m.valueEnd), '{"name":"p"}');
  assert.equal(text(b, m.keyStart, m.keyStart + 10), '"metadata"');
  for (const [name, value] of [['s', '"a\\"}\\\\"'], ['n', '-1.5e3'], ['t', 'true'], ['z', 'null'], ['o', '{"k":["]",{"}":1}]}'], ['a', '[1,[2,{"x":"y"}]]']]) {
    const r = memberRange(b, 0, name!)!;
    assert.equal(text(b, r.valueStart, r.valueEnd), value, name);
  }
  assert.equal(memberRange(b, 0, 'missing'), undefined);
  assert.equal(memberRange(bytes('{}'), 0, 'a'), undefined);
  // A key that only starts like the name, and one in a nested object, are not it.
  assert.equal(memberRange(bytes('{"metadataX":1,"o":{"metadata":2}}'), 0, 'metadata'), undefined);
});

test('memberRange reads whitespace between tokens and nested objects from their brace', () => {
  const json = ' { "a" : 1 ,\n\t"b" : { "c" : [ 1 , 2 ] , "d" : "e" } } ';
  const b = bytes(json);
  const bRange = memberRange(b, 0, 'b')!;
  assert.equal(text(b, bRange.valueStart, bRange.valueEnd), '{ "c" : [ 1 , 2 ] , "d" : "e" }');
  const d = memberRange(b, bRange.valueStart, 'd')!;
  assert.equal(text(b, d.valueStart, d.valueEnd), '"e"');
  assert.equal(valueEnd(b, json.indexOf('1')), json.indexOf('1') + 1);
});

test('memberCut removes a member and one comma, wherever it is', () => {
  assert.equal(without('{"a":1,"b":2,"c":3}', 'a'), '{"b":2,"c":3}');
  assert.equal(without('{"a":1,"b":2,"c":3}', 'b'), '{"a":1,"c":3}');
  assert.equal(without('{"a":1,"b":2,"c":3}', 'c'), '{"a":1,"b":2}');
  assert.equal(without('{"a":{"x":[1]}}', 'a'), '{}');
  assert.equal(without('{ "a" : 1 , "b" : 2 }', 'a'), '{ "b" : 2 }');
  for (const json of ['{"a":1,"b":2,"c":3}', '{"m":[{"f":{}}],"n":"x"}', '{"n":"x","m":[{"f":{}}]}']) {
    for (const name of Object.keys(JSON.parse(json) as object)) {
      const { [name]: _, ...rest } = JSON.parse(json) as Record<string, unknown>;
      assert.deepEqual(JSON.parse(without(json, name)), rest, `${json} without ${name}`);
    }
  }
});
