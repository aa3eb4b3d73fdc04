import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { compileSchema } from './compile.js';
import { defaultNode } from './defaults.js';

const d = (v: unknown, rest: JSONSchemaProps = {}): JSONSchemaProps => ({ default: v, ...rest });

/** Ports of defaulting/algorithm_test.go's TestDefault. */
const cases: { name: string; json: unknown; schema?: JSONSchemaProps; expected: unknown }[] = [
  { name: 'empty', json: null, expected: null },
  { name: 'scalar', json: 4, schema: d('foo'), expected: 4 },
  { name: 'scalar array', json: [1, 2], schema: { items: d('foo') }, expected: [1, 2] },
  {
    name: 'object array',
    json: [{ a: 1 }, { b: 1 }, { c: 1 }],
    schema: { items: { properties: { a: d('A'), b: d('B'), c: d('C') } } },
    expected: [
      { a: 1, b: 'B', c: 'C' },
      { a: 'A', b: 1, c: 'C' },
      { a: 'A', b: 'B', c: 1 },
    ],
  },
  {
    name: 'object array object',
    json: { array: [{ a: 1 }, { b: 2 }], object: { a: 1 }, additionalProperties: { x: { a: 1 }, y: { b: 2 } } },
    schema: {
      properties: {
        array: { items: { properties: { a: d('A'), b: d('B') } } },
        object: { properties: { a: d('N'), b: d('O') } },
        additionalProperties: { additionalProperties: { properties: { a: d('alpha'), b: d('beta') } } },
        foo: d('bar'),
      },
    },
    expected: { array: [{ a: 1, b: 'B' }, { a: 'A', b: 2 }], object: { a: 1, b: 'O' }, additionalProperties: { x: { a: 1, b: 'beta' }, y: { a: 'alpha', b: 2 } }, foo: 'bar' },
  },
  {
    name: 'empty and null',
    json: [{}, { a: 1 }, { a: 0 }, { a: '' }, { a: null }, { a: [] }, { a: {} }],
    schema: { items: { properties: { a: d('A') } } },
    expected: [{ a: 'A' }, { a: 1 }, { a: 0 }, { a: '' }, { a: 'A' }, { a: [] }, { a: {} }],
  },
  { name: 'null in nullable list', json: [null], schema: { nullable: true, items: { properties: { a: d('A') } } }, expected: [null] },
  { name: 'null in non-nullable list', json: [null], schema: { items: d('A') }, expected: ['A'] },
  { name: 'null in nullable object', json: { a: null }, schema: { properties: { a: d('A', { nullable: true }) } }, expected: { a: null } },
  { name: 'null in non-nullable object', json: { a: null }, schema: { properties: { a: d('A') } }, expected: { a: 'A' } },
  { name: 'null in nullable object with additionalProperties', json: { a: null }, schema: { additionalProperties: d('A', { nullable: true }) }, expected: { a: null } },
  { name: 'null in non-nullable object with additionalProperties', json: { a: null }, schema: { additionalProperties: d('A') }, expected: { a: 'A' } },
  { name: 'defaults are defaulted themselves', json: {}, schema: { properties: { o: d({}, { properties: { p: d(1) } }) } }, expected: { o: { p: 1 } } },
];

test('TestDefault cases', () => {
  for (const c of cases) {
    const obj = structuredClone(c.json);
    defaultNode(obj, c.schema ? compileSchema(c.schema) : undefined);
    assert.deepEqual(obj, c.expected, c.name);
  }
});
