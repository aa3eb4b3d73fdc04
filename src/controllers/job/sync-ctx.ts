// The Job controller's per-sync state and the pure helpers of its sync (pkg/controller/job).
import { uidOf } from '../../api/meta/object.js';
import type { Job, JobCondition, Pod, PodTemplateSpec } from '../../api/types.js';
import { comparePodsForDeletion } from '../common/pods.js';
import { podFinishedTime, type BackoffRecord } from './backoff.js';
import {
  INDEX_FAILURE_COUNT_ANNOTATION,
  INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
  completionIndexOf,
  duplicatedIndexPodsForRemoval,
  indexAbsoluteFailureCount,
  indexFailureCount,
} from './indexed.js';
import { matchPodFailurePolicy } from './podfailurepolicy.js';
import { isPodFailed, podPhaseOf } from './pods.js';
import { backoffLimitOf, completionsOf, isIndexedJob, jobSpec, jobStatus } from './spec.js';
import { hasTrackingFinalizer } from './tracking-finalizer.js';

export interface SyncCtx {
  key: string;
  job: Job;
  pods: Pod[];
  activePods: Pod[];
  ready: number;
  terminating: number;
  uncountedSucceeded: Set<string>;
  uncountedFailed: Set<string>;
  expectedRmFinalizers: Set<string>;
  succeeded: number;
  failed: number;
  newBackoffRecord: BackoffRecord;
  finishedCondition?: JobCondition;
  /** Indexed jobs: the indexes of status.completedIndexes, and those plus newly succeeded pods'. */
  prevSucceededIndexes: Set<number>;
  succeededIndexes: Set<number>;
  /** backoffLimitPerIndex: the failed indexes, and per index the failed pod a new pod replaces. */
  failedIndexes?: Set<number>;
  delayedDeletion?: Map<number, Pod>;
}

export const perIndexLimit = (job: Job): number | undefined => {
  const v = jobSpec(job).backoffLimitPerIndex;
  return isIndexedJob(job) && typeof v === 'number' ? v : undefined;
};

/** activePodsForRemoval: for Indexed jobs first the pods of bad or duplicated indexes, then the least valuable. */
export function activePodsForRemoval(job: Job, pods: Pod[], count: number): Pod[] {
  let rm: Pod[] = [];
  let left = pods;
  if (isIndexedJob(job)) [rm, left] = duplicatedIndexPodsForRemoval(pods, completionsOf(job) ?? 0);
  if (rm.length < count) rm = [...rm, ...[...left].sort((a, b) => comparePodsForDeletion(a, b)).slice(0, count - rm.length)];
  return rm;
}

/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, container restarts count as failures. */
export function pastBackoffLimitOnFailure(job: Job, pods: Pod[]): boolean {
  const rp = jobSpec(job).template?.spec?.restartPolicy;
  if (rp !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    const phase = podPhaseOf(p);
    if (phase !== 'Running' && phase !== 'Pending') continue;
    const st = p.status ?? {};
    for (const cs of [...(st.initContainerStatuses ?? []), ...(st.containerStatuses ?? [])]) restarts += cs.restartCount ?? 0;
  }
  const limit = backoffLimitOf(job);
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** cleanUncountedPodsWithoutFinalizers: uncounted pods whose finalizer is gone are counted. */
export function cleanUncountedPodsWithoutFinalizers(job: Job, uidsWithFinalizer: Set<string>): boolean {
  const st = jobStatus(job);
  const unc = (st.uncountedTerminatedPods ??= {});
  let updated = false;
  const keepS = (unc.succeeded ?? []).filter((u) => uidsWithFinalizer.has(u));
  if (keepS.length !== (unc.succeeded ?? []).length) {
    updated = true;
    st.succeeded = (st.succeeded ?? 0) + (unc.succeeded ?? []).length - keepS.length;
    unc.succeeded = keepS;
  }
  const keepF = (unc.failed ?? []).filter((u) => uidsWithFinalizer.has(u));
  if (keepF.length !== (unc.failed ?? []).length) {
    updated = true;
    st.failed = (st.failed ?? 0) + (unc.failed ?? []).length - keepF.length;
    unc.failed = keepF;
  }
  return updated;
}

/** isIndexFailed: a failed pod whose index used up its backoffLimitPerIndex (or a FailIndex rule matched). */
export function isIndexFailed(job: Job, pod: Pod, limit: number): boolean {
  if (!isPodFailed(pod, job)) return false;
  const m = matchPodFailurePolicy(job, pod);
  if (m.action === 'FailIndex') return true;
  return m.countFailed && indexFailureCount(pod) >= limit;
}

/** getPodsWithDelayedDeletionPerIndex: per pending index, its latest failed pod still holding the finalizer. */
export function podsWithDelayedDeletionPerIndex(c: SyncCtx, completions: number): Map<number, Pod> {
  const active = new Set(c.activePods.map(completionIndexOf));
  const out = new Map<number, Pod>();
  for (const p of c.pods) {
    if (!hasTrackingFinalizer(p) || c.expectedRmFinalizers.has(uidOf(p)) || !isPodFailed(p, c.job)) continue;
    const ix = completionIndexOf(p);
    if (ix < 0 || ix >= completions || c.succeededIndexes.has(ix) || c.failedIndexes?.has(ix) || active.has(ix)) continue;
    const last = out.get(ix);
    if (!last || (indexAbsoluteFailureCount(last) <= indexAbsoluteFailureCount(p) && podFinishedTime(p) >= podFinishedTime(last))) out.set(ix, p);
  }
  return out;
}

/** addIndexFailureCountAnnotation: the replaced pod's counts plus its own failure. */
export function addIndexFailureCounts(template: PodTemplateSpec, job: Job, replaced: Pod | undefined): void {
  let failures = 0;
  let ignored = 0;
  if (replaced) {
    failures = indexFailureCount(replaced);
    ignored = indexAbsoluteFailureCount(replaced) - failures;
    if (matchPodFailurePolicy(job, replaced).countFailed) failures++;
    else ignored++;
  }
  const m = (template.metadata ??= {});
  const annotations: Record<string, string> = { ...(m.annotations ?? {}), [INDEX_FAILURE_COUNT_ANNOTATION]: String(failures) };
  if (ignored > 0) annotations[INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = String(ignored);
  m.annotations = annotations;
}
