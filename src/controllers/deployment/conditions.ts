// A Deployment's conditions (deploymentutil): their reasons, how one is set (keeping the
// transition time when the status does not change), and whether a rollout is complete, progressing
// or past its progress deadline.
import type { Deployment, DeploymentCondition, DeploymentStatus } from '../../api/types.js';
import { rfc3339, timeMs } from '../common/time.js';
import { specReplicas } from '../replicaset/spec.js';
import { dSpec, dStatus, hasProgressDeadline } from './spec.js';

// Condition reasons.
export const FOUND_NEW_RS_REASON = 'FoundNewReplicaSet';
export const NEW_RS_REASON = 'NewReplicaSetCreated';
export const FAILED_RS_CREATE_REASON = 'ReplicaSetCreateError';
export const RS_UPDATED_REASON = 'ReplicaSetUpdated';
export const NEW_RS_AVAILABLE_REASON = 'NewReplicaSetAvailable';
export const TIMED_OUT_REASON = 'ProgressDeadlineExceeded';
export const PAUSED_DEPLOY_REASON = 'DeploymentPaused';
export const RESUMED_DEPLOY_REASON = 'DeploymentResumed';
export const MIN_REPLICAS_AVAILABLE = 'MinimumReplicasAvailable';
export const MIN_REPLICAS_UNAVAILABLE = 'MinimumReplicasUnavailable';
export const ROLLBACK_REVISION_NOT_FOUND = 'DeploymentRollbackRevisionNotFound';
export const ROLLBACK_TEMPLATE_UNCHANGED = 'DeploymentRollbackTemplateUnchanged';
export const ROLLBACK_DONE = 'DeploymentRollback';

export function newCondition(type: string, status: string, reason: string, message: string, now: number): DeploymentCondition {
  const t = rfc3339(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function getCondition(status: DeploymentStatus, type: string | null | undefined): DeploymentCondition | undefined {
  return (status.conditions ?? []).find((c) => c.type === type);
}

/** SetDeploymentCondition: same status and reason → unchanged; same status keeps lastTransitionTime. */
export function setCondition(status: DeploymentStatus, cond: DeploymentCondition): void {
  const cur = getCondition(status, cond.type);
  if (cur && cur.status === cond.status && cur.reason === cond.reason) return;
  if (cur && cur.status === cond.status) cond.lastTransitionTime = cur.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== cond.type), cond];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
}

/** DeploymentComplete. */
export function deploymentComplete(d: Deployment, st: DeploymentStatus): boolean {
  const r = specReplicas(d);
  return (st.updatedReplicas ?? 0) === r && (st.replicas ?? 0) === r && (st.availableReplicas ?? 0) === r && (st.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0);
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available pods than before. */
export function deploymentProgressing(d: Deployment, st: DeploymentStatus): boolean {
  const old = dStatus(d);
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (st.replicas ?? 0) - (st.updatedReplicas ?? 0);
  return (st.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) || newOld < oldOld || (st.readyReplicas ?? 0) > (old.readyReplicas ?? 0) || (st.availableReplicas ?? 0) > (old.availableReplicas ?? 0);
}

/** DeploymentTimedOut. */
export function deploymentTimedOut(d: Deployment, st: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const c = getCondition(st, 'Progressing');
  if (!c) return false;
  if (c.reason === NEW_RS_AVAILABLE_REASON) return false;
  if (c.reason === TIMED_OUT_REASON) return true;
  const from = timeMs(c.lastUpdateTime);
  return from + (dSpec(d).progressDeadlineSeconds ?? 0) * 1000 < now;
}
