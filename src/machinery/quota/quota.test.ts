// The quota evaluators: what pods, services, PVCs and other objects use, scopes, constraints.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResourceQuota } from '../../api/types.js';
import { evaluatorFor, prettyPrint, quotaMatches, resourcesCountedBy, toJson, usageOf } from './index.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const usage = (group: string, resource: string, obj: Record<string, unknown>) => toJson(evaluatorFor(group, resource).usage(obj, NOW));

test('pod usage: object count always, compute while not terminal; init containers and sidecars as Kubernetes sums them', () => {
  const pod = {
    spec: {
      initContainers: [
        { name: 'init', resources: { requests: { cpu: '2' } } },
        { name: 'sidecar', restartPolicy: 'Always', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '64Mi' } } },
      ],
      containers: [
        { name: 'a', resources: { requests: { cpu: '500m', memory: '1Gi', 'example.com/gpu': '1', 'hugepages-2Mi': '2Mi' }, limits: { cpu: '1', memory: '1Gi', 'example.com/gpu': '1' } } },
        { name: 'b', resources: { requests: { cpu: '250m' } } },
      ],
      overhead: { cpu: '10m' },
    },
  };
  assert.deepEqual(usage('', 'pods', pod), {
    'count/pods': '1',
    cpu: '2010m', // max(containers + sidecar = 850m, init 2 + sidecars before it = 2) + overhead
    'hugepages-2Mi': '2Mi',
    'limits.cpu': '1010m', // overhead is added to the limits the pod sets
    'limits.memory': '1088Mi',
    memory: '1088Mi',
    pods: '1',
    'requests.cpu': '2010m',
    'requests.example.com/gpu': '1',
    'requests.hugepages-2Mi': '2Mi',
    'requests.memory': '1088Mi',
  });
  assert.deepEqual(usage('', 'pods', { ...pod, status: { phase: 'Succeeded' } }), { 'count/pods': '1' });
  const expired = { ...pod, metadata: { deletionTimestamp: '2025-12-31T23:59:00Z', deletionGracePeriodSeconds: 30 } };
  assert.deepEqual(usage('', 'pods', expired), { 'count/pods': '1' });
});

test('service usage: node ports by type, load balancers; PVCs by storage class; any other kind counts one', () => {
  const ports = [{ port: 80 }, { port: 81, nodePort: 30001 }];
  assert.deepEqual(usage('', 'services', { spec: { type: 'ClusterIP', ports } }), { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '0' });
  assert.deepEqual(usage('', 'services', { spec: { type: 'NodePort', ports } }), { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '2' });
  assert.deepEqual(usage('', 'services', { spec: { type: 'LoadBalancer', ports, allocateLoadBalancerNodePorts: false } }), {
    'count/services': '1',
    services: '1',
    'services.loadbalancers': '1',
    'services.nodeports': '1',
  });
  assert.deepEqual(usage('', 'persistentvolumeclaims', { spec: { storageClassName: 'gold', resources: { requests: { storage: '1Gi' } } }, status: { allocatedResources: { storage: '2Gi' } } }), {
    'count/persistentvolumeclaims': '1',
    'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
    'gold.storageclass.storage.k8s.io/requests.storage': '2Gi',
    persistentvolumeclaims: '1',
    'requests.storage': '2Gi',
  });
  assert.deepEqual(usage('apps', 'deployments', {}), { 'count/deployments.apps': '1' });
  assert.deepEqual(usage('', 'configmaps', {}), { configmaps: '1', 'count/configmaps': '1' });
  assert.equal(evaluatorFor('apps', 'deployments').handles('UPDATE'), false);
  assert.equal(evaluatorFor('', 'pods').handles('UPDATE'), false);
  assert.equal(evaluatorFor('', 'services').handles('UPDATE'), true);
});

test('matching: a quota applies when it limits one of the kind resources and the object is in all its scopes', () => {
  const q = (spec: ResourceQuota['spec']): ResourceQuota => ({ spec });
  const pods = evaluatorFor('', 'pods');
  const bestEffort = { spec: { containers: [{ name: 'c' }] } };
  const burstable = { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }], priorityClassName: 'high', activeDeadlineSeconds: 5 } };
  assert.equal(quotaMatches(['configmaps'], q({}), pods, bestEffort), false);
  assert.equal(quotaMatches(['pods'], q({ scopes: ['BestEffort'] }), pods, bestEffort), true);
  assert.equal(quotaMatches(['pods'], q({ scopes: ['BestEffort'] }), pods, burstable), false);
  assert.equal(quotaMatches(['pods'], q({ scopes: ['NotBestEffort', 'Terminating'] }), pods, burstable), true);
  assert.equal(quotaMatches(['pods'], q({ scopes: ['NotTerminating'] }), pods, burstable), false);
  const prio = (operator: string, values: string[] = []) => q({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator, values }] } });
  assert.equal(quotaMatches(['pods'], prio('In', ['high']), pods, burstable), true);
  assert.equal(quotaMatches(['pods'], prio('NotIn', ['high']), pods, burstable), false);
  assert.equal(quotaMatches(['pods'], prio('Exists'), pods, bestEffort), false);
  assert.equal(quotaMatches(['pods'], prio('DoesNotExist'), pods, bestEffort), true);
  const crossNs = { spec: { containers: [{ name: 'c' }], affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'k', namespaceSelector: {} }] } } } };
  assert.equal(quotaMatches(['pods'], q({ scopes: ['CrossNamespacePodAffinity'] }), pods, crossNs), true);
  assert.equal(quotaMatches(['pods'], q({ scopes: ['CrossNamespacePodAffinity'] }), pods, bestEffort), false);
  // Kinds without scopes are in none: a scoped quota never counts them.
  assert.equal(quotaMatches(['configmaps'], q({ scopes: ['BestEffort'] }), evaluatorFor('', 'configmaps'), {}), false);
});

test('constraints, usage sums and what a quota name is counted from', () => {
  const pods = evaluatorFor('', 'pods');
  const pod = { spec: { containers: [{ name: 'a', resources: { requests: { cpu: '1' } } }, { name: 'b' }], initContainers: [{ name: 'i' }] } };
  assert.equal(pods.constraints(['requests.cpu', 'limits.memory', 'pods'], pod), 'must specify limits.memory for: a,b,i; must specify requests.cpu for: b,i');
  const sum = usageOf({ spec: { hard: { pods: '9', 'requests.cpu': '9' } } }, ['pods', 'requests.cpu', 'count/pods'], pods, [pod, pod], NOW);
  assert.equal(prettyPrint(sum), 'count/pods=2,pods=2,requests.cpu=2');
  assert.deepEqual(resourcesCountedBy('count/deployments.apps'), [{ group: 'apps', resource: 'deployments' }]);
  assert.deepEqual(resourcesCountedBy('requests.storage'), [{ group: '', resource: 'persistentvolumeclaims' }]);
  assert.deepEqual(resourcesCountedBy('services.nodeports'), [{ group: '', resource: 'services' }]);
  assert.deepEqual(resourcesCountedBy('secrets'), [{ group: '', resource: 'secrets' }]);
});
