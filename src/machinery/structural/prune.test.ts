import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { compileSchema } from './compile.js';
import { prune } from './index.js';
import { pruneNode } from './prune.js';

/** Ports of pruning/algorithm_test.go's TestPrune: input, schema (absent: nil), expected object and pruned paths. */
const cases: { name: string; json: unknown; schema?: JSONSchemaProps; expected: unknown; pruned: string[] }[] = [
  { name: 'scalar', json: 4, schema: {}, expected: 4, pruned: [] },
  { name: 'scalar array', json: [1, 2], schema: { items: {} }, expected: [1, 2], pruned: [] },
  {
    name: 'object array',
    json: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }],
    schema: { items: { properties: { a: {}, c: {} } } },
    expected: [{ a: 1 }, {}, { a: 1, c: 3 }],
    pruned: ['[1].b', '[2].b'],
  },
  { name: 'object array with nil schema', json: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }], expected: [{}, {}, {}], pruned: ['[0].a', '[1].b', '[2].a', '[2].b', '[2].c'] },
  {
    name: 'object array object',
    json: { array: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }], unspecified: { a: 1 }, specified: { a: 1, b: 2, c: 3 } },
    schema: { properties: { array: { items: { properties: { a: {}, c: {} } } }, specified: { properties: { a: {}, c: {} } } } },
    expected: { array: [{ a: 1 }, {}, { a: 1, c: 3 }], specified: { a: 1, c: 3 } },
    pruned: ['array[1].b', 'array[2].b', 'specified.b', 'unspecified'],
  },
  {
    name: 'additionalProperties with schema',
    json: { a: 1, b: 1, c: { a: 1, b: 2, c: { a: 1 } } },
    schema: { properties: { a: {}, c: { additionalProperties: { type: 'integer' } } } },
    expected: { a: 1, c: { a: 1, b: 2, c: {} } },
    pruned: ['b', 'c.c.a'],
  },
  {
    name: 'additionalProperties with bool',
    json: { a: 1, b: 1, c: { a: 1, b: 2, c: { a: 1, apiVersion: 'unknown' } } },
    schema: { properties: { a: {}, c: { additionalProperties: false } } },
    expected: { a: 1, c: { a: 1, b: 2, c: {} } },
    pruned: ['b', 'c.c.a', 'c.c.apiVersion'],
  },
  {
    name: 'nested x-kubernetes-preserve-unknown-fields',
    json: {
      unspecified: 'bar',
      alpha: 'abc',
      beta: 42.5,
      unspecifiedObject: { unspecified: 'bar' },
      pruning: { unspecified: 'bar', unspecifiedObject: { unspecified: 'bar' }, pruning: { unspecified: 'bar' }, apiVersion: 'unknown', preserving: { unspecified: 'bar' } },
      preserving: {
        unspecified: 'bar',
        unspecifiedObject: { unspecified: 'bar' },
        pruning: { unspecified: 'bar' },
        preserving: { unspecified: 'bar' },
        preservingUnknownType: [{ foo: true }, { bar: true }],
      },
      preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: { foo: { specified: { unspecified: 'bar' }, unspecified: 'bar' } },
      preservingAdditionalPropertiesKeyPruneValues: { foo: { specified: { unspecified: 'bar' }, unspecified: 'bar' } },
    },
    schema: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        alpha: { type: 'string' },
        beta: { type: 'number' },
        pruning: { type: 'object', properties: { preserving: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, pruning: { type: 'object' } } },
        preserving: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: {
            preserving: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            preservingUnknownType: { 'x-kubernetes-preserve-unknown-fields': true },
            pruning: { type: 'object' },
          },
        },
        preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          additionalProperties: { type: 'object', properties: { specified: { type: 'object' } } },
        },
        preservingAdditionalPropertiesKeyPruneValues: { type: 'object', additionalProperties: { type: 'object', properties: { specified: { type: 'object' } } } },
      },
    },
    expected: {
      unspecified: 'bar',
      alpha: 'abc',
      beta: 42.5,
      unspecifiedObject: { unspecified: 'bar' },
      pruning: { pruning: {}, preserving: { unspecified: 'bar' } },
      preserving: { unspecified: 'bar', unspecifiedObject: { unspecified: 'bar' }, pruning: {}, preserving: { unspecified: 'bar' }, preservingUnknownType: [{ foo: true }, { bar: true }] },
      preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: { foo: { specified: {} } },
      preservingAdditionalPropertiesKeyPruneValues: { foo: { specified: {} } },
    },
    pruned: [
      'preserving.pruning.unspecified',
      'preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified',
      'preservingAdditionalPropertiesKeyPruneValues.foo.unspecified',
      'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified',
      'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified',
      'pruning.apiVersion',
      'pruning.pruning.unspecified',
      'pruning.unspecified',
      'pruning.unspecifiedObject',
    ],
  },
];

test('TestPrune cases', () => {
  for (const c of cases) {
    const obj = structuredClone(c.json);
    const removed: string[] = [];
    pruneNode(obj, c.schema ? compileSchema(c.schema) : undefined, false, '', removed);
    assert.deepEqual(obj, c.expected, c.name);
    assert.deepEqual(removed.sort(), c.pruned, c.name);
  }
});

test('TestPrune x-kubernetes-embedded-resource: embedded objects keep apiVersion/kind/metadata, the non-root top does not', () => {
  const meta = () => ({ name: 'instance', unspecified: 'bar' });
  const resource = (spec: Record<string, unknown>) => ({ apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: meta(), spec });
  const obj: Record<string, unknown> = {
    apiVersion: 'foo/v1',
    kind: 'Foo',
    metadata: meta(),
    unspecified: 'bar',
    pruned: resource({ unspecified: 'bar' }),
    preserving: resource({ unspecified: 'bar' }),
    nested: resource({ unspecified: 'bar', embedded: resource({ unspecified: 'bar' }) }),
  };
  const embedded = (properties?: Record<string, JSONSchemaProps>, preserve = false): JSONSchemaProps => ({
    type: 'object',
    'x-kubernetes-embedded-resource': true,
    ...(preserve ? { 'x-kubernetes-preserve-unknown-fields': true } : {}),
    ...(properties ? { properties } : {}),
  });
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      pruned: embedded({ spec: { type: 'object' } }),
      preserving: embedded(undefined, true),
      nested: embedded({ spec: { type: 'object', properties: { embedded: embedded({ spec: { type: 'object' } }) } } }),
    },
  };
  const removed = prune(obj, schema, { isResourceRoot: false });
  const kept = (spec: Record<string, unknown>) => ({ apiVersion: 'foo/v1', kind: 'Foo', metadata: meta(), spec });
  assert.deepEqual(obj, {
    pruned: kept({}),
    preserving: resource({ unspecified: 'bar' }),
    nested: kept({ embedded: kept({}) }),
  });
  assert.deepEqual(removed, [
    'nested.spec.embedded.spec.unspecified',
    'nested.spec.embedded.unspecified',
    'nested.spec.unspecified',
    'nested.unspecified',
    'pruned.spec.unspecified',
    'pruned.unspecified',
    'unspecified',
  ]);
});
