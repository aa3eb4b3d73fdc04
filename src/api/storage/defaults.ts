// Server-side defaults of storage.k8s.io/v1 (pkg/apis/storage/v1 SetObjectDefaults_*).
import type { KubeObject } from '../schema/kind.js';
import { child, isNil, isObj } from '../go-json.js';
import { defaultPersistentVolumeSpec } from '../core/v1/defaults-storage.js';

/** SetDefaults_StorageClass: reclaimPolicy Delete, volumeBindingMode Immediate. */
export function defaultStorageClass(obj: KubeObject): void {
  if (isNil(obj.reclaimPolicy)) obj.reclaimPolicy = 'Delete';
  if (isNil(obj.volumeBindingMode)) obj.volumeBindingMode = 'Immediate';
}

/**
 * SetDefaults_CSIDriver (CSIVolumeFSGroupPolicy and CSIInlineVolume are GA): attachRequired true,
 * podInfoOnMount, storageCapacity and requiresRepublish false, fsGroupPolicy ReadWriteOnceWithFSType,
 * volumeLifecycleModes [Persistent]; seLinuxMount false (SELinuxMountReadWriteOncePod is on in 1.33).
 */
export function defaultCSIDriver(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  if (isNil(spec.attachRequired)) spec.attachRequired = true;
  if (isNil(spec.podInfoOnMount)) spec.podInfoOnMount = false;
  if (isNil(spec.storageCapacity)) spec.storageCapacity = false;
  if (isNil(spec.fsGroupPolicy)) spec.fsGroupPolicy = 'ReadWriteOnceWithFSType';
  if (!Array.isArray(spec.volumeLifecycleModes) || spec.volumeLifecycleModes.length === 0) spec.volumeLifecycleModes = ['Persistent'];
  if (isNil(spec.requiresRepublish)) spec.requiresRepublish = false;
  if (isNil(spec.seLinuxMount)) spec.seLinuxMount = false;
}

/** SetObjectDefaults_VolumeAttachment: the defaults of an inline volume spec's sources and capacity. */
export function defaultVolumeAttachment(obj: KubeObject): void {
  const source = child(child(obj, 'spec'), 'source');
  if (isObj(source.inlineVolumeSpec)) defaultPersistentVolumeSpec(source.inlineVolumeSpec);
}
