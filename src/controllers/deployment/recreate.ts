// Kubernetes' deployment recreate.go: a Recreate rollout scales every old replica set to 0, waits
// until none of their pods runs, then creates and scales up the new one.
import type { KubeObject } from '../../client/types.js';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../machinery/selectors/index.js';
import { getControllerOf } from '../common/controller-ref.js';
import { meta } from '../common/objects.js';
import { specReplicas } from '../replicaset/spec.js';
import { deploymentComplete } from './conditions.js';
import type { SyncContext } from './context.js';
import { syncRolloutStatus } from './progress.js';
import { actualReplicaCount, filterActiveReplicaSets } from './replica-sets.js';
import { dSpec, dStatus } from './spec.js';
import { cleanupDeployment, getAllReplicaSetsAndSyncRevision, scaleReplicaSetAndRecordEvent } from './sync.js';

export async function rolloutRecreate(s: SyncContext, d: KubeObject, rsList: KubeObject[]): Promise<void> {
  const podMap = podsByReplicaSet(s, d, rsList);
  let { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(s, d, rsList, false);
  let allRSs: (KubeObject | undefined)[] = [...oldRSs, newRS];
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
function podsByReplicaSet(s: SyncContext, d: KubeObject, rsList: KubeObject[]): Map<string, KubeObject[]> {
  const selector = labelSelectorAsSelector(dSpec(d).selector as LabelSelectorObject);
  const map = new Map<string, KubeObject[]>();
  for (const rs of rsList) map.set(String(meta(rs).uid), []);
  for (const p of s.podLister.list(String(meta(d).namespace ?? ''))) {
    if (!selector.matches(meta(p).labels)) continue;
    const ref = getControllerOf(p);
    if (ref && map.has(ref.uid)) map.get(ref.uid)!.push(p);
  }
  return map;
}

function oldPodsRunning(newRS: KubeObject | undefined, oldRSs: KubeObject[], podMap: Map<string, KubeObject[]>): boolean {
  if (actualReplicaCount(oldRSs) > 0) return true;
  for (const [uid, pods] of podMap) {
    if (newRS && meta(newRS).uid === uid) continue;
    for (const p of pods) {
      const phase = ((p.status ?? {}) as { phase?: string }).phase;
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      return true;
    }
  }
  return false;
}
