import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { formatFieldError } from '../validation/field-errors.js';
import { schemaAt, validateCustomResource, validateCustomResourceUpdate, validateCustomResourceValue } from './index.js';

const errs = (obj: Record<string, unknown>, schema: JSONSchemaProps): string[] => validateCustomResource(obj, schema).map(formatFieldError);
const objectOf = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties });
const field = (f: JSONSchemaProps): JSONSchemaProps => objectOf({ field: f });

test('type errors name the type found (apiextensions validation_test cases)', () => {
  const obj = field({ type: 'object' });
  const cases: [unknown, string][] = [
    ['foo', 'string'],
    [42, 'integer'],
    [true, 'boolean'],
    [1.2, 'number'],
    [[], 'array'],
    [null, 'null'],
  ];
  for (const [v, t] of cases) assert.deepEqual(errs({ field: v }, obj), [`field: Invalid value: "${t}": field in body must be of type object: "${t}"`]);
  const ios = field({ 'x-kubernetes-int-or-string': true });
  assert.deepEqual(errs({ field: 42 }, ios), []);
  assert.deepEqual(errs({ field: 'x' }, ios), []);
  assert.deepEqual(errs({ field: true }, ios), ['field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"']);
  assert.deepEqual(errs({ field: null }, ios), ['field: Invalid value: "null": field in body must be of type integer,string: "null"']);
  assert.deepEqual(errs({ field: null }, field({ type: 'string', nullable: true })), []);
  // An integer is a number.
  assert.deepEqual(errs({ field: 3 }, field({ type: 'number' })), []);
});

test('the brief’s example: spec.replicas of the wrong type', () => {
  const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } } };
  assert.deepEqual(errs({ spec: { replicas: 'string' } }, schema), ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"']);
});

test('value validations render kube-openapi’s messages on Kubernetes’ field errors', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string' },
      s: { type: 'string', maxLength: 3, minLength: 2, pattern: '^[a-z]+$' },
      e: { type: 'string', enum: ['a', 'b'] },
      n: { type: 'integer', minimum: 1, maximum: 10, multipleOf: 2 },
      x: { type: 'number', maximum: 1.5, exclusiveMaximum: true },
      l: { type: 'array', items: { type: 'string' }, maxItems: 1, minItems: 1 },
      m: { type: 'object', maxProperties: 1, minProperties: 1, additionalProperties: { type: 'integer' } },
      u: { type: 'string', format: 'uuid' },
      d: { type: 'string', format: 'date-time' },
      i: { type: 'integer', format: 'int32' },
    },
  };
  assert.deepEqual(errs({ name: 'n', s: 'abcd' }, s), ['s: Too long: may not be more than 3 bytes']);
  assert.deepEqual(errs({ name: 'n', s: 'a' }, s), ['s: Invalid value: "a": s in body should be at least 2 chars long']);
  assert.deepEqual(errs({ name: 'n', s: 'A1' }, s), [`s: Invalid value: "A1": s in body should match '^[a-z]+$'`]);
  assert.deepEqual(errs({ name: 'n', e: 'c' }, s), ['e: Unsupported value: "c": supported values: "a", "b"']);
  assert.deepEqual(errs({ o: { a: 1 } }, objectOf({ o: { type: 'object', enum: [{ a: 2 }] } })), ['o: Unsupported value: map[string]interface {}{"a":1}: supported values: "{\\"a\\":2}"']);
  assert.deepEqual(errs({ name: 'n', n: 0 }, s), ['n: Invalid value: 0: n in body should be greater than or equal to 1']);
  assert.deepEqual(errs({ name: 'n', n: 12 }, s), ['n: Invalid value: 12: n in body should be less than or equal to 10']);
  assert.deepEqual(errs({ name: 'n', n: 3 }, s), ['n: Invalid value: 3: n in body should be a multiple of 2']);
  assert.deepEqual(errs({ name: 'n', x: 1.5 }, s), ['x: Invalid value: 1.5: x in body should be less than 1.5']);
  assert.deepEqual(errs({ name: 'n', l: [] }, s), ['l: Invalid value: 0: l in body should have at least 1 items']);
  assert.deepEqual(errs({ name: 'n', l: ['a', 'b'] }, s), ['l: Too many: 2: must have at most 1 items']);
  assert.deepEqual(errs({ name: 'n', l: [1] }, s), ['l[0]: Invalid value: "integer": l[0] in body must be of type string: "integer"']);
  assert.deepEqual(errs({ name: 'n', m: { a: 1, b: 'x' } }, s), ['m: Too many: 2: must have at most 1 items', 'm.b: Invalid value: "string": m.b in body must be of type integer: "string"']);
  assert.deepEqual(errs({ name: 'n', m: {} }, s), ['m: Invalid value: 0: m in body should have at least 1 properties']);
  assert.deepEqual(errs({ name: 'n', u: 'nope' }, s), ['u: Invalid value: "nope": u in body must be of type uuid: "nope"']);
  assert.deepEqual(errs({ name: 'n', u: '123e4567-e89b-12d3-a456-426614174000', d: '2024-01-02T03:04:05Z' }, s), []);
  assert.deepEqual(errs({ name: 'n', d: '2024-13-02T03:04:05Z' }, s), ['d: Invalid value: "2024-13-02T03:04:05Z": d in body must be of type date-time: "2024-13-02T03:04:05Z"']);
  // int32 is not among the formats Kubernetes keeps: no range check.
  assert.deepEqual(errs({ name: 'n', i: 2 ** 40 }, s), []);
  assert.deepEqual(errs({}, s), ['name: Required value']);
});

test('additionalProperties false forbids unknown keys; composition keywords', () => {
  assert.deepEqual(errs({ a: { b: 1 } }, { type: 'object', properties: { a: { type: 'object', additionalProperties: false } } }), [
    'a: Invalid value: "b": a.b in body is a forbidden property',
  ]);
  const anyOf: JSONSchemaProps = { type: 'object', properties: { v: { type: 'integer', anyOf: [{ minimum: 10 }, { maximum: 0 }] } } };
  assert.deepEqual(errs({ v: 11 }, anyOf), []);
  assert.deepEqual(errs({ v: 5 }, anyOf), ['<nil>: Invalid value: "": "v" must validate at least one schema (anyOf)', 'v: Invalid value: 5: v in body should be greater than or equal to 10']);
  const not: JSONSchemaProps = { type: 'object', properties: { v: { type: 'string', not: { enum: ['x'] } } } };
  assert.deepEqual(errs({ v: 'x' }, not), ['<nil>: Invalid value: "": "v" must not validate the schema (not)']);
});

test('list-type set and map duplicates (listtype validation_test cases)', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: {
      set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      map: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'integer' } } } },
      map2: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['a', 'b'],
        items: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } },
      },
    },
  };
  assert.deepEqual(errs({ set: ['a', 'b', 'a', 'a', 'b'] }, s), ['set[2]: Duplicate value: "a"', 'set[4]: Duplicate value: "b"']);
  assert.deepEqual(errs({ map: [{ k: 'a', v: 1 }, { k: 'a', v: 2 }] }, s), ['map[1]: Duplicate value: map[string]interface {}{"k":"a"}']);
  assert.deepEqual(errs({ map2: [{ a: 'x', b: 1 }, { a: 'x', b: 2 }, { a: 'x', b: 1 }] }, s), ['map2[2]: Duplicate value: map[string]interface {}{"a":"x", "b":1}']);
  assert.deepEqual(errs({ map: [{ k: 'a' }, { k: 'b' }] }, s), []);
  // Compound values compare whatever their key order.
  assert.deepEqual(errs({ map2: [{ a: 'x', b: 1 }, { b: 1, a: 'x' }] }, s), ['map2[1]: Duplicate value: map[string]interface {}{"a":"x", "b":1}']);
});

test('embedded resources need apiVersion and kind of the right shape', () => {
  const s: JSONSchemaProps = { type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } };
  assert.deepEqual(errs({ e: {} }, s), ['e.apiVersion: Required value: must not be empty', 'e.kind: Required value: must not be empty']);
  assert.deepEqual(errs({ e: { apiVersion: 'v1', kind: 'Pod' } }, s), []);
  assert.deepEqual(errs({ e: { apiVersion: 'a/b/c', kind: 'Pod' } }, s), ['e.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c']);
});

test('a 50-field object validates well under 50 µs once the schema is compiled', () => {
  const properties: Record<string, JSONSchemaProps> = {};
  const spec: Record<string, unknown> = {};
  for (let i = 0; i < 50; i++) {
    properties[`f${i}`] = i % 2 === 0 ? { type: 'string', maxLength: 64 } : { type: 'integer', minimum: 0 };
    spec[`f${i}`] = i % 2 === 0 ? `value${i}` : i;
  }
  const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties } } };
  const obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec };
  // Warm up so that the JIT has compiled the walk, as it has on a running server.
  for (let i = 0; i < 3000; i++) validateCustomResource(obj, schema);
  const n = 5000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) validateCustomResource(obj, schema);
  const perCall = Number(process.hrtime.bigint() - start) / n / 1000;
  assert.ok(perCall < 50, `${perCall.toFixed(1)} µs per validation`);
});

test('map entries are keys in list-type and embedded-resource paths', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: {
      m: { type: 'object', additionalProperties: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } } },
      r: { type: 'object', additionalProperties: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
    },
  };
  assert.deepEqual(errs({ m: { k: [1, 1] }, r: { x: { apiVersion: 'v1', kind: 'bad kind' } } }, s), [
    `r[x].kind: Invalid value: "bad kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    'm[k][1]: Duplicate value: 1',
  ]);
});

test('embedded resources’ metadata is validated as ObjectMeta', () => {
  const s: JSONSchemaProps = { type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } };
  assert.deepEqual(errs({ e: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { 'bad key!': 'x' } } } }, s), [
    `e.metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
  ]);
  assert.deepEqual(errs({ e: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b' } } }, s), [`e.metadata.name: Invalid value: "a/b": may not contain '/'`]);
  assert.deepEqual(errs({ e: { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns' } } }, s), []);
});

test('apiextensions validation_test: required/enum, nullable int-or-string anyOf, invalid pattern, max*', () => {
  const nested: JSONSchemaProps = field({
    type: 'object',
    required: ['nestedint', 'nestedstring'],
    properties: { nestedint: { type: 'integer', enum: [1, 2] }, nestedstring: { type: 'string', enum: ['a', 'b'] } },
  });
  assert.deepEqual(errs({ field: {} }, nested).sort(), ['field.nestedint: Required value', 'field.nestedstring: Required value']);
  assert.deepEqual(errs({ field: { nestedint: 'x', nestedstring: true } }, nested).sort(), [
    'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
    'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
    'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
    'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
  ]);
  assert.deepEqual(errs({ test: 'a' }, { type: 'object', required: ['field'], properties: { field: { type: 'object' } } }), ['field: Required value']);
  const ios = field({ nullable: true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
  for (const ok of [{}, { field: null }, { field: 42 }, { field: 'foo' }]) assert.deepEqual(errs(ok, ios), []);
  assert.deepEqual(errs({ field: true }, ios).sort(), [
    '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
    'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
    'field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
  ]);
  assert.deepEqual(errs({ field: 'foo' }, field({ type: 'string', pattern: '+' })), [
    "field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'",
  ]);
  assert.deepEqual(errs({ fieldX: { a: true, b: true, c: true } }, { type: 'object', properties: { fieldX: { type: 'object', maxProperties: 2 } } }), ['fieldX: Too many: 3: must have at most 2 items']);
  assert.deepEqual(errs({ fieldX: ['a', 'b', 'c'] }, { type: 'object', properties: { fieldX: { type: 'array', maxItems: 2 } } }), ['fieldX: Too many: 3: must have at most 2 items']);
  assert.deepEqual(errs({ fieldX: 'abc' }, { type: 'object', properties: { fieldX: { type: 'string', maxLength: 2 } } }), ['fieldX: Too long: may not be more than 2 bytes']);
});

test('a failing anyOf reports the alternative that matched most (kube-openapi MatchCount)', () => {
  const s: JSONSchemaProps = {
    type: 'object',
    properties: { v: { type: 'object', properties: { a: {}, b: {} }, anyOf: [{ properties: { a: { type: 'string' } } }, { properties: { a: { type: 'integer' }, b: { type: 'integer' } } }] } },
  };
  assert.deepEqual(errs({ v: { a: 1, b: 'x' } }, s), [
    '<nil>: Invalid value: "": "v" must validate at least one schema (anyOf)',
    'v.b: Invalid value: "string": v.b in body must be of type integer: "string"',
  ]);
  const oneOf: JSONSchemaProps = { type: 'object', properties: { v: { type: 'integer', oneOf: [{ minimum: 0 }, { maximum: 10 }] } } };
  assert.deepEqual(errs({ v: 5 }, oneOf), ['<nil>: Invalid value: "": "v" must validate one and only one schema (oneOf). Found 2 valid alternatives']);
  assert.deepEqual(errs({ v: 20 }, oneOf), []);
});

test('a part validated on its own: status on status writes (integration subresources_test message)', () => {
  const schema: JSONSchemaProps = { type: 'object', properties: { status: { type: 'object', properties: { num: { type: 'integer', maximum: 10 } } } } };
  const status = schemaAt(schema, 'status')!;
  assert.deepEqual(validateCustomResourceValue({ num: 15 }, status, 'status').map(formatFieldError), ['status.num: Invalid value: 15: num in body should be less than or equal to 10']);
  assert.deepEqual(validateCustomResourceValue('x', status, 'status').map(formatFieldError), ['status: Invalid value: "string":  in body must be of type object: "string"']);
});

test('updates ratchet: errors of unchanged values are dropped (ratcheting_test behaviour)', () => {
  const specProps: Record<string, JSONSchemaProps> = {
    small: { type: 'integer', maximum: 5 },
    name: { type: 'string', maxLength: 3 },
    list: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'integer', minimum: 0 } } } },
    atomic: { type: 'array', items: { type: 'integer', minimum: 0 } },
    set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
  };
  const schema = objectOf({ spec: objectOf(specProps) });
  const old = { spec: { small: 10, name: 'toolong', list: [{ k: 'a', v: -1 }], atomic: [-1], set: ['x', 'x'] } };
  const upd = (spec: Record<string, unknown>) => validateCustomResourceUpdate({ spec: { ...old.spec, ...spec } }, old, schema).map(formatFieldError);
  // Unchanged invalid values pass; the old object's duplicate set entries do not block updates.
  assert.deepEqual(upd({}), []);
  // A changed value is validated again.
  assert.deepEqual(upd({ small: 11 }), ['spec.small: Invalid value: 11: spec.small in body should be less than or equal to 5']);
  // Map-list items correlate by key, atomic lists not at all.
  assert.deepEqual(upd({ list: [{ k: 'b', v: 0 }, { k: 'a', v: -1 }] }), []);
  assert.deepEqual(upd({ atomic: [-1, 0] }), ['spec.atomic[0]: Invalid value: -1: spec.atomic[0] in body should be greater than or equal to 0']);
  // On create (no old object) everything is reported.
  assert.deepEqual(validateCustomResource(structuredClone(old), schema).map(formatFieldError), [
    'spec.small: Invalid value: 10: spec.small in body should be less than or equal to 5',
    'spec.name: Too long: may not be more than 3 bytes',
    'spec.list[0].v: Invalid value: -1: spec.list[0].v in body should be greater than or equal to 0',
    'spec.atomic[0]: Invalid value: -1: spec.atomic[0] in body should be greater than or equal to 0',
    'spec.set[1]: Duplicate value: "x"',
  ]);
  // With a clean old object, new duplicates are reported.
  assert.deepEqual(validateCustomResourceUpdate({ spec: { set: ['y', 'y'] } }, { spec: {} }, schema).map(formatFieldError), ['spec.set[1]: Duplicate value: "y"']);
});
