// storage.k8s.io/v1, the kinds kube-apiserver 1.33 serves by default (VolumeAttributesClass is
// v1beta1 there, off by default, so not served). Discovery: only storageclasses has a short name.
import type { KindVersion } from '../schema/kind.js';
import { defaultCSIDriver, defaultStorageClass, defaultVolumeAttachment } from './defaults.js';
import * as v1 from './v1.js';

const storage = { group: 'storage.k8s.io', version: 'v1', storage: true } as const;

export const storageKinds: readonly KindVersion[] = [
  { ...storage, kind: 'CSIDriver', resource: 'csidrivers', singular: 'csidriver', namespaced: false, type: v1.CSIDriver, list: v1.CSIDriverList, defaults: defaultCSIDriver },
  { ...storage, kind: 'CSINode', resource: 'csinodes', singular: 'csinode', namespaced: false, type: v1.CSINode, list: v1.CSINodeList },
  { ...storage, kind: 'CSIStorageCapacity', resource: 'csistoragecapacities', singular: 'csistoragecapacity', namespaced: true, type: v1.CSIStorageCapacity, list: v1.CSIStorageCapacityList },
  { ...storage, kind: 'StorageClass', resource: 'storageclasses', singular: 'storageclass', shortNames: ['sc'], namespaced: false, type: v1.StorageClass, list: v1.StorageClassList, defaults: defaultStorageClass },
  { ...storage, kind: 'VolumeAttachment', resource: 'volumeattachments', singular: 'volumeattachment', namespaced: false, type: v1.VolumeAttachment, list: v1.VolumeAttachmentList, defaults: defaultVolumeAttachment, subresources: { status: true } },
];
