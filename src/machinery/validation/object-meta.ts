// ObjectMeta validation on create and update: apimachinery's ValidateObjectMeta /
// ValidateObjectMetaUpdate plus what k8s.io/kubernetes' core validation adds to them (finalizer
// names must be qualified or one of the standard ones). Messages and field paths are Kubernetes'.
import { metadataOf, type MetaObject } from '../../api/meta/object.js';
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from '../../api/types.js';
import { child, FieldImmutableErrorMsg, index, num, semanticEqual, str, strs, validateAnnotations, validateLabels, validateNonnegativeField } from './common.js';
import { fieldError, type FieldError } from './field-errors.js';
import { goPointer, goQuote, goString, goStruct, rawError } from './go-syntax.js';
import { byteLength, isQualifiedName, nameIsDNSSubdomain, validateNamespaceName, type NameValidator } from './names.js';
import { structs } from './structs.js';

export interface ObjectMetaOptions {
  /** Namespaced kinds require metadata.namespace; cluster-scoped ones forbid it. */
  namespaced: boolean;
  /** The kind's name validator (DNS-1123 subdomain when absent; null: no ObjectMeta validation at all, as for core/v1 Events). */
  nameValidator?: NameValidator | null;
  /** Field path of the metadata (`metadata`, or `spec.template.metadata` for embedded objects). */
  path?: string;
  /**
   * Validated as apimachinery's ValidateObjectMeta alone, without core's rule that an unqualified
   * finalizer name must be a standard one (CRDs and custom resources: their own finalizers are
   * unqualified, and custom resources only warn).
   */
  generic?: boolean;
}

const FinalizerOrphanDependents = 'orphan';
const FinalizerDeleteDependents = 'foregroundDeletion';
/** helper.IsStandardFinalizerName: the unqualified finalizer names Kubernetes knows. */
const standardFinalizers = new Set(['kubernetes', FinalizerOrphanDependents, FinalizerDeleteDependents]);
const FieldManagerMaxLength = 128;
const MaxSubresourceNameLength = 256;

/** ValidateFinalizerName (apimachinery): a qualified name. */
export function validateFinalizerName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
}

/** validateKubeFinalizerName (core): an unqualified name must be a standard one. */
export function validateKubeFinalizerName(name: string, path: string): FieldError[] {
  if (name.split('/').length === 1 && !standardFinalizers.has(name)) {
    return [fieldError.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified')];
  }
  return [];
}

/** ValidateFinalizers: names (reported on the list's path) and the orphan/foregroundDeletion conflict. */
export function validateFinalizers(finalizers: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers) errs.push(...validateFinalizerName(f, path));
  if (finalizers.includes(FinalizerOrphanDependents) && finalizers.includes(FinalizerDeleteDependents)) {
    errs.push(fieldError.invalid(path, finalizers, `finalizer ${FinalizerOrphanDependents} and ${FinalizerDeleteDependents} cannot be both set`));
  }
  return errs;
}

/** schema.FromAPIVersionAndKind's group and version (empty when apiVersion has more than one '/'). */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return { group: '', version: '' };
}

function goOwnerReference(ref: OwnerReference): string {
  return goStruct('v1.OwnerReference', [
    ['APIVersion', goString(ref.apiVersion)],
    ['Kind', goString(ref.kind)],
    ['Name', goString(ref.name)],
    ['UID', goString(ref.uid)],
    ['Controller', goPointer('bool', ref.controller)],
    ['BlockOwnerDeletion', goPointer('bool', ref.blockOwnerDeletion)],
  ]);
}

/** ValidateOwnerReferences: apiVersion, kind, name and uid set; no Event owners; at most one controller. */
export function validateOwnerReferences(refs: readonly OwnerReference[] | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  const all = structs(refs);
  for (const ref of all) {
    const { group, version } = parseGroupVersion(str(ref.apiVersion));
    const kind = str(ref.kind);
    if (version === '') errs.push(fieldError.invalid(child(path, 'apiVersion'), str(ref.apiVersion), 'version must not be empty'));
    if (kind === '') errs.push(fieldError.invalid(child(path, 'kind'), kind, 'must not be empty'));
    if (str(ref.name) === '') errs.push(fieldError.invalid(child(path, 'name'), str(ref.name), 'must not be empty'));
    if (str(ref.uid) === '') errs.push(fieldError.invalid(child(path, 'uid'), str(ref.uid), 'must not be empty'));
    if (group === '' && version === 'v1' && kind === 'Event') {
      errs.push(rawError('FieldValueInvalid', path, goOwnerReference(ref), '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) {
      const name = `${kind}/${str(ref.name)}`;
      if (firstController !== '') {
        errs.push(
          rawError(
            'FieldValueInvalid',
            path,
            `[]v1.OwnerReference{${all.map(goOwnerReference).join(', ')}}`,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`,
          ),
        );
      } else {
        firstController = name;
      }
    }
  }
  return errs;
}

/** Go's unicode.IsPrint for the field manager check (letters, marks, numbers, punctuation, symbols, ASCII space). */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** ValidateManagedFields: operation, fieldsType, manager and subresource of each entry. */
export function validateManagedFields(entries: readonly ManagedFieldsEntry[] | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  structs(entries).forEach((e, i) => {
    const p = index(path, i);
    const op = str(e.operation);
    if (op !== 'Apply' && op !== 'Update') errs.push(fieldError.invalid(child(p, 'operation'), op, 'must be `Apply` or `Update`'));
    const fieldsType = str(e.fieldsType);
    if (fieldsType !== '' && fieldsType !== 'FieldsV1') errs.push(fieldError.invalid(child(p, 'fieldsType'), fieldsType, 'must be `FieldsV1`'));
    const manager = str(e.manager);
    if (byteLength(manager) > FieldManagerMaxLength) errs.push(fieldError.tooLong(child(p, 'manager'), FieldManagerMaxLength));
    let pos = 0;
    for (const ch of manager) {
      if (!printable.test(ch)) {
        const cp = ch.codePointAt(0)!;
        errs.push(fieldError.invalid(child(p, 'manager'), manager, `invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${pos})`));
      }
      pos += byteLength(ch);
    }
    if (byteLength(str(e.subresource)) > MaxSubresourceNameLength) errs.push(fieldError.tooLong(child(p, 'subresource'), MaxSubresourceNameLength));
  });
  return errs;
}

/** The parts of ObjectMeta validation shared by create and update. */
function validateMetaCommon(meta: ObjectMeta, path: string, finalizerNames: boolean): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabels(meta.labels, child(path, 'labels')));
  errs.push(...validateAnnotations(meta.annotations, child(path, 'annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, child(path, 'ownerReferences')));
  if (finalizerNames) errs.push(...validateFinalizers(strs(meta.finalizers), child(path, 'finalizers')));
  errs.push(...validateManagedFields(meta.managedFields, child(path, 'managedFields')));
  return errs;
}

/**
 * ValidateObjectMeta (core's, i.e. apimachinery's plus the kube finalizer-name check) for an object
 * being created: `o` is the whole object (its `metadata` is validated).
 */
export function validateObjectMeta(o: MetaObject, opts: ObjectMetaOptions): FieldError[] {
  if (opts.nameValidator === null) return [];
  const meta = metadataOf(o);
  const path = opts.path ?? 'metadata';
  const nameFn = opts.nameValidator ?? nameIsDNSSubdomain;
  const errs: FieldError[] = [];
  const generateName = str(meta.generateName);
  if (generateName !== '') {
    for (const msg of nameFn(generateName, true)) errs.push(fieldError.invalid(child(path, 'generateName'), generateName, msg));
  }
  const name = str(meta.name);
  if (name === '') errs.push(fieldError.required(child(path, 'name'), 'name or generateName is required'));
  else for (const msg of nameFn(name, false)) errs.push(fieldError.invalid(child(path, 'name'), name, msg));
  const namespace = str(meta.namespace);
  if (opts.namespaced) {
    if (namespace === '') errs.push(fieldError.required(child(path, 'namespace')));
    else for (const msg of validateNamespaceName(namespace, false)) errs.push(fieldError.invalid(child(path, 'namespace'), namespace, msg));
  } else if (namespace !== '') {
    errs.push(fieldError.forbidden(child(path, 'namespace'), 'not allowed on this type'));
  }
  errs.push(...validateNonnegativeField(num(meta.generation), child(path, 'generation')));
  errs.push(...validateMetaCommon(meta, path, true));
  if (!opts.generic) strs(meta.finalizers).forEach((f, i) => errs.push(...validateKubeFinalizerName(f, index(child(path, 'finalizers'), i))));
  return errs;
}

/** Go's time.Time.String() for an RFC 3339 timestamp ("2026-11-22 02:34:38 +0000 UTC"). */
function goTime(v: unknown): string {
  if (typeof v !== 'string' || v === '') return '0001-01-01 00:00:00 +0000 UTC';
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return v;
  const iso = d.toISOString(); // 2026-11-22T02:34:38.000Z
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''} +0000 UTC`;
}

/** ValidateNoNewFinalizers. */
function validateNoNewFinalizers(newF: string[], oldF: string[], path: string): FieldError[] {
  const extra = [...new Set(newF.filter((f) => !oldF.includes(f)))].sort();
  if (extra.length === 0) return [];
  return [fieldError.forbidden(path, `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map(goQuote).join(', ')}}`)];
}

/** ValidateObjectMetaUpdate (core's): immutable identity and timestamps, then the metadata's own rules. */
export function validateObjectMetaUpdate(newObj: MetaObject, oldObj: MetaObject, path = 'metadata', generic = false): FieldError[] {
  const n = metadataOf(newObj);
  const o = metadataOf(oldObj);
  const errs: FieldError[] = [];
  if (o.deletionTimestamp !== undefined && o.deletionTimestamp !== null) {
    errs.push(...validateNoNewFinalizers(strs(n.finalizers), strs(o.finalizers), child(path, 'finalizers')));
  }
  if (str(n.resourceVersion) === '') errs.push(fieldError.invalid(child(path, 'resourceVersion'), '', 'must be specified for an update'));
  if (num(n.generation) < num(o.generation)) errs.push(fieldError.invalid(child(path, 'generation'), num(n.generation), 'must not be decremented'));
  const immutable = (field: keyof ObjectMeta & string, render: (v: unknown) => string) => {
    if (!semanticEqual(n[field], o[field])) errs.push(rawError('FieldValueInvalid', child(path, field), render(n[field]), FieldImmutableErrorMsg));
  };
  immutable('name', (v) => goString(v));
  immutable('namespace', (v) => goString(v));
  immutable('uid', (v) => goString(v));
  immutable('creationTimestamp', goTime);
  immutable('deletionTimestamp', (v) => (v === undefined || v === null ? '"null"' : goTime(v)));
  immutable('deletionGracePeriodSeconds', (v) => (typeof v === 'number' ? String(v) : '"null"'));
  errs.push(...validateMetaCommon(n, path, false));
  if (!generic) strs(n.finalizers).forEach((f, i) => errs.push(...validateKubeFinalizerName(f, index(child(path, 'finalizers'), i))));
  return errs;
}
