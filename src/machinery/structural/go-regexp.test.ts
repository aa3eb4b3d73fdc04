import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileGoRegexp } from './go-regexp.js';
import { validateCustomResource } from './index.js';

const re = (p: string): RegExp => {
  const r = compileGoRegexp(p);
  assert.ok(r instanceof RegExp, `${p}: ${String(r)}`);
  return r;
};

test('RE2 syntax JavaScript spells differently', () => {
  assert.ok(re('(?i)^abc$').test('ABC'));
  assert.ok(re('^[[:alpha:]]+$').test('abcXYZ'));
  assert.ok(!re('^[[:digit:]]+$').test('12a'));
  assert.ok(re('^(?P<x>a)b').test('ab'));
  assert.ok(re('^a\\z').test('a'));
  assert.ok(!re('^a\\z').test('a\n'));
  assert.ok(re('^\\x{41}$').test('A'));
  assert.ok(re('^a\\:b$').test('a:b'));
  assert.ok(re('^\\p{L}+$').test('héllo'));
  // Matching is unanchored, as Go's MatchString.
  assert.ok(re('b').test('abc'));
});

test('patterns Go does not compile, with Go’s messages', () => {
  assert.equal(compileGoRegexp('('), 'error parsing regexp: missing closing ): `(`');
  assert.equal(compileGoRegexp('a)'), 'error parsing regexp: unexpected ): `a)`');
  assert.equal(compileGoRegexp('x[a-z'), 'error parsing regexp: missing closing ]: `[a-z`');
  assert.equal(compileGoRegexp('*a'), 'error parsing regexp: missing argument to repetition operator: `*`');
  assert.equal(compileGoRegexp('(a)\\1'), 'error parsing regexp: invalid or unsupported Perl syntax: `\\1`');
  assert.equal(compileGoRegexp('a(?=b)'), 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
});

test('values are matched by an RE2 engine: a pattern that makes a backtracking engine exponential answers at once', () => {
  // `^(a+)+$` against 40 a's and a '!' takes a backtracking engine about 2^40 steps.
  const errors = validateCustomResource({ spec: { name: `${'a'.repeat(40)}!` } }, { type: 'object', properties: { spec: { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } } } });
  assert.deepEqual(errors.map((e) => e.field), ['spec.name']);
  assert.equal(validateCustomResource({ spec: { name: 'aaaa' } }, { type: 'object', properties: { spec: { type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } } } }).length, 0);
});
