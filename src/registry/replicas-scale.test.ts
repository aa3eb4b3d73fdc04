// The Scale of the groups that declare their own (apps/v1beta1, apps/v1beta2, extensions/v1beta1):
// which versions answer it, and its status as Kubernetes' Scale conversions write and read it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allKinds, apiVersionOf } from '../api/kinds.js';
import { subresourceDiscoveryOf } from '../api/schema/kind.js';
import { fromVersionedScale, toVersionedScale } from './replicas-scale.js';

const autoscaling = (selector?: string) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 3 }, status: { replicas: 2, ...(selector === undefined ? {} : { selector }) } });

test('each served version with a scale subresource names its Scale kind: its own group\'s, else autoscaling/v1', () => {
  const scaled = allKinds.filter((k) => k.subresources?.scale);
  const answers = Object.fromEntries(scaled.map((k) => {
    const d = subresourceDiscoveryOf(k, 'scale');
    return [`${apiVersionOf(k)} ${k.resource}`, `${d.group}/${d.version} ${d.kind}`];
  }));
  assert.deepEqual(answers, {
    'v1 replicationcontrollers': 'autoscaling/v1 Scale',
    'apps/v1 deployments': 'autoscaling/v1 Scale',
    'apps/v1 replicasets': 'autoscaling/v1 Scale',
    'apps/v1 statefulsets': 'autoscaling/v1 Scale',
    'apps/v1beta2 deployments': 'apps/v1beta2 Scale',
    'apps/v1beta2 replicasets': 'apps/v1beta2 Scale',
    'apps/v1beta2 statefulsets': 'apps/v1beta2 Scale',
    'apps/v1beta1 deployments': 'apps/v1beta1 Scale',
    'apps/v1beta1 statefulsets': 'apps/v1beta1 Scale',
    'extensions/v1beta1 deployments': 'extensions/v1beta1 Scale',
    'extensions/v1beta1 replicasets': 'extensions/v1beta1 Scale',
  });
  for (const k of scaled) if (k.scaleKind) assert.equal(k.scaleKind.name, `io.k8s.api.${k.group}.${k.version}.Scale`);
});

test('a versioned Scale carries the selector as labels (equality terms only) and as targetSelector', () => {
  assert.deepEqual(toVersionedScale(autoscaling('app=web,tier=front'), 'apps/v1beta2'), {
    apiVersion: 'apps/v1beta2', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 3 }, status: { replicas: 2, selector: { app: 'web', tier: 'front' }, targetSelector: 'app=web,tier=front' },
  });
  assert.deepEqual(toVersionedScale(autoscaling('app=web,tier in (a,b)'), 'extensions/v1beta1').status, { replicas: 2, targetSelector: 'app=web,tier in (a,b)' });
  assert.deepEqual(toVersionedScale(autoscaling(), 'apps/v1beta1').status, { replicas: 2 });
});

test('a versioned Scale read back: targetSelector first, else the labels as a selector string', () => {
  const v = (status: object) => ({ apiVersion: 'apps/v1beta2', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 3 }, status });
  assert.deepEqual(fromVersionedScale(v({ replicas: 2, selector: { b: '2', a: '1' } })), autoscaling('a=1,b=2'));
  assert.deepEqual(fromVersionedScale(v({ replicas: 2, selector: { a: '1' }, targetSelector: 'x in (y)' })).status, { replicas: 2, selector: 'x in (y)' });
  assert.deepEqual(fromVersionedScale(v({ replicas: 2 })), autoscaling());
});
