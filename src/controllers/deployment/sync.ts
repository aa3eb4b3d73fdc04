// Kubernetes' deployment sync.go: the new and old replica sets of a Deployment (creating the new
// one named by its template hash, with the revision and replica annotations), scaling (also
// proportionally, mid-rollout), deleting old replica sets beyond revisionHistoryLimit, and the
// status computed from the replica sets.
import { annotationsOf, controllerRefOf, isBeingDeleted, nameOf, namespaceOf, resourceVersionOf, uidOf } from '../../api/meta/object.js';
import type { Deployment, DeploymentStatus, LabelSelector, PodTemplateSpec, ReplicaSet } from '../../api/types.js';
import { newControllerRef } from '../common/controller-ref.js';
import { computeHash } from '../common/hash.js';
import { deepCopy } from '../common/objects.js';
import { isAlreadyExists, isNotFound } from '../../client/errors.js';
import { keyOf } from '../../client/cache.js';
import { specReplicas } from '../replicaset/spec.js';
import { FAILED_RS_CREATE_REASON, FOUND_NEW_RS_REASON, MIN_REPLICAS_AVAILABLE, MIN_REPLICAS_UNAVAILABLE, NEW_RS_REASON, PAUSED_DEPLOY_REASON, RESUMED_DEPLOY_REASON, TIMED_OUT_REASON, getCondition, newCondition, setCondition } from './conditions.js';
import { API_VERSION, KIND, type SyncContext } from './context.js';
import {
  actualReplicaCount,
  availableReplicaCount,
  byRevision,
  bySizeNewer,
  bySizeOlder,
  filterActiveReplicaSets,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  getProportion,
  isSaturated,
  newRSNewReplicas,
  readyReplicaCount,
  replicaCount,
} from './replica-sets.js';
import { REVISION_ANNOTATION, desiredReplicasAnnotation, getRollbackTo, maxRevision, setDeploymentRevision, setNewReplicaSetAnnotations, setReplicasAnnotations } from './revisions.js';
import { asReplicaSet, dSpec, dStatus, hasProgressDeadline, hasRevisionHistoryLimit, isRollingUpdate, maxSurge, maxUnavailable } from './spec.js';
import { POD_TEMPLATE_HASH, equalIgnoreHash } from './templates.js';


/** Writes the status; the deployment takes the new resourceVersion (the sync may write again). */
export async function updateStatus(s: SyncContext, d: Deployment): Promise<void> {
  const out = await s.dClient.update(namespaceOf(d), d, { subresource: 'status' });
  (d.metadata ??= {}).resourceVersion = resourceVersionOf(out);
}

export async function updateDeployment(s: SyncContext, d: Deployment): Promise<void> {
  const out = await s.dClient.update(namespaceOf(d), d);
  (d.metadata ??= {}).resourceVersion = resourceVersionOf(out);
}

export async function syncStatusOnly(s: SyncContext, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(s, d, rsList, false);
  return syncDeploymentStatus(s, [...oldRSs, newRS], newRS, d);
}

/** sync: scaling and paused deployments. */
export async function syncScale(s: SyncContext, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(s, d, rsList, false);
  await scale(s, d, newRS, oldRSs);
  if (dSpec(d).paused && getRollbackTo(d) === undefined) await cleanupDeployment(s, oldRSs, d);
  return syncDeploymentStatus(s, [...oldRSs, newRS], newRS, d);
}

export async function checkPausedConditions(s: SyncContext, d: Deployment): Promise<void> {
  if (!hasProgressDeadline(d)) return;
  const st = (d.status ??= {});
  const cond = getCondition(st, 'Progressing');
  if (cond?.reason === TIMED_OUT_REASON) return;
  const pausedCondExists = cond?.reason === PAUSED_DEPLOY_REASON;
  const paused = !!dSpec(d).paused;
  if (paused && !pausedCondExists) setCondition(st, newCondition('Progressing', 'Unknown', PAUSED_DEPLOY_REASON, 'Deployment is paused', s.now()));
  else if (!paused && pausedCondExists) setCondition(st, newCondition('Progressing', 'Unknown', RESUMED_DEPLOY_REASON, 'Deployment is resumed', s.now()));
  else return;
  await updateStatus(s, d);
}

export function isScalingEvent(d: Deployment, rsList: ReplicaSet[]): boolean {
  const newRS = findNewReplicaSet(d, rsList);
  const [, oldRSs] = findOldReplicaSets(d, rsList);
  for (const rs of filterActiveReplicaSets([...oldRSs, newRS])) {
    const desired = desiredReplicasAnnotation(rs);
    if (desired === undefined) continue;
    if (desired !== specReplicas(d)) return true;
  }
  return false;
}

export async function getAllReplicaSetsAndSyncRevision(s: SyncContext, d: Deployment, rsList: ReplicaSet[], create: boolean): Promise<{ newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] }> {
  const [, oldRSs] = findOldReplicaSets(d, rsList);
  const newRS = await getNewReplicaSet(s, d, rsList, oldRSs, create);
  return { newRS, oldRSs };
}

async function getNewReplicaSet(s: SyncContext, d: Deployment, rsList: ReplicaSet[], oldRSs: ReplicaSet[], create: boolean): Promise<ReplicaSet | undefined> {
  const existing = findNewReplicaSet(d, rsList);
  const newRevision = String(maxRevision(oldRSs) + 1);
  const st = (d.status ??= {});
  if (existing) {
    const rsCopy = deepCopy(existing);
    const annotationsUpdated = setNewReplicaSetAnnotations(d, rsCopy, newRevision, true);
    const minReady = dSpec(d).minReadySeconds ?? 0;
    const rsSpec = (rsCopy.spec ??= {});
    if (annotationsUpdated || (rsSpec.minReadySeconds ?? 0) !== minReady) {
      rsSpec.minReadySeconds = minReady;
      return asReplicaSet(await s.rsClient.update(namespaceOf(rsCopy), rsCopy));
    }
    let needsUpdate = setDeploymentRevision(d, annotationsOf(rsCopy)[REVISION_ANNOTATION] ?? '');
    if (hasProgressDeadline(d) && !getCondition(st, 'Progressing')) {
      setCondition(st, newCondition('Progressing', 'True', FOUND_NEW_RS_REASON, `Found new replica set "${nameOf(rsCopy)}"`, s.now()));
      needsUpdate = true;
    }
    if (needsUpdate) await updateStatus(s, d);
    return rsCopy;
  }
  if (!create) return undefined;

  const spec = dSpec(d);
  const template: PodTemplateSpec = deepCopy(spec.template ?? {});
  const hash = computeHash(template, st.collisionCount);
  const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH]: hash };
  template.metadata = { ...(template.metadata ?? {}), labels };
  const selector: LabelSelector = deepCopy(spec.selector ?? {});
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH]: hash };
  const newRS: ReplicaSet = {
    apiVersion: API_VERSION,
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata?.name}-${hash}`,
      namespace: d.metadata?.namespace,
      ownerReferences: [newControllerRef(d, API_VERSION, KIND)],
      labels: { ...labels },
    },
    spec: { replicas: 0, minReadySeconds: spec.minReadySeconds ?? 0, selector, template },
  };
  const newReplicas = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
  (newRS.spec ??= {}).replicas = newReplicas;
  setNewReplicaSetAnnotations(d, newRS, newRevision, false);
  let created: ReplicaSet;
  let alreadyExists = false;
  try {
    created = asReplicaSet(await s.rsClient.create(namespaceOf(d), newRS));
  } catch (e) {
    if (isAlreadyExists(e)) {
      alreadyExists = true;
      const cached = s.rsLister.get(namespaceOf(d), nameOf(newRS));
      if (!cached) throw e;
      const rs = asReplicaSet(cached);
      const ref = controllerRefOf(rs);
      if (ref && ref.uid === uidOf(d) && equalIgnoreHash(spec.template, rs.spec?.template)) {
        created = rs;
      } else {
        // A hash collision: bump collisionCount and requeue.
        st.collisionCount = (st.collisionCount ?? 0) + 1;
        try {
          await updateStatus(s, d);
          s.log({ controller: 'deployment', msg: 'found a hash collision for deployment - bumping collisionCount', deployment: keyOf(d), collisionCount: st.collisionCount });
        } catch {
          // requeued below
        }
        throw e;
      }
    } else {
      const msg = `Failed to create new replica set "${nameOf(newRS)}": ${(e as Error).message}`;
      if (hasProgressDeadline(d)) {
        setCondition(st, newCondition('Progressing', 'False', FAILED_RS_CREATE_REASON, msg, s.now()));
        await updateStatus(s, d).catch(() => undefined);
      }
      s.recorder.event(d, 'Warning', FAILED_RS_CREATE_REASON, msg);
      throw e;
    }
  }
  if (!alreadyExists && newReplicas > 0) {
    s.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${nameOf(created)} from 0 to ${newReplicas}`);
  }
  let needsUpdate = setDeploymentRevision(d, newRevision);
  if (!alreadyExists && hasProgressDeadline(d)) {
    setCondition(st, newCondition('Progressing', 'True', NEW_RS_REASON, `Created new replica set "${nameOf(created)}"`, s.now()));
    needsUpdate = true;
  }
  if (needsUpdate) await updateStatus(s, d);
  return created;
}

/** scale: proportional scaling of a deployment whose replicas changed mid-rollout. */
async function scale(s: SyncContext, d: Deployment, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): Promise<void> {
  const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
  if (activeOrLatest) {
    if (specReplicas(activeOrLatest) === specReplicas(d)) return;
    await scaleReplicaSetAndRecordEvent(s, activeOrLatest, specReplicas(d), d);
    return;
  }
  if (isSaturated(d, newRS)) {
    for (const old of filterActiveReplicaSets(oldRSs)) await scaleReplicaSetAndRecordEvent(s, old, 0, d);
    return;
  }
  if (!isRollingUpdate(d)) return;
  const allRSs = filterActiveReplicaSets([...oldRSs, newRS]);
  const allRSsReplicas = replicaCount(allRSs);
  const allowedSize = specReplicas(d) > 0 ? specReplicas(d) + maxSurge(d) : 0;
  const toAdd = allowedSize - allRSsReplicas;
  if (toAdd > 0) allRSs.sort(bySizeNewer);
  else if (toAdd < 0) allRSs.sort(bySizeOlder);
  let added = 0;
  const sizes = new Map<string, number>();
  for (const rs of allRSs) {
    const n = nameOf(rs);
    if (toAdd !== 0) {
      const proportion = getProportion(rs, d, toAdd, added);
      sizes.set(n, specReplicas(rs) + proportion);
      added += proportion;
    } else sizes.set(n, specReplicas(rs));
  }
  for (let i = 0; i < allRSs.length; i++) {
    const rs = allRSs[i]!;
    const n = nameOf(rs);
    if (i === 0 && toAdd !== 0) sizes.set(n, Math.max(0, sizes.get(n)! + toAdd - added));
    await scaleReplicaSet(s, rs, sizes.get(n)!, d);
  }
}

export async function scaleReplicaSetAndRecordEvent(s: SyncContext, rs: ReplicaSet, newScale: number, d: Deployment): Promise<{ scaled: boolean; rs: ReplicaSet }> {
  if (specReplicas(rs) === newScale) return { scaled: false, rs };
  return scaleReplicaSet(s, rs, newScale, d);
}

async function scaleReplicaSet(s: SyncContext, rs: ReplicaSet, newScale: number, d: Deployment): Promise<{ scaled: boolean; rs: ReplicaSet }> {
  const sizeNeedsUpdate = specReplicas(rs) !== newScale;
  const probe = deepCopy(rs);
  const annotationsNeedUpdate = setReplicasAnnotations(probe, specReplicas(d), specReplicas(d) + maxSurge(d));
  if (!sizeNeedsUpdate && !annotationsNeedUpdate) return { scaled: false, rs };
  const oldScale = specReplicas(rs);
  const copy = probe;
  (copy.spec ??= {}).replicas = newScale;
  const updated = asReplicaSet(await s.rsClient.update(namespaceOf(copy), copy));
  if (sizeNeedsUpdate) {
    const op = oldScale < newScale ? 'up' : 'down';
    s.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled ${op} replica set ${nameOf(updated)} from ${oldScale} to ${newScale}`);
  }
  return { scaled: sizeNeedsUpdate, rs: updated };
}

/** cleanupDeployment: deletes old, empty replica sets beyond revisionHistoryLimit, oldest revisions first. */
export async function cleanupDeployment(s: SyncContext, oldRSs: ReplicaSet[], d: Deployment): Promise<void> {
  if (!hasRevisionHistoryLimit(d)) return;
  const cleanable = oldRSs.filter((rs) => !isBeingDeleted(rs));
  const diff = cleanable.length - (dSpec(d).revisionHistoryLimit ?? 0);
  if (diff <= 0) return;
  cleanable.sort(byRevision);
  for (let i = 0; i < diff; i++) {
    const rs = cleanable[i]!;
    const st = rs.status ?? {};
    if ((st.replicas ?? 0) !== 0 || specReplicas(rs) !== 0 || (rs.metadata?.generation ?? 0) > (st.observedGeneration ?? 0) || isBeingDeleted(rs)) continue;
    try {
      await s.rsClient.delete(namespaceOf(rs), nameOf(rs));
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}

export async function syncDeploymentStatus(s: SyncContext, allRSs: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, d: Deployment): Promise<void> {
  const newStatus = calculateStatus(s, allRSs, newRS, d);
  if (statusEqual(dStatus(d), newStatus)) return;
  d.status = newStatus;
  await updateStatus(s, d);
}

export function calculateStatus(s: SyncContext, allRSs: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, d: Deployment): DeploymentStatus {
  const available = availableReplicaCount(allRSs);
  const total = replicaCount(allRSs);
  const unavailable = Math.max(0, total - available);
  const old = dStatus(d);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata?.generation ?? 0,
    replicas: actualReplicaCount(allRSs),
    updatedReplicas: actualReplicaCount([newRS]),
    readyReplicas: readyReplicaCount(allRSs),
    availableReplicas: available,
    unavailableReplicas: unavailable,
    conditions: (old.conditions ?? []).map((c) => ({ ...c })),
  };
  if (old.collisionCount !== undefined) status.collisionCount = old.collisionCount;
  if (available >= specReplicas(d) - maxUnavailable(d)) {
    setCondition(status, newCondition('Available', 'True', MIN_REPLICAS_AVAILABLE, 'Deployment has minimum availability.', s.now()));
  } else {
    setCondition(status, newCondition('Available', 'False', MIN_REPLICAS_UNAVAILABLE, 'Deployment does not have minimum availability.', s.now()));
  }
  return status;
}

export function statusEqual(a: DeploymentStatus, b: DeploymentStatus): boolean {
  const norm = (s: DeploymentStatus) => ({
    observedGeneration: s.observedGeneration ?? 0,
    replicas: s.replicas ?? 0,
    updatedReplicas: s.updatedReplicas ?? 0,
    readyReplicas: s.readyReplicas ?? 0,
    availableReplicas: s.availableReplicas ?? 0,
    unavailableReplicas: s.unavailableReplicas ?? 0,
    collisionCount: s.collisionCount ?? null,
    conditions: (s.conditions ?? []).map((c) => [c.type, c.status, c.reason ?? '', c.message ?? '', c.lastUpdateTime ?? '', c.lastTransitionTime ?? '']),
  });
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}
