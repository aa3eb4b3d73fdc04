// Which of a pod's volumes need attaching to its node (the attach/detach controller's desired state
// of the world, and what the kubelet waits for before it starts the pod): CSI persistent volumes —
// reached through a bound claim, directly or through a generic ephemeral volume's `<pod>-<volume>`
// claim — whose driver requires attachment (a CSIDriver with attachRequired false does not; a
// driver without a CSIDriver object does, as in Kubernetes).
import { createHash } from 'node:crypto';
import { podClaimNames } from './storage.js';
import { namespaceOf } from '../../api/meta/object.js';
import type { CSIDriver, PersistentVolume, PersistentVolumeClaim, Pod } from '../../api/types.js';

/** One volume as the controller tracks it on a node. */
export interface AttachableVolume {
  /** `kubernetes.io/csi/<driver>^<volumeHandle>`, the name node.status.volumesAttached reports. */
  uniqueName: string;
  pvName: string;
  driver: string;
  handle: string;
}

export interface VolumeLookups {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  volume(name: string): PersistentVolume | undefined;
  driver(name: string): CSIDriver | undefined;
}

export const uniqueVolumeName = (driver: string, handle: string): string => `kubernetes.io/csi/${driver}^${handle}`;

/** The VolumeAttachment's name the CSI attacher uses: csi-<sha256(handle + driver + node)>. */
export function attachmentName(handle: string, driver: string, node: string): string {
  return `csi-${createHash('sha256').update(`${handle}${driver}${node}`).digest('hex')}`;
}

export function attachableVolumesOf(pod: Pod, lookups: VolumeLookups): AttachableVolume[] {
  const out: AttachableVolume[] = [];
  for (const { name: claimName } of podClaimNames(pod)) {
    const pvName = lookups.claim(namespaceOf(pod), claimName)?.spec?.volumeName;
    if (!pvName) continue;
    const csi = lookups.volume(pvName)?.spec?.csi;
    if (!csi?.driver || !csi.volumeHandle) continue;
    if (lookups.driver(csi.driver)?.spec?.attachRequired === false) continue;
    out.push({ uniqueName: uniqueVolumeName(csi.driver, csi.volumeHandle), pvName, driver: csi.driver, handle: csi.volumeHandle });
  }
  return out;
}
