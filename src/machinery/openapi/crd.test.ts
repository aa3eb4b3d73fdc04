// The CRD OpenAPI builder against the cases of apiextensions-apiserver's own tests
// (builder_test.go TestNewBuilder/TestBuildOpenAPIV2/TestBuildOpenAPIV3, v2/conversion_test.go
// TestToStructuralOpenAPIV2Fuzz's table): inputs and the schemas Kubernetes publishes for them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { crdDefinitionName, crdVersionSchemas, type CrdForOpenApi } from './crd.js';
import { isStructural, publishSchema } from './crd-structural.js';

const GVK = [{ group: 'bar.k8s.io', kind: 'Foo', version: 'v1' }];

function crd(schema: JSONSchemaProps | undefined, extra: Partial<CrdForOpenApi['spec']['versions'][number]> = {}, preserveUnknownFields = false): CrdForOpenApi {
  return {
    spec: {
      group: 'bar.k8s.io',
      names: { kind: 'Foo', listKind: 'FooList', plural: 'foos' },
      scope: 'Namespaced',
      preserveUnknownFields,
      versions: [{ name: 'v1', served: true, ...(schema ? { schema: { openAPIV3Schema: schema } } : {}), ...extra }],
    },
  };
}

/** The kind's schema with the descriptions of apiVersion/kind/metadata wiped (as Kubernetes' tests do). */
function kindSchema(c: CrdForOpenApi, v: 'v2' | 'v3'): Record<string, unknown> {
  const s = structuredClone(crdVersionSchemas(c, 'v1', v).schemas['io.k8s.bar.v1.Foo']!);
  const props = s.properties as Record<string, Record<string, unknown>> | undefined;
  if (props?.kind) for (const k of ['kind', 'apiVersion', 'metadata']) delete props[k]!.description;
  return s;
}

const META_V2 = { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' } };
const META_V3 = { ...META_V2, metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] } };

describe('CRD OpenAPI: the kind definition (builder_test.go)', () => {
  const SPEC_STATUS: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object' }, status: { type: 'object' } } };
  const cases: Array<[string, JSONSchemaProps | undefined, 'v2' | 'v3', unknown, { preserve?: boolean; selectable?: string[] }?]> = [
    ['nil', undefined, 'v2', { type: 'object', 'x-kubernetes-group-version-kind': GVK }],
    ['with properties', SPEC_STATUS, 'v2', { type: 'object', properties: { ...META_V2, spec: { type: 'object' }, status: { type: 'object' } }, 'x-kubernetes-group-version-kind': GVK }],
    ['type only', { type: 'object' }, 'v2', { type: 'object', properties: META_V2, 'x-kubernetes-group-version-kind': GVK }],
    ['preserve unknown at root v2', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, 'v2', { type: 'object', 'x-kubernetes-group-version-kind': GVK }],
    ['with invalid-typed properties', { type: 'object', properties: { spec: { type: 'bug' }, status: { type: 'object' } } }, 'v2', { type: 'object', 'x-kubernetes-group-version-kind': GVK }],
    ['with non-structural schema', { type: 'object', properties: { foo: { type: 'array' } } }, 'v2', { type: 'object', 'x-kubernetes-group-version-kind': GVK }],
    ['with spec.preserveUnknownFields=true', { type: 'object', properties: { foo: { type: 'string' } } }, 'v2', { type: 'object', 'x-kubernetes-group-version-kind': GVK }, { preserve: true }],
    ['v2 drops oneOf', { type: 'object', properties: { foo: { type: 'string', oneOf: [{ pattern: 'a' }, { pattern: 'b' }] } } }, 'v2', { type: 'object', properties: { ...META_V2, foo: { type: 'string' } }, 'x-kubernetes-group-version-kind': GVK }],
    ['with selectable fields', { type: 'object', properties: { foo: { type: 'string' } } }, 'v2', { type: 'object', properties: { ...META_V2, foo: { type: 'string' } }, 'x-kubernetes-group-version-kind': GVK, 'x-kubernetes-selectable-fields': [{ fieldPath: 'foo' }] }, { selectable: ['foo'] }],
    ['v3 with properties', SPEC_STATUS, 'v3', { type: 'object', properties: { ...META_V3, spec: { type: 'object' }, status: { type: 'object' } }, 'x-kubernetes-group-version-kind': GVK }],
    ['v3 keeps nullable', { type: 'object', properties: { spec: { type: 'object', nullable: true }, status: { type: 'object' } } }, 'v3', { type: 'object', properties: { ...META_V3, spec: { type: 'object', nullable: true }, status: { type: 'object' } }, 'x-kubernetes-group-version-kind': GVK }],
    ['v3 keeps defaults', { type: 'object', properties: { spec: { type: 'object', properties: { field: { type: 'string', default: 'foo' } } } } }, 'v3', { type: 'object', properties: { ...META_V3, spec: { type: 'object', properties: { field: { type: 'string', default: 'foo' } } } }, 'x-kubernetes-group-version-kind': GVK }],
    ['v3 selectable fields (leading dot trimmed)', { type: 'object', properties: { spec: { type: 'object', properties: { field: { type: 'string' } } } } }, 'v3', { type: 'object', properties: { ...META_V3, spec: { type: 'object', properties: { field: { type: 'string' } } } }, 'x-kubernetes-group-version-kind': GVK, 'x-kubernetes-selectable-fields': [{ fieldPath: 'spec.field' }] }, { selectable: ['.spec.field'] }],
    ['v2 prunes defaults', { type: 'object', properties: { spec: { type: 'object', properties: { field: { type: 'string', default: 'foo' } } } } }, 'v2', { type: 'object', properties: { ...META_V2, spec: { type: 'object', properties: { field: { type: 'string' } } } }, 'x-kubernetes-group-version-kind': GVK }],
  ];
  for (const [name, schema, v, want, opts] of cases) {
    it(name, () => {
      const c = crd(schema, opts?.selectable ? { selectableFields: opts.selectable.map((jsonPath) => ({ jsonPath })) } : {}, opts?.preserve);
      assert.deepEqual(kindSchema(c, v), want);
    });
  }

  it('with extensions (v2): int-or-string loses its anyOf/allOf, embedded preserve-unknown objects stay bare', () => {
    const minimum = { anyOf: [{ minimum: 42 }] };
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        'int-or-string-1': { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        'int-or-string-2': { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, minimum] },
        'int-or-string-3': { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], allOf: [minimum] },
        'int-or-string-4': { 'x-kubernetes-int-or-string': true, anyOf: [{ minimum: 42 }] },
        'int-or-string-5': { 'x-kubernetes-int-or-string': true, anyOf: [{ minimum: 42 }], allOf: [{ minimum: 42 }] },
        'int-or-string-6': { 'x-kubernetes-int-or-string': true },
        'preserve-unknown-fields': { 'x-kubernetes-preserve-unknown-fields': true },
        'embedded-object': { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, type: 'object' },
      },
    };
    const ios = { 'x-kubernetes-int-or-string': true };
    assert.deepEqual(kindSchema(crd(schema), 'v2'), {
      type: 'object',
      properties: {
        'int-or-string-1': ios, 'int-or-string-2': ios, 'int-or-string-3': ios, 'int-or-string-4': ios, 'int-or-string-5': ios, 'int-or-string-6': ios,
        'preserve-unknown-fields': { 'x-kubernetes-preserve-unknown-fields': true },
        'embedded-object': { 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        ...META_V2,
      },
      'x-kubernetes-group-version-kind': GVK,
    });
  });

  it('v3 unfolds int-or-string into anyOf (before an allOf when anyOf is taken)', () => {
    const s = publishSchema({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true }, b: { 'x-kubernetes-int-or-string': true, anyOf: [{ minimum: 42 }] } } }, { v2: false });
    const props = s.properties as Record<string, unknown>;
    assert.deepEqual(props.a, { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
    assert.deepEqual(props.b, { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }], anyOf: [{ minimum: 42 }] });
  });

  it('embedded resources get apiVersion, kind and metadata and require kind and apiVersion (v3)', () => {
    const s = kindSchema(crd({ type: 'object', properties: { template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } } } }), 'v3');
    const t = (s.properties as Record<string, Record<string, unknown>>).template!;
    assert.deepEqual(Object.keys(t.properties as object).sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
    assert.deepEqual(t.required, ['kind', 'apiVersion']);
    assert.deepEqual((t.properties as Record<string, Record<string, unknown>>).metadata!.allOf, [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
  });

  it('the List: items of the kind, ListMeta, its own GVK; names as util.ToRESTFriendlyName writes them', () => {
    assert.equal(crdDefinitionName('stable.example.com', 'v1', 'CronTab'), 'com.example.stable.v1.CronTab');
    assert.equal(crdDefinitionName('nodots', 'v1alpha1', 'Thing'), 'nodots.v1alpha1.Thing');
    const v3 = crdVersionSchemas(crd({ type: 'object' }), 'v1', 'v3');
    assert.equal(v3.listName, 'io.k8s.bar.v1.FooList');
    const list = v3.schemas['io.k8s.bar.v1.FooList']!;
    const props = list.properties as Record<string, Record<string, unknown>>;
    assert.deepEqual(list.required, ['items']);
    assert.equal(list.description, 'FooList is a list of Foo');
    assert.deepEqual(props.items!.items, { $ref: '#/components/schemas/io.k8s.bar.v1.Foo' });
    assert.deepEqual(props.metadata!.allOf, [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta' }]);
    assert.deepEqual(props.apiVersion!.type, 'string');
    assert.deepEqual(list['x-kubernetes-group-version-kind'], [{ group: 'bar.k8s.io', kind: 'FooList', version: 'v1' }]);
    const v2 = crdVersionSchemas(crd({ type: 'object' }), 'v1', 'v2').schemas['io.k8s.bar.v1.FooList']!;
    assert.deepEqual((v2.properties as Record<string, Record<string, unknown>>).metadata!.$ref, '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta');
  });
});

describe('CRD OpenAPI: ToStructuralOpenAPIV2 (conversion_test.go)', () => {
  const v2 = (s: JSONSchemaProps) => publishSchema(s, { v2: true });
  const cases: Array<[string, JSONSchemaProps, unknown]> = [
    ['description', { description: 'x' }, { description: 'x' }],
    ['type and format', { type: 'string', format: 'uri' }, { type: 'string', format: 'uri' }],
    ['nullable', { type: 'object', nullable: true }, {}],
    [
      'nullable required',
      { type: 'object', properties: { a: { nullable: true, type: 'string' }, b: { nullable: true, type: 'string' }, c: { type: 'string' } }, required: ['a', 'c'] },
      { type: 'object', properties: { a: {}, b: {}, c: { type: 'string' } }, required: ['c'] },
    ],
    ['nullable required additionalProperties', { type: 'object', additionalProperties: { nullable: true, type: 'string' }, required: ['a', 'c'] }, { type: 'object', additionalProperties: {} }],
    ['title', { title: 'x' }, { title: 'x' }],
    ['default', { default: 'x' }, { default: 'x' }],
    ['maximum and exclusiveMaximum', { maximum: 4.2, exclusiveMaximum: true }, { maximum: 4.2, exclusiveMaximum: true }],
    ['minimum and exclusiveMinimum', { minimum: 4.2, exclusiveMinimum: true }, { minimum: 4.2, exclusiveMinimum: true }],
    ['maxLength', { maxLength: 3 }, { maxLength: 3 }],
    ['pattern', { pattern: '^a$' }, { pattern: '^a$' }],
    ['uniqueItems', { uniqueItems: true }, { uniqueItems: true }],
    ['enum', { enum: ['a', 1] }, { enum: ['a', 1] }],
    ['required', { required: ['a'] }, { required: ['a'] }],
    ['items single props', { type: 'array', items: { type: 'boolean' } }, { type: 'array', items: { type: 'boolean' } }],
    ['allOf', { allOf: [{ minLength: 1 }] }, {}],
    ['oneOf', { oneOf: [{ minLength: 1 }, { maxLength: 3 }] }, {}],
    ['anyOf', { anyOf: [{ minLength: 1 }] }, {}],
    ['not', { not: { minLength: 1 } }, {}],
    ['properties', { properties: { x: { type: 'boolean' } } }, { properties: { x: { type: 'boolean' } } }],
    ['additionalProperties schema', { additionalProperties: { type: 'boolean' } }, { additionalProperties: { type: 'boolean' } }],
    ['additionalProperties bool', { additionalProperties: true }, { additionalProperties: true }],
    ['externalDocs dropped', { externalDocs: { description: 'd', url: 'u' } }, {}],
    ['example dropped', { example: 'x' }, {}],
    ['preserve-unknown-fields in arrays', { 'x-kubernetes-preserve-unknown-fields': true, type: 'array', items: { type: 'string' } }, { 'x-kubernetes-preserve-unknown-fields': true }],
    ['preserve-unknown-fields in objects', { 'x-kubernetes-preserve-unknown-fields': true, type: 'object', properties: { foo: { type: 'string' } } }, { 'x-kubernetes-preserve-unknown-fields': true }],
    ['array without items loses its type', { type: 'array' }, {}],
  ];
  for (const [name, input, want] of cases) it(name, () => assert.deepEqual(v2(input), want));

  it('unsupported fields make a schema non-structural (NewStructural errors)', () => {
    for (const bad of [{ id: 'x' }, { $schema: 'x' }, { $ref: '#/x' }, { patternProperties: { a: { type: 'string' } } }, { dependencies: { a: ['b'] } }, { additionalItems: true }, { definitions: { a: { type: 'string' } } }] as JSONSchemaProps[]) {
      assert.equal(isStructural({ type: 'object', properties: { a: { type: 'string', ...bad } } }), false, JSON.stringify(bad));
    }
    assert.equal(isStructural({ type: 'object', properties: { a: { type: 'string' } } }), true);
    assert.equal(isStructural({ type: 'object', properties: { a: {} } }), false, 'a property without a type');
    assert.equal(isStructural({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true } } }), true);
    assert.equal(isStructural({ type: 'object', properties: { a: { type: 'string', anyOf: [{ type: 'string' }] } } }), false, 'a type inside a value validation');
    assert.equal(isStructural({ type: 'object', properties: { a: { type: 'object', anyOf: [{ properties: { b: { minLength: 1 } } }] } } }), false, 'a value validation on an undeclared property');
    assert.equal(isStructural({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } }, anyOf: [{ required: ['b'] }, { properties: { b: { minLength: 1 } } }] } } }), true);
    assert.equal(isStructural({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } }, anyOf: [{ properties: { b: { description: 'd' } } }] } } }), false, 'a description inside a value validation');
    assert.equal(isStructural({ type: 'object', properties: { a: { type: 'object', additionalProperties: { type: 'string' }, not: { additionalProperties: { minLength: 1 } } } } }), false, 'additionalProperties inside a value validation');
    assert.equal(isStructural({ type: 'object', properties: { metadata: { type: 'object' } }, anyOf: [{ properties: { metadata: { required: ['name'] } } }] }), false, 'metadata inside a value validation');
  });
});
