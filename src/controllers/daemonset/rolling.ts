// Planning a DaemonSet's rolling update (Kubernetes' daemon/update.go rollingUpdate): which old
// pods to delete (maxUnavailable) or on which nodes to start new pods beside old ones (maxSurge).
import { isBeingDeleted, nameOf } from '../../api/meta/object.js';
import type { DaemonSet, Pod } from '../../api/types.js';
import { isPodAvailable } from '../common/pods.js';
import { isPodUpdated, templateGeneration } from './history.js';
import { specOf } from './spec.js';

/** findUpdatedPodsOnNode: the node's new and old pod; ok false when it has more than one of either. */
export function findUpdatedPodsOnNode(ds: DaemonSet, pods: Pod[], hash: string): { newPod?: Pod; oldPod?: Pod; ok: boolean } {
  const generation = templateGeneration(ds);
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const p of pods) {
    if (isBeingDeleted(p)) continue;
    if (isPodUpdated(p, hash, generation)) {
      if (newPod) return { ok: false };
      newPod = p;
    } else {
      if (oldPod) return { ok: false };
      oldPod = p;
    }
  }
  return { newPod, oldPod, ok: true };
}

const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** Without surge: the old pods to delete so that at most maxUnavailable pods are unavailable. */
export function planRollingUpdate(ds: DaemonSet, byNode: Map<string, Pod[]>, hash: string, now: number, maxUnavailable: number): string[] {
  const minReady = specOf(ds).minReadySeconds ?? 0;
  let numUnavailable = 0;
  const allowed: string[] = [];
  const candidates: string[] = [];
  for (const [, pods] of [...byNode].sort(byName)) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(ds, pods, hash);
    if (!ok || (!newPod && !oldPod) || (newPod && oldPod)) {
      // the manage loop creates or prunes here: count it unavailable
      numUnavailable++;
    } else if (newPod) {
      if (!isPodAvailable(newPod, minReady, now)) numUnavailable++;
    } else if (oldPod) {
      if (!isPodAvailable(oldPod, minReady, now)) {
        allowed.push(nameOf(oldPod));
        numUnavailable++;
      } else if (numUnavailable < maxUnavailable) candidates.push(nameOf(oldPod));
    }
  }
  const remaining = Math.min(Math.max(0, maxUnavailable - numUnavailable), candidates.length);
  return [...allowed, ...candidates.slice(0, remaining)];
}

/** With surge: new pods beside available old ones (up to maxSurge), old ones deleted once their new one is available. */
export function planSurge(
  ds: DaemonSet,
  byNode: Map<string, Pod[]>,
  hash: string,
  now: number,
  desired: number,
  maxSurge: number,
  shouldRun: (nodeName: string) => boolean,
): { toDelete: string[]; toCreate: string[] } {
  const minReady = specOf(ds).minReadySeconds ?? 0;
  const available = (p: Pod) => isPodAvailable(p, minReady, now);
  const toDelete: string[] = [];
  const shouldNotRunToDelete: string[] = [];
  const candidates: string[] = [];
  const allowed: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const [nodeName, pods] of [...byNode].sort(byName)) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(ds, pods, hash);
    if (!ok) {
      numSurge++;
      continue;
    }
    if (oldPod ? available(oldPod) : newPod ? available(newPod) : false) numAvailable++;
    if (!oldPod) continue;
    if (!newPod) {
      if (!shouldRun(nodeName)) shouldNotRunToDelete.push(nameOf(oldPod));
      else if (!available(oldPod)) allowed.push(nodeName);
      else if (numSurge < maxSurge) candidates.push(nodeName);
    } else if (!available(newPod)) numSurge++;
    else toDelete.push(nameOf(oldPod));
  }
  // keep availability when pods move between nodes: delete only what exceeds the desired count
  const deletable = Math.min(Math.max(0, numAvailable - desired), shouldNotRunToDelete.length);
  toDelete.push(...shouldNotRunToDelete.slice(0, deletable));
  const remainingSurge = Math.min(Math.max(0, maxSurge - numSurge), candidates.length);
  return { toDelete, toCreate: [...allowed, ...candidates.slice(0, remainingSurge)] };
}
