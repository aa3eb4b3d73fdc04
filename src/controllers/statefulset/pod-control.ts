// The writes of the StatefulSet controller on pods and claims (StatefulPodControl), each recorded
// as an event on the set the way Kubernetes words them ("create Pod web-0 in StatefulSet web
// successful", "create Claim data-web-0 Pod web-0 in StatefulSet web success").
import { isBeingDeleted, nameOf, namespaceOf } from '../../api/meta/object.js';
import type { PersistentVolumeClaim, Pod, StatefulSet } from '../../api/types.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../client/errors.js';
import type { EventRecorder, KubeObject, Lister, ResourceClient } from '../../client/types.js';
import { claimIsStale, claimOwnerUpToDate, withPolicyOwners } from './claims.js';
import { claimsOf, identityMatches, ordinalOf, storageMatches, updateIdentity, updateStorage } from './identity.js';

const title = (verb: string): string => verb.charAt(0).toUpperCase() + verb.slice(1);
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export class StatefulPodControl {
  constructor(
    private readonly pods: ResourceClient,
    private readonly claims: ResourceClient,
    private readonly claimLister: Lister,
    private readonly recorder: EventRecorder,
  ) {}

  private podEvent(verb: string, set: StatefulSet, pod: Pod, err?: unknown): void {
    if (err === undefined) this.recorder.event(set as KubeObject, 'Normal', `Successful${title(verb)}`, `${verb} Pod ${nameOf(pod)} in StatefulSet ${nameOf(set)} successful`);
    else this.recorder.event(set as KubeObject, 'Warning', `Failed${title(verb)}`, `${verb} Pod ${nameOf(pod)} in StatefulSet ${nameOf(set)} failed error: ${messageOf(err)}`);
  }

  private claimEvent(verb: string, set: StatefulSet, pod: Pod, claim: PersistentVolumeClaim, err?: unknown): void {
    if (err === undefined) this.recorder.event(set as KubeObject, 'Normal', `Successful${title(verb)}`, `${verb} Claim ${nameOf(claim)} Pod ${nameOf(pod)} in StatefulSet ${nameOf(set)} success`);
    else this.recorder.event(set as KubeObject, 'Warning', `Failed${title(verb)}`, `${verb} Claim ${nameOf(claim)} for Pod ${nameOf(pod)} in StatefulSet ${nameOf(set)} failed error: ${messageOf(err)}`);
  }

  private claim(namespace: string, name: string): PersistentVolumeClaim | undefined {
    return this.claimLister.get(namespace, name) as PersistentVolumeClaim | undefined;
  }

  /** createPersistentVolumeClaims: every missing claim of the pod; a claim being deleted is an error. */
  async createMissingClaims(set: StatefulSet, pod: Pod): Promise<void> {
    const errors: string[] = [];
    for (const claim of claimsOf(set, ordinalOf(pod)).values()) {
      const existing = this.claim(namespaceOf(set), nameOf(claim));
      if (existing) {
        if (isBeingDeleted(existing)) errors.push(`pvc ${nameOf(claim)} is being deleted`);
        continue;
      }
      try {
        await this.claims.create(namespaceOf(set), claim as KubeObject);
        this.claimEvent('create', set, pod, claim);
      } catch (err) {
        errors.push(`failed to create PVC ${nameOf(claim)}: ${messageOf(err)}`);
        if (!isAlreadyExists(err)) this.claimEvent('create', set, pod, claim, err);
      }
    }
    if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  }

  /** CreateStatefulPod: its claims first, then the pod, then the claims' owners for the retention policy. */
  async createPod(set: StatefulSet, pod: Pod): Promise<void> {
    try {
      await this.createMissingClaims(set, pod);
    } catch (err) {
      this.podEvent('create', set, pod, err);
      throw err;
    }
    let created: Pod;
    try {
      created = (await this.pods.create(namespaceOf(set), pod as KubeObject)) as Pod;
    } catch (err) {
      if (isAlreadyExists(err)) throw err;
      this.podEvent('create', set, pod, err);
      throw err;
    }
    try {
      await this.updateClaimsForRetentionPolicy(set, created);
    } catch (err) {
      this.podEvent('update', set, created, err);
      throw err;
    }
    this.podEvent('create', set, created);
  }

  async deletePod(set: StatefulSet, pod: Pod): Promise<void> {
    try {
      await this.pods.delete(namespaceOf(pod), nameOf(pod));
      this.podEvent('delete', set, pod);
    } catch (err) {
      this.podEvent('delete', set, pod, err);
      throw err;
    }
  }

  /** ClaimsMatchRetentionPolicy: every existing claim of the pod is owned as the policy says. */
  claimsMatchRetentionPolicy(set: StatefulSet, pod: Pod): boolean {
    for (const claim of claimsOf(set, ordinalOf(pod)).values()) {
      const existing = this.claim(namespaceOf(set), nameOf(claim));
      if (existing && !claimOwnerUpToDate(existing, set, pod)) return false;
    }
    return true;
  }

  /** PodClaimIsStale: a claim of the pod's ordinal still owned by an earlier pod. */
  podClaimIsStale(set: StatefulSet, pod: Pod): boolean {
    for (const claim of claimsOf(set, ordinalOf(pod)).values()) {
      const existing = this.claim(namespaceOf(set), nameOf(claim));
      if (existing && claimIsStale(existing, set, pod)) return true;
    }
    return false;
  }

  /** UpdatePodClaimForRetentionPolicy. */
  async updateClaimsForRetentionPolicy(set: StatefulSet, pod: Pod): Promise<void> {
    for (const claim of claimsOf(set, ordinalOf(pod)).values()) {
      const existing = this.claim(namespaceOf(set), nameOf(claim));
      if (!existing || claimOwnerUpToDate(existing, set, pod)) continue;
      try {
        await this.claims.update(namespaceOf(set), withPolicyOwners(existing, set, pod) as KubeObject);
      } catch (err) {
        throw new Error(`could not update claim ${nameOf(claim)} for delete policy ownerRefs: ${messageOf(err)}`);
      }
    }
  }

  /** UpdateStatefulPod: identity, storage and claim owners put right; the pod written only if it changed. */
  async updatePod(set: StatefulSet, current: Pod): Promise<void> {
    let pod = structuredClone(current);
    let attempted = false;
    for (let attempt = 0; ; attempt++) {
      let consistent = true;
      if (!identityMatches(set, pod)) {
        updateIdentity(set, pod);
        consistent = false;
      }
      try {
        if (!storageMatches(set, pod)) {
          updateStorage(set, pod);
          consistent = false;
          await this.createMissingClaims(set, pod);
        }
        if (!this.claimsMatchRetentionPolicy(set, pod)) {
          await this.updateClaimsForRetentionPolicy(set, pod);
          consistent = false;
        }
      } catch (err) {
        this.podEvent('update', set, pod, err);
        throw err;
      }
      if (consistent) {
        if (attempted) this.podEvent('update', set, pod);
        return;
      }
      attempted = true;
      try {
        await this.pods.update(namespaceOf(pod), pod as KubeObject);
        this.podEvent('update', set, pod);
        return;
      } catch (err) {
        if (!isConflict(err) || attempt >= 4) {
          this.podEvent('update', set, pod, err);
          throw err;
        }
        try {
          pod = (await this.pods.get(namespaceOf(pod), nameOf(pod))) as Pod;
        } catch (getErr) {
          if (isNotFound(getErr)) throw err;
        }
      }
    }
  }
}
