// core/v1 ReplicationController: the declared wire facts (JSON omitempty/pointer, protobuf field
// numbers of k8s.io/api core/v1 generated.proto) and SetObjectDefaults_ReplicationController.
// No golden vectors exist for this kind; the expectations are Kubernetes' Go declarations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeMessage, encodeMessage } from '../../../machinery/codec/protobuf.js';
import { goEncode, protoFields } from '../../vectors.testutil.js';
import { coreV1Kinds, replicationControllerKind } from './kinds.js';
import { ReplicationController, ReplicationControllerSpec, ReplicationControllerStatus, setDefaultsReplicationController } from './replicationcontroller.js';

type Obj = Record<string, unknown>;

const template = (labels?: Record<string, string>) => ({
  metadata: labels ? { labels } : {},
  spec: { containers: [{ name: 'c', image: 'busybox' }] },
});

test('the kind: core/v1 replicationcontrollers, rc, category all, status and scale', () => {
  assert.ok(coreV1Kinds.includes(replicationControllerKind));
  assert.equal(replicationControllerKind.group, '');
  assert.equal(replicationControllerKind.version, 'v1');
  assert.equal(replicationControllerKind.storage, true);
  assert.equal(replicationControllerKind.resource, 'replicationcontrollers');
  assert.equal(replicationControllerKind.singular, 'replicationcontroller');
  assert.deepEqual(replicationControllerKind.shortNames, ['rc']);
  assert.deepEqual(replicationControllerKind.categories, ['all']);
  assert.equal(replicationControllerKind.namespaced, true);
  assert.deepEqual(replicationControllerKind.subresources, { status: true, scale: true });
  assert.equal(replicationControllerKind.type, ReplicationController);
});

test('the declared fields: Go order, protobuf numbers, pointers and omitempty', () => {
  const facts = (s: typeof ReplicationControllerSpec | typeof ReplicationControllerStatus) =>
    Object.entries(s.fields).map(([k, f]) => `${k}=${f.tag}${f.pointer ? '*' : ''}${f.omitempty ? '' : '!'}`);
  assert.deepEqual(facts(ReplicationControllerSpec), ['replicas=1*', 'minReadySeconds=4', 'selector=2', 'template=3*']);
  assert.deepEqual(facts(ReplicationControllerStatus), [
    'replicas=1!', 'fullyLabeledReplicas=2', 'readyReplicas=4', 'availableReplicas=5', 'observedGeneration=3', 'conditions=6',
  ]);
  assert.equal(ReplicationControllerSpec.fields.selector.mapType, 'atomic');
  const conditions = ReplicationControllerStatus.fields.conditions;
  assert.equal(conditions.patchStrategy, 'merge');
  assert.equal(conditions.patchMergeKey, 'type');
  assert.deepEqual(conditions.listMapKeys, ['type']);
  assert.deepEqual(Object.keys(ReplicationController.fields), ['kind', 'apiVersion', 'metadata', 'spec', 'status']);
});

test("Go's JSON of a ReplicationController: status.replicas always written, the rest omitted when zero", () => {
  const json = goEncode(ReplicationController, { metadata: { name: 'rc' }, spec: { selector: { app: 'a' } }, status: {} });
  assert.deepEqual(json.spec, { selector: { app: 'a' } });
  assert.deepEqual(json.status, { replicas: 0 });
  const full = goEncode(ReplicationController, {
    spec: { replicas: 0, minReadySeconds: 0, selector: {}, template: template({ app: 'a' }) },
    status: { replicas: 2, readyReplicas: 1, conditions: [{ type: 'ReplicaFailure', status: 'True' }] },
  }) as { spec: Obj; status: Obj };
  // replicas is a pointer: an explicit 0 is written.
  assert.equal(full.spec.replicas, 0);
  assert.equal('minReadySeconds' in full.spec, false);
  // metav1.Time is a struct: omitempty never omits it, and its zero value is null.
  assert.deepEqual(full.status.conditions, [{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: null }]);
});

test('protobuf: the field numbers on the wire and a lossless round trip', () => {
  const rc = {
    metadata: { name: 'rc', namespace: 'ns' },
    spec: { replicas: 3, minReadySeconds: 7, selector: { app: 'a', tier: 'b' }, template: template({ app: 'a', tier: 'b' }) },
    status: { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 1, observedGeneration: 4, conditions: [{ type: 'ReplicaFailure', status: 'False', reason: 'R', message: 'm' }] },
  };
  const bytes = encodeMessage(rc, ReplicationController);
  const top = protoFields(bytes);
  assert.deepEqual([...top.keys()].sort(), [1, 2, 3]);
  const spec = protoFields(top.get(2)![0]!.data as Uint8Array);
  assert.equal(spec.get(1)![0]!.data, 3n);
  assert.equal(spec.get(4)![0]!.data, 7n);
  assert.equal(spec.get(2)!.length, 2, 'one map entry per selector key');
  assert.equal(spec.get(3)!.length, 1);
  const status = protoFields(top.get(3)![0]!.data as Uint8Array);
  assert.deepEqual(
    [1, 2, 3, 4, 5].map((n) => status.get(n)![0]!.data),
    [3n, 3n, 4n, 2n, 1n],
  );
  const cond = protoFields(status.get(6)![0]!.data as Uint8Array);
  assert.deepEqual([...cond.keys()].sort(), [1, 2, 3, 4, 5]);
  const back = decodeMessage<Obj>(bytes, ReplicationController) as { spec: Obj; status: Obj };
  assert.deepEqual(back.spec.selector, rc.spec.selector);
  assert.equal(back.spec.replicas, 3);
  assert.equal(back.spec.minReadySeconds, 7);
  assert.deepEqual((back.spec.template as { metadata: Obj }).metadata.labels, { app: 'a', tier: 'b' });
  assert.equal(back.status.observedGeneration, 4);
  assert.equal((back.status.conditions as Obj[])[0]!.reason, 'R');
});

test('defaults: selector and labels from the template labels, replicas 1, the template defaulted', () => {
  const rc: Obj = { metadata: { name: 'rc' }, spec: { template: template({ app: 'a' }) } };
  setDefaultsReplicationController(rc);
  const spec = rc.spec as { selector: Obj; replicas: number; template: { spec: Obj } };
  assert.deepEqual(spec.selector, { app: 'a' });
  assert.deepEqual((rc.metadata as Obj).labels, { app: 'a' });
  assert.equal(spec.replicas, 1);
  // defaultPodSpec ran on the template.
  assert.equal(spec.template.spec.restartPolicy, 'Always');
  assert.equal(spec.template.spec.dnsPolicy, 'ClusterFirst');
  const container = (spec.template.spec.containers as Obj[])[0]!;
  assert.equal(container.imagePullPolicy, 'Always');
  // The copies are not the template's map.
  (rc.spec as { selector: Obj }).selector.x = 'y';
  assert.deepEqual((spec.template as unknown as { metadata: Obj }).metadata.labels, { app: 'a' });
});

test('defaults: an explicit selector, labels and replicas (0 too) are kept', () => {
  const rc: Obj = { metadata: { name: 'rc', labels: { mine: 'yes' } }, spec: { replicas: 0, selector: { app: 'a' }, template: template({ app: 'a', extra: 'e' }) } };
  setDefaultsReplicationController(rc);
  assert.deepEqual((rc.spec as Obj).selector, { app: 'a' });
  assert.deepEqual((rc.metadata as Obj).labels, { mine: 'yes' });
  assert.equal((rc.spec as Obj).replicas, 0);
  // Empty selector and labels are replaced (Go's len(...) == 0).
  const empty: Obj = { metadata: { labels: {} }, spec: { selector: {}, template: template({ app: 'b' }) } };
  setDefaultsReplicationController(empty);
  assert.deepEqual((empty.spec as Obj).selector, { app: 'b' });
  assert.deepEqual((empty.metadata as Obj).labels, { app: 'b' });
});

test('defaults: no template (a nil pointer) stays absent; no template labels default nothing', () => {
  const none: Obj = { metadata: { name: 'rc' }, spec: { selector: { app: 'a' } } };
  setDefaultsReplicationController(none);
  assert.deepEqual(none.spec, { selector: { app: 'a' }, replicas: 1 });
  assert.equal('labels' in (none.metadata as Obj), false);
  const unlabeled: Obj = { spec: { template: template() } };
  setDefaultsReplicationController(unlabeled);
  assert.equal('selector' in (unlabeled.spec as Obj), false);
  assert.equal(((unlabeled.spec as Obj).template as { spec: Obj }).spec.restartPolicy, 'Always');
  const noSpec: Obj = { metadata: { name: 'rc' } };
  setDefaultsReplicationController(noSpec);
  assert.deepEqual(noSpec.spec, { replicas: 1 });
});
