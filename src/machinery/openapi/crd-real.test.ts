// Real CRDs (cert-manager Certificate, prometheus-operator ServiceMonitor, Argo CD Application):
// their OpenAPI builds for every served version, the v2 form keeps to what Swagger 2.0 can say
// (ToStructuralOpenAPIV2's rules, checked on every node), the v3 form keeps the schema whole, the
// server-side apply schema reads them and accepts their valid examples, and the invalid examples'
// expected messages agree with the schemas they come from.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { ObjectMeta } from '../../api/meta/v1.js';
import { field, struct, t } from '../../api/schema/dsl.js';
import { apply, kindFields, type Actor } from '../managedfields/index.js';
import { crdTypedNode } from '../typed/crd.js';
import { setStructNode } from '../typed/schema.js';
import { toFieldSet } from '../typed/fieldset.js';
import { crdVersionSchemas } from './crd.js';
import { isStructural } from './crd-structural.js';
import { readCrd, readExamples, REAL_CRDS } from './crd-vectors.testutil.js';
import type { SchemaObject } from './definitions.js';

type Node = Record<string, unknown>;

/** Every schema node of a published schema with its path (properties, items, additionalProperties). */
function* nodes(s: Node, path = ''): Generator<[string, Node]> {
  yield [path, s];
  for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Node>)) yield* nodes(v, `${path}.${k}`);
  if (s.items && typeof s.items === 'object') yield* nodes(s.items as Node, `${path}[]`);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') yield* nodes(s.additionalProperties as Node, `${path}{}`);
}

/** The CRD schema node at a field path as Kubernetes writes it (`spec.endpoints[0].interval`). */
function schemaAt(root: JSONSchemaProps, path: string): { node: JSONSchemaProps; parent: JSONSchemaProps; last: string } {
  let node = root;
  let parent = root;
  let last = '';
  for (const part of path.split('.')) {
    const m = /^([^[]+)((\[\d+\])*)$/.exec(part)!;
    parent = node;
    last = m[1]!;
    node = node.properties?.[last] ?? assert.fail(`${path}: no property ${last}`);
    for (let i = 0; i < (m[2]!.match(/\[/g) ?? []).length; i++) {
      parent = node;
      node = (node.items as JSONSchemaProps | undefined) ?? assert.fail(`${path}: ${last} has no items`);
    }
  }
  return { node, parent, last };
}

const quoted = (values: unknown[]) => values.map((v) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v))).join(', ');

for (const name of REAL_CRDS) {
  describe(`real CRD: ${name}`, () => {
    const crd = readCrd(name);
    const served = crd.spec.versions.filter((v) => v.served);

    it('is structural, and every served version publishes the kind with its metadata and GVK, and the List', () => {
      assert.ok(served.length > 0);
      for (const v of served) {
        assert.ok(isStructural(v.schema!.openAPIV3Schema!), `${v.name} structural`);
        for (const version of ['v2', 'v3'] as const) {
          const { kindName, listName, schemas } = crdVersionSchemas(crd, v.name, version);
          const kind = schemas[kindName]!;
          assert.deepEqual(kind['x-kubernetes-group-version-kind'], [{ group: crd.spec.group, kind: crd.spec.names.kind, version: v.name }]);
          const props = kind.properties as Record<string, SchemaObject>;
          assert.deepEqual([props.apiVersion!.type, props.kind!.type], ['string', 'string']);
          assert.ok(props.spec, 'spec published');
          assert.equal(JSON.stringify(props.metadata).includes('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), true);
          assert.equal((schemas[listName]!.properties as Record<string, SchemaObject>).items!.type, 'array');
        }
      }
    });

    it('v2 follows ToStructuralOpenAPIV2 on every node', () => {
      for (const v of served) {
        const { kindName, schemas } = crdVersionSchemas(crd, v.name, 'v2');
        let count = 0;
        for (const [path, n] of nodes(schemas[kindName]!)) {
          count++;
          for (const k of ['allOf', 'anyOf', 'oneOf', 'not', 'nullable', 'default', 'example', 'externalDocs']) assert.equal(n[k], undefined, `${path}: ${k}`);
          if (n['x-kubernetes-preserve-unknown-fields'] === true) {
            assert.equal(n.properties, undefined, `${path}: preserve-unknown-fields keeps no properties`);
            assert.notEqual(n.type, 'object', path);
          }
          if (n.type === 'array') assert.ok(n.items, `${path}: an array has items`);
        }
        assert.ok(count > 50, `${count} nodes`);
      }
    });

    it('v3 keeps the schema: every property and value validation of the CRD is published', () => {
      for (const v of served) {
        const { kindName, schemas } = crdVersionSchemas(crd, v.name, 'v3');
        const published = new Map(nodes(schemas[kindName]!));
        for (const [path, n] of nodes(v.schema!.openAPIV3Schema! as Node)) {
          // The builder puts its own apiVersion, kind and metadata (ObjectMeta) at the root.
          if (/^\.(metadata|apiVersion|kind)\b/.test(path)) continue;
          const p = published.get(path);
          assert.ok(p, `${path} published`);
          for (const k of ['type', 'format', 'enum', 'pattern', 'minimum', 'maximum', 'required', 'default', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields']) {
            if (path === '' && k === 'required') continue;
            assert.deepEqual(p[k], n[k], `${path}: ${k}`);
          }
        }
      }
    });

    it('the server-side apply schema reads it and takes the valid examples; undeclared fields are refused', () => {
      const examples = readExamples(name);
      for (const v of served) {
        const node = crdTypedNode(crd, v.name);
        for (const obj of examples.valid) assert.ok(toFieldSet(obj, node).size() > 3);
        const bad = { ...examples.valid[0]!, spec: { ...(examples.valid[0]!.spec as object), notInTheSchema: true } };
        assert.throws(() => toFieldSet(bad, node), /\.spec\.notInTheSchema: field not declared in schema/);
      }
    });

    it('the invalid examples name paths, enums, patterns and bounds the schema has', () => {
      const root = crd.spec.versions.find((v) => v.served)!.schema!.openAPIV3Schema!;
      const examples = readExamples(name);
      assert.ok(examples.invalid.length >= 3);
      for (const c of examples.invalid) {
        for (const e of c.errors) {
          const m = /^([^:]+): (.*)$/s.exec(e)!;
          const [path, msg] = [m[1]!, m[2]!];
          const { node, parent, last } = schemaAt(root, path);
          if (msg === 'Required value') assert.ok(parent.required?.includes(last), `${c.name}: ${last} required`);
          else if (msg.startsWith('Unsupported value')) assert.ok(msg.endsWith(`supported values: ${quoted(node.enum!)}`), c.name);
          else if (msg.includes('should match')) assert.ok(msg.endsWith(`${path} in body should match '${node.pattern}'`), c.name);
          else if (msg.includes('greater than or equal to')) assert.ok(msg.endsWith(`${path} in body should be greater than or equal to ${node.minimum}`), c.name);
          else if (msg.includes('must be of type')) assert.match(msg, new RegExp(`${path.replace(/[.[\]]/g, '\\$&')} in body must be of type ${node.type}: "`), c.name);
          else assert.fail(`${c.name}: unchecked message ${msg}`);
        }
      }
    });
  });
}

describe('real CRD: server-side apply of cert-manager Certificate status conditions (a list-map keyed by type)', () => {
  const crd = readCrd('certificate');
  const type = struct('io.k8s.cert-manager.v1.Certificate.crd-real-test', {
    kind: field(t.string, 1),
    apiVersion: field(t.string, 2),
    metadata: field(ObjectMeta, 3),
    spec: field(t.rawExtension, 4, { pointer: true }),
    status: field(t.rawExtension, 5, { pointer: true }),
  });
  setStructNode(type, crdTypedNode(crd, 'v1'));
  const kind = kindFields(type, true);
  const actor = (manager: string): Actor => ({ manager, apiVersion: 'cert-manager.io/v1', subresource: 'status', now: Date.parse('2026-11-28T10:00:00Z') });
  const opts = { force: false, objectName: 'default/example-com', gvkString: 'cert-manager.io/v1, Kind=Certificate' };
  const cond = (type: string, status: string) => ({ type, status, reason: 'R', lastTransitionTime: '2026-11-28T10:00:00Z' });
  const config = (conditions: object[]) => ({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'example-com', namespace: 'default' }, status: { conditions } });

  it('two controllers each own their condition; one re-applying its own leaves the other', () => {
    const live = readExamples('certificate').valid[0]!;
    const a = apply(structuredClone(live), config([cond('Ready', 'False')]), actor('ready-controller'), kind, opts).object as Record<string, any>;
    const b = apply(structuredClone(a), config([cond('Issuing', 'True')]), actor('issuing-controller'), kind, opts).object as Record<string, any>;
    assert.deepEqual(b.status.conditions.map((c: { type: string }) => c.type), ['Ready', 'Issuing']);
    assert.deepEqual(b.spec, live.spec, 'the status subresource leaves spec alone');
    const entry = (b.metadata.managedFields as Array<Record<string, any>>).find((e) => e.manager === 'issuing-controller')!;
    assert.equal(entry.subresource, 'status');
    assert.deepEqual(Object.keys(entry.fieldsV1['f:status']['f:conditions']), ['k:{"type":"Issuing"}']);
    const c = apply(structuredClone(b), config([cond('Ready', 'True')]), actor('ready-controller'), kind, opts).object as Record<string, any>;
    assert.deepEqual(c.status.conditions.map((x: { type: string; status: string }) => `${x.type}=${x.status}`), ['Ready=True', 'Issuing=True']);
    assert.throws(() => apply(structuredClone(c), config([cond('Ready', 'Unknown')]), actor('issuing-controller'), kind, opts), /conflict with "ready-controller"[^]*\.status\.conditions\[type="Ready"\]\.status/);
  });
});
