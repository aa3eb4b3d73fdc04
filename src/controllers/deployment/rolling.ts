// Kubernetes' deployment rolling.go: a RollingUpdate rollout scales the new replica set up within
// maxSurge and the old ones down within maxUnavailable, unhealthy old replicas first.
import type { Deployment, ReplicaSet } from '../../api/types.js';
import { specReplicas } from '../replicaset/spec.js';
import { deploymentComplete } from './conditions.js';
import type { SyncContext } from './context.js';
import { syncRolloutStatus } from './progress.js';
import { availableReplicaCount, byCreationTimestamp, filterActiveReplicaSets, newRSNewReplicas, replicaCount } from './replica-sets.js';
import { dStatus, maxUnavailable } from './spec.js';
import { cleanupDeployment, getAllReplicaSetsAndSyncRevision, scaleReplicaSetAndRecordEvent } from './sync.js';

export async function rolloutRolling(s: SyncContext, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(s, d, rsList, true);
  if (!newRS) return;
  const allRSs = [...oldRSs, newRS];
  if (await reconcileNewReplicaSet(s, allRSs, newRS, d)) return syncRolloutStatus(s, allRSs, newRS, d);
  if (await reconcileOldReplicaSets(s, allRSs, filterActiveReplicaSets(oldRSs), newRS, d)) return syncRolloutStatus(s, allRSs, newRS, d);
  if (deploymentComplete(d, dStatus(d))) await cleanupDeployment(s, oldRSs, d);
  return syncRolloutStatus(s, allRSs, newRS, d);
}

async function reconcileNewReplicaSet(s: SyncContext, allRSs: ReplicaSet[], newRS: ReplicaSet, d: Deployment): Promise<boolean> {
  if (specReplicas(newRS) === specReplicas(d)) return false;
  if (specReplicas(newRS) > specReplicas(d)) return (await scaleReplicaSetAndRecordEvent(s, newRS, specReplicas(d), d)).scaled;
  const count = newRSNewReplicas(d, allRSs, newRS);
  return (await scaleReplicaSetAndRecordEvent(s, newRS, count, d)).scaled;
}

async function reconcileOldReplicaSets(s: SyncContext, allRSs: ReplicaSet[], oldRSs: ReplicaSet[], newRS: ReplicaSet, d: Deployment): Promise<boolean> {
  const oldPods = replicaCount(oldRSs);
  if (oldPods === 0) return false;
  const allPods = replicaCount(allRSs);
  const minAvailable = specReplicas(d) - maxUnavailable(d);
  const newRSUnavailable = specReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = allPods - minAvailable - newRSUnavailable;
  if (maxScaledDown <= 0) return false;
  const { rss, count: cleanupCount } = await cleanupUnhealthyReplicas(s, oldRSs, d, maxScaledDown);
  const scaledDown = await scaleDownOldReplicaSetsForRollingUpdate(s, [...rss, newRS], rss, d);
  return cleanupCount + scaledDown > 0;
}

async function cleanupUnhealthyReplicas(s: SyncContext, oldRSs: ReplicaSet[], d: Deployment, maxCleanup: number): Promise<{ rss: ReplicaSet[]; count: number }> {
  const rss = [...oldRSs].sort(byCreationTimestamp);
  let total = 0;
  for (let i = 0; i < rss.length; i++) {
    if (total >= maxCleanup) break;
    const rs = rss[i]!;
    const replicas = specReplicas(rs);
    const avail = rs.status?.availableReplicas ?? 0;
    if (replicas === 0 || replicas === avail) continue;
    const down = Math.min(maxCleanup - total, replicas - avail);
    const res = await scaleReplicaSetAndRecordEvent(s, rs, replicas - down, d);
    total += down;
    rss[i] = res.rs;
  }
  return { rss, count: total };
}

async function scaleDownOldReplicaSetsForRollingUpdate(s: SyncContext, allRSs: ReplicaSet[], oldRSs: ReplicaSet[], d: Deployment): Promise<number> {
  const minAvailable = specReplicas(d) - maxUnavailable(d);
  const available = availableReplicaCount(allRSs);
  if (available <= minAvailable) return 0;
  const sorted = [...oldRSs].sort(byCreationTimestamp);
  const totalToScaleDown = available - minAvailable;
  let total = 0;
  for (const rs of sorted) {
    if (total >= totalToScaleDown) break;
    if (specReplicas(rs) === 0) continue;
    const down = Math.min(specReplicas(rs), totalToScaleDown - total);
    await scaleReplicaSetAndRecordEvent(s, rs, specReplicas(rs) - down, d);
    total += down;
  }
  return total;
}
