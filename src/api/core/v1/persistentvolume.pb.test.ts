// PersistentVolume and PersistentVolumeClaim over protobuf: fully populated objects survive an
// encode/decode round trip unchanged, and bytes assembled by hand from core/v1 generated.proto's
// field numbers (independent of the schema) decode to the expected JSON — the inline
// PersistentVolumeSource at spec field 2, the PV sources' SecretReference, the claim's spec and
// status numbers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalize } from '../../../machinery/codec/normalize.js';
import { decodeProtobuf, encodeProtobuf, PROTOBUF_MAGIC } from '../../../machinery/codec/protobuf.js';
import type { StructType } from '../../schema/dsl.js';
import { PersistentVolume } from './persistentvolume.js';
import { PersistentVolumeClaim } from './persistentvolumeclaim.js';

const pv = {
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'pv1', finalizers: ['kubernetes.io/pv-protection'] },
  spec: {
    capacity: { storage: '10Gi' },
    csi: {
      driver: 'disk.example.com',
      volumeHandle: 'vol-1',
      readOnly: true,
      fsType: 'ext4',
      volumeAttributes: { tier: 'gold' },
      nodePublishSecretRef: { name: 's', namespace: 'ns' },
      controllerExpandSecretRef: { name: 'e', namespace: 'ns' },
    },
    accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
    claimRef: { kind: 'PersistentVolumeClaim', namespace: 'ns', name: 'data', uid: 'u1', apiVersion: 'v1', resourceVersion: '7' },
    persistentVolumeReclaimPolicy: 'Delete',
    storageClassName: 'fast',
    mountOptions: ['ro', 'noatime'],
    volumeMode: 'Block',
    nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } },
    volumeAttributesClassName: 'gold',
  },
  status: { phase: 'Bound', message: 'm', reason: 'r', lastPhaseTransitionTime: '2026-11-22T02:34:38Z' },
};

const pvc = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'ns' },
  spec: {
    accessModes: ['ReadWriteOnce'],
    selector: { matchLabels: { app: 'db' } },
    resources: { limits: { storage: '20Gi' }, requests: { storage: '10Gi' } },
    volumeName: 'pv1',
    storageClassName: 'fast',
    volumeMode: 'Filesystem',
    dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap' },
    dataSourceRef: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'snap' },
    volumeAttributesClassName: 'gold',
  },
  status: {
    phase: 'Bound',
    accessModes: ['ReadWriteOnce'],
    capacity: { storage: '10Gi' },
    conditions: [{ type: 'Resizing', status: 'True', lastTransitionTime: '2026-11-22T02:34:38Z', reason: 'r', message: 'm' }],
    allocatedResources: { storage: '10Gi' },
    allocatedResourceStatuses: { storage: 'ControllerResizeInProgress' },
    currentVolumeAttributesClassName: 'gold',
    modifyVolumeStatus: { targetVolumeAttributesClassName: 'silver', status: 'InProgress' },
  },
};

function roundTrip(obj: Record<string, unknown>, type: StructType): void {
  const canonical = canonicalize(obj, type);
  const back = decodeProtobuf(encodeProtobuf(canonical, type), type).object;
  assert.deepEqual(back, canonical);
}

test('a populated PersistentVolume and PersistentVolumeClaim round-trip through protobuf', () => {
  roundTrip(pv, PersistentVolume);
  roundTrip(pvc, PersistentVolumeClaim);
});

// ---- hand-assembled messages ----

const bytes = (s: string): number[] => [...Buffer.from(s)];
/** A length-delimited field: key (number << 3 | 2), length, payload. */
const msg = (n: number, payload: number[]): number[] => [(n << 3) | 2, payload.length, ...payload];
const str = (n: number, s: string): number[] => msg(n, bytes(s));
/** The envelope: magic, then runtime.Unknown { typeMeta(1){apiVersion(1), kind(2)}, raw(2) }. */
const envelope = (apiVersion: string, kind: string, raw: number[]): Buffer =>
  Buffer.concat([PROTOBUF_MAGIC, Buffer.from([...msg(1, [...str(1, apiVersion), ...str(2, kind)]), ...msg(2, raw)])]);

test('hand-assembled PersistentVolume bytes decode by generated.proto numbers', () => {
  const raw = [
    ...msg(1, str(1, 'pv2')),
    ...msg(2, [
      // capacity (1): map entry {key(1), value(2): Quantity{string(1)}}
      ...msg(1, [...str(1, 'storage'), ...msg(2, str(1, '1Gi'))]),
      // persistentVolumeSource (2) → iscsi (7) with its SecretReference (10)
      ...msg(2, msg(7, [...str(1, '10.0.0.1:3260'), ...str(2, 'iqn.x'), 3 << 3, 0, ...msg(10, [...str(1, 's'), ...str(2, 'ns')])])),
      ...str(3, 'ReadWriteOnce'),
      ...str(5, 'Retain'),
      ...str(6, 'slow'),
    ]),
    ...msg(3, str(1, 'Available')),
  ];
  const { object } = decodeProtobuf(envelope('v1', 'PersistentVolume', raw), PersistentVolume);
  assert.deepEqual(object.spec, {
    capacity: { storage: '1Gi' },
    iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.x', lun: 0, secretRef: { name: 's', namespace: 'ns' } },
    accessModes: ['ReadWriteOnce'],
    persistentVolumeReclaimPolicy: 'Retain',
    storageClassName: 'slow',
  });
  assert.deepEqual(object.status, { phase: 'Available' });
});

test('hand-assembled PersistentVolumeClaim bytes decode by generated.proto numbers', () => {
  const raw = [
    ...msg(1, [...str(1, 'c'), ...str(3, 'ns')]),
    ...msg(2, [...str(1, 'ReadWriteMany'), ...msg(2, msg(2, [...str(1, 'storage'), ...msg(2, str(1, '5Gi'))])), ...str(3, 'pv9'), ...str(5, ''), ...str(6, 'Block')]),
    ...msg(3, [...str(1, 'Bound'), ...str(8, 'gold')]),
  ];
  const { object } = decodeProtobuf(envelope('v1', 'PersistentVolumeClaim', raw), PersistentVolumeClaim);
  assert.deepEqual(object.spec, { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '5Gi' } }, volumeName: 'pv9', storageClassName: '', volumeMode: 'Block' });
  assert.deepEqual(object.status, { phase: 'Bound', currentVolumeAttributesClassName: 'gold' });
});
