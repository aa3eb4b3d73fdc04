import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { formatFieldError } from '../validation/field-errors.js';
import { validateCustomResourceSchema } from './index.js';

const P = 'spec.validation.openAPIV3Schema';
const errs = (s: JSONSchemaProps): string[] => validateCustomResourceSchema(s, P, {}).map(formatFieldError);
const root = (properties: Record<string, JSONSchemaProps>): JSONSchemaProps => ({ type: 'object', properties });

test('a structural schema passes', () => {
  assert.deepEqual(
    errs(
      root({
        spec: {
          type: 'object',
          properties: {
            replicas: { type: 'integer', default: 1, minimum: 0 },
            port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
            list: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
          },
        },
        metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } },
      }),
    ),
    [],
  );
});

test('the structural invariants (schema validation_test cases)', () => {
  assert.deepEqual(errs(root({ a: {} })), [`${P}.properties[a].type: Required value: must not be empty for specified object fields`]);
  assert.deepEqual(errs(root({ a: { type: 'array' } })), [`${P}.properties[a].items: Required value: must be specified`]);
  assert.deepEqual(errs(root({ a: { type: 'array', items: {} } })), [`${P}.properties[a].items.type: Required value: must not be empty for specified array items`]);
  assert.deepEqual(errs({ properties: {} }), [`${P}.type: Required value: must not be empty at the root`]);
  assert.deepEqual(errs({ type: 'string' }), [`${P}.type: Invalid value: "string": must be object at the root`]);
  assert.deepEqual(errs({ type: 'object', additionalProperties: { type: 'string' } }), [`${P}.additionalProperties: Forbidden: must not be used at the root`]);
  assert.deepEqual(errs(root({ a: { type: 'object', 'x-kubernetes-embedded-resource': true } })), [
    `${P}.properties[a].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
  ]);
  assert.deepEqual(errs(root({ a: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true } })), [
    `${P}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
  ]);
  assert.deepEqual(errs(root({ a: { type: 'string', allOf: [{ type: 'string', description: 'd' }] } })), [
    `${P}.properties[a].allOf[0].description: Forbidden: must be empty to be structural`,
    `${P}.properties[a].allOf[0].type: Forbidden: must be empty to be structural`,
  ]);
  // Completeness is checked for the root's value validations (TestValidateStructuralCompleteness).
  assert.deepEqual(errs({ type: 'object', properties: { foo: { type: 'string' } }, allOf: [{ properties: { notfoo: { minLength: 2 } } }] }), [
    `${P}.properties[notfoo]: Required value: because it is defined in ${P}.allOf[0].properties[notfoo]`,
  ]);
  assert.deepEqual(errs({ type: 'object', properties: { foo: { type: 'string' } }, allOf: [{ properties: { foo: { minLength: 2 } } }] }), []);
  assert.deepEqual(errs({ type: 'object', properties: { foo: { type: 'string' } }, allOf: [{ items: { minLength: 2 } }] }), [
    `${P}.items: Required value: because it is defined in ${P}.allOf[0].items`,
  ]);
  assert.deepEqual(errs(root({ a: { type: 'object', anyOf: [{ properties: { b: { minimum: 1 } } }] } })), []);
  assert.deepEqual(errs(root({ metadata: { type: 'object', properties: { labels: { type: 'object' } } } })), [
    `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
  ]);
  assert.deepEqual(errs(root({ kind: { type: 'integer' } })), [`${P}.properties[kind].type: Invalid value: "integer": must be string`]);
  assert.deepEqual(errs(root({ a: { type: 'string', pattern: '(' } })), [`${P}.properties[a].pattern: Invalid value: "(": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): \`(\``]);
});

test('the v1 JSONSchemaProps rules (apiextensions validation_test cases)', () => {
  assert.deepEqual(errs(root({ a: { type: 'string', $ref: '#/x' } })), [`${P}.properties[a].$ref: Forbidden: $ref is not supported`]);
  assert.deepEqual(errs(root({ a: { type: 'array', items: { type: 'string' }, uniqueItems: true } })), [
    `${P}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
  ]);
  assert.deepEqual(errs(root({ a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false } })), [
    `${P}.properties[a].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
  ]);
  assert.deepEqual(errs(root({ a: { type: 'foo' } })), [`${P}.properties[a].type: Unsupported value: "foo": supported values: "array", "boolean", "integer", "number", "object", "string"`]);
  assert.deepEqual(errs(root({ a: { type: 'string', 'x-kubernetes-list-type': 'set' } })), [`${P}.properties[a].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`]);
  assert.deepEqual(errs(root({ a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'map' } })), [
    `${P}.properties[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
    `${P}.properties[a].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
  ]);
  assert.deepEqual(errs(root({ a: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['x'] } })), [
    `${P}.properties[a].x-kubernetes-list-map-keys: Invalid value: []string{"x"}: entries must all be names of item properties`,
  ]);
  assert.deepEqual(errs(root({ a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' } })), [
    `${P}.properties[a].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
  ]);
  assert.deepEqual(
    errs(root({ a: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', nullable: true, properties: { k: { type: 'string', nullable: true } } } } })),
    [
      `${P}.properties[a].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is map`,
      `${P}.properties[a].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      `${P}.properties[a].items.properties[k].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable`,
    ],
  );
  assert.deepEqual(errs(root({ a: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { k: { type: 'string' } } } } })), [
    `${P}.properties[a].items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set`,
  ]);
  assert.deepEqual(errs(root({ a: { type: 'string', 'x-kubernetes-preserve-unknown-fields': false } })), [`${P}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`]);
  assert.deepEqual(errs(root({ metadata: { type: 'object', default: { name: 'x' } } })), [`${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`]);
});

test('defaults must be pruned and valid against their schema (apiextensions validation_test defaults case)', () => {
  const obj = (properties: Record<string, JSONSchemaProps>, d: unknown, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'object', properties, default: d, ...extra });
  const schema = root({
    a: obj({ foo: { type: 'string' } }, { foo: 'abc', bar: 42 }),
    b: obj({ foo: { type: 'string' } }, { foo: 'abc' }),
    c: obj({ foo: { type: 'string' } }, { foo: 42 }),
    d: obj({ good: { type: 'string', pattern: 'a' }, bad: { type: 'string', pattern: 'b' } }, { good: 'a', bad: 'a' }),
    e: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        preserveUnknownFields: { type: 'object', default: { foo: 'abc', bar: 42 } },
        nestedProperties: obj({ foo: { type: 'string' } }, { foo: 'abc', bar: 42 }),
      },
    },
    'embedded-fine': obj({ foo: { type: 'string' } }, { foo: 'abc', apiVersion: 'foo/v1', kind: 'v1', metadata: { name: 'foo' } }, { 'x-kubernetes-embedded-resource': true }),
    'embedded-preserve-unpruned-objectmeta': obj(
      { foo: { type: 'string' } },
      { foo: 'abc', apiVersion: 'foo/v1', kind: 'v1', metadata: { name: 'foo', unspecified: 'bar' }, bar: 42 },
      { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    ),
  });
  assert.deepEqual(errs(schema), [
    `${P}.properties[a].default: Invalid value: map[string]interface {}{"bar":42, "foo":"abc"}: must not have unknown fields`,
    `${P}.properties[c].default.foo: Invalid value: "integer": foo in body must be of type string: "integer"`,
    `${P}.properties[d].default.bad: Invalid value: "a": bad in body should match 'b'`,
    `${P}.properties[e].properties[preserveUnknownFields].default: Invalid value: map[string]interface {}{"bar":42, "foo":"abc"}: must not have unknown fields`,
    `${P}.properties[e].properties[nestedProperties].default: Invalid value: map[string]interface {}{"bar":42, "foo":"abc"}: must not have unknown fields`,
  ]);
});

test('root rules: nullable, and what the root may hold with the status subresource', () => {
  assert.deepEqual(errs({ type: 'object', nullable: true }), [`${P}.nullable: Forbidden: nullable cannot be true at the root`]);
  const ok: JSONSchemaProps = { type: 'object', description: 'd', required: ['spec'], properties: { spec: { type: 'object' } } };
  assert.deepEqual(validateCustomResourceSchema(ok, P, { statusSubresource: true }), []);
  assert.deepEqual(validateCustomResourceSchema({ type: 'object', minProperties: 1 }, P, { statusSubresource: true }).map(formatFieldError), [
    `${P}: Invalid value: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`,
  ]);
  assert.deepEqual(validateCustomResourceSchema({ minProperties: 1 }, P, {}).map(formatFieldError), [`${P}.type: Required value: must not be empty at the root`]);
});

test('defaults inside an embedded resource’s type and object meta must make them valid (validation_test v3 case)', () => {
  const schema = root({
    embedded: {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      properties: {
        apiVersion: { type: 'string', default: 'v1' },
        kind: { type: 'string', default: '%' },
        metadata: { type: 'object', default: { labels: { bar: 'x y' } } },
      },
    },
  });
  const DNS1035 = `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`;
  const LABEL_VALUE = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`;
  assert.deepEqual(errs(schema), [
    `${P}.properties[embedded].properties[kind].default: Invalid value: "%": must result in valid metadata: kind: Invalid value: "%": may have mixed case, but should otherwise match: ${DNS1035}`,
    `${P}.properties[embedded].properties[metadata].default: Invalid value: map[string]interface {}{"labels":map[string]interface {}{"bar":"x y"}}: must result in valid metadata: metadata.labels: Invalid value: "x y": ${LABEL_VALUE}`,
  ]);
});

test('defaults of embedded resources carry a valid apiVersion and kind, nested ones included', () => {
  const schema = root({
    outer: {
      type: 'object',
      default: { inner: { kind: 'Pod' } },
      properties: { inner: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
    },
  });
  assert.deepEqual(errs(schema), [`${P}.properties[outer].default.inner.apiVersion: Required value: must not be empty`]);
});
