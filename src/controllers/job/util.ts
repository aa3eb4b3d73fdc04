// Job controller helpers (pkg/controller/job): spec accessors with the API's defaults, conditions,
// the pod tracking finalizer, and the expected finalizer removals.
import type { KubeObject } from '../../client/types.js';
import type { JobCondition } from '../common/jobs.js';
import { meta } from '../common/objects.js';
import { rfc3339 } from '../common/time.js';

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export const COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
/** MaxUncountedPods: at most this many pod UIDs in status.uncountedTerminatedPods. */
export const MAX_UNCOUNTED_PODS = 500;
/** MaxPodCreateDeletePerSync. */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

export interface JobSpec {
  parallelism?: number;
  completions?: number | null;
  activeDeadlineSeconds?: number;
  backoffLimit?: number;
  suspend?: boolean;
  completionMode?: string;
  podReplacementPolicy?: string;
  podFailurePolicy?: unknown;
  manualSelector?: boolean;
  selector?: unknown;
  template?: { metadata?: Record<string, unknown>; spec?: Record<string, unknown> };
  managedBy?: string;
  backoffLimitPerIndex?: number;
  maxFailedIndexes?: number;
  successPolicy?: { rules?: { succeededIndexes?: string; succeededCount?: number }[] } | null;
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  ready?: number;
  terminating?: number;
  completedIndexes?: string;
  failedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
}

export const jobSpec = (job: KubeObject): JobSpec => (job.spec ?? {}) as JobSpec;
export function jobStatus(job: KubeObject): JobStatus {
  job.status ??= {};
  return job.status as JobStatus;
}

export const parallelismOf = (job: KubeObject): number => jobSpec(job).parallelism ?? 1;
/** backoffLimit with the API's default: 6, or MaxInt32 with backoffLimitPerIndex. */
export const backoffLimitOf = (job: KubeObject): number => jobSpec(job).backoffLimit ?? (typeof jobSpec(job).backoffLimitPerIndex === 'number' ? 2147483647 : 6);
export const completionsOf = (job: KubeObject): number | undefined => {
  const c = jobSpec(job).completions;
  return typeof c === 'number' ? c : undefined;
};
export const jobSuspended = (job: KubeObject): boolean => jobSpec(job).suspend === true;
export const isIndexedJob = (job: KubeObject): boolean => jobSpec(job).completionMode === 'Indexed';

/** onlyReplaceFailedPods: podReplacementPolicy Failed, or a pod failure policy. */
export function onlyReplaceFailedPods(job: KubeObject): boolean {
  const s = jobSpec(job);
  return s.podReplacementPolicy === 'Failed' || (s.podFailurePolicy !== undefined && s.podFailurePolicy !== null);
}

export function hasTrackingFinalizer(pod: KubeObject): boolean {
  return (meta(pod).finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
}

export function removeTrackingFinalizerPatch(pod: KubeObject): unknown {
  if (!hasTrackingFinalizer(pod)) return undefined;
  return { metadata: { [`$deleteFromPrimitiveList/finalizers`]: [JOB_TRACKING_FINALIZER] } };
}

export function podPhaseOf(pod: KubeObject): string {
  return String((pod.status as { phase?: string } | undefined)?.phase ?? '');
}

/** isPodFailed: Failed, or (unless only failed pods are replaced) deleted before it succeeded. */
export function isPodFailed(pod: KubeObject, job: KubeObject): boolean {
  const phase = podPhaseOf(pod);
  if (phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return meta(pod).deletionTimestamp !== undefined && meta(pod).deletionTimestamp !== null && phase !== 'Succeeded';
}

/** controller.CountTerminatingPods. */
export function countTerminatingPods(pods: KubeObject[]): number {
  return pods.filter((p) => meta(p).deletionTimestamp && podPhaseOf(p) !== 'Succeeded' && podPhaseOf(p) !== 'Failed').length;
}

export function newCondition(type: string, status: string, reason: string, message: string, now: number): JobCondition {
  const t = rfc3339(now);
  return { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
}

export function findCondition(job: KubeObject, type: string): JobCondition | undefined {
  return (jobStatus(job).conditions ?? []).find((c) => c.type === type);
}

/** ensureJobConditionStatus: sets a condition's status, reason and message; returns whether it changed. */
export function ensureCondition(job: KubeObject, type: string, status: string, reason: string, message: string, now: number): boolean {
  const st = jobStatus(job);
  const list = st.conditions ?? [];
  const i = list.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = list[i]!;
    if (c.status !== status || c.reason !== reason || c.message !== message) {
      list[i] = newCondition(type, status, reason, message, now);
      st.conditions = list;
      return true;
    }
    return false;
  }
  if (status !== 'False') {
    st.conditions = [...list, newCondition(type, status, reason, message, now)];
    return true;
  }
  return false;
}

/** uidTrackingExpectations: the pods whose finalizer removal the controller issued but has not seen yet. */
export class FinalizerExpectations {
  private readonly store = new Map<string, Set<string>>();

  expectRemoved(jobKey: string, uids: string[]): void {
    let s = this.store.get(jobKey);
    if (!s) this.store.set(jobKey, (s = new Set()));
    for (const u of uids) s.add(u);
  }

  observed(jobKey: string, uid: string): void {
    this.store.get(jobKey)?.delete(uid);
  }

  expected(jobKey: string): Set<string> {
    return new Set(this.store.get(jobKey) ?? []);
  }

  delete(jobKey: string): void {
    this.store.delete(jobKey);
  }
}
