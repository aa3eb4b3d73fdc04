// The pieces of a custom resource's serving that do not need a server: the JSONPath subset, the
// Table, the scale paths, the strategy's generation and status rules, and the kinds a CRD serves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../api/schema/kind.js';
import type { StrategyContext } from '../strategy.js';
import { customResourceServing, findAll, findFirst, type CustomResourceDefinition } from './index.js';
import { customResourcePrinter } from './printer.js';
import { customResourceScale, validateScalePaths } from './scale.js';
import { parsePath } from './jsonpath.js';

const ctx = (requestGroupVersion?: string): StrategyContext => ({ kind: undefined as never, now: 0, newUid: () => 'u', requestGroupVersion });

function crd(overrides: Partial<CustomResourceDefinition['spec']> = {}): CustomResourceDefinition {
  return {
    metadata: { name: 'crontabs.stable.example.com', uid: 'uid-1' },
    spec: {
      group: 'stable.example.com',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'], categories: ['all'] },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' }, cronSpec: { type: 'string' } } }, status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } } } } },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
          additionalPrinterColumns: [
            { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status', priority: 1 },
          ],
          selectableFields: [{ jsonPath: '.spec.cronSpec' }],
        },
        { name: 'v1beta1', served: true, storage: false, deprecated: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
        { name: 'v1alpha1', served: false, storage: false },
      ],
      ...overrides,
    },
  };
}

test('the JSONPath subset: fields, quoted keys, indexes, wildcards and filters', () => {
  const o = { a: { 'b.c': 1, list: [{ type: 'Ready', status: 'True', n: 2 }, { type: 'Other', status: 'False', n: 5 }] } };
  assert.deepEqual(findAll(o, '.a.list[*].type'), ['Ready', 'Other']);
  assert.equal(findFirst(o, "{.a['b.c']}"), 1);
  assert.equal(findFirst(o, '.a.list[-1].status'), 'False');
  assert.deepEqual(findAll(o, '.a.list[?(@.type=="Ready")].status'), ['True']);
  assert.deepEqual(findAll(o, '.a.list[?(@.n > 3)].type'), ['Other']);
  assert.deepEqual(findAll(o, '.a.list[?(@.missing)]'), []);
  assert.deepEqual(findAll(o, '.nothing.here'), []);
  assert.equal(parsePath('..recursive'), null);
  assert.equal(parsePath('.a[?(@.x ~ 1)]'), null);
});

test('the Table: Name, the columns with their types, Age when a version has none', () => {
  const printer = customResourcePrinter(crd().spec.versions[0]!.additionalPrinterColumns);
  assert.deepEqual(printer.columns.map((c) => [c.name, c.type, c.priority]), [['Name', 'string', 0], ['Spec', 'string', 0], ['Replicas', 'integer', 0], ['Ready', 'string', 1]]);
  const obj = { metadata: { name: 'x' }, spec: { cronSpec: '* * * * */5', replicas: 3 }, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
  assert.deepEqual(printer.cells(obj, 0), ['x', '* * * * */5', 3, 'True']);
  assert.deepEqual(printer.cells({ metadata: { name: 'y' }, spec: { replicas: 'many' } }, 0), ['y', null, null, null]);
  const aged = customResourcePrinter(undefined);
  assert.deepEqual(aged.columns.map((c) => [c.name, c.type]), [['Name', 'string'], ['Age', 'date']]);
  assert.deepEqual(aged.cells({ metadata: { name: 'z', creationTimestamp: '2026-01-01T00:00:00Z' } }, Date.parse('2026-01-01T00:05:00Z')), ['z', '5m']);
});

test('the scale subresource reads and writes the CRD\'s paths, and their values are validated', () => {
  const scale = customResourceScale({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' });
  const obj: KubeObject = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'x', namespace: 'ns', uid: 'u', resourceVersion: '5' }, spec: { replicas: 2 }, status: { replicas: 1, selector: 'app=x' } };
  const s = scale.scaleOf(obj);
  assert.deepEqual(s.spec, { replicas: 2 });
  assert.deepEqual(s.status, { replicas: 1, selector: 'app=x' });
  assert.deepEqual((scale.withReplicas(obj, 7).spec as KubeObject).replicas, 7);
  assert.equal((obj.spec as KubeObject).replicas, 2, 'the stored object is not changed in place');
  assert.deepEqual((scale.withReplicas({ metadata: { name: 'y' } }, 1).spec as KubeObject).replicas, 1);
  const errors = validateScalePaths({ spec: { replicas: -1 }, status: { replicas: 'two', selector: 3 } }, { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' }, { spec: true });
  assert.deepEqual(errors.map((e) => `${e.field}: ${e.detail}`), [
    '.spec.replicas: should be a non-negative integer',
    '.status.replicas: status.replicas accessor error: two is of the type string, expected int64',
    '.status.selector: status.selector accessor error: 3 is of the type float64, expected string',
  ]);
});

test('a CRD serves its served versions under its names; the storage version is the hub; a deprecated version warns', () => {
  const serving = customResourceServing(crd(), false);
  assert.deepEqual(serving.served.map((k) => k.version), ['v1', 'v1beta1']);
  assert.equal(serving.storage.version, 'v1');
  assert.equal(serving.storage.storage, true);
  const [v1, beta] = serving.served as [typeof serving.storage, typeof serving.storage];
  assert.equal(v1, serving.storage);
  assert.deepEqual([v1.resource, v1.singular, v1.kind, v1.namespaced, [...(v1.shortNames ?? [])]], ['crontabs', 'crontab', 'CronTab', true, ['ct']]);
  assert.deepEqual(v1.subresources, { status: true, scale: true });
  assert.deepEqual(beta.subresources, { status: false, scale: false });
  assert.equal(beta.custom?.hub, v1);
  assert.equal(beta.custom?.deprecationWarning, 'stable.example.com/v1beta1 CronTab is deprecated');
  assert.equal(beta.toHub!({ apiVersion: 'stable.example.com/v1beta1', kind: 'CronTab' }).apiVersion, 'stable.example.com/v1');
  assert.equal(beta.fromHub!({ apiVersion: 'stable.example.com/v1', kind: 'CronTab' }).apiVersion, 'stable.example.com/v1beta1');
  assert.deepEqual(Object.keys(v1.type.fields), ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  assert.equal(v1.type.open, false);
  assert.equal(beta.type.open, true, 'a root that preserves unknown fields keeps them');
  assert.equal(v1.type.name, 'com.example.stable.v1.CronTab');
  assert.equal(v1.list?.name, 'com.example.stable.v1.CronTabList');
  const module = serving.modules.get(v1)!;
  assert.deepEqual(module.fieldLabels!(v1)?.labels, ['metadata.name', 'metadata.namespace', 'spec.cronSpec']);
  assert.equal(module.selectableFields!['spec.cronSpec']!({ spec: { cronSpec: '5' } }), '5');
  assert.equal(module.subresources?.scale?.type, 'scale');
});

test('the strategy: the generation counts every change outside metadata; status only through /status', () => {
  const { strategy } = customResourceServing(crd(), false).modules.values().next().value!;
  assert.equal(strategy.hasStatus, true);
  const old: KubeObject = { metadata: { name: 'x', generation: 3 }, spec: { replicas: 1 }, status: { replicas: 1 } };
  const same: KubeObject = { metadata: { name: 'x', generation: 3, labels: { a: 'b' } }, spec: { replicas: 1 }, status: { replicas: 1 } };
  strategy.prepareForUpdate!(same, old, ctx());
  assert.equal((same.metadata as KubeObject).generation, 3);
  const changed: KubeObject = { metadata: { name: 'x', generation: 3 }, spec: { replicas: 2 }, status: { replicas: 1 } };
  strategy.prepareForUpdate!(changed, old, ctx());
  assert.equal((changed.metadata as KubeObject).generation, 4);
  const status: KubeObject = { metadata: { name: 'x', generation: 3, labels: { sneaky: 'yes' }, managedFields: [{ manager: 'm' }] }, spec: { replicas: 1 }, status: { replicas: 5 } };
  strategy.prepareForStatusUpdate!(status, old, ctx());
  assert.deepEqual(status.metadata, { name: 'x', generation: 3, managedFields: [{ manager: 'm' }] });
  assert.deepEqual(strategy.warnings!({ metadata: { finalizers: ['mine', 'example.com/ok', 'orphan'] } }, undefined), [
    'metadata.finalizers: "mine": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
  ]);
  assert.deepEqual(strategy.validate({ metadata: { name: 'x' }, spec: { replicas: -2 } }, ctx()).map((e) => e.detail), ['should be a non-negative integer']);
});
