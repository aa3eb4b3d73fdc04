// storage.k8s.io/v1 (k8s.io/api/storage/v1): StorageClass, VolumeAttachment, CSIDriver, CSINode,
// CSIStorageCapacity. Field numbers are those of storage/v1 generated.proto; order is Go struct order.
import { LabelSelector, ListMeta, ObjectMeta } from '../meta/v1.js';
import { TopologySelectorTerm } from '../core/v1/affinity.js';
import { PersistentVolumeReclaimPolicy, PersistentVolumeSpec } from '../core/v1/persistentvolume.js';
import { field, listOf, mapOf, struct, t, typeMetaFields, type StructType } from '../schema/dsl.js';

const G = 'io.k8s.api.storage.v1.';
const req = { omitempty: false, required: true } as const;

export const VolumeBindingMode = ['Immediate', 'WaitForFirstConsumer'] as const;
export const FSGroupPolicy = ['File', 'None', 'ReadWriteOnceWithFSType'] as const;
export const VolumeLifecycleMode = ['Ephemeral', 'Persistent'] as const;

/** The `<Kind>List` of a kind: metadata and items. */
const list = (name: string, item: StructType) =>
  struct(G + name, { ...typeMetaFields, metadata: field(ListMeta, 1), items: field(listOf(item), 2, req) });

export const StorageClass = struct(G + 'StorageClass', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  provisioner: field(t.string, 2, req),
  parameters: field(mapOf(t.string), 3),
  reclaimPolicy: field(t.string, 4, { pointer: true, enum: PersistentVolumeReclaimPolicy }),
  mountOptions: field(listOf(t.string), 5, { listType: 'atomic' }),
  allowVolumeExpansion: field(t.bool, 6, { pointer: true }),
  volumeBindingMode: field(t.string, 7, { pointer: true, enum: VolumeBindingMode }),
  allowedTopologies: field(listOf(TopologySelectorTerm), 8, { listType: 'atomic' }),
});
export const StorageClassList = list('StorageClassList', StorageClass);

export const VolumeAttachmentSource = struct(G + 'VolumeAttachmentSource', {
  persistentVolumeName: field(t.string, 1, { pointer: true }),
  inlineVolumeSpec: field(PersistentVolumeSpec, 2, { pointer: true }),
});

export const VolumeAttachmentSpec = struct(G + 'VolumeAttachmentSpec', {
  attacher: field(t.string, 1, req),
  source: field(VolumeAttachmentSource, 2, req),
  nodeName: field(t.string, 3, req),
});

export const VolumeError = struct(G + 'VolumeError', {
  // A non-pointer metav1.Time with omitempty: Go writes `null` when zero.
  time: field(t.time, 1),
  message: field(t.string, 2),
  errorCode: field(t.int32, 3, { pointer: true }),
});

export const VolumeAttachmentStatus = struct(G + 'VolumeAttachmentStatus', {
  attached: field(t.bool, 1, req),
  attachmentMetadata: field(mapOf(t.string), 2),
  attachError: field(VolumeError, 3, { pointer: true }),
  detachError: field(VolumeError, 4, { pointer: true }),
});

export const VolumeAttachment = struct(G + 'VolumeAttachment', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(VolumeAttachmentSpec, 2, req),
  status: field(VolumeAttachmentStatus, 3),
});
export const VolumeAttachmentList = list('VolumeAttachmentList', VolumeAttachment);

export const TokenRequest = struct(G + 'TokenRequest', {
  audience: field(t.string, 1, req),
  expirationSeconds: field(t.int64, 2, { pointer: true }),
});

export const CSIDriverSpec = struct(G + 'CSIDriverSpec', {
  attachRequired: field(t.bool, 1, { pointer: true }),
  podInfoOnMount: field(t.bool, 2, { pointer: true }),
  volumeLifecycleModes: field(listOf(t.string), 3, { listType: 'set', enum: VolumeLifecycleMode }),
  storageCapacity: field(t.bool, 4, { pointer: true }),
  fsGroupPolicy: field(t.string, 5, { pointer: true, enum: FSGroupPolicy }),
  tokenRequests: field(listOf(TokenRequest), 6, { listType: 'atomic' }),
  requiresRepublish: field(t.bool, 7, { pointer: true }),
  seLinuxMount: field(t.bool, 8, { pointer: true }),
  nodeAllocatableUpdatePeriodSeconds: field(t.int64, 9, { pointer: true }),
});

export const CSIDriver = struct(G + 'CSIDriver', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(CSIDriverSpec, 2, req),
});
export const CSIDriverList = list('CSIDriverList', CSIDriver);

export const VolumeNodeResources = struct(G + 'VolumeNodeResources', {
  count: field(t.int32, 1, { pointer: true }),
});

export const CSINodeDriver = struct(G + 'CSINodeDriver', {
  name: field(t.string, 1, req),
  nodeID: field(t.string, 2, req),
  topologyKeys: field(listOf(t.string), 3, { omitempty: false, listType: 'atomic' }),
  allocatable: field(VolumeNodeResources, 4, { pointer: true }),
});

export const CSINodeSpec = struct(G + 'CSINodeSpec', {
  drivers: field(listOf(CSINodeDriver), 1, { ...req, patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] }),
});

export const CSINode = struct(G + 'CSINode', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(CSINodeSpec, 2, req),
});
export const CSINodeList = list('CSINodeList', CSINode);

export const CSIStorageCapacity = struct(G + 'CSIStorageCapacity', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  nodeTopology: field(LabelSelector, 2, { pointer: true }),
  storageClassName: field(t.string, 3, req),
  capacity: field(t.quantity, 4, { pointer: true }),
  maximumVolumeSize: field(t.quantity, 5, { pointer: true }),
});
export const CSIStorageCapacityList = list('CSIStorageCapacityList', CSIStorageCapacity);
