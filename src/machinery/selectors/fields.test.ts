// Field selectors: fields.ParseSelector's syntax and escaping, and matching. Each kind's field
// label conversion and selectable fields are tested with the kinds' modules
// (registry/kinds/selectable-fields.test.ts).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FieldSelector, escapeFieldValue, parseFieldSelector } from './index.js';
import { selectorError } from './selectors.testutil.js';


test('field selector syntax and canonical form', () => {
  const cases: Array<[string, string]> = [
    ['', ''],
    [',,', ''],
    ['a=b', 'a=b'],
    ['a==b', 'a=b'],
    ['a!=b', 'a!=b'],
    ['b=1,a=2', 'a=2,b=1'],
    ['a=', 'a='],
    ['a=x\\,y', 'a=x\\,y'],
    ['a=x\\=y\\\\z', 'a=x\\=y\\\\z'],
    ['spec.nodeName=,status.phase!=Running', 'spec.nodeName=,status.phase!=Running'],
  ];
  for (const [input, out] of cases) assert.equal(parseFieldSelector(input).toString(), out, input);
  assert.deepEqual(parseFieldSelector('a=x\\,y').requirements, [{ field: 'a', operator: '=', value: 'x,y' }]);
  assert.deepEqual(parseFieldSelector('a=!b').requirements, [{ field: 'a', operator: '=', value: '!b' }]);
  assert.equal(escapeFieldValue('a,b=c\\'), 'a\\,b\\=c\\\\');
});

test('field selector syntax errors', () => {
  assert.equal(selectorError(() => parseFieldSelector('a')), "invalid selector: 'a'; can't understand 'a'");
  assert.equal(selectorError(() => parseFieldSelector('x=1,b')), "invalid selector: 'x=1,b'; can't understand 'b'");
  assert.equal(selectorError(() => parseFieldSelector('a=b=c')), 'invalid field selector: unescaped character in value: 61');
  assert.equal(selectorError(() => parseFieldSelector('a=\\x')), 'invalid field selector: invalid escape sequence: \\x');
  assert.equal(selectorError(() => parseFieldSelector('a=b\\')), 'invalid field selector: invalid escape sequence: \\');
});

test('field selector matching: a missing field is the empty string', () => {
  const s = parseFieldSelector('spec.nodeName=,status.phase!=Running');
  assert.equal(s.matches({ 'status.phase': 'Pending' }), true);
  assert.equal(s.matches({ 'spec.nodeName': 'n1', 'status.phase': 'Pending' }), false);
  assert.equal(s.matches({ 'status.phase': 'Running' }), false);
  assert.equal(FieldSelector.everything().matches({}), true);
  assert.equal(parseFieldSelector('metadata.name=a').requiresExactMatch('metadata.name'), 'a');
  assert.equal(parseFieldSelector('metadata.name!=a').requiresExactMatch('metadata.name'), undefined);
});
