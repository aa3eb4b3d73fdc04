import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findResource } from '../../api/kinds.js';
import type { KindVersion } from '../../api/schema/kind.js';
import type { LimitRange, LimitRangeItem } from '../../api/types.js';
import { StatusError } from '../../machinery/status.js';
import { LimitRanger, podLimitErrors, pvcLimitErrors } from './limit-ranger.js';
import type { AdmissionAttributes } from './types.js';

const lr = (...limits: LimitRangeItem[]): LimitRange => ({ spec: { limits } });
const container = (name: string, requests?: Record<string, string>, limits?: Record<string, string>) => ({ name, image: 'i', resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } });

test('container min, max and ratio: Kubernetes texts', () => {
  const range = lr({ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1', memory: '1Gi' }, maxLimitRequestRatio: { cpu: '2' } });
  assert.deepEqual(podLimitErrors(range, { spec: { containers: [container('a', { cpu: '50m' }, { cpu: '2', memory: '2Gi' })] } }), [
    'minimum cpu usage per Container is 100m, but request is 50m',
    'maximum cpu usage per Container is 1, but limit is 2',
    'maximum memory usage per Container is 1Gi, but limit is 2Gi',
    'cpu max limit to request ratio per Container is 2, but provided ratio is 40.000000',
  ]);
  assert.deepEqual(podLimitErrors(range, { spec: { containers: [container('a')] } }), [
    'minimum cpu usage per Container is 100m.  No request is specified',
    'maximum cpu usage per Container is 1.  No limit is specified',
    'maximum memory usage per Container is 1Gi.  No limit is specified',
    'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0',
  ]);
});

test('Pod items hold the pod total (containers summed, init containers at most)', () => {
  const range = lr({ type: 'Pod', max: { cpu: '1' } });
  const pod = { spec: { containers: [container('a', { cpu: '600m' }, { cpu: '600m' }), container('b', { cpu: '600m' }, { cpu: '600m' })] } };
  assert.deepEqual(podLimitErrors(range, pod), ['maximum cpu usage per Pod is 1, but limit is 1200m']);
  const requestsOnly = { spec: { containers: [container('a', { cpu: '600m' }, { cpu: '1' }), container('b', { cpu: '600m' })] } };
  assert.deepEqual(podLimitErrors(lr({ type: 'Pod', min: { cpu: '2' } }), requestsOnly), ['minimum cpu usage per Pod is 2, but request is 1200m']);
});

test('PVC storage min and max on the request', () => {
  const range = lr({ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } });
  assert.deepEqual(pvcLimitErrors(range, { spec: { resources: { requests: { storage: '20Gi' } } } }), ['maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi']);
  assert.deepEqual(pvcLimitErrors(range, { spec: { resources: { requests: { storage: '500Mi' } } } }), ['minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi']);
  assert.deepEqual(pvcLimitErrors(range, { spec: {} }), [
    'minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified',
    'maximum storage usage per PersistentVolumeClaim is 10Gi.  No request is specified',
  ]);
});

test('the plugin: defaults on pod create only, several failures in brackets, pod updates not checked', async () => {
  const ranges = [lr({ type: 'Container', default: { cpu: '1' }, defaultRequest: { cpu: '500m' }, max: { cpu: '1', memory: '1Gi' } })];
  const plugin = new LimitRanger({ list: async () => ranges });
  const kind = findResource('', 'v1', 'pods') as KindVersion;
  const attrs = (over: Partial<AdmissionAttributes>): AdmissionAttributes => ({
    operation: 'CREATE', kind, group: '', resource: 'pods', subresource: '', namespace: 'ns', name: '', user: { name: 'u', groups: [] }, dryRun: false, ...over,
  });
  const pod = { metadata: { name: 'p' }, spec: { containers: [container('c', undefined, { memory: '512Mi' })], initContainers: [container('i', { cpu: '1' })] } };
  const a = attrs({ object: pod });
  await plugin.admit(a);
  assert.deepEqual(pod.spec.containers[0]!.resources, { requests: { cpu: '500m' }, limits: { memory: '512Mi', cpu: '1' } });
  assert.deepEqual(pod.spec.initContainers[0]!.resources, { requests: { cpu: '1' }, limits: { cpu: '1' } });
  assert.deepEqual((pod.metadata as { annotations?: unknown }).annotations, {
    'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu request for container c; cpu limit for container c; cpu limit for init container i',
  });
  const bad = attrs({ object: { metadata: { name: 'bad' }, spec: { containers: [container('c', { cpu: '2' }, { cpu: '2' })] } } });
  await assert.rejects(Promise.resolve(plugin.validate(bad)), (err: unknown) => {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 403);
    assert.equal(err.message, 'pods "bad" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi.  No limit is specified]');
    return true;
  });
  // Containers breaking the same limit give one message (the aggregate drops repeats).
  const twice = attrs({ object: { metadata: { name: 'twice' }, spec: { containers: [container('a', { cpu: '2', memory: '1Gi' }, { cpu: '2', memory: '1Gi' }), container('b', { cpu: '2', memory: '1Gi' }, { cpu: '2', memory: '1Gi' })] } } });
  await assert.rejects(Promise.resolve(plugin.validate(twice)), (err: unknown) => {
    assert.ok(err instanceof StatusError);
    assert.equal(err.message, 'pods "twice" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
    return true;
  });
  await plugin.validate({ ...bad, operation: 'UPDATE', oldObject: bad.object });
});
