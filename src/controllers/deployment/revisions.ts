// A Deployment's revisions (deploymentutil): the revision annotations a Deployment and its replica
// sets carry, the revision history, the replica-count annotations, the annotations copied from a
// Deployment to its replica sets, and the revision the deprecated rollbackTo asks for.
import { annotationsOf } from '../../api/meta/object.js';
import type { Deployment, ReplicaSet } from '../../api/types.js';
import { specReplicas } from '../replicaset/spec.js';
import { maxSurge } from './spec.js';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const DEPRECATED_ROLLBACK_TO = 'deprecated.deployment.rollback.to';
export const LAST_APPLIED_CONFIG = 'kubectl.kubernetes.io/last-applied-configuration';
export const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;

/** Replica sets as the helpers take them: the new one may not exist yet. */
export type RSs = (ReplicaSet | undefined | null)[];
export const present = (rss: RSs): ReplicaSet[] => rss.filter((r): r is ReplicaSet => !!r);

function setAnnotation(obj: Deployment | ReplicaSet, k: string, v: string): void {
  const m = (obj.metadata ??= {});
  m.annotations = { ...(m.annotations ?? {}), [k]: v };
}


/** Revision of a replica set (0 when absent or unparsable). */
export function revision(obj: ReplicaSet): number {
  const v = annotationsOf(obj)[REVISION_ANNOTATION];
  if (v === undefined) return 0;
  const n = Number(v);
  return Number.isInteger(n) ? n : 0;
}
function revisionOrError(obj: ReplicaSet): number | undefined {
  const v = annotationsOf(obj)[REVISION_ANNOTATION];
  if (v === undefined) return 0;
  return /^-?\d+$/.test(v) ? Number(v) : undefined;
}

export function maxRevision(rss: RSs): number {
  let max = 0;
  for (const rs of present(rss)) {
    const v = revisionOrError(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

/** LastRevision: the second largest revision. */
export function lastRevision(rss: RSs): number {
  let max = 0;
  let second = 0;
  for (const rs of present(rss)) {
    const v = revisionOrError(rs);
    if (v === undefined) continue;
    if (v >= max) {
      second = max;
      max = v;
    } else if (v > second) second = v;
  }
  return second;
}

const ANNOTATIONS_TO_SKIP = new Set([LAST_APPLIED_CONFIG, REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION, DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, DEPRECATED_ROLLBACK_TO]);
export const skipCopyAnnotation = (k: string): boolean => ANNOTATIONS_TO_SKIP.has(k);

function copyDeploymentAnnotationsToReplicaSet(d: Deployment, rs: ReplicaSet): boolean {
  let changed = false;
  const rsAnn = { ...annotationsOf(rs) };
  for (const [k, v] of Object.entries(annotationsOf(d))) {
    if (skipCopyAnnotation(k) || rsAnn[k] === v) continue;
    rsAnn[k] = v;
    changed = true;
  }
  if (changed) (rs.metadata ??= {}).annotations = rsAnn;
  return changed;
}

/** SetReplicasAnnotations: desired-replicas and max-replicas; true when changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  let updated = false;
  const a = annotationsOf(rs);
  if (a[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    setAnnotation(rs, DESIRED_REPLICAS_ANNOTATION, String(desired));
    updated = true;
  }
  if (annotationsOf(rs)[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    setAnnotation(rs, MAX_REPLICAS_ANNOTATION, String(max));
    updated = true;
  }
  return updated;
}

function intAnnotation(rs: ReplicaSet, k: string): number | undefined {
  const v = annotationsOf(rs)[k];
  if (v === undefined || !/^-?\d+$/.test(v)) return undefined;
  return Number(v);
}
export const desiredReplicasAnnotation = (rs: ReplicaSet): number | undefined => intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
export const maxReplicasAnnotation = (rs: ReplicaSet): number | undefined => intAnnotation(rs, MAX_REPLICAS_ANNOTATION);

/** SetNewReplicaSetAnnotations. */
export function setNewReplicaSetAnnotations(d: Deployment, rs: ReplicaSet, newRevision: string, exists: boolean, maxRevHistoryLength = MAX_REV_HISTORY_LENGTH_IN_CHARS): boolean {
  let changed = copyDeploymentAnnotationsToReplicaSet(d, rs);
  const ann = ((rs.metadata ??= {}).annotations ??= {});
  const hadOld = Object.prototype.hasOwnProperty.call(ann, REVISION_ANNOTATION);
  const oldRevision = ann[REVISION_ANNOTATION] ?? '';
  let oldRevisionInt = 0;
  if (oldRevision !== '') {
    if (!/^-?\d+$/.test(oldRevision)) return false;
    oldRevisionInt = Number(oldRevision);
  }
  if (!/^-?\d+$/.test(newRevision)) return false;
  const newRevisionInt = Number(newRevision);
  if (oldRevisionInt < newRevisionInt) {
    ann[REVISION_ANNOTATION] = newRevision;
    changed = true;
  }
  if (hadOld && oldRevisionInt < newRevisionInt) {
    const history = ann[REVISION_HISTORY_ANNOTATION] ?? '';
    let old = history.split(',');
    if (old[0]!.length === 0) ann[REVISION_HISTORY_ANNOTATION] = oldRevision;
    else {
      let totalLen = history.length + oldRevision.length + 1;
      let start = 0;
      while (totalLen > maxRevHistoryLength && start < old.length) {
        totalLen = totalLen - old[start]!.length - 1;
        start++;
      }
      if (totalLen <= maxRevHistoryLength) {
        old = [...old.slice(start), oldRevision];
        ann[REVISION_HISTORY_ANNOTATION] = old.join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(rs, specReplicas(d), specReplicas(d) + maxSurge(d))) changed = true;
  return changed;
}

/** SetDeploymentRevision: true when the deployment's revision annotation changed. */
export function setDeploymentRevision(d: Deployment, rev: string): boolean {
  if (annotationsOf(d)[REVISION_ANNOTATION] === rev) return false;
  setAnnotation(d, REVISION_ANNOTATION, rev);
  return true;
}

/** SetDeploymentAnnotationsTo: the deployment keeps only its skipped annotations plus the replica set's others. */
export function setDeploymentAnnotationsTo(d: Deployment, rs: ReplicaSet): void {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(annotationsOf(d))) if (skipCopyAnnotation(k)) out[k] = v;
  for (const [k, v] of Object.entries(annotationsOf(rs))) if (!skipCopyAnnotation(k)) out[k] = v;
  (d.metadata ??= {}).annotations = out;
}

/** The revision the deprecated spec.rollbackTo asks for (its annotation on apps/v1 objects). */
export function getRollbackTo(d: Deployment): number | undefined {
  const v = annotationsOf(d)[DEPRECATED_ROLLBACK_TO];
  if (v === undefined || v === '' || !/^-?\d+$/.test(v)) return undefined;
  return Number(v);
}
