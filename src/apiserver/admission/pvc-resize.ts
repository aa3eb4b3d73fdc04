// PersistentVolumeClaimResize admission (Kubernetes' plugin/pkg/admission/storage/persistentvolume/resize):
// a claim's storage request may grow only once it is bound, only when its StorageClass (the same
// before and after) sets allowVolumeExpansion, and only when its volume's plugin can expand (CSI and
// the in-tree cloud disks; not hostPath, local or NFS).
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../api/types.js';
import { storageBytes } from '../../machinery/volumes/storage.js';
import type { ClusterObjects } from './cluster-objects.js';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

const EXPANDABLE_SOURCES = ['csi', 'gcePersistentDisk', 'awsElasticBlockStore', 'azureFile', 'azureDisk', 'cinder', 'rbd', 'portworxVolume', 'flexVolume'] as const;

const requestBytes = (c: PersistentVolumeClaim): bigint => storageBytes(c.spec?.resources?.requests?.storage);
const classOf = (c: PersistentVolumeClaim): string => c.spec?.storageClassName ?? c.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';

export class PersistentVolumeClaimResize implements AdmissionPlugin {
  readonly name = 'PersistentVolumeClaimResize';

  constructor(
    private readonly volumes: ClusterObjects<PersistentVolume>,
    private readonly classes: ClusterObjects<StorageClass>,
  ) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'UPDATE' || a.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource !== '' || !a.object || !a.oldObject) return;
    const claim: PersistentVolumeClaim = a.object;
    const old: PersistentVolumeClaim = a.oldObject;
    if (requestBytes(claim) <= requestBytes(old)) return;
    if (old.status?.phase !== 'Bound') throw admissionForbidden(a, 'Only bound persistent volume claims can be expanded');
    const cls = classOf(claim);
    const sc = cls !== '' && cls === classOf(old) ? await this.classes.get(cls) : undefined;
    if (sc?.allowVolumeExpansion !== true) throw admissionForbidden(a, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    const pv = await this.volumes.get(claim.spec?.volumeName ?? '');
    if (!pv) throw admissionForbidden(a, 'Error updating persistent volume claim because fetching associated persistent volume failed');
    const spec = (pv.spec ?? {}) as Record<string, unknown>;
    if (!EXPANDABLE_SOURCES.some((s) => spec[s] !== undefined && spec[s] !== null)) throw admissionForbidden(a, 'volume plugin does not support resize');
  }
}
