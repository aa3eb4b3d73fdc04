// Label selectors: labels.Parse's grammar, canonical strings, matching and error messages, and
// metav1.LabelSelector objects.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dumpBody } from '../../api/vectors.testutil.js';
import { LabelSelector, SelectorError, compileLabelSelector, labelSelectorAsSelector, newRequirement, parseLabelSelector } from './index.js';

const NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const SUBDOMAIN_RULE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const canonical: Array<[string, string]> = [
  ['', ''],
  ['x=a', 'x=a'],
  ['x==a', 'x==a'],
  ['x!=a', 'x!=a'],
  ['y!=b,x=a', 'x=a,y!=b'],
  ['  x = a , y  ', 'x=a,y'],
  ['\tx=a\r\n', 'x=a'],
  ['x', 'x'],
  ['!x', '!x'],
  ['x,!y,z', 'x,!y,z'],
  ['x in (a)', 'x in (a)'],
  ['x in (b,a,b)', 'x in (a,b)'],
  ['x notin (a, b)', 'x notin (a,b)'],
  ['x in ()', 'x in ()'],
  ['x in (,a)', 'x in (,a)'],
  ['x in (a,)', 'x in (,a)'],
  ['x=', 'x='],
  ['x=,y=b', 'x=,y=b'],
  ['x>1', 'x>1'],
  ['x<10', 'x<10'],
  ['a in (in)', 'a in (in)'],
  ['in=notin', 'in=notin'],
  ['notin notin (in,notin)', 'notin notin (in,notin)'],
  ['example.com/tier in (front-end,back_end)', 'example.com/tier in (back_end,front-end)'],
  // A NUL where a token starts ends the input, as in Go's lexer.
  ['\0x=a', ''],
];

for (const [input, out] of canonical) {
  test(`label selector parses ${JSON.stringify(input)}`, () => {
    assert.equal(parseLabelSelector(input).toString(), out);
    // The canonical form parses back to itself.
    assert.equal(parseLabelSelector(out).toString(), out);
  });
}

const errors: Array<[string, string]> = [
  ['app in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
  ['x=a,', "found '', expected: identifier after ','"],
  [',x', "found ',', expected: !, identifier, or 'end of string'"],
  ['x=a b', "found 'b', expected: ',' or 'end of string'"],
  ['!x=a', "found '=', expected: ',' or 'end of string'"],
  ['x in a', "unable to parse requirement: found 'a' expected: '('"],
  ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
  ['x in (,,)', "unable to parse requirement: found ')', expected: ',', or identifier"],
  ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
  ['x y', "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt"],
  ['x!', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
  ['x=(a)', "unable to parse requirement: found '(', expected: identifier"],
  ['!', "unable to parse requirement: found '', expected: identifier"],
  ['x>a', `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`],
  ['x<-1', `unable to parse requirement: values[0][x]: Invalid value: "-1": ${VALUE_RULE}`],
  ['x=a\0y=b', "found 'y', expected: ',' or 'end of string'"],
  ['x<1.5', `unable to parse requirement: values[0]: Invalid value: "1.5": for 'Gt', 'Lt' operators, the value must be an integer`],
  ['-x=a', `unable to parse requirement: <nil>: Invalid value: "-x": name part ${NAME_RULE}`],
  ['x=-a', `unable to parse requirement: values[0][x]: Invalid value: "-a": ${VALUE_RULE}`],
  [
    'x in (-a,-b)',
    `unable to parse requirement: [values[0][x]: Invalid value: "-a": ${VALUE_RULE}, values[1][x]: Invalid value: "-b": ${VALUE_RULE}]`,
  ],
  [`${'k'.repeat(64)}=v`, `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`],
  [`k=${'v'.repeat(64)}`, `unable to parse requirement: values[0][k]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`],
  [
    'a/b/c',
    `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name ${NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
  ],
  ['/a', `unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty`],
  ['Example.com/a', `unable to parse requirement: <nil>: Invalid value: "Example.com/a": prefix part ${SUBDOMAIN_RULE}`],
  ['a/', `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; name part ${NAME_RULE}`],
  ['x="a"', `unable to parse requirement: values[0][x]: Invalid value: "\\"a\\"": ${VALUE_RULE}`],
];

for (const [input, message] of errors) {
  test(`label selector rejects ${JSON.stringify(input)}`, () => {
    assert.throws(
      () => parseLabelSelector(input),
      (e: unknown) => e instanceof SelectorError && e.code === 400 && e.message === message,
    );
  });
}

test('label selector: errors/invalid-label-selector.txt body byte for byte', () => {
  const { status, body } = dumpBody('errors', 'invalid-label-selector.txt');
  try {
    parseLabelSelector('app in (a');
    assert.fail('no error');
  } catch (e) {
    assert.ok(e instanceof SelectorError);
    assert.equal(e.code, status);
    assert.equal(e.toJson(), body);
  }
});

test('label selector matching', () => {
  const m = (sel: string, labels: Record<string, string> | undefined) => parseLabelSelector(sel).matches(labels);
  assert.equal(m('', undefined), true);
  assert.equal(m('x=a', { x: 'a', y: 'b' }), true);
  assert.equal(m('x=a', { x: 'b' }), false);
  assert.equal(m('x=a', {}), false);
  assert.equal(m('x==a', { x: 'a' }), true);
  assert.equal(m('x!=a', {}), true);
  assert.equal(m('x!=a', { x: 'b' }), true);
  assert.equal(m('x!=a', { x: 'a' }), false);
  assert.equal(m('x in (a,b)', { x: 'b' }), true);
  assert.equal(m('x in (a,b)', { x: 'c' }), false);
  assert.equal(m('x in (a,b)', undefined), false);
  assert.equal(m('x notin (a)', {}), true);
  assert.equal(m('x notin (a)', { x: 'a' }), false);
  assert.equal(m('x in ()', { x: '' }), true);
  assert.equal(m('x=', { x: '' }), true);
  assert.equal(m('x', { x: '' }), true);
  assert.equal(m('x', { y: '' }), false);
  assert.equal(m('!x', { y: '' }), true);
  assert.equal(m('!x', { x: 'a' }), false);
  assert.equal(m('x>1', { x: '2' }), true);
  assert.equal(m('x>1', { x: '1' }), false);
  assert.equal(m('x>1', { x: 'two' }), false);
  assert.equal(m('x>1', {}), false);
  assert.equal(m('x<10', { x: '-5' }), true);
  assert.equal(m('x>9007199254740993', { x: '9007199254740994' }), true);
  assert.equal(m('x=a,y', { x: 'a' }), false);
  assert.equal(m('x=a,y', { x: 'a', y: '1' }), true);
  // Only own keys count.
  assert.equal(m('constructor', {}), false);
  assert.equal(compileLabelSelector('tier in (web)')({ tier: 'web' }), true);
});

test('label selector: everything, nothing, sets, exact matches', () => {
  assert.equal(LabelSelector.everything().isEmpty(), true);
  assert.equal(LabelSelector.everything().matches(undefined), true);
  assert.equal(LabelSelector.nothing().isEmpty(), false);
  assert.equal(LabelSelector.nothing().matches({}), false);
  assert.equal(LabelSelector.nothing().toString(), '');
  assert.equal(LabelSelector.fromSet({ b: '2', a: '1' }).toString(), 'a=1,b=2');
  assert.equal(LabelSelector.fromSet({}).isEmpty(), true);
  assert.throws(() => LabelSelector.fromValidatedSet({ '-a': '1' }), SelectorError);
  const s = parseLabelSelector('a=1,b in (2),c in (3,4),d!=5');
  assert.equal(s.requiresExactMatch('a'), '1');
  assert.equal(s.requiresExactMatch('b'), '2');
  assert.equal(s.requiresExactMatch('c'), undefined);
  assert.equal(s.requiresExactMatch('d'), undefined);
  assert.equal(s.add(newRequirement('aa', 'exists', [])).toString(), 'a=1,aa,b in (2),c in (3,4),d!=5');
});

test('metav1.LabelSelector: nil is nothing, empty is everything', () => {
  assert.equal(labelSelectorAsSelector(null).matches({ a: 'b' }), false);
  assert.equal(labelSelectorAsSelector(undefined).selectable, false);
  assert.equal(labelSelectorAsSelector({}).matches({ a: 'b' }), true);
  assert.equal(labelSelectorAsSelector({ matchLabels: {}, matchExpressions: [] }).isEmpty(), true);
});

test('metav1.LabelSelector: matchLabels and matchExpressions', () => {
  const s = labelSelectorAsSelector({
    matchLabels: { app: 'web', 'app.kubernetes.io/part-of': 'shop' },
    matchExpressions: [
      { key: 'tier', operator: 'In', values: ['front', 'edge'] },
      { key: 'env', operator: 'NotIn', values: ['dev'] },
      { key: 'team', operator: 'Exists' },
      { key: 'legacy', operator: 'DoesNotExist', values: [] },
    ],
  });
  assert.equal(s.toString(), 'app=web,app.kubernetes.io/part-of=shop,env notin (dev),!legacy,team,tier in (edge,front)');
  assert.equal(s.matches({ app: 'web', 'app.kubernetes.io/part-of': 'shop', tier: 'edge', team: 'a' }), true);
  assert.equal(s.matches({ app: 'web', 'app.kubernetes.io/part-of': 'shop', tier: 'edge', team: 'a', env: 'dev' }), false);
  assert.equal(s.matches({ app: 'web', 'app.kubernetes.io/part-of': 'shop', tier: 'edge', team: 'a', legacy: '' }), false);
  assert.equal(compileLabelSelector({ matchLabels: { a: 'b' } })({ a: 'b' }), true);
});

test('metav1.LabelSelector: validation as Kubernetes words it', () => {
  const err = (ps: Parameters<typeof labelSelectorAsSelector>[0]) => {
    try {
      labelSelectorAsSelector(ps);
    } catch (e) {
      assert.ok(e instanceof SelectorError);
      return e.message;
    }
    return assert.fail('no error');
  };
  assert.equal(err({ matchExpressions: [{ key: 'a', operator: 'Foo' }] }), '"Foo" is not a valid label selector operator');
  assert.equal(
    err({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }),
    "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
  );
  assert.equal(
    err({ matchExpressions: [{ key: 'a', operator: 'NotIn' }] }),
    "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
  );
  assert.equal(
    err({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', 'y'] }] }),
    'values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist',
  );
  assert.equal(err({ matchLabels: { '-a': 'b' } }), `key: Invalid value: "-a": name part ${NAME_RULE}`);
  assert.equal(err({ matchLabels: { a: 'b c' } }), `values[0][a]: Invalid value: "b c": ${VALUE_RULE}`);
  assert.equal(
    err({ matchExpressions: [{ key: '-a', operator: 'In', values: ['-b'] }] }),
    `[key: Invalid value: "-a": name part ${NAME_RULE}, values[0][-a]: Invalid value: "-b": ${VALUE_RULE}]`,
  );
});

test('label selector: pathological input never crashes', () => {
  const inputs = ['((((', '))))', '!!!!', '====', ',,,,', 'a in (((', 'a notin', 'a in', 'a>', '<', 'x'.repeat(100000), 'a,'.repeat(10000) + 'a'];
  for (const input of inputs) {
    try {
      parseLabelSelector(input);
    } catch (e) {
      assert.ok(e instanceof SelectorError, `${input.slice(0, 20)}: ${String(e)}`);
    }
  }
});
