// DefaultStorageClass admission (Kubernetes' plugin/pkg/admission/storage/storageclass/setdefault):
// a PersistentVolumeClaim created without a class (no spec.storageClassName, not even "", and no
// beta class annotation) gets the default StorageClass, the newest if several are marked default
// (equal creation times: the first name). No default class: the claim is left as it is.
import { annotationOf, creationTimestampOf, nameOf } from '../../api/meta/object.js';
import type { KubeObject } from '../../api/schema/kind.js';
import type { PersistentVolumeClaim } from '../../api/types.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

const IS_DEFAULT = 'storageclass.kubernetes.io/is-default-class';
const BETA_IS_DEFAULT = 'storageclass.beta.kubernetes.io/is-default-class';
const BETA_CLASS = 'volume.beta.kubernetes.io/storage-class';

/** The StorageClasses the plugin chooses from (Kubernetes reads its informer's lister). */
export interface StorageClassLister {
  list(): Promise<readonly KubeObject[]>;
}

const isDefault = (sc: KubeObject): boolean => annotationOf(sc, IS_DEFAULT) === 'true' || annotationOf(sc, BETA_IS_DEFAULT) === 'true';

/** GetDefaultClass: newest default first, then by name. */
export function defaultClassOf(classes: readonly KubeObject[]): KubeObject | undefined {
  const defaults = classes.filter(isDefault);
  const created = (sc: KubeObject): number => Date.parse(creationTimestampOf(sc)) || 0;
  defaults.sort((a, b) => created(b) - created(a) || (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
  return defaults[0];
}

export class DefaultStorageClass implements AdmissionPlugin {
  readonly name = 'DefaultStorageClass';

  constructor(private readonly classes: StorageClassLister) {}

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' || a.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource !== '' || !a.object) return;
    const pvc: PersistentVolumeClaim = a.object;
    // PersistentVolumeClaimHasClass: an explicit "" asks for no class.
    if (annotationOf(pvc, BETA_CLASS) !== undefined || (pvc.spec?.storageClassName ?? null) !== null) return;
    const def = defaultClassOf(await this.classes.list());
    if (!def) return;
    pvc.spec = { ...pvc.spec, storageClassName: nameOf(def) };
  }
}
