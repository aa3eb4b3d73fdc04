// The Kubernetes CEL environment: compile errors as cel-go words them, evaluation of JSON typed
// by schemas, the Kubernetes libraries and the runtime cost budget.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileExpression } from './index.js';

const dyn = { variables: { self: 'dyn' as const } };
function evalExpr(expr: string, self: unknown = {}, opts: Parameters<typeof compileExpression>[1] = dyn) {
  const c = compileExpression(expr, opts);
  assert.equal(c.error, undefined, `${expr}: ${c.error}`);
  return c.program!.evaluate({ self });
}

test('plain expressions compile and evaluate', () => {
  assert.equal(evalExpr('1 + 2 == 3').value, true);
  assert.equal(evalExpr("self.name + '-x'", { name: 'a' }).value, 'a-x');
  assert.equal(evalExpr('self.replicas * 2', { replicas: 3 }).value, 6);
  assert.equal(evalExpr('self.items.all(i, i > 0)', { items: [1, 2] }).value, true);
  assert.equal(evalExpr("has(self.spec) && 'a' in self.spec", { spec: { a: 1 } }).value, true);
});

test('undeclared references fail as cel-go reports them', () => {
  assert.equal(compileExpression('self.x == foo', dyn).error, "compilation failed: ERROR: <input>:1:11: undeclared reference to 'foo' (in container '')\n | self.x == foo\n | ..........^");
  assert.equal(compileExpression('bar(self)', dyn).error?.split('\n')[0], "compilation failed: ERROR: <input>:1:4: undeclared reference to 'bar' (in container '')");
  assert.match(compileExpression('self.x ==', dyn).error!, /^compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
});

test('runtime errors read as Kubernetes reads them', () => {
  assert.equal(evalExpr('self.missing == 1', {}).error, 'no such key: missing');
  assert.equal(evalExpr('1 / self.zero', { zero: 0 }).error, 'division by zero');
  assert.equal(evalExpr('9223372036854775807 + self.one', { one: 1 }).error, 'integer overflow');
  assert.equal(evalExpr('self.l[5]', { l: [1] }).error, 'index out of bounds: 5');
});

test('schema types: integer is int, number is double, date-time a timestamp', () => {
  const schema = { type: 'object', properties: { n: { type: 'number' }, i: { type: 'integer' }, t: { type: 'string', format: 'date-time' }, d: { type: 'string', format: 'duration' } } };
  const opts = { variables: { self: { schema } } };
  assert.equal(evalExpr('self.n == 1.0', { n: 1 }, opts).value, true);
  assert.equal(evalExpr('self.i + 1', { i: 1 }, opts).value, 2);
  assert.equal(evalExpr("self.t < timestamp('2030-01-01T00:00:00Z')", { t: '2020-01-01T00:00:00Z' }, opts).value, true);
  assert.equal(evalExpr("self.d > duration('1m')", { d: '2m' }, opts).value, true);
  assert.equal(compileExpression('self.nope == 1', opts).error?.split('\n')[0], "compilation failed: ERROR: <input>:1:5: undefined field 'nope'");
});

test('set and map lists compare without regard to order', () => {
  const set = { type: 'object', properties: { a: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }, b: { type: 'array', items: { type: 'string' } } } };
  const opts = { variables: { self: { schema: set } } };
  assert.equal(evalExpr("self.a == ['y', 'x']", { a: ['x', 'y'] }, opts).value, true);
  assert.equal(evalExpr("self.b == ['y', 'x']", { b: ['x', 'y'] }, opts).value, false);
});

test('Kubernetes libraries: lists, regex, sets, strings', () => {
  const cases: [string, unknown][] = [
    ['[1, 2, 3].isSorted()', true],
    ['[3, 1].isSorted()', false],
    ['[1, 2, 3].sum()', 6],
    ['[1, 5, 3].max()', 5],
    ['[4, 2, 3].min()', 2],
    ['[1, 2, 2].indexOf(2)', 1],
    ['[1, 2, 2].lastIndexOf(2)', 2],
    ["'abc 123'.find('[0-9]+')", '123'],
    ["'a1 b2 c3'.findAll('[a-z][0-9]')", ['a1', 'b2', 'c3']],
    ["'a1 b2 c3'.findAll('[a-z][0-9]', 2)", ['a1', 'b2']],
    // No match, by an RE2 engine: a backtracking engine would take about 2^40 steps here.
    [`'${'a'.repeat(40)}!'.find('^(a+)+$')`, ''],
    [`'${'a'.repeat(40)}!'.findAll('^(a+)+$')`, []],
    ['sets.contains([1, 2, 3], [3, 1])', true],
    ['sets.equivalent([1, 2], [2, 1, 1])', true],
    ['sets.intersects([1], [2])', false],
    ["'Hello'.lowerAscii()", 'hello'],
    ["'a,b'.split(',')", ['a', 'b']],
    ["'abc'.charAt(1)", 'b'],
    ["['a', 'b'].join('-')", 'a-b'],
  ];
  for (const [expr, want] of cases) assert.deepEqual(evalExpr(expr).value, want, expr);
  assert.equal(evalExpr('[].max()').error, 'max(list) called on empty list');
});

test('the runtime cost budget stops an expensive evaluation', () => {
  const c = compileExpression('self.all(x, self.all(y, x + y > 0))', { variables: { self: 'list' }, perCallLimit: 1000 });
  const list = Array.from({ length: 100 }, (_, i) => i + 1);
  const r = c.program!.evaluate({ self: list });
  assert.equal(r.error, 'operation cancelled: actual cost limit exceeded');
  const small = c.program!.evaluate({ self: [1, 2] });
  assert.equal(small.value, true);
  assert.ok(small.cost > 0 && small.cost < 1000);
});

test('two-variable comprehensions (enabled since 1.32)', () => {
  assert.equal(evalExpr('self.l.all(i, v, v > i)', { l: [1, 2, 3] }).value, true);
  assert.equal(evalExpr('self.l.exists(i, v, i == 1 && v == 5)', { l: [1, 5] }).value, true);
  assert.equal(evalExpr("self.m.all(k, v, k.startsWith('a') && v > 0)", { m: { ab: 1, ac: 2 } }).value, true);
  assert.equal(evalExpr("self.m.existsOne(k, v, v == 2)", { m: { a: 2, b: 2 } }).value, false);
  assert.equal(evalExpr('self.l.all(i, v, self.l.exists(j, w, j != i && w == v))', { l: [1, 1] }).value, true);
  assert.equal(evalExpr('self.l.all(x, x > 0)', { l: [1] }).value, true);
});

test('operators on known scalar types that have no overload fail to compile', () => {
  const schema = { type: 'object', properties: { i: { type: 'integer' }, s: { type: 'string' }, d: { type: 'number' }, t: { type: 'string', format: 'date-time' } } };
  const opts = { variables: { self: { schema } } };
  assert.equal(compileExpression("self.i + self.s == 'x'", opts).error?.split('\n')[0], "compilation failed: ERROR: <input>:1:8: found no matching overload for '_+_' applied to '(int, string)'");
  assert.equal(compileExpression("self.t < 'x'", opts).error?.split('\n')[0], "compilation failed: ERROR: <input>:1:8: found no matching overload for '_<_' applied to '(google.protobuf.Timestamp, string)'");
  for (const ok of ['self.i < self.d', 'self.i + 1 > 0', "self.s + 'a' == 'b'", "self.t - duration('1h') < self.t"]) assert.equal(compileExpression(ok, opts).error, undefined, ok);
});
