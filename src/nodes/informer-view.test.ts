import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../client/types.js';
import { agentView } from './informer-view.js';

describe('agentView: what the agent caches', () => {
  const managedFields = [{ manager: 'kubelet', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': {} } }];

  it('a Node keeps its metadata (no managedFields), spec, conditions and attached volumes; not what the node reports of itself', () => {
    const node: KubeObject = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n', labels: { 'topology.kubernetes.io/zone': 'a' }, annotations: { 'kubelite.dev/simulate': 'NotReady' }, managedFields },
      spec: { podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'], taints: [{ key: 'k', effect: 'NoSchedule' }] },
      status: {
        capacity: { cpu: '4' },
        allocatable: { cpu: '4' },
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [{ type: 'InternalIP', address: '10.0.0.2' }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: { kubeletVersion: 'v1.33.0' },
        images: [{ names: ['nginx'], sizeBytes: 1 }],
        volumesAttached: [{ name: 'kubernetes.io/csi/x^y', devicePath: '' }],
      },
    };
    assert.deepEqual(agentView(node), {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n', labels: { 'topology.kubernetes.io/zone': 'a' }, annotations: { 'kubelite.dev/simulate': 'NotReady' } },
      spec: { podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'], taints: [{ key: 'k', effect: 'NoSchedule' }] },
      status: { conditions: [{ type: 'Ready', status: 'True' }], volumesAttached: [{ name: 'kubernetes.io/csi/x^y', devicePath: '' }] },
    });
    assert.equal((node.status as { nodeInfo?: unknown }).nodeInfo !== undefined, true, 'the object given is left as it was');
  });

  it('other kinds lose only their managedFields', () => {
    const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', managedFields }, spec: { nodeName: 'n' }, status: { phase: 'Running' } };
    assert.deepEqual(agentView(pod), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { nodeName: 'n' }, status: { phase: 'Running' } });
  });
});
