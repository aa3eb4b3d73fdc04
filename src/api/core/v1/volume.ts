// core/v1 pod volumes: Volume, every VolumeSource, projections, and the PersistentVolumeClaim
// template an ephemeral volume carries. Field numbers are those of k8s.io/api core/v1
// generated.proto; order is Go struct order.
import { LabelSelector, ObjectMeta } from '../../meta/v1.js';
import { field, inline, listOf, mapOf, struct, t } from '../../schema/dsl.js';
import { LocalObjectReference, TypedLocalObjectReference, TypedObjectReference } from './references.js';
import { ObjectFieldSelector, ResourceFieldSelector } from './selectors.js';

const req = { omitempty: false, required: true } as const;

export const HostPathType = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'] as const;
export const PullPolicy = ['Always', 'IfNotPresent', 'Never'] as const;
export const PersistentVolumeAccessMode = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'] as const;
export const PersistentVolumeMode = ['Block', 'Filesystem'] as const;

/** A key of a ConfigMap or Secret projected to a file path. */
export const KeyToPath = struct('io.k8s.api.core.v1.KeyToPath', {
  key: field(t.string, 1, req),
  path: field(t.string, 2, req),
  mode: field(t.int32, 3, { pointer: true }),
});

export const HostPathVolumeSource = struct('io.k8s.api.core.v1.HostPathVolumeSource', {
  path: field(t.string, 1, req),
  type: field(t.string, 2, { pointer: true, enum: HostPathType }),
});

export const EmptyDirVolumeSource = struct('io.k8s.api.core.v1.EmptyDirVolumeSource', {
  medium: field(t.string, 1),
  sizeLimit: field(t.quantity, 2, { pointer: true }),
});

export const GCEPersistentDiskVolumeSource = struct('io.k8s.api.core.v1.GCEPersistentDiskVolumeSource', {
  pdName: field(t.string, 1, req),
  fsType: field(t.string, 2),
  partition: field(t.int32, 3),
  readOnly: field(t.bool, 4),
});

export const AWSElasticBlockStoreVolumeSource = struct('io.k8s.api.core.v1.AWSElasticBlockStoreVolumeSource', {
  volumeID: field(t.string, 1, req),
  fsType: field(t.string, 2),
  partition: field(t.int32, 3),
  readOnly: field(t.bool, 4),
});

export const GitRepoVolumeSource = struct('io.k8s.api.core.v1.GitRepoVolumeSource', {
  repository: field(t.string, 1, req),
  revision: field(t.string, 2),
  directory: field(t.string, 3),
});

export const SecretVolumeSource = struct('io.k8s.api.core.v1.SecretVolumeSource', {
  secretName: field(t.string, 1),
  items: field(listOf(KeyToPath), 2, { listType: 'atomic' }),
  defaultMode: field(t.int32, 3, { pointer: true }),
  optional: field(t.bool, 4, { pointer: true }),
});

export const NFSVolumeSource = struct('io.k8s.api.core.v1.NFSVolumeSource', {
  server: field(t.string, 1, req),
  path: field(t.string, 2, req),
  readOnly: field(t.bool, 3),
});

export const ISCSIVolumeSource = struct('io.k8s.api.core.v1.ISCSIVolumeSource', {
  targetPortal: field(t.string, 1, req),
  iqn: field(t.string, 2, req),
  lun: field(t.int32, 3, req),
  iscsiInterface: field(t.string, 4, { default: 'default' }),
  fsType: field(t.string, 5),
  readOnly: field(t.bool, 6),
  portals: field(listOf(t.string), 7, { listType: 'atomic' }),
  chapAuthDiscovery: field(t.bool, 8),
  chapAuthSession: field(t.bool, 11),
  secretRef: field(LocalObjectReference, 10, { pointer: true }),
  initiatorName: field(t.string, 12, { pointer: true }),
});

export const GlusterfsVolumeSource = struct('io.k8s.api.core.v1.GlusterfsVolumeSource', {
  endpoints: field(t.string, 1, req),
  path: field(t.string, 2, req),
  readOnly: field(t.bool, 3),
});

export const PersistentVolumeClaimVolumeSource = struct('io.k8s.api.core.v1.PersistentVolumeClaimVolumeSource', {
  claimName: field(t.string, 1, req),
  readOnly: field(t.bool, 2),
});

export const RBDVolumeSource = struct('io.k8s.api.core.v1.RBDVolumeSource', {
  monitors: field(listOf(t.string), 1, { ...req, listType: 'atomic' }),
  image: field(t.string, 2, req),
  fsType: field(t.string, 3),
  pool: field(t.string, 4, { default: 'rbd' }),
  user: field(t.string, 5, { default: 'admin' }),
  keyring: field(t.string, 6, { default: '/etc/ceph/keyring' }),
  secretRef: field(LocalObjectReference, 7, { pointer: true }),
  readOnly: field(t.bool, 8),
});

export const FlexVolumeSource = struct('io.k8s.api.core.v1.FlexVolumeSource', {
  driver: field(t.string, 1, req),
  fsType: field(t.string, 2),
  secretRef: field(LocalObjectReference, 3, { pointer: true }),
  readOnly: field(t.bool, 4),
  options: field(mapOf(t.string), 5),
});

export const CinderVolumeSource = struct('io.k8s.api.core.v1.CinderVolumeSource', {
  volumeID: field(t.string, 1, req),
  fsType: field(t.string, 2),
  readOnly: field(t.bool, 3),
  secretRef: field(LocalObjectReference, 4, { pointer: true }),
});

export const CephFSVolumeSource = struct('io.k8s.api.core.v1.CephFSVolumeSource', {
  monitors: field(listOf(t.string), 1, { ...req, listType: 'atomic' }),
  path: field(t.string, 2),
  user: field(t.string, 3),
  secretFile: field(t.string, 4),
  secretRef: field(LocalObjectReference, 5, { pointer: true }),
  readOnly: field(t.bool, 6),
});

export const FlockerVolumeSource = struct('io.k8s.api.core.v1.FlockerVolumeSource', {
  datasetName: field(t.string, 1),
  datasetUUID: field(t.string, 2),
});

/** One file of a downward API volume: a pod field or a container resource. */
export const DownwardAPIVolumeFile = struct('io.k8s.api.core.v1.DownwardAPIVolumeFile', {
  path: field(t.string, 1, req),
  fieldRef: field(ObjectFieldSelector, 2, { pointer: true }),
  resourceFieldRef: field(ResourceFieldSelector, 3, { pointer: true }),
  mode: field(t.int32, 4, { pointer: true }),
});

export const DownwardAPIVolumeSource = struct('io.k8s.api.core.v1.DownwardAPIVolumeSource', {
  items: field(listOf(DownwardAPIVolumeFile), 1, { listType: 'atomic' }),
  defaultMode: field(t.int32, 2, { pointer: true }),
});

export const FCVolumeSource = struct('io.k8s.api.core.v1.FCVolumeSource', {
  targetWWNs: field(listOf(t.string), 1, { listType: 'atomic' }),
  lun: field(t.int32, 2, { pointer: true }),
  fsType: field(t.string, 3),
  readOnly: field(t.bool, 4),
  wwids: field(listOf(t.string), 5, { listType: 'atomic' }),
});

export const AzureFileVolumeSource = struct('io.k8s.api.core.v1.AzureFileVolumeSource', {
  secretName: field(t.string, 1, req),
  shareName: field(t.string, 2, req),
  readOnly: field(t.bool, 3),
});

export const ConfigMapVolumeSource = struct('io.k8s.api.core.v1.ConfigMapVolumeSource', {
  ...inline(LocalObjectReference, 1, 'localObjectReference'),
  items: field(listOf(KeyToPath), 2, { listType: 'atomic' }),
  defaultMode: field(t.int32, 3, { pointer: true }),
  optional: field(t.bool, 4, { pointer: true }),
});

export const VsphereVirtualDiskVolumeSource = struct('io.k8s.api.core.v1.VsphereVirtualDiskVolumeSource', {
  volumePath: field(t.string, 1, req),
  fsType: field(t.string, 2),
  storagePolicyName: field(t.string, 3),
  storagePolicyID: field(t.string, 4),
});

export const QuobyteVolumeSource = struct('io.k8s.api.core.v1.QuobyteVolumeSource', {
  registry: field(t.string, 1, req),
  volume: field(t.string, 2, req),
  readOnly: field(t.bool, 3),
  user: field(t.string, 4),
  group: field(t.string, 5),
  tenant: field(t.string, 6),
});

export const AzureDiskVolumeSource = struct('io.k8s.api.core.v1.AzureDiskVolumeSource', {
  diskName: field(t.string, 1, req),
  diskURI: field(t.string, 2, req),
  cachingMode: field(t.string, 3, { pointer: true, default: 'ReadWrite', enum: ['None', 'ReadOnly', 'ReadWrite'] }),
  fsType: field(t.string, 4, { pointer: true, default: 'ext4' }),
  readOnly: field(t.bool, 5, { pointer: true, default: false }),
  kind: field(t.string, 6, { pointer: true, default: 'Shared', enum: ['Dedicated', 'Managed', 'Shared'] }),
});

export const PhotonPersistentDiskVolumeSource = struct('io.k8s.api.core.v1.PhotonPersistentDiskVolumeSource', {
  pdID: field(t.string, 1, req),
  fsType: field(t.string, 2),
});

export const SecretProjection = struct('io.k8s.api.core.v1.SecretProjection', {
  ...inline(LocalObjectReference, 1, 'localObjectReference'),
  items: field(listOf(KeyToPath), 2, { listType: 'atomic' }),
  optional: field(t.bool, 4, { pointer: true }),
});

export const DownwardAPIProjection = struct('io.k8s.api.core.v1.DownwardAPIProjection', {
  items: field(listOf(DownwardAPIVolumeFile), 1, { listType: 'atomic' }),
});

export const ConfigMapProjection = struct('io.k8s.api.core.v1.ConfigMapProjection', {
  ...inline(LocalObjectReference, 1, 'localObjectReference'),
  items: field(listOf(KeyToPath), 2, { listType: 'atomic' }),
  optional: field(t.bool, 4, { pointer: true }),
});

export const ServiceAccountTokenProjection = struct('io.k8s.api.core.v1.ServiceAccountTokenProjection', {
  audience: field(t.string, 1),
  expirationSeconds: field(t.int64, 2, { pointer: true }),
  path: field(t.string, 3, req),
});

export const ClusterTrustBundleProjection = struct('io.k8s.api.core.v1.ClusterTrustBundleProjection', {
  name: field(t.string, 1, { pointer: true }),
  signerName: field(t.string, 2, { pointer: true }),
  labelSelector: field(LabelSelector, 3, { pointer: true }),
  optional: field(t.bool, 5, { pointer: true }),
  path: field(t.string, 4, req),
});

/** A private key and certificate chain issued for the pod (PodCertificateProjection, v1.34). */
export const PodCertificateProjection = struct('io.k8s.api.core.v1.PodCertificateProjection', {
  signerName: field(t.string, 1, { required: true }),
  keyType: field(t.string, 2, { required: true }),
  maxExpirationSeconds: field(t.int32, 3, { pointer: true }),
  credentialBundlePath: field(t.string, 4),
  keyPath: field(t.string, 5),
  certificateChainPath: field(t.string, 6),
});

/** One source of a projected volume; exactly one field is set. */
export const VolumeProjection = struct('io.k8s.api.core.v1.VolumeProjection', {
  secret: field(SecretProjection, 1, { pointer: true }),
  downwardAPI: field(DownwardAPIProjection, 2, { pointer: true }),
  configMap: field(ConfigMapProjection, 3, { pointer: true }),
  serviceAccountToken: field(ServiceAccountTokenProjection, 4, { pointer: true }),
  clusterTrustBundle: field(ClusterTrustBundleProjection, 5, { pointer: true }),
  podCertificate: field(PodCertificateProjection, 6, { pointer: true }),
});

export const ProjectedVolumeSource = struct('io.k8s.api.core.v1.ProjectedVolumeSource', {
  // `json:"sources"` without omitempty (but +optional): Go writes `null` when unset.
  sources: field(listOf(VolumeProjection), 1, { omitempty: false, listType: 'atomic' }),
  defaultMode: field(t.int32, 2, { pointer: true }),
});

export const PortworxVolumeSource = struct('io.k8s.api.core.v1.PortworxVolumeSource', {
  volumeID: field(t.string, 1, req),
  fsType: field(t.string, 2),
  readOnly: field(t.bool, 3),
});

export const ScaleIOVolumeSource = struct('io.k8s.api.core.v1.ScaleIOVolumeSource', {
  gateway: field(t.string, 1, req),
  system: field(t.string, 2, req),
  // `json:"secretRef"` without omitempty: a nil pointer is written as `null`.
  secretRef: field(LocalObjectReference, 3, { pointer: true, ...req }),
  sslEnabled: field(t.bool, 4),
  protectionDomain: field(t.string, 5),
  storagePool: field(t.string, 6),
  storageMode: field(t.string, 7, { default: 'ThinProvisioned' }),
  volumeName: field(t.string, 8),
  fsType: field(t.string, 9, { default: 'xfs' }),
  readOnly: field(t.bool, 10),
});

export const StorageOSVolumeSource = struct('io.k8s.api.core.v1.StorageOSVolumeSource', {
  volumeName: field(t.string, 1),
  volumeNamespace: field(t.string, 2),
  fsType: field(t.string, 3),
  readOnly: field(t.bool, 4),
  secretRef: field(LocalObjectReference, 5, { pointer: true }),
});

export const CSIVolumeSource = struct('io.k8s.api.core.v1.CSIVolumeSource', {
  driver: field(t.string, 1, req),
  readOnly: field(t.bool, 2, { pointer: true }),
  fsType: field(t.string, 3, { pointer: true }),
  volumeAttributes: field(mapOf(t.string), 4),
  nodePublishSecretRef: field(LocalObjectReference, 5, { pointer: true }),
});

/** Storage requests and limits of a claim (PersistentVolumeClaimSpec.resources). */
export const VolumeResourceRequirements = struct('io.k8s.api.core.v1.VolumeResourceRequirements', {
  limits: field(mapOf(t.quantity), 1),
  requests: field(mapOf(t.quantity), 2),
  // Tag 3 (claims) is reserved: removed from the volume API in v1.28.
});

export const PersistentVolumeClaimSpec = struct('io.k8s.api.core.v1.PersistentVolumeClaimSpec', {
  accessModes: field(listOf(t.string), 1, { listType: 'atomic', enum: PersistentVolumeAccessMode }),
  selector: field(LabelSelector, 4, { pointer: true }),
  resources: field(VolumeResourceRequirements, 2),
  volumeName: field(t.string, 3),
  storageClassName: field(t.string, 5, { pointer: true }),
  volumeMode: field(t.string, 6, { pointer: true, enum: PersistentVolumeMode }),
  dataSource: field(TypedLocalObjectReference, 7, { pointer: true }),
  dataSourceRef: field(TypedObjectReference, 8, { pointer: true }),
  volumeAttributesClassName: field(t.string, 9, { pointer: true }),
});

/** The claim an ephemeral volume creates: labels/annotations and a claim spec. */
export const PersistentVolumeClaimTemplate = struct('io.k8s.api.core.v1.PersistentVolumeClaimTemplate', {
  // A non-pointer ObjectMeta: written always (`{"creationTimestamp": null}` when empty).
  metadata: field(ObjectMeta, 1),
  spec: field(PersistentVolumeClaimSpec, 2, req),
});

export const EphemeralVolumeSource = struct('io.k8s.api.core.v1.EphemeralVolumeSource', {
  volumeClaimTemplate: field(PersistentVolumeClaimTemplate, 1, { pointer: true }),
  // Tag 2 (readOnly) is reserved.
});

/** An OCI image or artifact mounted read-only (ImageVolume). */
export const ImageVolumeSource = struct('io.k8s.api.core.v1.ImageVolumeSource', {
  reference: field(t.string, 1),
  pullPolicy: field(t.string, 2, { enum: PullPolicy }),
});

/** The volume source union; inline in Volume (flat in JSON, message `volumeSource` = 2 in protobuf). */
export const VolumeSource = struct('io.k8s.api.core.v1.VolumeSource', {
  hostPath: field(HostPathVolumeSource, 1, { pointer: true }),
  emptyDir: field(EmptyDirVolumeSource, 2, { pointer: true }),
  gcePersistentDisk: field(GCEPersistentDiskVolumeSource, 3, { pointer: true }),
  awsElasticBlockStore: field(AWSElasticBlockStoreVolumeSource, 4, { pointer: true }),
  gitRepo: field(GitRepoVolumeSource, 5, { pointer: true }),
  secret: field(SecretVolumeSource, 6, { pointer: true }),
  nfs: field(NFSVolumeSource, 7, { pointer: true }),
  iscsi: field(ISCSIVolumeSource, 8, { pointer: true }),
  glusterfs: field(GlusterfsVolumeSource, 9, { pointer: true }),
  persistentVolumeClaim: field(PersistentVolumeClaimVolumeSource, 10, { pointer: true }),
  rbd: field(RBDVolumeSource, 11, { pointer: true }),
  flexVolume: field(FlexVolumeSource, 12, { pointer: true }),
  cinder: field(CinderVolumeSource, 13, { pointer: true }),
  cephfs: field(CephFSVolumeSource, 14, { pointer: true }),
  flocker: field(FlockerVolumeSource, 15, { pointer: true }),
  downwardAPI: field(DownwardAPIVolumeSource, 16, { pointer: true }),
  fc: field(FCVolumeSource, 17, { pointer: true }),
  azureFile: field(AzureFileVolumeSource, 18, { pointer: true }),
  configMap: field(ConfigMapVolumeSource, 19, { pointer: true }),
  vsphereVolume: field(VsphereVirtualDiskVolumeSource, 20, { pointer: true }),
  quobyte: field(QuobyteVolumeSource, 21, { pointer: true }),
  azureDisk: field(AzureDiskVolumeSource, 22, { pointer: true }),
  photonPersistentDisk: field(PhotonPersistentDiskVolumeSource, 23, { pointer: true }),
  projected: field(ProjectedVolumeSource, 26, { pointer: true }),
  portworxVolume: field(PortworxVolumeSource, 24, { pointer: true }),
  scaleIO: field(ScaleIOVolumeSource, 25, { pointer: true }),
  storageos: field(StorageOSVolumeSource, 27, { pointer: true }),
  csi: field(CSIVolumeSource, 28, { pointer: true }),
  ephemeral: field(EphemeralVolumeSource, 29, { pointer: true }),
  image: field(ImageVolumeSource, 30, { pointer: true }),
});

/** A named volume of a pod. */
export const Volume = struct('io.k8s.api.core.v1.Volume', {
  name: field(t.string, 1, req),
  ...inline(VolumeSource, 2, 'volumeSource'),
});

