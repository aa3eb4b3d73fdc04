import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container, Pod } from '../api/types.js';
import { DEFAULT_EVICTION_HARD, evictionMessage, localStorageViolation, parseThresholds, rankForEviction, thresholdsMet } from './eviction.js';

const pod = (name: string, containers: Container[], annotations: Record<string, string> = {}, priority?: number): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', uid: name, annotations },
  spec: { nodeName: 'n', containers, ...(priority !== undefined ? { priority } : {}) },
  status: { phase: 'Running' },
});
const Mi = 1024 * 1024;

test('--eviction-hard: the kubelet defaults parse; quantities and percentages; mistakes are named', () => {
  const d = parseThresholds(DEFAULT_EVICTION_HARD);
  assert.deepEqual(d.map((t) => [t.signal, t.quantity?.toString() ?? `${t.percentage}%`]), [
    ['memory.available', '100Mi'],
    ['nodefs.available', '10%'],
    ['imagefs.available', '15%'],
    ['nodefs.inodesFree', '5%'],
  ]);
  assert.throws(() => parseThresholds('memory.free<1Gi'), /unknown eviction signal "memory.free"/);
  assert.throws(() => parseThresholds('memory.available>1Gi'), /is not <signal>/);
  assert.throws(() => parseThresholds('nodefs.available<120%'), /not a percentage/);
  assert.throws(() => parseThresholds('memory.available<1Gi,memory.available<2Gi'), /given twice/);
  const obs = { 'memory.available': { available: 99 * Mi, capacity: 1024 * Mi }, 'nodefs.available': { available: 11, capacity: 100 }, 'imagefs.available': { available: 11, capacity: 100 } };
  assert.deepEqual(thresholdsMet(d, obs).map((t) => t.signal), ['memory.available', 'imagefs.available']);
});

test('rank under memory pressure: pods over their requests first, then lower priority, then the larger use over request', () => {
  const bestEffort = pod('best-effort', [{ name: 'c' }], { 'kubelite.dev/usage': 'memory=100Mi' });
  const burstableUnder = pod('burstable-under', [{ name: 'c', resources: { requests: { memory: '600Mi' } } }], { 'kubelite.dev/usage': 'memory=500Mi' });
  const burstableOver = pod('burstable-over', [{ name: 'c', resources: { requests: { memory: '100Mi' } } }], { 'kubelite.dev/usage': 'memory=300Mi' });
  const important = pod('important', [{ name: 'c' }], { 'kubelite.dev/usage': 'memory=900Mi' }, 1000);
  const ranked = rankForEviction([important, burstableUnder, bestEffort, burstableOver], 'memory.available').map((p) => p.metadata!.name);
  assert.deepEqual(ranked, ['burstable-over', 'best-effort', 'important', 'burstable-under']);
});

test('the eviction message names the threshold, what was available and each container over its request', () => {
  const p = pod('p', [{ name: 'app' }, { name: 'side', resources: { requests: { memory: '1Gi' } } }], { 'kubelite.dev/app.usage': 'memory=300Mi' });
  const [t] = parseThresholds('memory.available<100Mi');
  const msg = evictionMessage(p, t!, { 'memory.available': { available: 50 * Mi, capacity: 1024 * Mi } });
  assert.equal(msg, 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. Container app was using 300Mi, request is 0, has larger consumption of memory. ');
});

test('local storage: a container over its ephemeral-storage limit, or the pod over the sum of its limits', () => {
  const over = pod('a', [{ name: 'c', resources: { limits: { 'ephemeral-storage': '1Gi' } } }], { 'kubelite.dev/ephemeral-storage-usage': '2Gi' });
  assert.equal(localStorageViolation(over), 'Container c exceeded its local ephemeral storage limit "1Gi". ');
  const within = pod('b', [{ name: 'c', resources: { limits: { 'ephemeral-storage': '1Gi' } } }], { 'kubelite.dev/ephemeral-storage-usage': '512Mi' });
  assert.equal(localStorageViolation(within), undefined);
  // half the request by default: no violation without writes beyond it
  assert.equal(localStorageViolation(pod('c', [{ name: 'c', resources: { requests: { 'ephemeral-storage': '1Gi' }, limits: { 'ephemeral-storage': '1Gi' } } }])), undefined);
  assert.equal(localStorageViolation(pod('d', [{ name: 'c' }], { 'kubelite.dev/ephemeral-storage-usage': '5Gi' })), undefined);
});
