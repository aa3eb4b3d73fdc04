// core/v1 PersistentVolume: ValidatePersistentVolume(Update) and the PV registry strategy
// (status reset to Pending with a phase transition time on create, the transition time kept
// current on status writes), and the `kubectl get pv` columns.
import type { PersistentVolume } from '../../../../api/types.js';
import { deletionTimestampOf } from '../../../../api/meta/object.js';
import { child, isObj, key, obj, optStr, semanticEqual, strs, validateImmutableField } from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { nameIsDNSSubdomain } from '../../../../machinery/validation/names.js';
import { validateNodeSelector } from '../../../podspec/affinity.js';
import { validateAccessModeValues } from '../../../podspec/ephemeral-volumes.js';
import { quantityString, toQuantity } from '../../../podspec/resource-names.js';
import type { ResourceStrategy, StrategyContext } from '../../../strategy.js';
import type { KindModule } from '../../../kind-module.js';
import * as fmt from '../../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../../printers/types.js';
import { accessModesString, storageClassOf } from './claim-class.js';
import { persistentVolumeSourceValidators } from './volume-sources.js';

const supportedReclaimPolicies = ['Delete', 'Recycle', 'Retain'];
const supportedVolumeModes = ['Block', 'Filesystem'];

/** The PersistentVolumeSource members in the order ValidatePersistentVolumeSpec counts them; the second one found is forbidden. */
export const persistentVolumeSourceKeys = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'flocker', 'nfs', 'rbd', 'quobyte', 'cephfs', 'iscsi', 'cinder',
  'fc', 'flexVolume', 'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO', 'local', 'storageos', 'csi',
] as const;
/** Kubernetes names the cephfs member `cephFS` in the "more than 1 volume type" message. */
const reportedAs = (k: string): string => (k === 'cephfs' ? 'cephFS' : k);

/** validateVolumeNodeAffinity: the required node selector (an affinity without one still counts as given). */
function validateVolumeNodeAffinity(affinity: Record<string, unknown>, path: string): FieldError[] {
  if (!isObj(affinity.required)) return [fieldError.required(child(path, 'required'), 'must specify required node constraints')];
  return validateNodeSelector(affinity.required, false, child(path, 'required'));
}

/**
 * ValidatePersistentVolumeSpec with VolumeAttributesClass off (1.33's default). `inline`: the spec
 * is a VolumeAttachment's inlineVolumeSpec (a CSI volume without capacity, claim, class or affinity).
 */
export function validatePersistentVolumeSpec(spec: Record<string, unknown>, path: string, inline = false): FieldError[] {
  const errs: FieldError[] = [];
  const inlineForbidden = (f: string): FieldError => fieldError.forbidden(child(path, f), 'may not be specified in the context of inline volumes');
  if (inline) {
    if (isObj(spec.claimRef)) errs.push(inlineForbidden('claimRef'));
    if (Object.keys(obj(spec.capacity)).length !== 0) errs.push(inlineForbidden('capacity'));
    if (!isObj(spec.csi)) errs.push(fieldError.required(child(path, 'csi'), 'has to be specified in the context of inline volumes'));
  }
  const modes = strs(spec.accessModes);
  if (modes.length === 0) errs.push(fieldError.required(child(path, 'accessModes')));
  errs.push(...validateAccessModeValues(modes, path));

  if (!inline) {
    const capacity = obj(spec.capacity);
    const capPath = child(path, 'capacity');
    const capKeys = Object.keys(capacity);
    if (capKeys.length === 0) errs.push(fieldError.required(capPath));
    if (!capKeys.includes('storage') || capKeys.length > 1) errs.push(notSupportedCapacity(capPath, spec.capacity));
    for (const r of capKeys.sort()) {
      const q = toQuantity(capacity[r]);
      if (q && q.sign() <= 0) errs.push(fieldError.invalid(key(capPath, r), quantityString(capacity[r]), 'must be greater than zero'));
    }
  }

  const policy = optStr(spec.persistentVolumeReclaimPolicy);
  if (policy && inline && policy !== 'Retain') errs.push(fieldError.forbidden(child(path, 'persistentVolumeReclaimPolicy'), 'may only be Retain in the context of inline volumes'));
  else if (policy && !supportedReclaimPolicies.includes(policy)) errs.push(fieldError.notSupported(child(path, 'persistentVolumeReclaimPolicy'), policy, supportedReclaimPolicies));

  let affinitySpecified = false;
  if (isObj(spec.nodeAffinity) && inline) errs.push(inlineForbidden('nodeAffinity'));
  else if (isObj(spec.nodeAffinity)) {
    affinitySpecified = true;
    errs.push(...validateVolumeNodeAffinity(spec.nodeAffinity, child(path, 'nodeAffinity')));
  }
  let sources = 0;
  for (const k of persistentVolumeSourceKeys) {
    if (!isObj(spec[k])) continue;
    // flexVolume is counted without the "more than 1" check, as Kubernetes does.
    if (sources > 0 && k !== 'flexVolume') {
      errs.push(fieldError.forbidden(child(path, reportedAs(k)), 'may not specify more than 1 volume type'));
      continue;
    }
    sources++;
    errs.push(...persistentVolumeSourceValidators[k]!(obj(spec[k]), child(path, k)));
    if (k === 'local' && !affinitySpecified) errs.push(fieldError.required(child(path, 'nodeAffinity'), 'Local volume requires node affinity'));
  }
  if (sources === 0) errs.push(fieldError.required(path, 'must specify a volume type'));

  const hostPath = isObj(spec.hostPath) ? optStr(spec.hostPath.path) : undefined;
  if (hostPath !== undefined && cleanPath(hostPath) === '/' && policy === 'Recycle') {
    errs.push(fieldError.forbidden(child(path, 'persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const scn = optStr(spec.storageClassName);
  if (scn && inline) errs.push(inlineForbidden('storageClassName'));
  else if (scn) for (const msg of nameIsDNSSubdomain(scn, false)) errs.push(fieldError.invalid(child(path, 'storageClassName'), scn, msg));
  const vm = optStr(spec.volumeMode);
  if (vm !== undefined && inline && vm !== 'Filesystem') {
    errs.push(fieldError.forbidden(child(path, 'volumeMode'), 'may not specify volumeMode other than Filesystem in the context of inline volumes'));
  } else if (vm !== undefined && !supportedVolumeModes.includes(vm)) errs.push(fieldError.notSupported(child(path, 'volumeMode'), vm, supportedVolumeModes));
  return errs;
}

/** The capacity error: NotSupported with the whole list as the bad value, `storage` the only supported key. */
function notSupportedCapacity(path: string, capacity: unknown): FieldError {
  return { ...fieldError.notSupported(path, '', ['storage']), badValue: { kind: 'raw', text: goResourceList(capacity) } };
}

/**
 * A ResourceList as the error prints it (Go's %#v): exact when nil or empty; entries are shown as
 * `"name":"quantity"` (Go would print each resource.Quantity's internal fields).
 */
function goResourceList(list: unknown): string {
  if (list === undefined || list === null) return 'core.ResourceList(nil)';
  const entries = Object.entries(obj(list)).sort(([a], [b]) => (a < b ? -1 : 1));
  return `core.ResourceList{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(quantityString(v))}`).join(', ')}}`;
}

/** path.Clean for the one comparison Kubernetes makes (is it "/"). */
function cleanPath(p: string): string {
  const parts = p.split('/').filter((s) => s !== '' && s !== '.');
  const out: string[] = [];
  for (const s of parts) {
    if (s === '..') out.pop();
    else out.push(s);
  }
  return (p.startsWith('/') ? '/' : '') + out.join('/') || '.';
}

/** ValidatePersistentVolumeUpdate beyond the new object's own validation: the source and volumeMode are immutable. */
export function validatePersistentVolumeUpdate(pv: PersistentVolume, old: PersistentVolume): FieldError[] {
  const spec = obj(pv.spec);
  const oldSpec = obj(old.spec);
  const errs = validatePersistentVolumeSpec(spec, 'spec');
  const newSource = sourceOf(spec);
  const oldSource = sourceOf(oldSpec);
  // A CSI volume may gain a controllerExpandSecretRef it did not have.
  if (isObj(oldSource.csi) && oldSource.csi.controllerExpandSecretRef == null && isObj(newSource.csi)) {
    const { controllerExpandSecretRef: _added, ...rest } = newSource.csi;
    newSource.csi = rest;
  }
  if (!semanticEqual(newSource, oldSource)) {
    errs.push(fieldError.forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
  }
  errs.push(...validateImmutableField(spec.volumeMode, oldSpec.volumeMode, 'volumeMode'));
  // Node affinity may be added once, then is fixed (MutablePVNodeAffinity is not in 1.33). Go
  // prints the value as a struct holding a pointer address; kubelite leaves the value out.
  if (isObj(oldSpec.nodeAffinity) && !semanticEqual(spec.nodeAffinity, oldSpec.nodeAffinity)) errs.push(fieldError.invalidOmit('nodeAffinity', 'field is immutable'));
  if (!semanticEqual(spec.volumeAttributesClassName, oldSpec.volumeAttributesClassName)) {
    errs.push(fieldError.forbidden('spec.volumeAttributesClassName', 'update is forbidden when the VolumeAttributesClass feature gate is disabled'));
  }
  return errs;
}

function sourceOf(spec: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of persistentVolumeSourceKeys) if (spec[k] !== undefined && spec[k] !== null) out[k] = spec[k];
  return out;
}

/** metav1.Time as the API writes it (seconds precision). */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const persistentVolumeStrategy: ResourceStrategy<PersistentVolume> = {
  hasStatus: true,
  tracksGeneration: false,
  // GetWarningsForPersistentVolume: Recycle still works (the PV controller's recycler pod) but is deprecated.
  warnings: (pv) => (pv.spec?.persistentVolumeReclaimPolicy === 'Recycle' ? ['spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.'] : []),
  prepareForCreate(pv, ctx: StrategyContext) {
    // VolumeAttributesClass is off by default in 1.33: the field is dropped on create.
    if (pv.spec) delete pv.spec.volumeAttributesClassName;
    pv.status = { phase: 'Pending', lastPhaseTransitionTime: rfc3339(ctx.now) };
  },
  prepareForStatusUpdate(pv, old, ctx) {
    pv.spec = old.spec;
    const status = (pv.status ??= {});
    const before = old.status ?? {};
    const given = status.lastPhaseTransitionTime ?? null;
    // The transition time is kept while the phase stays, and stamped when the phase changes
    // unless the writer set a new one itself.
    if (status.phase === before.phase && given === null) {
      if (before.lastPhaseTransitionTime) status.lastPhaseTransitionTime = before.lastPhaseTransitionTime;
    } else if (status.phase !== before.phase && (given === null || given === before.lastPhaseTransitionTime)) {
      status.lastPhaseTransitionTime = rfc3339(ctx.now);
    }
  },
  validate: (pv) => validatePersistentVolumeSpec(obj(pv.spec), 'spec'),
  validateUpdate: (pv, old) => validatePersistentVolumeUpdate(pv, old),
  validateStatusUpdate: () => [],
};

const persistentVolumePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Capacity', 'string', 'The storage the volume offers.'),
    column('Access Modes', 'string', 'How the volume may be mounted.'),
    column('Reclaim Policy', 'string', 'What happens to the volume when its claim is released.'),
    column('Status', 'string', 'The phase of the volume.'),
    column('Claim', 'string', 'The claim bound to the volume (namespace/name).'),
    column('StorageClass', 'string', 'The class of the volume.'),
    column('VolumeAttributesClass', 'string', 'The volume attributes class of the volume.'),
    column('Reason', 'string', 'Why the volume is in its phase.'),
    ageColumn,
    column('VolumeMode', 'string', 'Filesystem or raw block.', 1),
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    const status = fmt.obj(o.status);
    const claimRef = fmt.isObject(spec.claimRef) ? `${fmt.str(spec.claimRef.namespace)}/${fmt.str(spec.claimRef.name)}` : '';
    const phase = deletionTimestampOf(o) !== undefined ? 'Terminating' : fmt.str(status.phase);
    return [
      fmt.nameCell(o),
      quantityString(fmt.obj(spec.capacity).storage ?? '0'),
      accessModesString(strs(spec.accessModes)),
      fmt.str(spec.persistentVolumeReclaimPolicy),
      phase,
      claimRef,
      storageClassOf(o, { storageClassName: fmt.str(spec.storageClassName) }),
      typeof spec.volumeAttributesClassName === 'string' ? spec.volumeAttributesClassName : '<unset>',
      fmt.str(status.reason),
      fmt.ageCell(o, now),
      typeof spec.volumeMode === 'string' ? spec.volumeMode : '<unset>',
    ];
  },
};

export const persistentVolumeModule: KindModule = { group: '', kind: 'PersistentVolume', strategy: persistentVolumeStrategy, printer: persistentVolumePrinter };
