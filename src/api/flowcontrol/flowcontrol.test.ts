// flowcontrol.apiserver.k8s.io/v1: Kubernetes' defaults (pkg/apis/flowcontrol/v1/defaults.go) and
// the protobuf field numbers of generated.proto, with a lossless round trip.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeMessage, encodeMessage } from '../../machinery/codec/protobuf.js';
import type { KubeObject } from '../schema/kind.js';
import { protoFields } from '../vectors.testutil.js';
import { defaultFlowSchema, defaultPriorityLevelConfiguration, flowcontrolKinds } from './kinds.js';
import { FlowSchema, PriorityLevelConfiguration } from './v1.js';

test('FlowSchema: matchingPrecedence 0 or unset becomes 1000; a set one stays', () => {
  for (const spec of [{}, { matchingPrecedence: 0 }]) {
    const fs: KubeObject = { spec: { priorityLevelConfiguration: { name: 'p' }, ...spec } };
    defaultFlowSchema(fs);
    assert.equal((fs.spec as KubeObject).matchingPrecedence, 1000);
  }
  const fs: KubeObject = { spec: { matchingPrecedence: 42 } };
  defaultFlowSchema(fs);
  assert.equal((fs.spec as KubeObject).matchingPrecedence, 42);
  assert.equal(flowcontrolKinds.find((k) => k.kind === 'FlowSchema')!.defaults, defaultFlowSchema);
});

test('PriorityLevelConfiguration: limited shares 30, lendablePercent 0, queuing 64/8/50; exempt 0/0', () => {
  const pl: KubeObject = { spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } };
  defaultPriorityLevelConfiguration(pl);
  assert.deepEqual(pl.spec, { type: 'Limited', limited: { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } } });
  // An explicit 0 share is kept (the v1 field is a pointer so that it can be 0), set values too.
  const zero: KubeObject = { spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0, lendablePercent: 10, limitResponse: { type: 'Queue', queuing: { queues: 7, handSize: 2, queueLengthLimit: 3 } } } } };
  defaultPriorityLevelConfiguration(zero);
  assert.deepEqual(zero.spec, { type: 'Limited', limited: { nominalConcurrencyShares: 0, lendablePercent: 10, limitResponse: { type: 'Queue', queuing: { queues: 7, handSize: 2, queueLengthLimit: 3 } } } });
  const reject: KubeObject = { spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } };
  defaultPriorityLevelConfiguration(reject);
  assert.deepEqual(reject.spec, { type: 'Limited', limited: { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Reject' } } });
  const exempt: KubeObject = { spec: { type: 'Exempt', exempt: {} } };
  defaultPriorityLevelConfiguration(exempt);
  assert.deepEqual(exempt.spec, { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } });
  // No exempt struct: none is made up (SetDefaults runs on present structs only).
  const bare: KubeObject = { spec: { type: 'Exempt' } };
  defaultPriorityLevelConfiguration(bare);
  assert.deepEqual(bare.spec, { type: 'Exempt' });
});

test('protobuf: FlowSchema and PriorityLevelConfiguration field numbers and a lossless round trip', () => {
  const fs = {
    metadata: { name: 'fs', creationTimestamp: '2026-01-02T03:04:05Z' },
    spec: {
      priorityLevelConfiguration: { name: 'pl' },
      matchingPrecedence: 500,
      distinguisherMethod: { type: 'ByUser' },
      rules: [{
        subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }],
        resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], clusterScope: true, namespaces: ['*'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      }],
    },
    status: { conditions: [{ type: 'Dangling', status: 'False', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'Found', message: 'ok' }] },
  };
  const bytes = encodeMessage(fs, FlowSchema);
  const spec = protoFields(protoFields(bytes).get(2)![0]!.data as Uint8Array);
  assert.deepEqual([...spec.keys()].sort(), [1, 2, 3, 4]);
  assert.equal(spec.get(2)![0]!.data, 500n);
  const rule = protoFields(spec.get(4)![0]!.data as Uint8Array);
  const nonResource = protoFields(rule.get(3)![0]!.data as Uint8Array);
  assert.deepEqual([...nonResource.keys()].sort(), [1, 6], 'nonResourceURLs is field 6');
  const resource = protoFields(rule.get(2)![0]!.data as Uint8Array);
  assert.equal(resource.get(4)![0]!.data, 1n, 'clusterScope is field 4');
  assert.deepEqual(decodeMessage(bytes, FlowSchema), fs);

  const pl = {
    metadata: { name: 'pl', creationTimestamp: '2026-01-02T03:04:05Z' },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } }, lendablePercent: 10, borrowingLimitPercent: 20 } },
    status: {},
  };
  const plBytes = encodeMessage(pl, PriorityLevelConfiguration);
  const limited = protoFields(protoFields(protoFields(plBytes).get(2)![0]!.data as Uint8Array).get(2)![0]!.data as Uint8Array);
  // nominalConcurrencyShares is a pointer: an explicit 0 is on the wire.
  assert.equal(limited.get(1)![0]!.data, 0n);
  assert.equal(limited.get(3)![0]!.data, 10n);
  assert.equal(limited.get(4)![0]!.data, 20n);
  assert.deepEqual(decodeMessage(plBytes, PriorityLevelConfiguration), pl);
});
