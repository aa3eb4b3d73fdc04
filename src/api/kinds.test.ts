import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allKinds, apiVersionOf, findKind, findResource, storageVersionOf } from './kinds.js';

test('the kind table serves what DESIGN.md lists, each kind with one storage version', () => {
  const served = (kind: string) => allKinds.filter((k) => k.kind === kind).map(apiVersionOf).sort();
  assert.deepEqual(served('Deployment'), ['apps/v1', 'apps/v1beta1', 'apps/v1beta2', 'extensions/v1beta1']);
  assert.deepEqual(served('ReplicaSet'), ['apps/v1', 'apps/v1beta2', 'extensions/v1beta1']);
  assert.deepEqual(served('DaemonSet'), ['apps/v1', 'apps/v1beta2', 'extensions/v1beta1']);
  assert.deepEqual(served('StatefulSet'), ['apps/v1', 'apps/v1beta1', 'apps/v1beta2']);
  assert.deepEqual(served('ControllerRevision'), ['apps/v1', 'apps/v1beta1', 'apps/v1beta2']);
  assert.deepEqual(served('Job'), ['batch/v1']);
  assert.deepEqual(served('CronJob'), ['batch/v1', 'batch/v1beta1', 'batch/v2alpha1']);
  assert.deepEqual(served('Lease'), ['coordination.k8s.io/v1']);
  assert.deepEqual(served('Event'), ['events.k8s.io/v1', 'v1']);
  assert.deepEqual(served('EndpointSlice'), ['discovery.k8s.io/v1']);
  assert.deepEqual(served('PriorityClass'), ['scheduling.k8s.io/v1']);
  assert.deepEqual(served('RuntimeClass'), ['node.k8s.io/v1']);
  assert.deepEqual(served('FlowSchema'), ['flowcontrol.apiserver.k8s.io/v1']);
  assert.deepEqual(served('PriorityLevelConfiguration'), ['flowcontrol.apiserver.k8s.io/v1']);
  assert.deepEqual(served('APIService'), ['apiregistration.k8s.io/v1']);
  assert.deepEqual([...served('NodeMetrics'), ...served('PodMetrics')], ['metrics.k8s.io/v1beta1', 'metrics.k8s.io/v1beta1']);
  for (const kind of ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']) assert.deepEqual(served(kind), ['rbac.authorization.k8s.io/v1'], kind);
  for (const kind of ['SubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SelfSubjectRulesReview']) assert.deepEqual(served(kind), ['authorization.k8s.io/v1'], kind);
  assert.deepEqual(served('SelfSubjectReview'), ['authentication.k8s.io/v1', 'authentication.k8s.io/v1beta1']);
  for (const kind of ['Pod', 'Namespace', 'Node', 'ConfigMap', 'Endpoints', 'Service', 'ServiceAccount', 'Secret', 'ReplicationController', 'ResourceQuota', 'LimitRange', 'Binding', 'ComponentStatus']) {
    assert.deepEqual(served(kind), ['v1'], kind);
  }
  const resources = new Set<string>();
  for (const k of allKinds) {
    const id = `${k.group}/${k.version}/${k.resource}`;
    assert.ok(!resources.has(id), `${id} declared twice`);
    resources.add(id);
    if (k.createOnly) {
      // Virtual kinds (access reviews) are neither stored nor listed.
      assert.ok(!k.storage && k.list === undefined && !k.toHub && !k.fromHub, `${id} is virtual`);
      continue;
    }
    if (k.computed) {
      // Computed kinds (componentstatuses, metrics) are listed but never stored nor converted.
      assert.ok(!k.storage && k.list !== undefined && !k.toHub && !k.fromHub && storageVersionOf(k) === k, `${id} is computed`);
      continue;
    }
    const hub = storageVersionOf(k);
    assert.equal(hub.storage, true);
    assert.equal(allKinds.filter((s) => s.storage && s.kind === k.kind && s.resource === k.resource).length, 1, `${k.kind}: one storage version`);
    // Non-storage versions convert both ways; the storage version needs no conversion.
    assert.equal(k.storage, k.toHub === undefined && k.fromHub === undefined, `${id} conversion functions`);
    assert.equal(k.list!.fields.items?.type.kind, 'list', `${id} list has items`);
    assert.ok(k.type.fields.metadata, `${id} has metadata`);
  }
  assert.equal(findResource('apps', 'v1', 'deployments')?.kind, 'Deployment');
  assert.equal(findResource('', 'v1', 'pods')?.kind, 'Pod');
  assert.equal(findResource('apps', 'v1', 'pods'), undefined);
  assert.equal(findKind('extensions/v1beta1', 'Deployment')?.group, 'extensions');
  assert.equal(storageVersionOf(findKind('extensions/v1beta1', 'Deployment')!).group, 'apps');
  assert.equal(findKind('v1', 'Pod')?.resource, 'pods');
});
