// One sync of a StatefulSet (defaultStatefulSetControl.UpdateStatefulSet): pods are kept at their
// ordinals in [start, start + replicas); missing ones are created and failed or finished ones
// recreated; with OrderedReady each step waits until every pod before it is Running, Ready and
// Available, and scale-down removes the highest ordinal first, one at a time; Parallel does all at
// once. Updates (RollingUpdate) replace the highest-ordinal pod not at the update revision, down to
// `partition`, one at a time (or up to maxUnavailable with the MaxUnavailableStatefulSet gate);
// OnDelete leaves that to the user. The returned status is what the set's status should become.
import { isBeingDeleted } from '../../api/meta/object.js';
import type { Pod, StatefulSet, StatefulSetStatus } from '../../api/types.js';
import { isNotFound } from '../../client/errors.js';
import type { EventRecorder, KubeObject } from '../../client/types.js';
import { isPodAvailable, isPodReady } from '../common/pods.js';
import { scaledValue } from '../deployment/spec.js';
import { applyRevision, type Revisions } from './history.js';
import { endOrdinal, identityMatches, inOrdinalRange, newStatefulSetPod, ordinalOf, podRevision, replicasOf, setPodRevision, startOrdinal, storageMatches } from './identity.js';
import type { StatefulPodControl } from './pod-control.js';

const phaseOf = (pod: Pod): string => pod.status?.phase ?? '';
/** isCreated: the API server has given it a phase (a pod built here but not created has none). */
const isCreated = (pod: Pod): boolean => phaseOf(pod) !== '';
const isTerminating = (pod: Pod): boolean => isBeingDeleted(pod);
const isRunningAndReady = (pod: Pod): boolean => phaseOf(pod) === 'Running' && isPodReady(pod);
const isHealthy = (pod: Pod): boolean => isRunningAndReady(pod) && !isTerminating(pod);

export interface ControlOptions {
  /** The MaxUnavailableStatefulSet feature gate (alpha, off in Kubernetes 1.33). */
  maxUnavailable: boolean;
  now: () => number;
}

const name = (o: { metadata?: { name?: string | null } | null }): string => o.metadata?.name ?? '';

/** updateStatus: the counts over every list of pods. */
function countPods(status: StatefulSetStatus, minReadySeconds: number, revisions: Revisions, now: number, ...lists: Pod[][]): void {
  Object.assign(status, { replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0 });
  for (const list of lists) {
    for (const pod of list) {
      if (isCreated(pod)) status.replicas! += 1;
      if (isRunningAndReady(pod)) {
        status.readyReplicas! += 1;
        if (isPodAvailable(pod, minReadySeconds, now)) status.availableReplicas! += 1;
      }
      if (isCreated(pod) && !isTerminating(pod)) {
        const revision = podRevision(pod);
        if (revision === name(revisions.current)) status.currentReplicas! += 1;
        if (revision === name(revisions.update)) status.updatedReplicas! += 1;
      }
    }
  }
}

export class StatefulSetControl {
  constructor(
    private readonly pods: StatefulPodControl,
    private readonly recorder: EventRecorder,
    private readonly opts: ControlOptions,
  ) {}

  /** updateStatefulSet: the status after this round of work (written by the caller). */
  async update(set: StatefulSet, revisions: Revisions, pods: Pod[]): Promise<{ status: StatefulSetStatus; error?: unknown }> {
    const currentSet = applyRevision(set, revisions.current);
    const updateSet = applyRevision(set, revisions.update);
    const minReady = set.spec?.minReadySeconds ?? 0;
    const now = this.opts.now();
    const status: StatefulSetStatus = {
      observedGeneration: set.metadata?.generation ?? 0,
      currentRevision: name(revisions.current),
      updateRevision: name(revisions.update),
      collisionCount: revisions.collisionCount,
    };
    countPods(status, minReady, revisions, now, pods);

    const start = startOrdinal(set);
    const replicas: (Pod | undefined)[] = new Array(replicasOf(set)).fill(undefined);
    const condemned: Pod[] = [];
    for (const pod of pods) {
      if (inOrdinalRange(pod, set)) replicas[ordinalOf(pod) - start] = pod;
      else if (ordinalOf(pod) >= 0) condemned.push(pod);
    }
    for (let ord = start; ord <= endOrdinal(set); ord++) replicas[ord - start] ??= this.versionedPod(currentSet, updateSet, revisions, ord);
    const live = replicas as Pod[];
    condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
    const recount = (): StatefulSetStatus => (countPods(status, minReady, revisions, now, live, condemned), status);

    let firstUnhealthy: Pod | undefined = live.find((p) => !isHealthy(p));
    if (!firstUnhealthy) for (let i = condemned.length - 1; i >= 0; i--) if (!isHealthy(condemned[i]!)) { firstUnhealthy = condemned[i]; break; }

    if (isBeingDeleted(set)) return { status };
    const monotonic = set.spec?.podManagementPolicy !== 'Parallel';

    try {
      if (await this.runForAll(live.length, monotonic, (i) => this.processReplica(set, currentSet, updateSet, revisions, monotonic, live, i, now))) return { status: recount() };
      if (await this.runForAll(condemned.length, monotonic, (i) => this.fixCondemnedClaims(updateSet, condemned[i]!))) return { status: recount() };
      if (await this.runForAll(condemned.length, monotonic, (i) => this.processCondemned(set, firstUnhealthy, monotonic, condemned[i]!, minReady, now))) return { status: recount() };
    } catch (error) {
      return { status: recount(), error };
    }
    recount();
    if (set.spec?.updateStrategy?.type === 'OnDelete') return { status };
    try {
      if (this.opts.maxUnavailable) await this.rollWithMaxUnavailable(set, live, revisions, status);
      else await this.rollOneAtATime(set, live, revisions, status);
    } catch (error) {
      return { status, error };
    }
    return { status };
  }

  /** newVersionedStatefulSetPod: ordinals below the partition keep the current revision. */
  private versionedPod(currentSet: StatefulSet, updateSet: StatefulSet, revisions: Revisions, ordinal: number): Pod {
    const strategy = currentSet.spec?.updateStrategy;
    const partition = strategy?.rollingUpdate?.partition ?? 0;
    if ((strategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && ordinal < startOrdinal(currentSet) + partition) {
      const pod = newStatefulSetPod(currentSet, ordinal);
      setPodRevision(pod, name(revisions.current));
      return pod;
    }
    const pod = newStatefulSetPod(updateSet, ordinal);
    setPodRevision(pod, name(revisions.update));
    return pod;
  }

  /**
   * runForAll: in order, stopping at the first step that says so (OrderedReady), or all of them
   * (Parallel: errors are collected). Returns whether the round must stop here.
   */
  private async runForAll(count: number, monotonic: boolean, fn: (i: number) => Promise<boolean>): Promise<boolean> {
    if (monotonic) {
      for (let i = 0; i < count; i++) if (await fn(i)) return true;
      return false;
    }
    const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => fn(i)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return false;
  }

  /** processReplica: returns true when the round must stop (OrderedReady waits, or an error). */
  private async processReplica(set: StatefulSet, currentSet: StatefulSet, updateSet: StatefulSet, revisions: Revisions, monotonic: boolean, replicas: Pod[], i: number, now: number): Promise<boolean> {
    let pod = replicas[i]!;
    const phase = phaseOf(pod);
    if (phase === 'Failed' || phase === 'Succeeded') {
      // a pod that stopped (evicted, or its node restarted) is replaced whatever its exit code
      if (phase === 'Failed') this.recorder.event(set as KubeObject, 'Warning', 'RecreatingFailedPod', `StatefulSet ${set.metadata?.namespace}/${name(set)} is recreating failed Pod ${name(pod)}`);
      else this.recorder.event(set as KubeObject, 'Normal', 'RecreatingTerminatedPod', `StatefulSet ${set.metadata?.namespace}/${name(set)} is recreating terminated Pod ${name(pod)}`);
      await this.pods.deletePod(set, pod);
      pod = replicas[i] = this.versionedPod(currentSet, updateSet, revisions, i + startOrdinal(set));
    }
    if (!isCreated(pod)) {
      // a claim still owned by the previous pod of this ordinal: wait for the garbage collector
      if (this.pods.podClaimIsStale(set, pod)) return true;
      await this.pods.createPod(set, pod);
      return monotonic;
    }
    if (phaseOf(pod) === 'Pending') await this.pods.createMissingClaims(set, pod);
    if (monotonic && (isTerminating(pod) || !isRunningAndReady(pod) || !isPodAvailable(pod, set.spec?.minReadySeconds ?? 0, now))) return true;
    if (identityMatches(set, pod) && storageMatches(set, pod) && this.pods.claimsMatchRetentionPolicy(updateSet, pod)) return false;
    await this.pods.updatePod(updateSet, pod);
    return false;
  }

  /** The claims of pods being scaled away take the owners whenScaled asks for. */
  private async fixCondemnedClaims(updateSet: StatefulSet, pod: Pod): Promise<boolean> {
    if (!this.pods.claimsMatchRetentionPolicy(updateSet, pod)) await this.pods.updateClaimsForRetentionPolicy(updateSet, pod);
    return false;
  }

  /** processCondemned: the highest ordinal goes first, once its predecessors are healthy (OrderedReady). */
  private async processCondemned(set: StatefulSet, firstUnhealthy: Pod | undefined, monotonic: boolean, pod: Pod, minReady: number, now: number): Promise<boolean> {
    if (isTerminating(pod)) return monotonic;
    if (monotonic && pod !== firstUnhealthy && (!isRunningAndReady(pod) || !isPodAvailable(pod, minReady, now))) return true;
    await this.pods.deletePod(set, pod);
    return true;
  }

  /** The rolling update without maxUnavailable: one pod at a time, highest ordinal first, down to the partition. */
  private async rollOneAtATime(set: StatefulSet, replicas: Pod[], revisions: Revisions, status: StatefulSetStatus): Promise<void> {
    const partition = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    for (let target = replicas.length - 1; target >= partition; target--) {
      const pod = replicas[target]!;
      if (podRevision(pod) !== name(revisions.update) && !isTerminating(pod)) {
        await this.deleteForUpdate(set, pod);
        status.currentReplicas = (status.currentReplicas ?? 0) - 1;
        return;
      }
      if (!isHealthy(pod)) return;
    }
  }

  /** updateStatefulSetAfterInvariantEstablished: up to maxUnavailable pods replaced at once. */
  private async rollWithMaxUnavailable(set: StatefulSet, replicas: Pod[], revisions: Revisions, status: StatefulSetStatus): Promise<void> {
    const rolling = set.spec?.updateStrategy?.rollingUpdate;
    const partition = rolling?.partition ?? 0;
    const maxUnavailable = Math.max(1, scaledValue(rolling?.maxUnavailable ?? 1, replicas.length, false));
    const unavailable = replicas.filter((p) => !isHealthy(p)).length;
    if (unavailable >= maxUnavailable) return;
    let toDelete = maxUnavailable - unavailable;
    for (let target = replicas.length - 1; target >= partition && toDelete > 0; target--) {
      const pod = replicas[target]!;
      if (podRevision(pod) === name(revisions.update) || isTerminating(pod)) continue;
      await this.deleteForUpdate(set, pod);
      toDelete--;
      status.currentReplicas = (status.currentReplicas ?? 0) - 1;
    }
  }

  private async deleteForUpdate(set: StatefulSet, pod: Pod): Promise<void> {
    try {
      await this.pods.deletePod(set, pod);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
