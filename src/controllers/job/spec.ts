// A Job's spec and status as the controller reads them, with the API's defaults.
import type { Job, JobSpec, JobStatus } from '../../api/types.js';
import type { KubeObject } from '../../client/types.js';

// Informers and the API hand objects over as JSON the API server validated against the schema
// api/types.ts is derived from: this is the one place that JSON becomes a typed Job.
export const asJob = (o: KubeObject): Job => o as Job;

export const jobSpec = (job: Job): JobSpec => job.spec ?? {};
export function jobStatus(job: Job): JobStatus {
  job.status ??= {};
  return job.status;
}

export const parallelismOf = (job: Job): number => jobSpec(job).parallelism ?? 1;
/** backoffLimit with the API's default: 6, or MaxInt32 with backoffLimitPerIndex. */
export const backoffLimitOf = (job: Job): number => jobSpec(job).backoffLimit ?? (typeof jobSpec(job).backoffLimitPerIndex === 'number' ? 2147483647 : 6);
export const completionsOf = (job: Job): number | undefined => {
  const c = jobSpec(job).completions;
  return typeof c === 'number' ? c : undefined;
};
export const jobSuspended = (job: Job): boolean => jobSpec(job).suspend === true;
export const isIndexedJob = (job: Job): boolean => jobSpec(job).completionMode === 'Indexed';

/** onlyReplaceFailedPods: podReplacementPolicy Failed, or a pod failure policy. */
export function onlyReplaceFailedPods(job: Job): boolean {
  const s = jobSpec(job);
  return s.podReplacementPolicy === 'Failed' || (s.podFailurePolicy !== undefined && s.podFailurePolicy !== null);
}
