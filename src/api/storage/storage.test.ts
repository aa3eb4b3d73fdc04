// storage.k8s.io/v1: the kinds as kube-apiserver 1.33's discovery lists them (no
// VolumeAttributesClass: v1beta1 and off by default), Go field order, SetObjectDefaults_* and
// protobuf round trips.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalize } from '../../machinery/codec/normalize.js';
import { decodeProtobuf, encodeProtobuf } from '../../machinery/codec/protobuf.js';
import { storageKinds } from './kinds.js';
import { CSIDriverSpec, CSINodeDriver, StorageClass, VolumeAttachmentSpec } from './v1.js';
import { PersistentVolumeSpec } from '../core/v1/persistentvolume.js';

test('storage.k8s.io/v1 kinds: names, scope, short names, subresources', () => {
  const rows = storageKinds.map((k) => [k.resource, k.singular, (k.shortNames ?? []).join(','), k.namespaced, k.kind, Object.keys(k.subresources ?? {}).join(',')]);
  assert.deepEqual(rows, [
    ['csidrivers', 'csidriver', '', false, 'CSIDriver', ''],
    ['csinodes', 'csinode', '', false, 'CSINode', ''],
    ['csistoragecapacities', 'csistoragecapacity', '', true, 'CSIStorageCapacity', ''],
    ['storageclasses', 'storageclass', 'sc', false, 'StorageClass', ''],
    ['volumeattachments', 'volumeattachment', '', false, 'VolumeAttachment', 'status'],
  ]);
  for (const k of storageKinds) assert.equal(k.type.name, `io.k8s.api.storage.v1.${k.kind}`);
});

test('fields in Go struct order with generated.proto numbers', () => {
  const order = (s: { fields: Record<string, { tag: number }> }) => Object.entries(s.fields).map(([k, f]) => `${k}=${f.tag}`);
  assert.deepEqual(order(StorageClass).slice(3), ['provisioner=2', 'parameters=3', 'reclaimPolicy=4', 'mountOptions=5', 'allowVolumeExpansion=6', 'volumeBindingMode=7', 'allowedTopologies=8']);
  assert.deepEqual(order(CSIDriverSpec), [
    'attachRequired=1', 'podInfoOnMount=2', 'volumeLifecycleModes=3', 'storageCapacity=4', 'fsGroupPolicy=5', 'tokenRequests=6', 'requiresRepublish=7', 'seLinuxMount=8', 'nodeAllocatableUpdatePeriodSeconds=9',
  ]);
  assert.deepEqual(order(CSINodeDriver), ['name=1', 'nodeID=2', 'topologyKeys=3', 'allocatable=4']);
  assert.deepEqual(order(VolumeAttachmentSpec), ['attacher=1', 'source=2', 'nodeName=3']);
  const spec = order(PersistentVolumeSpec);
  assert.deepEqual([spec[0], spec[spec.length - 1]], ['capacity=1', 'volumeAttributesClassName=10']);
  assert.equal(spec.length, 10 + 21, 'capacity, the 22 inline sources, and the other 8 fields');
});

test('SetObjectDefaults: StorageClass, CSIDriver, VolumeAttachment inline specs', () => {
  const kind = (k: string) => storageKinds.find((s) => s.kind === k)!;
  const sc: Record<string, unknown> = { provisioner: 'p', reclaimPolicy: 'Retain' };
  kind('StorageClass').defaults!(sc);
  assert.deepEqual(sc, { provisioner: 'p', reclaimPolicy: 'Retain', volumeBindingMode: 'Immediate' });
  const driver: Record<string, unknown> = { spec: { attachRequired: false, volumeLifecycleModes: ['Ephemeral'] } };
  kind('CSIDriver').defaults!(driver);
  assert.deepEqual(driver.spec, {
    attachRequired: false, volumeLifecycleModes: ['Ephemeral'], podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType', requiresRepublish: false, seLinuxMount: false,
  });
  const va: Record<string, unknown> = { spec: { source: { inlineVolumeSpec: { csi: { driver: 'd', volumeHandle: 'h' }, capacity: { storage: '1.0001' } } } } };
  kind('VolumeAttachment').defaults!(va);
  assert.deepEqual(va, { spec: { source: { inlineVolumeSpec: { csi: { driver: 'd', volumeHandle: 'h' }, capacity: { storage: '1001m' } } } } });
});

test('populated storage.k8s.io objects round-trip through protobuf', () => {
  const objects: Record<string, Record<string, unknown>> = {
    StorageClass: {
      metadata: { name: 'fast' }, provisioner: 'p', parameters: { a: 'b' }, reclaimPolicy: 'Retain', mountOptions: ['ro'], allowVolumeExpansion: true, volumeBindingMode: 'WaitForFirstConsumer',
      allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['a', 'b'] }] }],
    },
    CSIDriver: { metadata: { name: 'd' }, spec: { attachRequired: false, podInfoOnMount: true, volumeLifecycleModes: ['Ephemeral'], storageCapacity: true, fsGroupPolicy: 'File', tokenRequests: [{ audience: 'a', expirationSeconds: 3600 }], requiresRepublish: true, seLinuxMount: true, nodeAllocatableUpdatePeriodSeconds: 60 } },
    CSINode: { metadata: { name: 'n' }, spec: { drivers: [{ name: 'd', nodeID: 'x', topologyKeys: ['zone'], allocatable: { count: 5 } }] } },
    CSIStorageCapacity: { metadata: { name: 'c', namespace: 'ns' }, nodeTopology: { matchLabels: { zone: 'a' } }, storageClassName: 'fast', capacity: '10Gi', maximumVolumeSize: '1Gi' },
    VolumeAttachment: {
      metadata: { name: 'va' },
      spec: { attacher: 'd', nodeName: 'n', source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi: { driver: 'd', volumeHandle: 'h' } } } },
      status: { attached: true, attachmentMetadata: { k: 'v' }, attachError: { time: '2026-11-22T02:34:38Z', message: 'm', errorCode: 3 } },
    },
  };
  for (const k of storageKinds) {
    const canonical = canonicalize({ apiVersion: 'storage.k8s.io/v1', kind: k.kind, ...objects[k.kind] }, k.type);
    assert.deepEqual(decodeProtobuf(encodeProtobuf(canonical, k.type), k.type).object, canonical, k.kind);
  }
});
