// Kubernetes' deployment progress.go: the rollout's status with the Progressing condition (new
// replica set available, progressing, or past progressDeadlineSeconds) and the ReplicaFailure
// condition surfaced from the replica sets, and the re-check of a stuck rollout at its deadline.
import { nameOf, uidOf } from '../../api/meta/object.js';
import type { Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet } from '../../api/types.js';
import { keyOf } from '../../client/cache.js';
import { NEW_RS_AVAILABLE_REASON, RS_UPDATED_REASON, TIMED_OUT_REASON, deploymentComplete, deploymentProgressing, deploymentTimedOut, getCondition, newCondition, removeCondition, setCondition } from './conditions.js';
import type { SyncContext } from './context.js';
import { dSpec, dStatus, hasProgressDeadline } from './spec.js';
import { calculateStatus, statusEqual, updateStatus } from './sync.js';

export async function syncRolloutStatus(s: SyncContext, allRSs: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, d: Deployment): Promise<void> {
  const newStatus = calculateStatus(s, allRSs, newRS, d);
  if (!hasProgressDeadline(d)) removeCondition(newStatus, 'Progressing');
  const currentCond = getCondition(dStatus(d), 'Progressing');
  const isComplete = newStatus.replicas === newStatus.updatedReplicas && currentCond?.reason === NEW_RS_AVAILABLE_REASON;
  const now = s.now();
  if (hasProgressDeadline(d) && !isComplete) {
    if (deploymentComplete(d, newStatus)) {
      const msg = newRS ? `ReplicaSet "${nameOf(newRS)}" has successfully progressed.` : `Deployment "${nameOf(d)}" has successfully progressed.`;
      setCondition(newStatus, newCondition('Progressing', 'True', NEW_RS_AVAILABLE_REASON, msg, now));
    } else if (deploymentProgressing(d, newStatus)) {
      const msg = newRS ? `ReplicaSet "${nameOf(newRS)}" is progressing.` : `Deployment "${nameOf(d)}" is progressing.`;
      const cond = newCondition('Progressing', 'True', RS_UPDATED_REASON, msg, now);
      if (currentCond) {
        if (currentCond.status === 'True') cond.lastTransitionTime = currentCond.lastTransitionTime;
        removeCondition(newStatus, 'Progressing');
      }
      setCondition(newStatus, cond);
    } else if (deploymentTimedOut(d, newStatus, now)) {
      const msg = newRS ? `ReplicaSet "${nameOf(newRS)}" has timed out progressing.` : `Deployment "${nameOf(d)}" has timed out progressing.`;
      setCondition(newStatus, newCondition('Progressing', 'False', TIMED_OUT_REASON, msg, now));
    }
  }
  const failure = replicaFailures(allRSs, newRS);
  if (failure) setCondition(newStatus, failure);
  else removeCondition(newStatus, 'ReplicaFailure');
  if (statusEqual(dStatus(d), newStatus)) {
    requeueStuckDeployment(s, d, newStatus);
    return;
  }
  d.status = newStatus;
  await updateStatus(s, d);
}

/** requeueStuckDeployment: re-check a deployment without progress once its deadline passes. */
export function requeueStuckDeployment(s: SyncContext, d: Deployment, newStatus: DeploymentStatus): number {
  const cond = getCondition(dStatus(d), 'Progressing');
  if (!hasProgressDeadline(d) || !cond) return -1;
  if (deploymentComplete(d, newStatus) || cond.reason === TIMED_OUT_REASON) return -1;
  const from = Date.parse(cond.lastUpdateTime ?? '') || 0;
  const after = from + (dSpec(d).progressDeadlineSeconds ?? 0) * 1000 - s.now();
  if (after < 1000) {
    s.queue.addRateLimited(keyOf(d));
    return 0;
  }
  s.queue.addAfter(keyOf(d), after + 1000);
  return after;
}

/** getReplicaFailures: the new replica set's ReplicaFailure condition, else an old one's. */
function replicaFailures(allRSs: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined): DeploymentCondition | undefined {
  const toDeployment = (rs: ReplicaSet): DeploymentCondition | undefined => {
    const c = (rs.status?.conditions ?? []).find((x) => x.type === 'ReplicaFailure');
    if (!c) return undefined;
    return { type: 'ReplicaFailure', status: c.status, reason: c.reason, message: c.message, lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime };
  };
  if (newRS) {
    const c = toDeployment(newRS);
    if (c) return c;
  }
  for (const rs of allRSs) {
    if (!rs || (newRS && uidOf(rs) === uidOf(newRS))) continue;
    const c = toDeployment(rs);
    if (c) return c;
  }
  return undefined;
}
