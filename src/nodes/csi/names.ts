// The simulated CSI driver's names, as a CSI driver deployment spells them.

/** The driver (CSIDriver, CSINode entries, PV csi.driver, StorageClass provisioner, VolumeAttachment attacher). */
export const CSI_DRIVER_NAME = 'csi.kubelite.dev';
/** external-attacher's finalizer on the VolumeAttachments it attached: removed once detached. */
export const ATTACHER_FINALIZER = `external-attacher/${CSI_DRIVER_NAME}`;
/** external-provisioner's finalizer on the volumes it provisioned: removed once the volume is deleted. */
export const PROVISIONER_FINALIZER = 'external-provisioner.volume.kubernetes.io/finalizer';
/** The topology key every node of the driver reports (CSINode topologyKeys, node labels). */
export const ZONE_KEY = 'topology.kubernetes.io/zone';

export const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
export const PVS = { group: '', version: 'v1', resource: 'persistentvolumes' };
export const CLASSES = { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses' };
export const ATTACHMENTS = { group: 'storage.k8s.io', version: 'v1', resource: 'volumeattachments' };
export const DRIVERS = { group: 'storage.k8s.io', version: 'v1', resource: 'csidrivers' };
export const CSI_NODES = { group: 'storage.k8s.io', version: 'v1', resource: 'csinodes' };
