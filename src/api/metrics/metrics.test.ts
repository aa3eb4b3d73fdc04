// metrics.k8s.io/v1beta1: the JSON Kubernetes' clients expect (timestamp, window, usage always
// written) and the protobuf field numbers, with a lossless round trip.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeMessage, encodeMessage } from '../../machinery/codec/protobuf.js';
import { protoFields } from '../vectors.testutil.js';
import { metricsKinds } from './kinds.js';
import { NodeMetrics, PodMetrics } from './v1beta1.js';

test('the metrics kinds are computed, read-only, named nodes and pods in metrics.k8s.io/v1beta1', () => {
  assert.deepEqual(metricsKinds.map((k) => [k.group, k.version, k.resource, k.kind, k.namespaced, k.computed, k.storage]), [
    ['metrics.k8s.io', 'v1beta1', 'nodes', 'NodeMetrics', false, true, false],
    ['metrics.k8s.io', 'v1beta1', 'pods', 'PodMetrics', true, true, false],
  ]);
});

test('protobuf: NodeMetrics and PodMetrics field numbers and a lossless round trip', () => {
  const node = { metadata: { name: 'n', creationTimestamp: '2026-01-02T03:04:05Z' }, timestamp: '2026-01-02T03:04:05Z', window: '10s', usage: { cpu: '250m', memory: '352Mi' } };
  const nodeBytes = encodeMessage(node, NodeMetrics);
  const top = protoFields(nodeBytes);
  assert.deepEqual([...top.keys()].sort(), [1, 2, 3, 4]);
  assert.equal(top.get(4)!.length, 2, 'one map entry per resource');
  assert.deepEqual(decodeMessage(nodeBytes, NodeMetrics), node);
  const pod = { metadata: { name: 'p', namespace: 'ns', creationTimestamp: '2026-01-02T03:04:05Z' }, timestamp: '2026-01-02T03:04:05Z', window: '10s', containers: [{ name: 'c', usage: { cpu: '5m', memory: '4Mi' } }] };
  const podBytes = encodeMessage(pod, PodMetrics);
  const container = protoFields(protoFields(podBytes).get(4)![0]!.data as Uint8Array);
  assert.deepEqual([...container.keys()].sort(), [1, 2]);
  assert.deepEqual(decodeMessage(podBytes, PodMetrics), pod);
});
