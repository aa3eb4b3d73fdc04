// What PV and PVC printers and the storage admission plugins read alike: the class an object is in
// (the beta annotation wins over the field, as Kubernetes' helpers read it) and the access modes
// in kubectl's short form.
import { annotationOf } from '../../../../api/meta/object.js';

/** The beta annotation older clients set instead of spec.storageClassName. */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** GetPersistentVolumeClass / GetPersistentVolumeClaimClass. */
export function storageClassOf(obj: Record<string, unknown>, spec: { storageClassName?: string | null }): string {
  const beta = annotationOf(obj, BETA_STORAGE_CLASS_ANNOTATION);
  if (beta !== undefined) return beta;
  return spec.storageClassName ?? '';
}

const shortModes: ReadonlyArray<[string, string]> = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** GetAccessModesAsString: the modes present, in this fixed order, comma-joined. */
export function accessModesString(modes: readonly string[] | null | undefined): string {
  const have = new Set(modes ?? []);
  return shortModes.filter(([m]) => have.has(m)).map(([, s]) => s).join(',');
}
