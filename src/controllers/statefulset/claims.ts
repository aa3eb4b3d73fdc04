// The claims of a StatefulSet's pods (stateful_pod_control.go): created from the
// volumeClaimTemplates before the pod, and owned according to the set's
// persistentVolumeClaimRetentionPolicy so that the garbage collector deletes them when Kubernetes
// would — no owner (Retain/Retain), the set (whenDeleted: Delete), the pod once it is scaled away
// (whenScaled: Delete), or one of the two. Claims another controller owns are left alone.
import { nameOf, ownerReferencesOf, uidOf } from '../../api/meta/object.js';
import type { OwnerReference, PersistentVolumeClaim, Pod, StatefulSet } from '../../api/types.js';
import type { KubeObject } from '../../client/types.js';
import { newControllerRef } from '../common/controller-ref.js';
import { claimName, inOrdinalRange, ordinalOf } from './identity.js';

const SET_KIND = { apiVersion: 'apps/v1', kind: 'StatefulSet' };
const POD_KIND = { apiVersion: 'v1', kind: 'Pod' };

interface Policy {
  whenDeleted: 'Retain' | 'Delete';
  whenScaled: 'Retain' | 'Delete';
}

export function retentionPolicy(set: StatefulSet): Policy {
  const p = set.spec?.persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted === 'Delete' ? 'Delete' : 'Retain', whenScaled: p?.whenScaled === 'Delete' ? 'Delete' : 'Retain' };
}

const matchesRef = (ref: OwnerReference, obj: KubeObject, kind: { apiVersion: string; kind: string }): boolean => ref.apiVersion === kind.apiVersion && ref.kind === kind.kind && ref.name === nameOf(obj);
const hasOwnerRef = (claim: PersistentVolumeClaim, owner: KubeObject): boolean => ownerReferencesOf(claim).some((r) => r.uid === uidOf(owner));

/** hasStaleOwnerRef: a reference to an object of that name and kind, but another uid (an earlier incarnation). */
export const hasStaleOwnerRef = (claim: PersistentVolumeClaim, obj: KubeObject, kind: { apiVersion: string; kind: string }): boolean =>
  ownerReferencesOf(claim).some((r) => r.name === nameOf(obj) && r.kind === kind.kind && r.apiVersion === kind.apiVersion && r.uid !== uidOf(obj));

/** hasUnexpectedController: under a deleting policy, a controller that is neither the set nor the pod (or a stale one). */
function hasUnexpectedController(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean {
  const policy = retentionPolicy(set);
  if (policy.whenScaled === 'Retain' && policy.whenDeleted === 'Retain') return false;
  for (const ref of ownerReferencesOf(claim)) {
    if (matchesRef(ref, set as KubeObject, SET_KIND)) {
      if (ref.uid !== uidOf(set)) return true;
      continue;
    }
    if (matchesRef(ref, pod as KubeObject, POD_KIND)) {
      if (ref.uid !== uidOf(pod)) return true;
      continue;
    }
    if (ref.controller) return true;
  }
  return false;
}

const hasNonControllerOwner = (claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean =>
  ownerReferencesOf(claim).some((r) => (r.uid === uidOf(set) || r.uid === uidOf(pod)) && !r.controller);

/** The owners the policy wants on the claim of `pod`: the set, the pod, both or neither. */
function wantedOwners(set: StatefulSet, pod: Pod): { set: boolean; pod: boolean } {
  const policy = retentionPolicy(set);
  const scaledDown = !inOrdinalRange(pod, set);
  return { set: policy.whenDeleted === 'Delete' && (policy.whenScaled === 'Retain' || !scaledDown), pod: policy.whenScaled === 'Delete' && scaledDown };
}

/** isClaimOwnerUpToDate. Claims in an unknown state (stale references, other controllers) count as up to date. */
export function claimOwnerUpToDate(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean {
  if (hasStaleOwnerRef(claim, set as KubeObject, SET_KIND) || hasStaleOwnerRef(claim, pod as KubeObject, POD_KIND)) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, set as KubeObject) || hasOwnerRef(claim, pod as KubeObject));
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const want = wantedOwners(set, pod);
  return hasOwnerRef(claim, set as KubeObject) === want.set && hasOwnerRef(claim, pod as KubeObject) === want.pod;
}

/** updateClaimOwnerRefForSetAndPod: the claim's references to the set and pod, rewritten to the policy. */
export function withPolicyOwners(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): PersistentVolumeClaim {
  const next = structuredClone(claim);
  const unexpected = hasUnexpectedController(claim, set, pod);
  const refs = ownerReferencesOf(claim).filter((r) => !matchesRef(r, set as KubeObject, SET_KIND) && !matchesRef(r, pod as KubeObject, POD_KIND));
  if (!unexpected) {
    const want = wantedOwners(set, pod);
    if (want.set) refs.push(newControllerRef(set as KubeObject, SET_KIND.apiVersion, SET_KIND.kind));
    if (want.pod) refs.push(newControllerRef(pod as KubeObject, POD_KIND.apiVersion, POD_KIND.kind));
  }
  (next.metadata ??= {}).ownerReferences = refs;
  return next;
}

/** The names of the claims of a pod's ordinal, by template. */
export function claimNamesOf(set: StatefulSet, pod: Pod): string[] {
  return (set.spec?.volumeClaimTemplates ?? []).map((t) => claimName(set, t?.metadata?.name ?? '', ordinalOf(pod)));
}

/**
 * PodClaimIsStale: under whenScaled: Delete, a claim still owned by an earlier pod of that ordinal
 * blocks the new pod until the garbage collector has removed it.
 */
export function claimIsStale(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean {
  return retentionPolicy(set).whenScaled === 'Delete' && hasStaleOwnerRef(claim, pod as KubeObject, POD_KIND);
}
