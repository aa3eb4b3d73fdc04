// Strategic merge patch on the real kinds: the patch metadata the schema declares (retainKeys on
// Deployment.spec.strategy and Pod volumes, merge keys of containers, ports, env, ownerReferences,
// the finalizers set) used the way kubectl's patches use it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Deployment } from '../../api/apps/v1.js';
import { Pod } from '../../api/core/v1/pod.js';
import { strategicMergePatch } from './strategic.js';

type Obj = Record<string, any>;

const deployment = (): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    finalizers: ['a.example.com/x', 'b.example.com/y'],
    ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o1', uid: 'u1' }],
  },
  spec: {
    replicas: 2,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: {
      spec: {
        containers: [
          {
            name: 'app',
            image: 'nginx',
            ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443, protocol: 'TCP' }],
            env: [{ name: 'A', value: '1' }],
          },
          { name: 'sidecar', image: 'busybox' },
        ],
        volumes: [{ name: 'data', emptyDir: {} }],
      },
    },
  },
});

test('kubectl apply switching the strategy to Recreate: $retainKeys clears rollingUpdate', () => {
  const out = strategicMergePatch(deployment(), { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null } } }, Deployment) as Obj;
  assert.deepEqual(out.spec.strategy, { type: 'Recreate' });
  // Without the directive the nested struct merges.
  const merged = strategicMergePatch(deployment(), { spec: { strategy: { rollingUpdate: { maxSurge: 1 } } } }, Deployment) as Obj;
  assert.deepEqual(merged.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } });
});

test('a volume changing its source: merge by name with $retainKeys', () => {
  const patch = { spec: { template: { spec: { volumes: [{ $retainKeys: ['configMap', 'name'], name: 'data', configMap: { name: 'cfg' } }] } } } };
  const out = strategicMergePatch(deployment(), patch, Deployment) as Obj;
  assert.deepEqual(out.spec.template.spec.volumes, [{ name: 'data', configMap: { name: 'cfg' } }]);
});

test('containers merge by name, ports by containerPort, env by name', () => {
  const patch = {
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'app', ports: [{ containerPort: 8080, name: 'alt' }], env: [{ name: 'B', value: '2' }, { name: 'A', $patch: 'delete' }] },
          ],
        },
      },
    },
  };
  const out = strategicMergePatch(deployment(), patch, Deployment) as Obj;
  const [app, sidecar] = out.spec.template.spec.containers;
  assert.equal(sidecar.name, 'sidecar');
  assert.deepEqual(app.ports, [{ containerPort: 8080, name: 'alt' }, { containerPort: 80, protocol: 'TCP' }, { containerPort: 443, protocol: 'TCP' }]);
  assert.deepEqual(app.env, [{ name: 'B', value: '2' }]);
});

test('adding a container puts it before the existing ones (no $setElementOrder)', () => {
  const out = strategicMergePatch(deployment(), { spec: { template: { spec: { containers: [{ name: 'new', image: 'redis' }] } } } }, Deployment) as Obj;
  assert.deepEqual(out.spec.template.spec.containers.map((c: Obj) => c.name), ['new', 'app', 'sidecar']);
});

test('finalizers are a merged set; $deleteFromPrimitiveList removes', () => {
  const add = strategicMergePatch(deployment(), { metadata: { finalizers: ['c.example.com/z', 'a.example.com/x'] } }, Deployment) as Obj;
  assert.deepEqual(add.metadata.finalizers, ['c.example.com/z', 'a.example.com/x', 'b.example.com/y']);
  const del = strategicMergePatch(deployment(), { metadata: { '$deleteFromPrimitiveList/finalizers': ['a.example.com/x'] } }, Deployment) as Obj;
  assert.deepEqual(del.metadata.finalizers, ['b.example.com/y']);
  const reordered = strategicMergePatch(
    deployment(),
    { metadata: { '$setElementOrder/finalizers': ['b.example.com/y', 'a.example.com/x'] } },
    Deployment,
  ) as Obj;
  assert.deepEqual(reordered.metadata.finalizers, ['b.example.com/y', 'a.example.com/x']);
});

test('ownerReferences merge by uid', () => {
  const out = strategicMergePatch(
    deployment(),
    { metadata: { ownerReferences: [{ uid: 'u1', controller: true }, { apiVersion: 'v1', kind: 'Secret', name: 'o2', uid: 'u2' }] } },
    Deployment,
  ) as Obj;
  assert.deepEqual(out.metadata.ownerReferences, [
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'o1', uid: 'u1', controller: true },
    { apiVersion: 'v1', kind: 'Secret', name: 'o2', uid: 'u2' },
  ]);
});

test('labels and annotations: null deletes, other keys merge; atomic lists are replaced', () => {
  const pod: Obj = {
    metadata: { labels: { a: '1', b: '2' } },
    spec: { tolerations: [{ key: 'k1', operator: 'Exists' }], containers: [{ name: 'c', args: ['x', 'y'] }] },
  };
  const out = strategicMergePatch(
    pod,
    { metadata: { labels: { a: null, c: '3' } }, spec: { tolerations: [{ key: 'k2', operator: 'Exists' }], containers: [{ name: 'c', args: ['z'] }] } },
    Pod,
  ) as Obj;
  assert.deepEqual(out.metadata.labels, { b: '2', c: '3' });
  assert.deepEqual(out.spec.tolerations, [{ key: 'k2', operator: 'Exists' }]);
  assert.deepEqual(out.spec.containers, [{ name: 'c', args: ['z'] }]);
});

test('a container without its merge key: the 500 kube-apiserver answers', () => {
  assert.throws(
    () => strategicMergePatch(deployment(), { spec: { template: { spec: { containers: [{ image: 'nginx:2' }] } } } }, Deployment),
    (e: any) => e.code === 500 && e.message === 'map: map[image:nginx:2] does not contain declared merge key: name' && e.toJson() ===
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"map: map[image:nginx:2] does not contain declared merge key: name","code":500}\n',
  );
});
