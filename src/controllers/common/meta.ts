// Object metadata accessors shared by the controllers (Kubernetes' meta.Accessor, on plain JSON).
import { metaOf } from '../../client/cache.js';
import type { KubeObject } from '../../client/types.js';

export { metaOf, nameOf, namespaceOf, keyOf, splitKey, labelsOf, objectOf, isTombstone } from '../../client/cache.js';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

export function uidOf(obj: KubeObject): string {
  const u = metaOf(obj).uid;
  return typeof u === 'string' ? u : '';
}

export function ownerReferencesOf(obj: KubeObject): OwnerReference[] {
  const refs = metaOf(obj).ownerReferences;
  if (!Array.isArray(refs)) return [];
  return refs.filter((r): r is OwnerReference => typeof r === 'object' && r !== null && typeof (r as OwnerReference).uid === 'string');
}

export function finalizersOf(obj: KubeObject): string[] {
  const f = metaOf(obj).finalizers;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

export function deletionTimestampOf(obj: KubeObject): string | undefined {
  const t = metaOf(obj).deletionTimestamp;
  return typeof t === 'string' && t !== '' ? t : undefined;
}

export function isBeingDeleted(obj: KubeObject): boolean {
  return deletionTimestampOf(obj) !== undefined;
}

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return finalizersOf(obj).includes(finalizer);
}

export function creationTimestampOf(obj: KubeObject): string {
  const t = metaOf(obj).creationTimestamp;
  return typeof t === 'string' ? t : '';
}

export function annotationsOf(obj: KubeObject): Record<string, string> {
  const a = metaOf(obj).annotations;
  return typeof a === 'object' && a !== null ? (a as Record<string, string>) : {};
}

/** `group` of an apiVersion (`apps/v1` → `apps`, `v1` → ''). */
export function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

export function resourceVersionOfMeta(obj: KubeObject): string {
  const rv = metaOf(obj).resourceVersion;
  return typeof rv === 'string' ? rv : '';
}
