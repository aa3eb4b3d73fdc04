// Kubernetes' deployment recreate.go: a Recreate rollout scales every old replica set to 0, waits
// until none of their pods runs, then creates and scales up the new one.
import { controllerRefOf, labelsOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import type { Deployment, Pod, ReplicaSet } from '../../api/types.js';
import { labelSelectorAsSelector } from '../../machinery/selectors/index.js';
import { asPod } from '../replicaset/spec.js';
import { specReplicas } from '../replicaset/spec.js';
import { deploymentComplete } from './conditions.js';
import type { SyncContext } from './context.js';
import { syncRolloutStatus } from './progress.js';
import { actualReplicaCount, filterActiveReplicaSets } from './replica-sets.js';
import { dSpec, dStatus } from './spec.js';
import { cleanupDeployment, getAllReplicaSetsAndSyncRevision, scaleReplicaSetAndRecordEvent } from './sync.js';

export async function rolloutRecreate(s: SyncContext, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  const podMap = podsByReplicaSet(s, d, rsList);
  let { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(s, d, rsList, false);
  let allRSs: (ReplicaSet | undefined)[] = [...oldRSs, newRS];
  let scaledDown = false;
  for (const rs of filterActiveReplicaSets(oldRSs)) {
    if ((await scaleReplicaSetAndRecordEvent(s, rs, 0, d)).scaled) scaledDown = true;
  }
  if (scaledDown) return syncRolloutStatus(s, allRSs, newRS, d);
  if (oldPodsRunning(newRS, oldRSs, podMap)) return syncRolloutStatus(s, allRSs, newRS, d);
  if (!newRS) {
    ({ newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(s, d, rsList, true));
    allRSs = [...oldRSs, newRS];
  }
  if (newRS) await scaleReplicaSetAndRecordEvent(s, newRS, specReplicas(d), d);
  if (deploymentComplete(d, dStatus(d))) await cleanupDeployment(s, oldRSs, d);
  return syncRolloutStatus(s, allRSs, newRS, d);
}

/** Pods of the deployment's replica sets, by replica set uid (for Recreate). */
function podsByReplicaSet(s: SyncContext, d: Deployment, rsList: ReplicaSet[]): Map<string, Pod[]> {
  const selector = labelSelectorAsSelector(dSpec(d).selector);
  const map = new Map<string, Pod[]>();
  for (const rs of rsList) map.set(uidOf(rs), []);
  for (const p of s.podLister.list(namespaceOf(d)).map(asPod)) {
    if (!selector.matches(labelsOf(p))) continue;
    const uid = controllerRefOf(p)?.uid;
    if (uid) map.get(uid)?.push(p);
  }
  return map;
}

function oldPodsRunning(newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[], podMap: Map<string, Pod[]>): boolean {
  if (actualReplicaCount(oldRSs) > 0) return true;
  for (const [uid, pods] of podMap) {
    if (newRS && uidOf(newRS) === uid) continue;
    for (const p of pods) {
      const phase = p.status?.phase;
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      return true;
    }
  }
  return false;
}
