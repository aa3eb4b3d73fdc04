import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { Deployment } from '../../api/apps/v1.js';
import { TESTDATA, readJson } from '../../api/vectors.testutil.js';
import { fieldElement, pathToString } from '../fieldpath/element.js';
import { fieldsToSet, setToFields } from '../fieldpath/fieldsv1.js';
import { FieldSet } from '../fieldpath/set.js';
import { compare, merge, prune, structNode, toFieldSet, TypedError, zeroObject } from './index.js';

const node = structNode(Deployment);
const STRIP = FieldSet.of(
  ...['apiVersion', 'kind', 'metadata'].map((n) => [fieldElement(n)]),
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((n) => [fieldElement('metadata'), fieldElement(n)]),
);
const STATUS = FieldSet.of([fieldElement('status')]);
const yamlVector = (name: string) => parseYaml(readFileSync(join(TESTDATA, 'managed-fields', name), 'utf8')) as Record<string, unknown>;
const step = (name: string) => (readJson('managed-fields', 'managedFields-by-step.json')[name] as { managedFields: Array<Record<string, unknown>> }).managedFields;
const entry = (stepName: string, manager: string) => step(stepName).find((e) => e.manager === manager)!.fieldsV1;

describe('typed', () => {
  it('a create compares against the empty object: the creator owns what Kubernetes says', () => {
    const created = readJson('managed-fields', 'requests', '01-client-side-apply.POST.response.json');
    const c = compare(zeroObject(Deployment), created, node);
    const owned = c.added.union(c.modified).recursiveDifference(STATUS).difference(STRIP);
    assert.deepEqual(setToFields(owned), entry('01-after-client-side-apply', 'kubectl-client-side-apply'));
    assert.equal(JSON.stringify(setToFields(owned)), JSON.stringify(entry('01-after-client-side-apply', 'kubectl-client-side-apply')));
  });

  it('an applied configuration owns its fields (list keys defaulted)', () => {
    for (const [file, stepName, manager] of [
      ['mf-manager-a.yaml', '02-after-server-side-apply-manager-a', 'manager-a'],
      ['mf-manager-b.yaml', '03-after-force-apply-manager-b', 'manager-b'],
    ] as const) {
      const set = toFieldSet(yamlVector(file), node).difference(STRIP);
      assert.equal(JSON.stringify(setToFields(set)), JSON.stringify(entry(stepName, manager)), file);
    }
  });

  it('reports configurations that do not fit the schema, with paths', () => {
    const bad = (v: unknown) => {
      try {
        toFieldSet(v, node);
      } catch (err) {
        assert.ok(err instanceof TypedError);
        return err.message;
      }
      return 'no error';
    };
    assert.equal(bad({ spec: { foo: 1 } }), '.spec.foo: field not declared in schema');
    assert.equal(bad({ spec: { replicas: 'x' } }), '.spec.replicas: expected numeric (int or float), got string');
    assert.equal(
      bad({ spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'a' }] } } } }),
      '.spec.template.spec.containers: duplicate entries for key [name="a"]',
    );
    assert.match(bad({ spec: { template: { spec: { containers: [{ image: 'x' }] } } } }), /omits key field "name"/);
  });

  it('compare finds modified, added and removed fields by list keys', () => {
    const a = { spec: { replicas: 1, template: { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '1' }] } } } };
    const b = { spec: { replicas: 2, template: { spec: { containers: [{ name: 'b', image: '2' }, { name: 'c', image: '1' }] } } } };
    const c = compare(a, b, node);
    assert.deepEqual(c.modified.paths().map(pathToString), ['.spec.replicas', '.spec.template.spec.containers[name="b"].image']);
    assert.deepEqual(c.added.paths().map(pathToString), [
      '.spec.template.spec.containers[name="c"]',
      '.spec.template.spec.containers[name="c"].image',
      '.spec.template.spec.containers[name="c"].name',
    ]);
    assert.deepEqual(c.removed.paths().map(pathToString), [
      '.spec.template.spec.containers[name="a"]',
      '.spec.template.spec.containers[name="a"].image',
      '.spec.template.spec.containers[name="a"].name',
    ]);
  });

  it('merge: configuration wins on leaves, lists merge by key in the configuration order, atomic values are replaced', () => {
    const live = {
      metadata: { labels: { a: '1', b: '2' } },
      spec: {
        selector: { matchLabels: { x: '1', y: '2' } },
        template: { spec: { containers: [{ name: 'a', image: '1', imagePullPolicy: 'Always' }, { name: 'b', image: '1' }] } },
      },
    };
    const config = {
      metadata: { labels: { b: '3' } },
      spec: { selector: { matchLabels: { x: '1' } }, template: { spec: { containers: [{ name: 'c', image: '9' }, { name: 'a', image: '2' }] } } },
    };
    assert.deepEqual(merge(live, config, node), {
      metadata: { labels: { a: '1', b: '3' } },
      spec: {
        selector: { matchLabels: { x: '1' } },
        template: { spec: { containers: [{ name: 'c', image: '9' }, { name: 'a', image: '2', imagePullPolicy: 'Always' }, { name: 'b', image: '1' }] } },
      },
    });
  });

  it('prune removes what the applier dropped unless someone else owns it', () => {
    const obj = { metadata: { labels: { a: '1', b: '2', c: '3' } }, spec: { replicas: 3, template: { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '1' }] } } } };
    const last = toFieldSet({ metadata: { labels: { a: '1', b: '2' } }, spec: { replicas: 3, template: { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '1' }] } } } }, node);
    const now = toFieldSet({ metadata: { labels: { a: '1' } }, spec: { template: { spec: { containers: [{ name: 'a', image: '1' }] } } } }, node);
    const other = fieldsToSet({ 'f:spec': { 'f:replicas': {} } });
    assert.deepEqual(prune(obj, node, last, now.union(other)), {
      metadata: { labels: { a: '1', c: '3' } },
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'a', image: '1' }] } } },
    });
  });
});
