import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../api/types.js';
import { cadvisorMetrics, resourceMetrics } from './stats.js';

const T0 = Date.UTC(2026, 0, 1);
const pod = (cpuLimit: string, usage: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `p-${cpuLimit}`, namespace: 'default', uid: 'u', annotations: { 'kubelite.dev/usage': usage } },
  spec: { nodeName: 'n', containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: cpuLimit, memory: '128Mi' } } }] },
  status: { phase: 'Running', startTime: new Date(T0).toISOString(), containerStatuses: [{ name: 'c', state: { running: { startedAt: new Date(T0).toISOString() } } }] },
});

test('CPU over its limit is throttled, not killed: usage held to the limit, every CFS period throttled', () => {
  const input = { node: 'n', nodeStart: T0, now: T0 + 10_000, pods: [pod('500m', 'cpu=2,memory=64Mi'), pod('2', 'cpu=1')], memoryCapacity: 8 * 2 ** 30 };
  const text = cadvisorMetrics(input);
  assert.match(text, /container_cpu_cfs_periods_total\{container="c",image="nginx",namespace="default",pod="p-500m"\} 100 /);
  assert.match(text, /container_cpu_cfs_throttled_periods_total\{[^}]*pod="p-500m"\} 100 /);
  assert.match(text, /container_cpu_cfs_throttled_seconds_total\{[^}]*pod="p-500m"\} 7\.5 /);
  assert.match(text, /container_cpu_cfs_throttled_periods_total\{[^}]*pod="p-2"\} 0 /);
  // the measured usage: 0.5 core for 10 s, not 2
  assert.match(resourceMetrics(input), /container_cpu_usage_seconds_total\{[^}]*pod="p-500m"\} 5 /);
});
