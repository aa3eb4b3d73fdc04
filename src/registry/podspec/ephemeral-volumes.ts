// Generic ephemeral volumes: the PersistentVolumeClaim template a pod's volume creates its claim
// from (only labels and annotations of metadata, a valid claim spec) and the claim's name.
import { parseQuantity } from '../../api/meta/quantity.js';
import type { EphemeralVolumeSource, PersistentVolumeClaimSpec } from '../../api/types.js';
import { child, isObj, key, obj, optStr, strs, validateAnnotations, validateLabels, validateLabelSelector } from '../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { goQuote } from '../../machinery/validation/go-syntax.js';
import { isDNS1123Subdomain, nameIsDNSLabel, nameIsDNSSubdomain } from '../../machinery/validation/names.js';
import { optStruct, struct } from '../../machinery/validation/structs.js';
import { quantityString } from './resource-names.js';

const supportedAccessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

/**
 * The access modes of a claim or volume at `path` (its `accessModes`): each one supported, and
 * ReadWriteOncePod alone. Whether any is required, and its message, differs between the two.
 */
export function validateAccessModeValues(modes: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (!supportedAccessModes.includes(mode)) errs.push(fieldError.notSupported(child(path, 'accessModes'), mode, supportedAccessModes));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (supportedAccessModes.includes(mode)) other = true;
  }
  if (rwop && other) errs.push(fieldError.forbidden(child(path, 'accessModes'), 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

/** validateDataSource / validateDataSourceRef: a named, kinded reference; the core group only for claims. */
function validateDataSource(ref: Record<string, unknown>, path: string, withNamespace: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = optStr(ref.name) ?? '';
  const kind = optStr(ref.kind) ?? '';
  const group = optStr(ref.apiGroup) ?? '';
  if (name === '') errs.push(fieldError.required(child(path, 'name')));
  if (kind === '') errs.push(fieldError.required(child(path, 'kind')));
  if (group === '' && kind !== 'PersistentVolumeClaim') errs.push(fieldError.invalid(path, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (group !== '') for (const msg of isDNS1123Subdomain(group)) errs.push(fieldError.invalid(child(path, 'apiGroup'), group, msg));
  const ns = withNamespace ? optStr(ref.namespace) : undefined;
  if (ns) for (const msg of nameIsDNSLabel(ns, false)) errs.push(fieldError.invalid(child(path, 'namespace'), ns, msg));
  return errs;
}

const sameSource = (a: Record<string, unknown>, b: Record<string, unknown>): boolean =>
  (optStr(a.apiGroup) ?? null) === (optStr(b.apiGroup) ?? null) && a.kind === b.kind && a.name === b.name;

/** ValidatePersistentVolumeClaimSpec (claims, claim templates, generic ephemeral volumes). */
export function validatePersistentVolumeClaimSpec(spec: PersistentVolumeClaimSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const modes = strs(spec.accessModes);
  if (modes.length === 0) errs.push(fieldError.required(child(path, 'accessModes'), 'at least 1 access mode is required'));
  if (isObj(spec.selector)) errs.push(...validateLabelSelector(spec.selector, child(path, 'selector')));
  errs.push(...validateAccessModeValues(modes, path));
  const requests = obj(struct(spec.resources).requests);
  const storagePath = key(child(path, 'resources'), 'storage');
  if (!Object.prototype.hasOwnProperty.call(requests, 'storage')) errs.push(fieldError.required(storagePath));
  else {
    const q = parseQuantity(String(requests.storage));
    if (q && q.sign() <= 0) errs.push(fieldError.invalid(storagePath, quantityString(requests.storage), 'must be greater than zero'));
  }
  const scn = optStr(spec.storageClassName);
  if (scn) for (const msg of nameIsDNSSubdomain(scn, false)) errs.push(fieldError.invalid(child(path, 'storageClassName'), scn, msg));
  const vm = optStr(spec.volumeMode);
  if (vm !== undefined && vm !== 'Block' && vm !== 'Filesystem') errs.push(fieldError.notSupported(child(path, 'volumeMode'), vm, ['Block', 'Filesystem']));
  const source = isObj(spec.dataSource) ? spec.dataSource : undefined;
  const sourceRef = isObj(spec.dataSourceRef) ? spec.dataSourceRef : undefined;
  if (source) errs.push(...validateDataSource(source, child(path, 'dataSource'), false));
  if (sourceRef) errs.push(...validateDataSource(sourceRef, child(path, 'dataSourceRef'), true));
  // Kubernetes prints the *field.Path it passes as the value with Go's %#v (an address); kubelite prints the path.
  if (sourceRef && optStr(sourceRef.namespace)) {
    if (source) errs.push(fieldError.invalidRaw(path, child(path, 'dataSource'), 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (source && sourceRef && !sameSource(source, sourceRef)) {
    errs.push(fieldError.invalidRaw(path, child(path, 'dataSource'), 'must match dataSourceRef'));
  }
  return errs;
}

const allowedTemplateMetaFields = new Set(['annotations', 'labels']);

/** The ephemeral volume source of volume `volName` at `path` (the volume's path); `podName` when the spec is a pod's. */
export function validateEphemeralVolumeSource(s: EphemeralVolumeSource, path: string, volName: string, podName: string | undefined): FieldError[] {
  const p = child(path, 'ephemeral');
  const tpl = optStruct(s.volumeClaimTemplate);
  const e: FieldError[] = [];
  if (!tpl) e.push(fieldError.required(child(p, 'volumeClaimTemplate')));
  else {
    const tp = child(p, 'volumeClaimTemplate');
    const meta = obj(tpl.metadata);
    e.push(...validateAnnotations(meta.annotations, child(tp, 'metadata', 'annotations')));
    e.push(...validateLabels(meta.labels, child(tp, 'metadata', 'labels')));
    for (const [k, v] of Object.entries(meta)) {
      if (!allowedTemplateMetaFields.has(k) && !(k === 'creationTimestamp' && v === null)) {
        if (v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)) {
          e.push(fieldError.forbidden(child(tp, 'metadata', k), 'cannot be set'));
        }
      }
    }
    e.push(...validatePersistentVolumeClaimSpec(struct(tpl.spec), child(tp, 'spec')));
  }
  if (podName && volName) {
    const pvcName = `${podName}-${volName}`;
    for (const msg of nameIsDNSSubdomain(pvcName, false)) e.push(fieldError.invalid(child(path, 'name'), volName, `PVC name ${goQuote(pvcName)}: ${msg}`));
  }
  return e;
}
