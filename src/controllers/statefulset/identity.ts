// A StatefulSet pod's identity (stateful_set_utils.go): its ordinal and name `<set>-<ordinal>`, the
// labels naming it, its hostname and subdomain, and its storage — one PersistentVolumeClaim per
// volumeClaimTemplate, `<template>-<set>-<ordinal>`, mounted as the template's volume.
import { labelsOf, nameOf, namespaceOf } from '../../api/meta/object.js';
import type { PersistentVolumeClaim, Pod, StatefulSet, Volume } from '../../api/types.js';
import { newControllerRef } from '../common/controller-ref.js';
import { deepCopy } from '../common/objects.js';

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
export const REVISION_LABEL = 'controller-revision-hash';

const ORDINAL_NAME = /^(.*)-([0-9]+)$/;

/** getParentNameAndOrdinal: ('', -1) when the name has no ordinal. */
export function parentAndOrdinal(pod: Pod): [string, number] {
  const m = ORDINAL_NAME.exec(nameOf(pod));
  if (!m) return ['', -1];
  const ordinal = Number(m[2]);
  return Number.isSafeInteger(ordinal) && ordinal <= 0x7fffffff ? [m[1]!, ordinal] : ['', -1];
}

export const ordinalOf = (pod: Pod): number => parentAndOrdinal(pod)[1];

/** isMemberOf: the pod's name says it belongs to the set (pods are claimed by name as well as labels). */
export const isMemberOf = (set: StatefulSet, pod: Pod): boolean => parentAndOrdinal(pod)[0] === nameOf(set);

export const replicasOf = (set: StatefulSet): number => set.spec?.replicas ?? 1;
export const startOrdinal = (set: StatefulSet): number => set.spec?.ordinals?.start ?? 0;
export const endOrdinal = (set: StatefulSet): number => startOrdinal(set) + replicasOf(set) - 1;

export function inOrdinalRange(pod: Pod, set: StatefulSet): boolean {
  const ordinal = ordinalOf(pod);
  return ordinal >= startOrdinal(set) && ordinal <= endOrdinal(set);
}

export const podName = (set: StatefulSet, ordinal: number): string => `${nameOf(set)}-${ordinal}`;

export const claimName = (set: StatefulSet, template: string, ordinal: number): string => `${template}-${nameOf(set)}-${ordinal}`;

/** getPersistentVolumeClaims: the claims a pod needs, by template name, labelled with the set's matchLabels. */
export function claimsOf(set: StatefulSet, ordinal: number): Map<string, PersistentVolumeClaim> {
  const out = new Map<string, PersistentVolumeClaim>();
  const matchLabels = set.spec?.selector?.matchLabels ?? {};
  for (const template of set.spec?.volumeClaimTemplates ?? []) {
    const templateName = template?.metadata?.name ?? '';
    const claim = deepCopy(template) as PersistentVolumeClaim;
    const meta = (claim.metadata ??= {});
    meta.name = claimName(set, templateName, ordinal);
    meta.namespace = namespaceOf(set);
    meta.labels = { ...(meta.labels ?? {}), ...matchLabels };
    delete claim.status;
    out.set(templateName, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...claim });
  }
  return out;
}

/** identityMatches: name, namespace and the identity labels agree with the ordinal. */
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
  const [parent, ordinal] = parentAndOrdinal(pod);
  const labels = labelsOf(pod);
  return (
    ordinal >= 0 &&
    parent === nameOf(set) &&
    nameOf(pod) === podName(set, ordinal) &&
    namespaceOf(pod) === namespaceOf(set) &&
    labels[POD_NAME_LABEL] === nameOf(pod) &&
    labels[POD_INDEX_LABEL] === String(ordinal)
  );
}

/** updateIdentity: the name, namespace and labels the ordinal gives. */
export function updateIdentity(set: StatefulSet, pod: Pod, ordinal = ordinalOf(pod)): void {
  const meta = (pod.metadata ??= {});
  meta.name = podName(set, ordinal);
  meta.namespace = namespaceOf(set);
  meta.labels = { ...(meta.labels ?? {}), [POD_NAME_LABEL]: meta.name, [POD_INDEX_LABEL]: String(ordinal) };
}

/** storageMatches: each claim template is mounted from the pod's own claim. */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v?.name ?? '', v]));
  for (const [template, claim] of claimsOf(set, ordinal)) {
    const volume = volumes.get(template);
    if (!volume || volume.persistentVolumeClaim?.claimName !== claim.metadata?.name) return false;
  }
  return true;
}

/** updateStorage: the claim volumes replace the template's volumes of the same names. */
export function updateStorage(set: StatefulSet, pod: Pod): void {
  const claims = claimsOf(set, ordinalOf(pod));
  if (claims.size === 0) return;
  const spec = (pod.spec ??= {});
  const volumes: Volume[] = [];
  for (const [template, claim] of claims) volumes.push({ name: template, persistentVolumeClaim: { claimName: claim.metadata?.name ?? '' } });
  for (const v of spec.volumes ?? []) if (v && !claims.has(v.name ?? '')) volumes.push(v);
  spec.volumes = volumes;
}

/** newStatefulSetPod: the pod of `ordinal` from the set's template, with its identity and storage. */
export function newStatefulSetPod(set: StatefulSet, ordinal: number): Pod {
  const template = set.spec?.template ?? {};
  const tm = template.metadata ?? {};
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName(set, ordinal),
      namespace: namespaceOf(set),
      labels: { ...(tm.labels ?? {}) },
      ...(tm.annotations ? { annotations: { ...tm.annotations } } : {}),
      ...(tm.finalizers ? { finalizers: [...tm.finalizers] } : {}),
      ownerReferences: [newControllerRef(set, 'apps/v1', 'StatefulSet')],
    },
    spec: deepCopy(template.spec ?? {}),
  };
  updateIdentity(set, pod, ordinal);
  // set only at creation: both are immutable afterwards
  pod.spec!.hostname = podName(set, ordinal);
  if (set.spec?.serviceName) pod.spec!.subdomain = set.spec.serviceName;
  updateStorage(set, pod);
  return pod;
}

export const podRevision = (pod: Pod): string => labelsOf(pod)[REVISION_LABEL] ?? '';

export function setPodRevision(pod: Pod, revision: string): void {
  const meta = (pod.metadata ??= {});
  meta.labels = { ...(meta.labels ?? {}), [REVISION_LABEL]: revision };
}
