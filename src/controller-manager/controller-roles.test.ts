import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTROLLERS, controllerRoles, controllerServiceAccount } from './controllers.js';

test('controller roles: derived from the descriptors, the ones Kubernetes bootstrap policy has', () => {
  const roles = controllerRoles();
  assert.deepEqual(roles.map((r) => r.serviceAccount).sort(), [
    'attachdetach-controller',
    'certificate-controller',
    'clusterrole-aggregation-controller',
    'cronjob-controller',
    'daemon-set-controller',
    'deployment-controller',
    'disruption-controller',
    'endpoint-controller',
    'endpointslice-controller',
    'endpointslicemirroring-controller',
    'ephemeral-volume-controller',
    'expand-controller',
    'generic-garbage-collector',
    'horizontal-pod-autoscaler',
    'job-controller',
    'legacy-service-account-token-cleaner',
    'namespace-controller',
    'node-controller',
    'persistent-volume-binder',
    'pod-garbage-collector',
    'pv-protection-controller',
    'pvc-protection-controller',
    'replicaset-controller',
    'replication-controller',
    'resourcequota-controller',
    'root-ca-cert-publisher',
    'route-controller',
    'service-account-controller',
    'service-controller',
    'statefulset-controller',
    'ttl-after-finished-controller',
    'ttl-controller',
    'validatingadmissionpolicy-status-controller',
  ]);
  assert.deepEqual(roles.find((r) => r.serviceAccount === 'deployment-controller')!.rules, [
    { verbs: ['get', 'list', 'update', 'watch'], apiGroups: ['apps', 'extensions'], resources: ['deployments'] },
    { verbs: ['update'], apiGroups: ['apps', 'extensions'], resources: ['deployments/status'] },
    { verbs: ['update'], apiGroups: ['apps', 'extensions'], resources: ['deployments/finalizers'] },
    { verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], apiGroups: ['apps', 'extensions'], resources: ['replicasets'] },
    { verbs: ['get', 'list', 'update', 'watch'], apiGroups: [''], resources: ['pods'] },
    { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.k8s.io'], resources: ['events'] },
  ]);
});

test('controller service accounts: each implemented controller but the token controller has its own', () => {
  for (const [name, entry] of Object.entries(CONTROLLERS)) {
    if (!entry.ctor) continue;
    if (name === 'serviceaccount-token') assert.equal(controllerServiceAccount(name), undefined);
    else assert.ok(controllerServiceAccount(name), name);
  }
  assert.equal(controllerServiceAccount('daemonset'), 'daemon-set-controller');
  assert.equal(controllerServiceAccount('garbagecollector'), 'generic-garbage-collector');
  assert.equal(controllerServiceAccount('nope'), undefined);
});
