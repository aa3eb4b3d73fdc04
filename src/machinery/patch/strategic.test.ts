// Strategic merge patch: behaviour of every directive, on a small schema declared with the DSL.
// The expectations are apimachinery's strategicpatch behaviour (cases written here from the facts
// its tests establish), including its ordering of merged lists.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { field, listOf, mapOf, struct, t, type StructType } from '../../api/schema/dsl.js';
import { PatchError } from './errors.js';
import { strategicMergePatch } from './strategic.js';

// An item type in three levels (the DSL has no recursive structs; three levels are plenty here).
function itemFields(next: StructType | undefined) {
  const f = {
    name: field(t.string, 1),
    value: field(t.string, 2),
    other: field(t.string, 3),
    mergingIntList: field(listOf(t.int64), 4, { patchStrategy: 'merge' }),
    nonMergingIntList: field(listOf(t.int64), 5),
    simpleMap: field(mapOf(t.string), 6),
    replacingItem: field(mapOf(t.string), 7, { patchStrategy: 'replace' }),
  };
  if (!next) return f;
  return {
    ...f,
    mergingList: field(listOf(next), 8, { patchStrategy: 'merge', patchMergeKey: 'name' }),
    nonMergingList: field(listOf(next), 9),
    retainKeysMap: field(next, 10, { patchStrategy: 'retainKeys' }),
    retainKeysMergingList: field(listOf(next), 11, { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' }),
    mergeItemPtr: field(next, 12, { pointer: true }),
  };
}
const Item3 = struct('test.smp.Item3', itemFields(undefined));
const Item2 = struct('test.smp.Item2', itemFields(Item3));
const Item = struct('test.smp.Item', itemFields(Item2));

interface Case {
  name: string;
  original: Record<string, unknown>;
  patch: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; reason?: string; message: string | RegExp };
}

const n = (name: string | number, extra: Record<string, unknown> = {}) => ({ name: String(name), ...extra });
const del = (name: string | number) => ({ name: String(name), $patch: 'delete' });

const cases: Case[] = [
  // ---- maps and nulls
  { name: 'adds a field', original: { name: '1' }, patch: { value: '1' }, result: { name: '1', value: '1' } },
  { name: 'null deletes a field', original: { name: '1', value: '1' }, patch: { name: null }, result: { value: '1' } },
  { name: 'an unmatched null is dropped', original: { name: '1' }, patch: { other: null }, result: { name: '1' } },
  {
    name: 'nulls inside a new subtree are dropped',
    original: {},
    patch: { simpleMap: { a: 'x', b: null }, mergingList: [{ name: 'a', value: null }] },
    result: { simpleMap: { a: 'x' }, mergingList: [{ name: 'a' }] },
  },
  {
    name: 'nested map merges key by key',
    original: { simpleMap: { key1: '1', key2: '1' } },
    patch: { simpleMap: { key2: null, key3: '3' } },
    result: { simpleMap: { key1: '1', key3: '3' } },
  },
  {
    name: 'a map with patchStrategy replace is replaced whole (its nulls kept)',
    original: { replacingItem: { a: '1', b: '2' } },
    patch: { replacingItem: { c: '3', d: null } },
    result: { replacingItem: { c: '3', d: null } },
  },
  { name: 'a value of another type replaces', original: { simpleMap: { a: '1' } }, patch: { simpleMap: 'x' }, result: { simpleMap: 'x' } },
  { name: 'scalars are replaced', original: { name: 'a' }, patch: { name: 'b' }, result: { name: 'b' } },
  {
    name: 'an undeclared field merges like a JSON merge patch',
    original: { unknown: { a: { b: 1 }, c: [1, 2] } },
    patch: { unknown: { a: { d: 2 }, c: [3], e: null } },
    result: { unknown: { a: { b: 1, d: 2 }, c: [3] } },
  },
  { name: 'an empty patch changes nothing', original: { name: '1' }, patch: {}, result: { name: '1' } },
  { name: 'a null patch changes nothing', original: { name: '1' }, patch: null, result: { name: '1' } },

  // ---- $patch on maps
  {
    name: '$patch: delete on a nested map empties it',
    original: { simpleMap: { key1: '1', key2: '1' } },
    patch: { simpleMap: { $patch: 'delete' } },
    result: { simpleMap: {} },
  },
  {
    name: '$patch: replace at the top drops every other key',
    original: { name: '1', value: '1' },
    patch: { $patch: 'replace' },
    result: {},
  },
  {
    name: '$patch: replace keeps the keys given beside it',
    original: { name: '1', value: '1' },
    patch: { other: 'a', $patch: 'replace' },
    result: { other: 'a' },
  },
  {
    name: '$patch: replace on a nested struct',
    original: { retainKeysMap: { name: 'a', value: 'b' } },
    patch: { retainKeysMap: { $patch: 'replace', other: 'c' } },
    result: { retainKeysMap: { other: 'c' } },
  },
  {
    name: '$patch: merge on a map is an unknown patch type',
    original: { simpleMap: { a: '1' } },
    patch: { simpleMap: { $patch: 'merge', a: '2' } },
    error: { code: 500, message: 'unknown patch type: merge in map: map[$patch:merge a:2]' },
  },
  {
    name: 'a non-string $patch prints as Go does',
    original: { simpleMap: { a: '1' } },
    patch: { simpleMap: { $patch: 5 } },
    error: { code: 500, message: 'unknown patch type: %!s(int64=5) in map: map[$patch:5]' },
  },

  // ---- lists of maps with merge strategy
  {
    name: 'merges list elements by merge key, keeping server-only elements',
    original: { mergingList: [n(1, { other: 'a' }), n(2, { value: '2', other: 'b' })] },
    patch: { mergingList: [n(1, { value: '1' })] },
    result: { mergingList: [n(1, { value: '1', other: 'a' }), n(2, { value: '2', other: 'b' })] },
  },
  {
    name: 'a new element goes before the server-only elements',
    original: { mergingList: [n(1), n(2)] },
    patch: { mergingList: [n(3)] },
    result: { mergingList: [n(3), n(1), n(2)] },
  },
  {
    name: 'patch order wins for the elements it names',
    original: { mergingList: [n(1), n(2, { value: 'b' }), n(3)] },
    patch: { mergingList: [n(3, { value: 'c' }), n(1, { value: 'a' }), n(2, { other: 'x' })] },
    result: { mergingList: [n(3, { value: 'c' }), n(1, { value: 'a' }), n(2, { value: 'b', other: 'x' })] },
  },
  {
    name: 'server-only elements keep their place relative to patched ones',
    original: { mergingList: [n(1), n(2, { value: 'b' }), n(3)] },
    patch: { mergingList: [n(3, { value: 'c' }), n(1, { value: 'a' })] },
    result: { mergingList: [n(2, { value: 'b' }), n(3, { value: 'c' }), n(1, { value: 'a' })] },
  },
  {
    name: 'null deletes a field of a merged element',
    original: { mergingList: [n(1, { value: '1', other: 'a' }), n(2)] },
    patch: { mergingList: [n(1, { value: null })] },
    result: { mergingList: [n(1, { other: 'a' }), n(2)] },
  },
  {
    name: 'a non-merging list nested in a merged element is replaced',
    original: { mergingList: [n(1, { nonMergingList: [n(1), n(2, { value: '2' })] }), n(2)] },
    patch: { mergingList: [n(1, { nonMergingList: [n(1, { value: '1' })] })] },
    result: { mergingList: [n(1, { nonMergingList: [n(1, { value: '1' })] }), n(2)] },
  },
  {
    name: 'nested merging lists merge too',
    original: { mergingList: [n('a', { mergingList: [n('x', { value: '1' })] })] },
    patch: { mergingList: [n('a', { mergingList: [n('x', { other: '2' }), n('y')] })] },
    result: { mergingList: [n('a', { mergingList: [n('x', { value: '1', other: '2' }), n('y')] })] },
  },
  {
    name: 'an element without the merge key is an error',
    original: { mergingList: [n(1, { value: 'a' })] },
    patch: { mergingList: [{ value: 'b' }] },
    error: { code: 500, message: 'map: map[value:b] does not contain declared merge key: name' },
  },
  {
    name: 'maps with a $patch directive are dropped from a value taken whole (since v1.28)',
    original: { name: 'x' },
    patch: { mergingList: [n(1), del(2), n(3, { simpleMap: { $patch: 'replace' } })], retainKeysMap: { $patch: 'replace', name: 'y' } },
    result: { name: 'x', mergingList: [n(1), n(3)] },
  },
  {
    name: 'other directive keys in a value taken whole are kept (pruned later as unknown fields)',
    original: {},
    patch: { retainKeysMap: { name: 'y', $retainKeys: ['name'] } },
    result: { retainKeysMap: { name: 'y', $retainKeys: ['name'] } },
  },
  {
    name: '$setElementOrder with a list the original lacks drops its delete directives',
    original: {},
    patch: { '$setElementOrder/mergingList': [n(2), n(1)], mergingList: [n(2), n(1), del(3)] },
    result: { mergingList: [n(2), n(1)] },
  },
  { name: 'empty merging lists merge', original: { mergingList: [] }, patch: { mergingList: [] }, result: { mergingList: [] } },
  {
    name: 'a merging list absent from the original is taken from the patch',
    original: {},
    patch: { mergingList: [n(1), n(2)] },
    result: { mergingList: [n(1), n(2)] },
  },

  // ---- $patch in list elements
  {
    name: '$patch: delete removes the element',
    original: { mergingList: [n(1), n(2, { other: 'b' })] },
    patch: { mergingList: [del(1)] },
    result: { mergingList: [n(2, { other: 'b' })] },
  },
  {
    name: '$patch: delete removes every duplicate',
    original: { mergingList: [n(1), n(1), n(2, { value: 'a' }), n(3), n(3)] },
    patch: { mergingList: [del(1), del(3)] },
    result: { mergingList: [n(2, { value: 'a' })] },
  },
  {
    name: '$patch: delete of a missing element is harmless',
    original: { mergingList: [n(2)] },
    patch: { mergingList: [del(1)] },
    result: { mergingList: [n(2)] },
  },
  {
    name: '$patch: delete without the merge key is an error',
    original: { mergingList: [n(2)] },
    patch: { mergingList: [{ $patch: 'delete' }] },
    error: { code: 500, message: 'map: map[$patch:delete] does not contain declared merge key: name' },
  },
  {
    name: '$patch: replace replaces the list with the other elements',
    original: { mergingList: [n(1), n(2)] },
    patch: { mergingList: [{ $patch: 'replace' }, n(3, { value: 'x' })] },
    result: { mergingList: [n(3, { value: 'x' })] },
  },
  {
    name: '$patch: replace alone empties the list',
    original: { mergingList: [n(1), n(2)] },
    patch: { mergingList: [{ $patch: 'replace' }] },
    result: { mergingList: [] },
  },
  {
    name: '$patch: merge in a list is refused',
    original: { mergingList: [n(1)] },
    patch: { mergingList: [{ $patch: 'merge' }] },
    error: { code: 500, message: 'merging lists cannot yet be specified in the patch' },
  },
  {
    name: 'an unknown $patch in a list element',
    original: { mergingList: [n(1)] },
    patch: { mergingList: [{ name: '1', $patch: 'nope' }] },
    error: { code: 500, message: 'unknown patch type: nope in map: map[$patch:nope name:1]' },
  },

  // ---- lists of scalars
  { name: 'merging scalar lists make a union', original: { mergingIntList: [1, 2] }, patch: { mergingIntList: [2, 3] }, result: { mergingIntList: [1, 2, 3] } },
  { name: 'scalar union follows the patch order', original: { mergingIntList: [1, 2, 3] }, patch: { mergingIntList: [3, 1, 2] }, result: { mergingIntList: [3, 1, 2] } },
  { name: 'scalar union keeps server-only places', original: { mergingIntList: [1, 2, 3] }, patch: { mergingIntList: [3, 1] }, result: { mergingIntList: [2, 3, 1] } },
  { name: 'non-merging scalar lists are replaced', original: { nonMergingIntList: [1, 2] }, patch: { nonMergingIntList: [2, 3] }, result: { nonMergingIntList: [2, 3] } },
  { name: 'non-merging lists of maps are replaced', original: { nonMergingList: [n(1), n(2)] }, patch: { nonMergingList: [n(3)] }, result: { nonMergingList: [n(3)] } },
  {
    name: 'a list of lists is a 422',
    original: { mergingIntList: [] },
    patch: { mergingIntList: [[1]] },
    error: { code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' },
  },
  {
    name: 'mixed element types are an error',
    original: { mergingIntList: [1, 2] },
    patch: { mergingIntList: ['a'] },
    error: { code: 500, message: 'list element types are not identical: [[1 2] [a]]' },
  },

  // ---- $deleteFromPrimitiveList
  { name: '$deleteFromPrimitiveList deletes', original: { mergingIntList: [1, 2, 3] }, patch: { '$deleteFromPrimitiveList/mergingIntList': [2] }, result: { mergingIntList: [1, 3] } },
  { name: '$deleteFromPrimitiveList deletes duplicates', original: { mergingIntList: [1, 3, 2, 3] }, patch: { '$deleteFromPrimitiveList/mergingIntList': [3] }, result: { mergingIntList: [1, 2] } },
  { name: '$deleteFromPrimitiveList works on a replace list too', original: { nonMergingIntList: [1, 2, 3] }, patch: { '$deleteFromPrimitiveList/nonMergingIntList': [2] }, result: { nonMergingIntList: [1, 3] } },
  { name: '$deleteFromPrimitiveList of a missing item', original: { mergingIntList: [1, 2] }, patch: { '$deleteFromPrimitiveList/mergingIntList': [3] }, result: { mergingIntList: [1, 2] } },
  { name: '$deleteFromPrimitiveList on a null list leaves it', original: { mergingIntList: null }, patch: { '$deleteFromPrimitiveList/mergingIntList': [3] }, result: { mergingIntList: null } },
  { name: '$deleteFromPrimitiveList never creates the list', original: { name: 'x' }, patch: { '$deleteFromPrimitiveList/mergingIntList': [3] }, result: { name: 'x' } },
  {
    name: '$deleteFromPrimitiveList with adds of other items',
    original: { mergingIntList: [1, 2, 3] },
    patch: { mergingIntList: [4], '$deleteFromPrimitiveList/mergingIntList': [2] },
    result: { mergingIntList: [4, 1, 3] },
  },
  {
    name: '$deleteFromPrimitiveList without a slash',
    original: { mergingIntList: [1] },
    patch: { $deleteFromPrimitiveListmergingIntList: [1] },
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of primitive list' },
  },

  // ---- $setElementOrder
  {
    name: '$setElementOrder orders a merged list of maps',
    original: { mergingList: [n(1, { other: 'a' }), n(2, { value: '2', other: 'b' })] },
    patch: { '$setElementOrder/mergingList': [n(4), n(1), n(2), n(3)], mergingList: [n(4, { value: '4' }), n(3, { value: '3' })] },
    result: { mergingList: [n(4, { value: '4' }), n(1, { other: 'a' }), n(2, { value: '2', other: 'b' }), n(3, { value: '3' })] },
  },
  {
    name: '$setElementOrder may name items that are not there',
    original: { mergingList: [n(1), n(3)] },
    patch: { '$setElementOrder/mergingList': [n(3), n(2), n(1)], mergingList: [n(3, { value: '3' }), n(1, { value: '1' })] },
    result: { mergingList: [n(3, { value: '3' }), n(1, { value: '1' })] },
  },
  {
    name: '$setElementOrder alone reorders a scalar list',
    original: { mergingIntList: [1, 3] },
    patch: { '$setElementOrder/mergingIntList': [3, 2, 1] },
    result: { mergingIntList: [3, 1] },
  },
  {
    name: '$setElementOrder with deletions and leftovers',
    original: { mergingIntList: [1, 2, 3, 4] },
    patch: { '$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3] },
    result: { mergingIntList: [1, 2, 4] },
  },
  {
    name: '$setElementOrder with adds and deletions of scalars',
    original: { mergingIntList: [1, 2, 3, 4] },
    patch: { '$setElementOrder/mergingIntList': [1, 3, 5], mergingIntList: [5], '$deleteFromPrimitiveList/mergingIntList': [2] },
    result: { mergingIntList: [1, 3, 5, 4] },
  },
  {
    name: '$setElementOrder: add, delete, and a server-only element (Go slice aliasing)',
    original: { mergingList: [n(1, { other: 'a' }), n(4, { other: 'c' })] },
    patch: { '$setElementOrder/mergingList': [n(2), n(3)], mergingList: [n(2), n(3), del(1)] },
    result: { mergingList: [n(4, { other: 'c' }), n(2), n(3)] },
  },
  {
    name: '$setElementOrder: add and delete around server-only elements',
    original: { mergingList: [n(1), n(2, { other: 'b' }), n(4, { other: 'c' })] },
    patch: { '$setElementOrder/mergingList': [n(2), n(3)], mergingList: [n(3), del(1)] },
    result: { mergingList: [n(2, { other: 'b' }), n(4, { other: 'c' }), n(3)] },
  },
  {
    name: '$setElementOrder: new element before a server-only one',
    original: { name: 'hi', mergingList: [n('hello2')] },
    patch: { '$setElementOrder/mergingList': [n('hello'), n('doesntexist')], mergingList: [n('hello'), del('doesntexist')] },
    result: { name: 'hi', mergingList: [n('hello'), n('hello2')] },
  },
  {
    name: '$setElementOrder whose order contradicts the patch list',
    original: { mergingList: [n(1), n(3), n(2)] },
    patch: { '$setElementOrder/mergingList': [n(1), n(2), n(3)], mergingList: [n(3, { value: '3' }), n(1, { value: '1' })] },
    error: {
      code: 500,
      message:
        "the order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]",
    },
  },
  {
    name: '$setElementOrder of a scalar list that contradicts the patch',
    original: { mergingIntList: [1, 3, 2] },
    patch: { '$setElementOrder/mergingIntList': [1, 2, 3], mergingIntList: [3, 1] },
    error: { code: 500, message: /doesn't match \$setElementOrder list/ },
  },
  {
    name: '$setElementOrder that is not a list',
    original: { mergingList: [n(1)] },
    patch: { '$setElementOrder/mergingList': 'x' },
    error: { code: 500, message: 'expected a []interface {}, but received a string' },
  },
  {
    name: '$setElementOrder entries need the merge key',
    original: { mergingList: [n(1)] },
    patch: { '$setElementOrder/mergingList': [{ value: 'x' }] },
    error: { code: 500, message: 'map: map[value:x] does not contain declared merge key: name' },
  },
  {
    name: '$setElementOrder without a slash',
    original: { mergingList: [n(1)] },
    patch: { $setElementOrderX: [n(1)] },
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of setElementOrder list' },
  },

  // ---- $retainKeys
  {
    name: 'retainKeys field without the directive merges as usual',
    original: { retainKeysMap: { name: 'foo', value: 'a' } },
    patch: { retainKeysMap: { value: 'b' } },
    result: { retainKeysMap: { name: 'foo', value: 'b' } },
  },
  {
    name: '$retainKeys clears the keys it does not list',
    original: { retainKeysMap: { name: 'foo', value: 'bar', nonMergingList: [n('a')] } },
    patch: { retainKeysMap: { $retainKeys: ['name', 'value'], value: 'bar' } },
    result: { retainKeysMap: { name: 'foo', value: 'bar' } },
  },
  {
    name: '$retainKeys with a null and a nested merge',
    original: { retainKeysMap: { name: 'foo', simpleMap: { key1: 'a', key2: 'b', key3: 'c' } } },
    patch: { retainKeysMap: { $retainKeys: ['name', 'simpleMap'], simpleMap: { key1: 'x' }, value: null } },
    result: { retainKeysMap: { name: 'foo', simpleMap: { key1: 'x', key2: 'b', key3: 'c' } } },
  },
  {
    name: '$retainKeys with a merging list and $setElementOrder',
    original: { retainKeysMap: { name: 'foo', mergingList: [n('a'), n('b'), n('x')] } },
    patch: {
      retainKeysMap: { $retainKeys: ['mergingList', 'name'], '$setElementOrder/mergingList': [n('a'), n('b'), n('c')], mergingList: [n('c')] },
    },
    result: { retainKeysMap: { name: 'foo', mergingList: [n('a'), n('b'), n('c'), n('x')] } },
  },
  {
    name: '$retainKeys in list elements',
    original: { retainKeysMergingList: [n('bar'), n('foo', { value: 'old', other: 'x' })] },
    patch: { retainKeysMergingList: [{ $retainKeys: ['name', 'value'], name: 'foo', value: 'new' }] },
    result: { retainKeysMergingList: [n('bar'), n('foo', { value: 'new' })] },
  },
  {
    name: '$retainKeys must list every key the patch sets',
    original: { retainKeysMap: { name: 'foo' } },
    patch: { retainKeysMap: { $retainKeys: ['name'], value: 'x' } },
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
  },
  {
    name: '$retainKeys must be a list',
    original: { retainKeysMap: { name: 'foo' } },
    patch: { retainKeysMap: { $retainKeys: 'name' } },
    error: { code: 400, reason: 'BadRequest', message: 'invalid patch format of retainKeys' },
  },

  // ---- bad patch documents
  { name: 'an array patch', original: {}, patch: [1], error: { code: 400, message: 'json: cannot unmarshal array into Go value of type map[string]interface {}' } },
  { name: 'a string patch', original: {}, patch: 'x', error: { code: 400, message: 'json: cannot unmarshal string into Go value of type map[string]interface {}' } },
  { name: 'a number patch', original: {}, patch: 1, error: { code: 400, message: 'json: cannot unmarshal number into Go value of type map[string]interface {}' } },
  { name: 'a boolean patch', original: {}, patch: true, error: { code: 400, message: 'json: cannot unmarshal bool into Go value of type map[string]interface {}' } },
];

for (const c of cases) {
  test(`strategic merge patch: ${c.name}`, () => {
    const original = structuredClone(c.original);
    const patch = structuredClone(c.patch);
    if (c.error) {
      assert.throws(
        () => strategicMergePatch(original, patch, Item),
        (e: unknown) => {
          assert.ok(e instanceof PatchError, `not a PatchError: ${String(e)}`);
          assert.equal(e.code, c.error!.code);
          if (c.error!.reason !== undefined) assert.equal(e.reason, c.error!.reason);
          if (typeof c.error!.message === 'string') assert.equal(e.message, c.error!.message);
          else assert.match(e.message, c.error!.message);
          return true;
        },
      );
    } else {
      assert.deepEqual(strategicMergePatch(original, patch, Item), c.result);
    }
    // Inputs are never mutated.
    assert.deepEqual(original, c.original);
    assert.deepEqual(patch, c.patch);
  });
}

test('strategic merge patch: deep nesting is refused, not a crash', () => {
  let deep: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < 150; i++) deep = { nested: deep };
  assert.throws(
    () => strategicMergePatch({}, { unknown: deep }, Item),
    (e: unknown) => e instanceof PatchError && e.code === 400 && /exceeded max depth of 100/.test(e.message),
  );
  // Within the bound (and with a raised bound) it merges.
  const ok = strategicMergePatch({}, { unknown: deep }, Item, { maxDepth: 200 });
  assert.ok(ok.unknown);
});

test('strategic merge patch: large merging lists stay fast', () => {
  const size = 20000;
  const original = { mergingList: Array.from({ length: size }, (_, i) => n(i, { value: 'v' })) };
  const patch = {
    '$setElementOrder/mergingList': Array.from({ length: size }, (_, i) => n(size - 1 - i)),
    mergingList: Array.from({ length: size }, (_, i) => n(size - 1 - i, { other: 'o' })),
    '$deleteFromPrimitiveList/mergingIntList': [1],
  };
  const started = Date.now();
  const out = strategicMergePatch(original, patch, Item) as { mergingList: Array<{ name: string; value: string; other: string }> };
  assert.ok(Date.now() - started < 5000, 'took too long');
  assert.equal(out.mergingList.length, size);
  assert.deepEqual(out.mergingList[0], n(size - 1, { value: 'v', other: 'o' }));
});

test('strategic merge patch: directive of the wrong type never crashes', () => {
  const weird: unknown[] = [
    { $patch: null },
    { $patch: ['x'] },
    { mergingList: [{ name: { a: 1 } }] },
    { mergingList: [null] },
    { mergingList: 'x' },
    { '$setElementOrder/mergingList': [null] },
    { '$deleteFromPrimitiveList/mergingIntList': [{ a: 1 }] },
    { $retainKeys: [{ a: 1 }] },
    { mergingList: [{ name: '1', $patch: 'delete', $retainKeys: 7 }] },
    { '$setElementOrder/mergingIntList': [[1]] },
  ];
  for (const patch of weird) {
    try {
      strategicMergePatch({ mergingList: [n(1, { name: { a: 1 } })], mergingIntList: [1] }, patch, Item);
    } catch (e) {
      assert.ok(e instanceof PatchError, `${JSON.stringify(patch)}: ${String(e)}`);
    }
  }
});
