// core/v1 PersistentVolumeClaim: ValidatePersistentVolumeClaim(Update) (the spec is immutable but
// for the bound claim's storage request, which may grow, and the once-set volumeName), the PVC
// registry strategy (status reset on create, spec kept on status writes) and `kubectl get pvc`.
import type { PersistentVolumeClaim } from '../../../../api/types.js';
import { annotationOf, deletionTimestampOf } from '../../../../api/meta/object.js';
import { isObj, key, obj, semanticEqual, strs, validateImmutableField } from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { validatePersistentVolumeClaimSpec } from '../../../podspec/ephemeral-volumes.js';
import { quantityString, toQuantity } from '../../../podspec/resource-names.js';
import type { ResourceStrategy } from '../../../strategy.js';
import type { KindModule } from '../../../kind-module.js';
import * as fmt from '../../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../../printers/types.js';
import { accessModesString, BETA_STORAGE_CLASS_ANNOTATION, storageClassOf } from './claim-class.js';
import { claimSpecDiff } from './spec-diff.js';

const SPEC_IMMUTABLE = 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

/** ValidatePersistentVolumeClaim (ObjectMeta aside). */
export function validatePersistentVolumeClaim(pvc: PersistentVolumeClaim): FieldError[] {
  return validatePersistentVolumeClaimSpec(obj(pvc.spec), 'spec');
}

const storageRequest = (pvc: PersistentVolumeClaim): unknown => obj(obj(obj(pvc.spec).resources).requests).storage;

/**
 * ValidatePersistentVolumeClaimUpdate with 1.33's gates (RecoverVolumeExpansionFailure on,
 * VolumeAttributesClass off): volumeName may be set once, the class may move from the beta
 * annotation (or nil) to the field, a bound claim's storage request may change but not shrink to or
 * below its status capacity; everything else in spec is immutable.
 */
export function validatePersistentVolumeClaimUpdate(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const errs = validatePersistentVolumeClaim(pvc);
  const newSpec = structuredClone(obj(pvc.spec));
  const oldSpec = structuredClone(obj(old.spec));
  if (!oldSpec.volumeName) oldSpec.volumeName = newSpec.volumeName;

  const oldBeta = annotationOf(old, BETA_STORAGE_CLASS_ANNOTATION);
  const newBeta = annotationOf(pvc, BETA_STORAGE_CLASS_ANNOTATION);
  const oldClass = oldSpec.storageClassName;
  const newClass = newSpec.storageClassName;
  const nil = (v: unknown): boolean => v === undefined || v === null;
  const fromAnnotation = oldBeta !== undefined && nil(oldClass) && !nil(newClass) && newClass === oldBeta && (newBeta === undefined || newBeta === oldBeta);
  if (fromAnnotation) {
    delete newSpec.storageClassName;
  } else {
    // ValidateImmutableAnnotation compares the values, an absent annotation being "".
    if ((newBeta ?? '') !== (oldBeta ?? '')) errs.push(fieldError.forbidden(`metadata.annotations.${BETA_STORAGE_CLASS_ANNOTATION}`, 'field is immutable'));
    // From nil to a class (the DefaultStorageClass controller's retroactive assignment).
    if (!nil(newClass) && nil(oldClass) && (oldBeta === undefined || newClass === oldBeta)) delete newSpec.storageClassName;
  }

  const bound = pvc.status?.phase === 'Bound';
  const newRequests = obj(obj(newSpec.resources).requests);
  if (bound && isObj(obj(newSpec.resources).requests)) {
    const oldStorage = obj(obj(oldSpec.resources).requests).storage;
    if (oldStorage === undefined) delete newRequests.storage;
    else newRequests.storage = oldStorage;
  }
  if (bound && !nil(newSpec.volumeAttributesClassName)) {
    if (nil(oldSpec.volumeAttributesClassName)) delete newSpec.volumeAttributesClassName;
    else newSpec.volumeAttributesClassName = oldSpec.volumeAttributesClassName;
  }
  if (!semanticEqual(newSpec, oldSpec)) errs.push(fieldError.forbidden('spec', `${SPEC_IMMUTABLE}\n${claimSpecDiff(oldSpec, newSpec)}`));

  const oldSize = toQuantity(storageRequest(old) ?? '0');
  const newSize = toQuantity(storageRequest(pvc) ?? '0');
  const statusSize = toQuantity(obj(old.status?.capacity).storage ?? '0');
  if (oldSize && newSize && statusSize && newSize.cmp(oldSize) < 0 && newSize.cmp(statusSize) <= 0) {
    errs.push(fieldError.forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
  errs.push(...validateImmutableField(pvc.spec?.volumeMode, old.spec?.volumeMode, 'volumeMode'));
  if (!semanticEqual(pvc.spec?.volumeAttributesClassName, old.spec?.volumeAttributesClassName)) {
    errs.push(fieldError.forbidden('spec.volumeAttributesClassName', 'update is forbidden when the VolumeAttributesClass feature gate is disabled'));
  }
  return errs;
}

/** ValidatePersistentVolumeClaimStatusUpdate: access modes required, quantities valid. */
export function validatePersistentVolumeClaimStatusUpdate(pvc: PersistentVolumeClaim): FieldError[] {
  const errs: FieldError[] = [];
  if (strs(pvc.spec?.accessModes).length === 0) errs.push(fieldError.required('Spec.accessModes'));
  for (const [what, list] of [['status.capacity', pvc.status?.capacity], ['status.allocatedResources', pvc.status?.allocatedResources]] as const) {
    for (const [r, v] of Object.entries(obj(list)).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const q = toQuantity(v);
      // validateBasicResource reports the quantity's integer value.
      if (q && q.sign() < 0) errs.push(fieldError.invalid(key(what, r), q.value(), 'must be a valid resource quantity'));
    }
  }
  return errs;
}

/**
 * NormalizeDataSources (AnyVolumeDataSource is on): a claim naming its source one way gets the
 * other field filled alike, except a cross-namespace dataSourceRef, which has no dataSource form.
 */
export function normalizeDataSources(spec: NonNullable<PersistentVolumeClaim['spec']>): void {
  const ref = (from: { apiGroup?: string | null; kind?: string | null; name?: string | null }) => ({
    ...(from.apiGroup !== undefined ? { apiGroup: from.apiGroup } : {}),
    kind: from.kind ?? '',
    name: from.name ?? '',
  });
  if (spec.dataSource && !spec.dataSourceRef) spec.dataSourceRef = ref(spec.dataSource);
  else if (spec.dataSourceRef && !spec.dataSource && !spec.dataSourceRef.namespace) spec.dataSource = ref(spec.dataSourceRef);
}

export const persistentVolumeClaimStrategy: ResourceStrategy<PersistentVolumeClaim> = {
  hasStatus: true,
  tracksGeneration: false,
  prepareForCreate(pvc) {
    // VolumeAttributesClass is off by default in 1.33: the field is dropped on create.
    if (pvc.spec) {
      delete pvc.spec.volumeAttributesClassName;
      normalizeDataSources(pvc.spec);
    }
    // The status is reset; a client reads it back defaulted (phase Pending).
    pvc.status = { phase: 'Pending' };
  },
  prepareForUpdate(pvc, old) {
    if (!pvc.spec) return;
    if ((old.spec?.volumeAttributesClassName ?? null) === null) delete pvc.spec.volumeAttributesClassName;
    normalizeDataSources(pvc.spec);
  },
  prepareForStatusUpdate(pvc, old) {
    pvc.spec = old.spec;
    if (pvc.status && (old.status?.currentVolumeAttributesClassName ?? null) === null && (old.status?.modifyVolumeStatus ?? null) === null) {
      delete pvc.status.currentVolumeAttributesClassName;
      delete pvc.status.modifyVolumeStatus;
    }
  },
  validate: (pvc) => validatePersistentVolumeClaim(pvc),
  validateUpdate: (pvc, old) => validatePersistentVolumeClaimUpdate(pvc, old),
  validateStatusUpdate: (pvc) => validatePersistentVolumeClaimStatusUpdate(pvc),
};

const persistentVolumeClaimPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Status', 'string', 'The phase of the claim.'),
    column('Volume', 'string', 'The volume bound to the claim.'),
    column('Capacity', 'string', 'The storage the bound volume offers.'),
    column('Access Modes', 'string', 'How the bound volume may be mounted.'),
    column('StorageClass', 'string', 'The class of the claim.'),
    column('VolumeAttributesClass', 'string', 'The volume attributes class of the claim.'),
    ageColumn,
    column('VolumeMode', 'string', 'Filesystem or raw block.', 1),
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    const status = fmt.obj(o.status);
    const phase = deletionTimestampOf(o) !== undefined ? 'Terminating' : fmt.str(status.phase);
    const volumeName = fmt.str(spec.volumeName);
    // Capacity and modes are the bound volume's, shown once a volume is named.
    const capacity = volumeName ? quantityString(fmt.obj(status.capacity).storage ?? '0') : '';
    const modes = volumeName ? accessModesString(strs(status.accessModes)) : '';
    const className = typeof spec.storageClassName === 'string' ? spec.storageClassName : undefined;
    return [
      fmt.nameCell(o),
      phase,
      volumeName,
      capacity,
      modes,
      storageClassOf(o, { storageClassName: className }),
      typeof spec.volumeAttributesClassName === 'string' ? spec.volumeAttributesClassName : '<unset>',
      fmt.ageCell(o, now),
      typeof spec.volumeMode === 'string' ? spec.volumeMode : '<unset>',
    ];
  },
};

export const persistentVolumeClaimModule: KindModule = {
  group: '',
  kind: 'PersistentVolumeClaim',
  strategy: persistentVolumeClaimStrategy,
  printer: persistentVolumeClaimPrinter,
};
