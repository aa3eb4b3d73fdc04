// Typed reads of an object's metadata (Kubernetes' meta.Accessor) over objects in their JSON form.
// Objects reach code from the wire, so every reader tolerates a missing or mistyped field and
// answers the zero value Go would ('' / [] / {}), never throws. One module for the registry, the
// client, the controllers, the scheduler and the nodes.
import type { KubeObject } from '../schema/kind.js';
import type { ObjectMeta, OwnerReference } from '../types.js';

/** An object with typed metadata: any kind, read through the accessors below or directly. */
export interface MetaObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta | null;
}

type Readable = KubeObject | MetaObject;

const EMPTY_META: ObjectMeta = Object.freeze({}) as ObjectMeta;

/** The object's metadata for reading ({} when absent or not an object). */
export function metadataOf(obj: Readable): ObjectMeta {
  const m = (obj as MetaObject).metadata;
  return typeof m === 'object' && m !== null && !Array.isArray(m) ? m : EMPTY_META;
}

function stringOr(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export const nameOf = (obj: Readable): string => stringOr(metadataOf(obj).name);
export const namespaceOf = (obj: Readable): string => stringOr(metadataOf(obj).namespace);
export const uidOf = (obj: Readable): string => stringOr(metadataOf(obj).uid);
export const generateNameOf = (obj: Readable): string => stringOr(metadataOf(obj).generateName);
export const resourceVersionOf = (obj: Readable): string => stringOr(metadataOf(obj).resourceVersion);
export const creationTimestampOf = (obj: Readable): string => stringOr(metadataOf(obj).creationTimestamp);

/** metadata.deletionTimestamp, or undefined when the object is not being deleted. */
export function deletionTimestampOf(obj: Readable): string | undefined {
  const t = metadataOf(obj).deletionTimestamp;
  return typeof t === 'string' && t !== '' ? t : undefined;
}

export const isBeingDeleted = (obj: Readable): boolean => deletionTimestampOf(obj) !== undefined;

function stringMap(v: unknown): Record<string, string> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, string>) : {};
}

export const labelsOf = (obj: Readable): Record<string, string> => stringMap(metadataOf(obj).labels);
export const annotationsOf = (obj: Readable): Record<string, string> => stringMap(metadataOf(obj).annotations);

/** metadata.annotations[key], or undefined when the object has no such annotation (reads without copying the map). */
export function annotationOf(obj: Readable, key: string): string | undefined {
  const annotations = metadataOf(obj).annotations;
  if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations)) return undefined;
  const v = annotations[key];
  return typeof v === 'string' ? v : undefined;
}

/** Owner references that carry a uid (the ones Kubernetes' garbage collector can follow). */
export function ownerReferencesOf(obj: Readable): OwnerReference[] {
  const refs = metadataOf(obj).ownerReferences;
  if (!Array.isArray(refs)) return [];
  return refs.filter((r): r is OwnerReference => typeof r === 'object' && r !== null && typeof r.uid === 'string');
}

/** The owner reference with controller: true, if any (metav1.GetControllerOf). */
export function controllerRefOf(obj: Readable): OwnerReference | undefined {
  return ownerReferencesOf(obj).find((r) => r.controller === true);
}

export function finalizersOf(obj: Readable): string[] {
  const f = metadataOf(obj).finalizers;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

export const hasFinalizer = (obj: Readable, finalizer: string): boolean => finalizersOf(obj).includes(finalizer);

/** `group` of an apiVersion (`apps/v1` → `apps`, `v1` → ''). */
export function groupOfApiVersion(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** metadata.deletionGracePeriodSeconds, or undefined when absent. */
export function deletionGracePeriodSecondsOf(obj: Readable): number | undefined {
  const s = metadataOf(obj).deletionGracePeriodSeconds;
  return typeof s === 'number' ? s : undefined;
}

/** metav1.FinalizerOrphanDependents: the garbage collector orphans the dependents, then removes it. */
export const FINALIZER_ORPHAN = 'orphan';
/** metav1.FinalizerDeleteDependents: the garbage collector deletes the blocking dependents first. */
export const FINALIZER_FOREGROUND = 'foregroundDeletion';
/** A PersistentVolumeClaim is not removed while a pod uses it (StorageObjectInUseProtection admission adds it, the pvc-protection controller removes it). */
export const FINALIZER_PVC_PROTECTION = 'kubernetes.io/pvc-protection';
/** A PersistentVolume is not removed while it is bound (added at admission, removed by the pv-protection controller). */
export const FINALIZER_PV_PROTECTION = 'kubernetes.io/pv-protection';
