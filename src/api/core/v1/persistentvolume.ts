// core/v1 PersistentVolume: the object, its spec with the persistent volume source union (the
// PV variants of the pod volume sources carry SecretReferences with namespaces), its status and
// list. Field numbers are those of k8s.io/api core/v1 generated.proto; order is Go struct order.
import { ListMeta, ObjectMeta } from '../../meta/v1.js';
import { field, inline, listOf, mapOf, struct, t, typeMetaFields, variant, type Field, type Fields, type StructType } from '../../schema/dsl.js';
import { NodeSelector } from './affinity.js';
import { ObjectReference, SecretReference } from './references.js';
import {
  AWSElasticBlockStoreVolumeSource,
  CephFSVolumeSource,
  CinderVolumeSource,
  FlexVolumeSource,
  ISCSIVolumeSource,
  RBDVolumeSource,
  ScaleIOVolumeSource,
  StorageOSVolumeSource,
  AzureDiskVolumeSource,
  FCVolumeSource,
  FlockerVolumeSource,
  GCEPersistentDiskVolumeSource,
  HostPathVolumeSource,
  NFSVolumeSource,
  PersistentVolumeAccessMode,
  PersistentVolumeMode,
  PhotonPersistentDiskVolumeSource,
  PortworxVolumeSource,
  QuobyteVolumeSource,
  VsphereVirtualDiskVolumeSource,
} from './volume.js';

const req = { omitempty: false, required: true } as const;
const C = 'io.k8s.api.core.v1.';

/**
 * The PV twin of a pod volume source: the same fields in the same order, except that its
 * `secretRef` is a `ref` (a SecretReference with a namespace, StorageOS's ObjectReference) where
 * the pod's is a LocalObjectReference: a volume lives outside any namespace.
 */
function withSecretRefOf<F extends Fields & { secretRef: Field }, R extends StructType>(ref: R, name: string, pod: StructType<F>): StructType<Omit<F, 'secretRef'> & { secretRef: Field<R> }> {
  const secretRef: Field<R> = Object.freeze({ ...pod.fields.secretRef, type: ref });
  return variant(C + name, pod, { remove: ['secretRef'], add: { secretRef }, order: Object.keys(pod.fields) });
}

export const PersistentVolumeReclaimPolicy = ['Delete', 'Recycle', 'Retain'] as const;
export const PersistentVolumePhase = ['Available', 'Bound', 'Failed', 'Pending', 'Released'] as const;

export const GlusterfsPersistentVolumeSource = struct(C + 'GlusterfsPersistentVolumeSource', {
  endpoints: field(t.string, 1, req),
  path: field(t.string, 2, req),
  readOnly: field(t.bool, 3),
  endpointsNamespace: field(t.string, 4, { pointer: true }),
});

export const RBDPersistentVolumeSource = withSecretRefOf(SecretReference, 'RBDPersistentVolumeSource', RBDVolumeSource);

export const ISCSIPersistentVolumeSource = withSecretRefOf(SecretReference, 'ISCSIPersistentVolumeSource', ISCSIVolumeSource);

export const CinderPersistentVolumeSource = withSecretRefOf(SecretReference, 'CinderPersistentVolumeSource', CinderVolumeSource);

export const CephFSPersistentVolumeSource = withSecretRefOf(SecretReference, 'CephFSPersistentVolumeSource', CephFSVolumeSource);

export const FlexPersistentVolumeSource = withSecretRefOf(SecretReference, 'FlexPersistentVolumeSource', FlexVolumeSource);

export const AzureFilePersistentVolumeSource = struct(C + 'AzureFilePersistentVolumeSource', {
  secretName: field(t.string, 1, req),
  shareName: field(t.string, 2, req),
  readOnly: field(t.bool, 3),
  // `json:"secretNamespace"` without omitempty: a nil pointer is written as `null`.
  secretNamespace: field(t.string, 4, { pointer: true, omitempty: false }),
});

export const ScaleIOPersistentVolumeSource = withSecretRefOf(SecretReference, 'ScaleIOPersistentVolumeSource', ScaleIOVolumeSource);

export const LocalVolumeSource = struct(C + 'LocalVolumeSource', {
  path: field(t.string, 1, req),
  fsType: field(t.string, 2, { pointer: true }),
});

export const StorageOSPersistentVolumeSource = withSecretRefOf(ObjectReference, 'StorageOSPersistentVolumeSource', StorageOSVolumeSource);

export const CSIPersistentVolumeSource = struct(C + 'CSIPersistentVolumeSource', {
  driver: field(t.string, 1, req),
  volumeHandle: field(t.string, 2, req),
  readOnly: field(t.bool, 3),
  fsType: field(t.string, 4),
  volumeAttributes: field(mapOf(t.string), 5),
  controllerPublishSecretRef: field(SecretReference, 6, { pointer: true }),
  nodeStageSecretRef: field(SecretReference, 7, { pointer: true }),
  nodePublishSecretRef: field(SecretReference, 8, { pointer: true }),
  controllerExpandSecretRef: field(SecretReference, 9, { pointer: true }),
  nodeExpandSecretRef: field(SecretReference, 10, { pointer: true }),
});

/** The persistent volume source union; inline in PersistentVolumeSpec (message `persistentVolumeSource` = 2). */
export const PersistentVolumeSource = struct(C + 'PersistentVolumeSource', {
  gcePersistentDisk: field(GCEPersistentDiskVolumeSource, 1, { pointer: true }),
  awsElasticBlockStore: field(AWSElasticBlockStoreVolumeSource, 2, { pointer: true }),
  hostPath: field(HostPathVolumeSource, 3, { pointer: true }),
  glusterfs: field(GlusterfsPersistentVolumeSource, 4, { pointer: true }),
  nfs: field(NFSVolumeSource, 5, { pointer: true }),
  rbd: field(RBDPersistentVolumeSource, 6, { pointer: true }),
  iscsi: field(ISCSIPersistentVolumeSource, 7, { pointer: true }),
  cinder: field(CinderPersistentVolumeSource, 8, { pointer: true }),
  cephfs: field(CephFSPersistentVolumeSource, 9, { pointer: true }),
  fc: field(FCVolumeSource, 10, { pointer: true }),
  flocker: field(FlockerVolumeSource, 11, { pointer: true }),
  flexVolume: field(FlexPersistentVolumeSource, 12, { pointer: true }),
  azureFile: field(AzureFilePersistentVolumeSource, 13, { pointer: true }),
  vsphereVolume: field(VsphereVirtualDiskVolumeSource, 14, { pointer: true }),
  quobyte: field(QuobyteVolumeSource, 15, { pointer: true }),
  azureDisk: field(AzureDiskVolumeSource, 16, { pointer: true }),
  photonPersistentDisk: field(PhotonPersistentDiskVolumeSource, 17, { pointer: true }),
  portworxVolume: field(PortworxVolumeSource, 18, { pointer: true }),
  scaleIO: field(ScaleIOPersistentVolumeSource, 19, { pointer: true }),
  local: field(LocalVolumeSource, 20, { pointer: true }),
  storageos: field(StorageOSPersistentVolumeSource, 21, { pointer: true }),
  csi: field(CSIPersistentVolumeSource, 22, { pointer: true }),
});

export const VolumeNodeAffinity = struct(C + 'VolumeNodeAffinity', {
  required: field(NodeSelector, 1, { pointer: true }),
});

export const PersistentVolumeSpec = struct(C + 'PersistentVolumeSpec', {
  capacity: field(mapOf(t.quantity), 1),
  ...inline(PersistentVolumeSource, 2, 'persistentVolumeSource'),
  accessModes: field(listOf(t.string), 3, { listType: 'atomic', enum: PersistentVolumeAccessMode }),
  claimRef: field(ObjectReference, 4, { pointer: true }),
  persistentVolumeReclaimPolicy: field(t.string, 5, { enum: PersistentVolumeReclaimPolicy }),
  storageClassName: field(t.string, 6),
  mountOptions: field(listOf(t.string), 7, { listType: 'atomic' }),
  volumeMode: field(t.string, 8, { pointer: true, enum: PersistentVolumeMode }),
  nodeAffinity: field(VolumeNodeAffinity, 9, { pointer: true }),
  volumeAttributesClassName: field(t.string, 10, { pointer: true }),
});

export const PersistentVolumeStatus = struct(C + 'PersistentVolumeStatus', {
  phase: field(t.string, 1, { enum: PersistentVolumePhase }),
  message: field(t.string, 2),
  reason: field(t.string, 3),
  lastPhaseTransitionTime: field(t.time, 4, { pointer: true }),
});

export const PersistentVolume = struct(C + 'PersistentVolume', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(PersistentVolumeSpec, 2),
  status: field(PersistentVolumeStatus, 3),
});

export const PersistentVolumeList = struct(C + 'PersistentVolumeList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(PersistentVolume), 2, req),
});
