// A Job's spec and status as the controller reads them, with the API's defaults.
import type { KubeObject } from '../../client/types.js';
import type { JobCondition } from '../common/jobs.js';

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
