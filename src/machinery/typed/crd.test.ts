// Server-side apply on a custom resource: the TypedNode read from its CRD's schema drives the
// existing merge and field manager (list-map items, sets, atomic lists and maps, granular maps,
// preserve-unknown-fields values deduced from what they hold, embedded resources, int-or-string).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { ObjectMeta } from '../../api/meta/v1.js';
import { field, struct, t } from '../../api/schema/dsl.js';
import { apply, kindFields, type Actor } from '../managedfields/index.js';
import { StatusError } from '../status.js';
import { crdTypedNode } from './crd.js';
import { setStructNode, type StructNode, type TypedNode } from './schema.js';
import { toFieldSet } from './fieldset.js';
import { setToFields } from '../fieldpath/fieldsv1.js';

type Obj = Record<string, any>;

const SCHEMA: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name', 'protocol'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' }, port: { type: 'integer' } } },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        args: { type: 'array', items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { app: { type: 'string' }, tier: { type: 'string' } } },
        config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        replicas: { 'x-kubernetes-int-or-string': true },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { image: { type: 'string' } } } } },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
};

const CRD = {
  spec: {
    group: 'stable.example.com',
    names: { kind: 'CronTab', listKind: 'CronTabList', plural: 'crontabs' },
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, schema: { openAPIV3Schema: SCHEMA }, subresources: { status: {} } }],
  },
};

// The integrator's synthetic type of the kind: its fields name the object's top-level keys.
const CronTab = struct('com.example.stable.v1.CronTab.typed-test', {
  kind: field(t.string, 1),
  apiVersion: field(t.string, 2),
  metadata: field(ObjectMeta, 3),
  spec: field(t.rawExtension, 4),
  status: field(t.rawExtension, 5),
});
const node = crdTypedNode(CRD, 'v1');
setStructNode(CronTab, node);
const kind = kindFields(CronTab, true);

const actor = (manager: string): Actor => ({ manager, apiVersion: 'stable.example.com/v1', subresource: '', now: Date.parse('2026-11-28T10:00:00Z') });
const opts = (force = false) => ({ force, objectName: 'default/ct', gvkString: 'stable.example.com/v1, Kind=CronTab' });
const config = (spec: Obj): Obj => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'ct', namespace: 'default' }, spec });
const EMPTY: Obj = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'ct', namespace: 'default' } };
const owned = (o: Obj, manager: string) => (o.metadata.managedFields as Obj[]).find((e) => e.manager === manager)?.fieldsV1;
const conflictOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError);
    return err.message;
  }
  return 'no conflict';
};

describe('TypedNode of a custom resource (schemaconv rules)', () => {
  it('reads the root: apiVersion, kind, metadata as ObjectMeta, the schema', () => {
    assert.equal(node.kind, 'struct');
    assert.deepEqual([...node.fields.keys()].sort(), ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    assert.equal((node.fields.get('metadata') as StructNode).name, ObjectMeta.name);
    const spec = node.fields.get('spec') as StructNode;
    const f = (n: string) => spec.fields.get(n) as TypedNode & Obj;
    assert.deepEqual([f('ports').relationship, f('ports').keys, f('ports').keyDefaults], ['map', ['name', 'protocol'], { protocol: 'TCP' }]);
    assert.equal(f('tags').relationship, 'set');
    assert.equal(f('args').relationship, 'atomic');
    assert.deepEqual([f('labels').kind, f('labels').atomic], ['map', false]);
    assert.deepEqual([f('selector').kind, f('selector').atomic], ['struct', true]);
    assert.equal(f('config').kind, 'map', 'an object with no properties: its keys are deduced');
    assert.equal(f('replicas').kind, 'any', 'int-or-string has no type: scalar, list or map');
    assert.equal(((f('template') as StructNode).fields.get('metadata') as StructNode).name, ObjectMeta.name, 'embedded resources have ObjectMeta');
  });

  it('refuses undeclared fields where the schema does not preserve them, with their paths', () => {
    assert.throws(() => toFieldSet(config({ nope: 1 }), node), /\.spec\.nope: field not declared in schema/);
    assert.throws(() => toFieldSet(config({ ports: [{ port: 80 }] }), node), /omits key field "name"/);
    assert.throws(() => toFieldSet(config({ tags: 'a' }), node), /\.spec\.tags: expected list, got string/);
    // preserve-unknown-fields keeps anything, however deep.
    assert.doesNotThrow(() => toFieldSet(config({ config: { a: { b: [1, { c: 2 }] }, d: 'x' } }), node));
  });
});

describe('server-side apply on a custom resource', () => {
  it('list-map items: two managers own their own items (keys defaulted), and drop only theirs', () => {
    const a = apply(structuredClone(EMPTY), config({ ports: [{ name: 'http', port: 80 }] }), actor('a'), kind, opts()).object as Obj;
    const b = apply(structuredClone(a), config({ ports: [{ name: 'dns', protocol: 'UDP', port: 53 }] }), actor('b'), kind, opts()).object as Obj;
    assert.deepEqual(b.spec.ports, [{ name: 'http', port: 80 }, { name: 'dns', protocol: 'UDP', port: 53 }]);
    assert.deepEqual(owned(b, 'a'), { 'f:spec': { 'f:ports': { 'k:{"name":"http","protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } });
    assert.deepEqual(owned(b, 'b'), { 'f:spec': { 'f:ports': { 'k:{"name":"dns","protocol":"UDP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:protocol': {} } } } });
    // a changes its port (no conflict: b does not own it), then applies without its item: it goes.
    const a2 = apply(structuredClone(b), config({ ports: [{ name: 'http', port: 8080 }] }), actor('a'), kind, opts()).object as Obj;
    assert.deepEqual(a2.spec.ports, [{ name: 'http', port: 8080 }, { name: 'dns', protocol: 'UDP', port: 53 }]);
    const a3 = apply(structuredClone(a2), config({}), actor('a'), kind, opts()).object as Obj;
    assert.deepEqual(a3.spec.ports, [{ name: 'dns', protocol: 'UDP', port: 53 }]);
  });

  it('set lists: values are owned one by one', () => {
    const a = apply(structuredClone(EMPTY), config({ tags: ['x', 'y'] }), actor('a'), kind, opts()).object as Obj;
    const b = apply(structuredClone(a), config({ tags: ['y', 'z'] }), actor('b'), kind, opts()).object as Obj;
    assert.deepEqual(b.spec.tags, ['x', 'y', 'z']);
    assert.deepEqual(owned(b, 'b'), { 'f:spec': { 'f:tags': { 'v:"y"': {}, 'v:"z"': {} } } });
    const a2 = apply(structuredClone(b), config({}), actor('a'), kind, opts()).object as Obj;
    assert.deepEqual(a2.spec.tags, ['y', 'z'], 'x was only a\'s; y is still b\'s');
  });

  it('atomic lists and atomic maps: one owner, a different value conflicts unless forced', () => {
    const a = apply(structuredClone(EMPTY), config({ args: ['--a'], selector: { app: 'x' } }), actor('a'), kind, opts()).object as Obj;
    assert.deepEqual(owned(a, 'a'), { 'f:spec': { 'f:args': {}, 'f:selector': {} } });
    const msg = conflictOf(() => apply(structuredClone(a), config({ args: ['--b'], selector: { tier: 'y' } }), actor('b'), kind, opts()));
    assert.match(msg, /Apply failed with 2 conflicts: conflicts with "a":\n- \.spec\.args\n- \.spec\.selector/);
    const b = apply(structuredClone(a), config({ args: ['--b'], selector: { tier: 'y' } }), actor('b'), kind, opts(true)).object as Obj;
    assert.deepEqual([b.spec.args, b.spec.selector], [['--b'], { tier: 'y' }], 'replaced whole, not merged');
    assert.equal(owned(b, 'a'), undefined);
  });

  it('granular maps (additionalProperties) and preserve-unknown-fields values merge key by key', () => {
    const a = apply(structuredClone(EMPTY), config({ labels: { x: '1' }, config: { db: { host: 'h' }, list: [1] } }), actor('a'), kind, opts()).object as Obj;
    const b = apply(structuredClone(a), config({ labels: { y: '2' }, config: { db: { port: 5432 } } }), actor('b'), kind, opts()).object as Obj;
    assert.deepEqual(b.spec.labels, { x: '1', y: '2' });
    assert.deepEqual(b.spec.config, { db: { host: 'h', port: 5432 }, list: [1] });
    // Keys under a preserve-unknown-fields object are map entries: members themselves ('.').
    assert.deepEqual(owned(b, 'b'), { 'f:spec': { 'f:config': { 'f:db': { '.': {}, 'f:port': {} } }, 'f:labels': { 'f:y': {} } } });
    assert.deepEqual(owned(a, 'a'), { 'f:spec': { 'f:config': { 'f:db': { '.': {}, 'f:host': {} }, 'f:list': {} }, 'f:labels': { 'f:x': {} } } });
  });

  it('int-or-string and embedded resources apply as values and struct fields', () => {
    const a = apply(structuredClone(EMPTY), config({ replicas: '50%', template: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { app: 'x' } }, spec: { image: 'i' } } }), actor('a'), kind, opts()).object as Obj;
    const fields = owned(a, 'a') as Obj;
    assert.deepEqual(fields['f:spec']['f:replicas'], {});
    assert.deepEqual(fields['f:spec']['f:template'], { 'f:apiVersion': {}, 'f:kind': {}, 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:image': {} } });
    const b = apply(structuredClone(a), config({ replicas: 3 }), actor('b'), kind, opts(true)).object as Obj;
    assert.equal(b.spec.replicas, 3);
  });

  it('the field set of an applied configuration', () => {
    assert.deepEqual(setToFields(toFieldSet(config({ tags: ['a'], config: { k: { j: 1 } } }), node)), {
      'f:apiVersion': {}, 'f:kind': {}, 'f:metadata': { 'f:name': {}, 'f:namespace': {} }, 'f:spec': { 'f:config': { 'f:k': { '.': {}, 'f:j': {} } }, 'f:tags': { 'v:"a"': {} } },
    });
  });
});
