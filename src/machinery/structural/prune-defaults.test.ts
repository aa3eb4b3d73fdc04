import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { applyDefaults, prune, pruneNonNullableNulls, schemaAt } from './index.js';

test('pruning drops unspecified fields and reports them as Kubernetes does', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          keep: { type: 'string' },
          list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { inner: { type: 'object', properties: { x: { type: 'string' } } } } },
          map: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'string' } } } },
          embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
        },
      },
    },
  };
  const obj: Record<string, unknown> = {
    apiVersion: 'x/v1',
    kind: 'X',
    metadata: { name: 'n', junk: 1 },
    status: {},
    spec: {
      keep: 'k',
      foo: 1,
      list: [{ a: 'a', bar: 2 }],
      free: { anything: true, inner: { x: 'x', y: 'y' } },
      map: { one: { v: 'v', w: 'w' } },
      embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { z: 1 }, extra: 1 },
    },
  };
  const removed = prune(obj, schema, { isResourceRoot: true });
  assert.deepEqual(removed, ['spec.embedded.extra', 'spec.embedded.spec.z', 'spec.foo', 'spec.free.inner.y', 'spec.list[0].bar', 'spec.map.one.w', 'status']);
  assert.deepEqual(obj, {
    apiVersion: 'x/v1',
    kind: 'X',
    metadata: { name: 'n', junk: 1 },
    spec: { keep: 'k', list: [{ a: 'a' }], free: { anything: true, inner: { x: 'x' } }, map: { one: { v: 'v' } }, embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } },
  });
  // Not at a resource root, apiVersion/kind/metadata go too (without being reported at the top).
  const nested: Record<string, unknown> = { apiVersion: 'a', kind: 'b', other: 1 };
  assert.deepEqual(prune(nested, { type: 'object', properties: {} }, { isResourceRoot: false }), ['other']);
  assert.deepEqual(nested, {});
});

test('defaulting fills absent and non-nullable null fields, recursing into defaults (defaulting algorithm_test cases)', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      a: { type: 'string', default: 'A' },
      b: { type: 'object', default: {}, properties: { c: { type: 'integer', default: 1 } } },
      n: { type: 'string', nullable: true, default: 'N' },
      list: { type: 'array', items: { type: 'object', default: { d: 'D' }, properties: { e: { type: 'string', default: 'E' } } } },
      map: { type: 'object', additionalProperties: { type: 'string', default: 'M' } },
    },
  };
  const obj: Record<string, unknown> = { a: null, n: null, list: [null, {}], map: { k: null, j: 'j' } };
  applyDefaults(obj, schema);
  assert.deepEqual(obj, { a: 'A', n: null, b: { c: 1 }, list: [{ d: 'D', e: 'E' }, { e: 'E' }], map: { k: 'M', j: 'j' } });
  // Defaults are copies: two objects never share one.
  const o1: Record<string, unknown> = {};
  const o2: Record<string, unknown> = {};
  applyDefaults(o1, schema);
  applyDefaults(o2, schema);
  assert.notEqual(o1.b, o2.b);
});

test('nulls of non-nullable fields without default are dropped', () => {
  const schema: JSONSchemaProps = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string', nullable: true }, c: { type: 'object', properties: { d: { type: 'string' } } } } };
  const obj: Record<string, unknown> = { a: null, b: null, c: { d: null }, unknown: null };
  pruneNonNullableNulls(obj, schema);
  assert.deepEqual(obj, { b: null, c: {}, unknown: null });
});

test('schemaAt reads sub-schemas through properties, additionalProperties and items', () => {
  const leaf: JSONSchemaProps = { type: 'integer' };
  const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { list: { type: 'array', items: { type: 'object', additionalProperties: leaf } } } } } };
  assert.equal(schemaAt(schema, 'spec.list[].any'), leaf);
  assert.equal(schemaAt(schema, 'spec.nope'), undefined);
});
