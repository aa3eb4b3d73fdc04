// StorageObjectInUseProtection admission (Kubernetes' plugin/pkg/admission/storage/
// storageobjectinuseprotection): every PersistentVolume and PersistentVolumeClaim is created with
// its protection finalizer, which the PV and PVC protection controllers remove once nothing uses it.
import { FINALIZER_PV_PROTECTION, FINALIZER_PVC_PROTECTION, finalizersOf } from '../../api/meta/object.js';
import { metaOf } from '../../registry/meta.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';


export class StorageObjectInUseProtection implements AdmissionPlugin {
  readonly name = 'StorageObjectInUseProtection';

  admit(a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' || a.group !== '' || a.subresource !== '' || !a.object) return;
    const finalizer = a.resource === 'persistentvolumes' ? FINALIZER_PV_PROTECTION : a.resource === 'persistentvolumeclaims' ? FINALIZER_PVC_PROTECTION : undefined;
    if (!finalizer) return;
    const finalizers = finalizersOf(a.object);
    if (finalizers.includes(finalizer)) return;
    metaOf(a.object).finalizers = [...finalizers, finalizer];
  }
}
