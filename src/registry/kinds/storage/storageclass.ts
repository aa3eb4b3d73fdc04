// storage.k8s.io StorageClass: ValidateStorageClass(Update) (provisioner, parameters and
// reclaimPolicy fixed once created, volumeBindingMode immutable) and `kubectl get sc`, whose NAME
// marks a default class.
import type { StorageClass } from '../../../api/types.js';
import { annotationOf } from '../../../api/meta/object.js';
import { obj, objs, optStr, semanticEqual, stringMap, strs, validateImmutableField } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isQualifiedName } from '../../../machinery/validation/names.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';

export const IS_DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
export const BETA_IS_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';

/** IsDefaultAnnotation: either annotation is exactly "true". */
export function isDefaultClass(sc: Record<string, unknown>): boolean {
  return annotationOf(sc, IS_DEFAULT_CLASS_ANNOTATION) === 'true' || annotationOf(sc, BETA_IS_DEFAULT_CLASS_ANNOTATION) === 'true';
}

const maxParameterCount = 512;
const maxParameterSize = 256 * 1024;
const reclaimPolicies = ['Delete', 'Retain'];
const bindingModes = ['Immediate', 'WaitForFirstConsumer'];

/** The provisioner: required, and its lower-cased form a qualified name (a CSIDriver's name too). */
export function validateProvisioner(value: unknown, path: string): FieldError[] {
  const p = optStr(value) ?? '';
  if (p === '') return [fieldError.required(path)];
  return isQualifiedName(p.toLowerCase()).map((msg) => fieldError.invalid(path, p.toLowerCase(), msg));
}

function validateParameters(params: Record<string, string>, path: string): FieldError[] {
  const keys = Object.keys(params);
  if (keys.length > maxParameterCount) return [fieldError.tooLong(path, maxParameterCount)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const k of keys) {
    if (k.length < 1) errs.push(fieldError.invalid(path, k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(params[k] ?? '');
  }
  if (size > maxParameterSize) errs.push(fieldError.tooLong(path, maxParameterSize));
  return errs;
}

/** ValidateTopologySelectorTerm for each allowed topology, and no two terms alike. */
function validateAllowedTopologies(terms: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen: Array<Record<string, string[]>> = [];
  objs(terms).forEach((term, i) => {
    const tp = `${path}[${i}]`;
    const exprs: Record<string, string[]> = {};
    objs(term.matchLabelExpressions).forEach((req, j) => {
      const rp = `${tp}.matchLabelExpressions[${j}]`;
      const k = optStr(req.key) ?? '';
      for (const msg of isQualifiedName(k)) errs.push(fieldError.invalid(`${rp}.key`, k, msg));
      const values = strs(req.values);
      if (values.length === 0) errs.push(fieldError.required(`${rp}.values`, 'must specify as least one value'));
      if (Object.prototype.hasOwnProperty.call(exprs, k)) errs.push(fieldError.duplicate(`${rp}.key`, k));
      exprs[k] = [...new Set(values)].sort();
    });
    if (seen.some((s) => semanticEqual(s, exprs))) errs.push(fieldError.duplicate(`${tp}.matchLabelExpressions`, ''));
    seen.push(exprs);
  });
  return errs;
}

export function validateStorageClass(sc: StorageClass): FieldError[] {
  const errs = validateProvisioner(sc.provisioner, 'provisioner');
  errs.push(...validateParameters(stringMap(sc.parameters), 'parameters'));
  const policy = optStr(sc.reclaimPolicy);
  if (policy && !reclaimPolicies.includes(policy)) errs.push(fieldError.notSupported('reclaimPolicy', policy, reclaimPolicies));
  const mode = optStr(sc.volumeBindingMode);
  if (mode === undefined) errs.push(fieldError.required('volumeBindingMode'));
  else if (!bindingModes.includes(mode)) errs.push(fieldError.notSupported('volumeBindingMode', mode, bindingModes));
  errs.push(...validateAllowedTopologies(sc.allowedTopologies, 'allowedTopologies'));
  return errs;
}

export function validateStorageClassUpdate(sc: StorageClass, old: StorageClass): FieldError[] {
  const errs: FieldError[] = [];
  if (!semanticEqual(obj(old.parameters), obj(sc.parameters))) errs.push(fieldError.forbidden('parameters', 'updates to parameters are forbidden.'));
  if (sc.provisioner !== old.provisioner) errs.push(fieldError.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if ((sc.reclaimPolicy ?? '') !== (old.reclaimPolicy ?? '')) errs.push(fieldError.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  errs.push(...validateImmutableField(sc.volumeBindingMode, old.volumeBindingMode, 'volumeBindingMode'));
  return errs;
}

export const storageClassStrategy: ResourceStrategy<StorageClass> = {
  hasStatus: false,
  tracksGeneration: false,
  validate: (sc) => validateStorageClass(sc),
  validateUpdate: (sc, old) => [...validateStorageClass(sc), ...validateStorageClassUpdate(sc, old)],
};

const storageClassPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Provisioner', 'string', 'The volume plugin or CSI driver that provisions the volumes.'),
    column('ReclaimPolicy', 'string', 'What happens to provisioned volumes when released.'),
    column('VolumeBindingMode', 'string', 'When volumes are bound and provisioned.'),
    column('AllowVolumeExpansion', 'string', 'Whether claims of the class may grow.'),
    ageColumn,
  ],
  cells: (o, now) => [
    isDefaultClass(o) ? `${fmt.nameCell(o)} (default)` : fmt.nameCell(o),
    fmt.str(o.provisioner),
    typeof o.reclaimPolicy === 'string' ? o.reclaimPolicy : 'Delete',
    typeof o.volumeBindingMode === 'string' ? o.volumeBindingMode : 'Immediate',
    o.allowVolumeExpansion === true,
    fmt.ageCell(o, now),
  ],
};

export const storageClassModule: KindModule = { group: 'storage.k8s.io', kind: 'StorageClass', strategy: storageClassStrategy, printer: storageClassPrinter };

