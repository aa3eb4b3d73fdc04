// JSON patch (evanphx/json-patch v4 semantics, as kube-apiserver applies it) and JSON merge patch.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PatchError, applyJsonPatch, applyMergePatch } from './index.js';

const doc = () => ({ metadata: { name: 'a', labels: { x: '1' } }, data: { k: 'v', n: null }, list: [1, 2, 3] });

function expectStatus(fn: () => unknown, code: number, message?: string | RegExp): PatchError {
  let caught: PatchError | undefined;
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof PatchError, String(e));
    assert.equal(e.code, code);
    if (typeof message === 'string') assert.equal(e.message, message);
    else if (message) assert.match(e.message, message);
    caught = e;
    return true;
  });
  return caught!;
}

const GENERIC_422 = 'the server rejected our request due to an error in our request';

const jsonPatchCases: Array<{ name: string; ops: unknown; result?: unknown; underlying?: RegExp }> = [
  { name: 'add a member', ops: [{ op: 'add', path: '/metadata/labels/y', value: '2' }], result: { ...doc(), metadata: { name: 'a', labels: { x: '1', y: '2' } } } },
  { name: 'add replaces an existing member', ops: [{ op: 'add', path: '/metadata/name', value: 'b' }], result: { ...doc(), metadata: { name: 'b', labels: { x: '1' } } } },
  { name: 'add without value adds null', ops: [{ op: 'add', path: '/data/z' }], result: { ...doc(), data: { k: 'v', n: null, z: null } } },
  { name: 'add inserts into an array', ops: [{ op: 'add', path: '/list/1', value: 9 }], result: { ...doc(), list: [1, 9, 2, 3] } },
  { name: 'add appends with -', ops: [{ op: 'add', path: '/list/-', value: 9 }], result: { ...doc(), list: [1, 2, 3, 9] } },
  { name: 'add at the array length appends', ops: [{ op: 'add', path: '/list/3', value: 9 }], result: { ...doc(), list: [1, 2, 3, 9] } },
  { name: 'add at a negative index counts from the end', ops: [{ op: 'add', path: '/list/-1', value: 9 }], result: { ...doc(), list: [1, 2, 3, 9] } },
  { name: 'remove a member', ops: [{ op: 'remove', path: '/metadata/labels' }], result: { ...doc(), metadata: { name: 'a' } } },
  { name: 'remove an array element', ops: [{ op: 'remove', path: '/list/0' }], result: { ...doc(), list: [2, 3] } },
  { name: 'remove a negative index', ops: [{ op: 'remove', path: '/list/-1' }], result: { ...doc(), list: [1, 2] } },
  { name: 'replace a member', ops: [{ op: 'replace', path: '/data/k', value: 'w' }], result: { ...doc(), data: { k: 'w', n: null } } },
  { name: 'replace of a missing member adds it (evanphx v4)', ops: [{ op: 'replace', path: '/data/new', value: 1 }], result: { ...doc(), data: { k: 'v', n: null, new: 1 } } },
  { name: 'replace an array element', ops: [{ op: 'replace', path: '/list/1', value: 'b' }], result: { ...doc(), list: [1, 'b', 3] } },
  { name: 'move', ops: [{ op: 'move', from: '/data/k', path: '/metadata/k' }], result: { metadata: { name: 'a', labels: { x: '1' }, k: 'v' }, data: { n: null }, list: [1, 2, 3] } },
  { name: 'copy', ops: [{ op: 'copy', from: '/metadata/labels', path: '/data/labels' }], result: { ...doc(), data: { k: 'v', n: null, labels: { x: '1' } } } },
  { name: 'copy from a missing member copies null (evanphx v4)', ops: [{ op: 'copy', from: '/data/none', path: '/data/z' }], result: { ...doc(), data: { k: 'v', n: null, z: null } } },
  { name: 'test passes', ops: [{ op: 'test', path: '/metadata/name', value: 'a' }], result: doc() },
  { name: 'test of a missing member against null passes', ops: [{ op: 'test', path: '/data/none', value: null }], result: doc() },
  { name: 'test of a null member without value passes', ops: [{ op: 'test', path: '/data/n' }], result: doc() },
  { name: 'test of an object looks only at the target members', ops: [{ op: 'test', path: '/metadata/labels', value: { x: '1', extra: true } }], result: doc() },
  { name: 'escaped pointer segments', ops: [{ op: 'add', path: '/metadata/labels/a~1b~0c', value: 'z' }], result: { ...doc(), metadata: { name: 'a', labels: { x: '1', 'a/b~c': 'z' } } } },
  { name: 'a null patch does nothing', ops: null, result: doc() },
  { name: 'an empty patch does nothing', ops: [], result: doc() },
  { name: 'test fails', ops: [{ op: 'test', path: '/metadata/name', value: 'b' }], underlying: /testing value \/metadata\/name failed/ },
  { name: 'test of an array against a longer one fails', ops: [{ op: 'test', path: '/list', value: [1, 2, 3, 4] }], underlying: /failed/ },
  { name: 'remove of a missing member', ops: [{ op: 'remove', path: '/data/no-such-key' }], underlying: /Unable to remove nonexistent key: no-such-key/ },
  { name: 'a missing parent', ops: [{ op: 'add', path: '/nope/x', value: 1 }], underlying: /doc is missing path/ },
  { name: 'the root path', ops: [{ op: 'replace', path: '', value: {} }], underlying: /doc is missing path/ },
  { name: 'an index past the end', ops: [{ op: 'add', path: '/list/5', value: 1 }], underlying: /invalid index/ },
  { name: 'a non-numeric index', ops: [{ op: 'remove', path: '/list/x' }], underlying: /invalid syntax/ },
  { name: 'an unknown op', ops: [{ op: 'frobnicate', path: '/a' }], underlying: /Unexpected kind: frobnicate/ },
  { name: 'an op that is not a string', ops: [{ op: 1, path: '/a' }], underlying: /Unexpected kind: unknown/ },
  { name: 'a null operation', ops: [null], underlying: /Unexpected kind: unknown/ },
  { name: 'a missing path', ops: [{ op: 'add', value: 1 }], underlying: /missing path/ },
  { name: 'a path that is not a string', ops: [{ op: 'add', path: 5, value: 1 }], underlying: /cannot unmarshal number/ },
  { name: 'a move into its own child', ops: [{ op: 'move', from: '/metadata', path: '/metadata/inner' }], underlying: /missing destination path/ },
  { name: 'an inherited property is not a member', ops: [{ op: 'remove', path: '/metadata/constructor' }], underlying: /nonexistent key/ },
  { name: 'a __proto__ key', ops: [{ op: 'add', path: '/metadata/__proto__', value: { polluted: true } }] },
];

for (const c of jsonPatchCases) {
  test(`json patch: ${c.name}`, () => {
    const original = doc();
    if (c.result !== undefined) {
      assert.deepEqual(applyJsonPatch(original, c.ops), c.result);
    } else {
      const e = expectStatus(() => applyJsonPatch(original, c.ops), 422, GENERIC_422);
      assert.equal(e.reason, 'Invalid');
      assert.deepEqual(e.details, {});
      if (c.underlying) assert.match(e.underlying ?? '', c.underlying);
    }
    assert.deepEqual(original, doc(), 'the original is not mutated');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
}

test('json patch: a body that is not an array of operations is a 400', () => {
  expectStatus(() => applyJsonPatch(doc(), { op: 'add' }), 400, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  expectStatus(() => applyJsonPatch(doc(), 'x'), 400, 'json: cannot unmarshal string into Go value of type jsonpatch.Patch');
  expectStatus(() => applyJsonPatch(doc(), [1]), 400, 'json: cannot unmarshal number into Go value of type jsonpatch.Operation');
  expectStatus(() => applyJsonPatch(doc(), [[]]), 400, 'json: cannot unmarshal array into Go value of type jsonpatch.Operation');
});

test('json patch: more than 10000 operations is a 413', () => {
  const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/metadata/name', value: 'a' }));
  const e = expectStatus(() => applyJsonPatch(doc(), ops), 413, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
  assert.deepEqual(e.toStatus(), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    reason: 'RequestEntityTooLarge',
    code: 413,
  });
  assert.doesNotThrow(() => applyJsonPatch(doc(), ops.slice(1)));
});

test('json patch: copies doubling the document stop at the copy budget', () => {
  const ops = Array.from({ length: 40 }, (_, i) => ({ op: 'copy', from: '/data', path: `/data/c${i}` }));
  const e = expectStatus(() => applyJsonPatch({ data: { blob: 'x'.repeat(1000) } }, ops), 422, GENERIC_422);
  assert.match(e.underlying ?? '', /accumulated size increase of copy is \d+, exceeding the limit 3145728/);
});

test('json patch: deep values are refused', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 200; i++) deep = [deep];
  expectStatus(() => applyJsonPatch(doc(), [{ op: 'add', path: '/x', value: deep }]), 400, /exceeded max depth/);
});

test('merge patch: RFC 7386 as kube-apiserver applies it', () => {
  const original = doc();
  assert.deepEqual(applyMergePatch(original, { metadata: { labels: { x: null, y: '2' } }, data: null }), {
    metadata: { name: 'a', labels: { y: '2' } },
    list: [1, 2, 3],
  });
  // Lists are replaced; nulls in a new subtree are dropped; a non-object replaces an object.
  assert.deepEqual(applyMergePatch(original, { list: [4], extra: { a: null, b: { c: null, d: 1 } }, metadata: 'x' }), {
    metadata: 'x',
    data: { k: 'v', n: null },
    list: [4],
    extra: { b: { d: 1 } },
  });
  // An object patch onto a scalar member replaces it (nulls dropped).
  assert.deepEqual(applyMergePatch({ a: 1 }, { a: { b: null, c: 2 } }), { a: { c: 2 } });
  // An array patch replaces the whole document, nulls in its objects dropped, null elements kept.
  assert.deepEqual(applyMergePatch(original, [{ a: null, b: 1 }, null]), [{ b: 1 }, null]);
  assert.deepEqual(original, doc(), 'the original is not mutated');
});

test('merge patch: null and scalar patches are a 400 "Invalid JSON Patch"', () => {
  for (const p of [null, 'x', 1, true]) expectStatus(() => applyMergePatch(doc(), p), 400, 'Invalid JSON Patch');
});

test('merge patch: deep patches are refused', () => {
  let deep: Record<string, unknown> = {};
  for (let i = 0; i < 200; i++) deep = { a: deep };
  expectStatus(() => applyMergePatch(doc(), deep), 400, /exceeded max depth of 100/);
});

test('Go value formatting used in error messages', async () => {
  const { goV, goS, goFloat, goQuote } = await import('./gofmt.js');
  assert.equal(goV({ b: [1, 'x', null], a: { c: true } }), 'map[a:map[c:true] b:[1 x <nil>]]');
  assert.equal(goS(5), '%!s(int64=5)');
  assert.equal(goS(1.5), '%!s(float64=1.5)');
  assert.equal(goS(null), '%!s(<nil>)');
  assert.equal(goS(false), '%!s(bool=false)');
  assert.equal(goFloat(1.5), '1.5');
  assert.equal(goFloat(123456.5), '123456.5');
  assert.equal(goFloat(1234567.5), '1.2345675e+06');
  assert.equal(goFloat(0.0001), '0.0001');
  assert.equal(goFloat(0.00001), '1e-05');
  assert.equal(goV(1e21), '1e+21');
  assert.equal(goV(12345678), '12345678');
  assert.equal(goQuote('a"b\\c\n\t\u0007\u007f é 😀 \u2028'), '"a\\"b\\\\c\\n\\t\\a\\x7f é 😀 \\u2028"');
});
