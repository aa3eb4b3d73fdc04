import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { componentArgsOf } from './flag-options.js';

test('componentArgsOf: each typed option becomes its component\'s flag; unset ones add nothing', () => {
  assert.deepEqual(componentArgsOf({}), { apiserver: [], controllerManager: [], nodes: [] });
  assert.deepEqual(
    componentArgsOf({ controllers: '*,-ttl', featureGates: 'A=true', kubeApiQPS: 50.5, kubeApiBurst: 0, zones: ['a', 'b'], nodeCPU: '8', nodeMemory: '16Gi', auditPolicyFile: 'policy.yaml', auditLogPath: '-' }),
    {
      apiserver: ['--audit-policy-file', resolve('policy.yaml'), '--audit-log-path', '-'],
      controllerManager: ['--controllers', '*,-ttl', '--feature-gates', 'A=true', '--kube-api-qps', '50.5', '--kube-api-burst', '0'],
      nodes: ['--zones', 'a,b', '--node-cpu', '8', '--node-memory', '16Gi'],
    },
  );
});

test('componentArgsOf: the simulated nodes\' image pull and eviction options', () => {
  assert.deepEqual(componentArgsOf({ imagePullTime: '1s', imagePullFailures: ['*/broken*', 'registry.corp/*'], evictionHard: 'memory.available<200Mi', evictionMonitoringInterval: '2s' }).nodes, [
    '--image-pull-time', '1s', '--image-pull-failures', '*/broken*,registry.corp/*', '--eviction-hard', 'memory.available<200Mi', '--eviction-monitoring-interval', '2s',
  ]);
});
