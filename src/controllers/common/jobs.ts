// batch/v1 Job facts the job, cronjob and ttl-after-finished controllers share
// (pkg/controller/job/util in Kubernetes).
import type { Job } from '../../api/types.js';
import type { ResourceRef } from '../../client/types.js';

export const JOBS: ResourceRef = { group: 'batch', version: 'v1', resource: 'jobs' };
export const CRONJOBS: ResourceRef = { group: 'batch', version: 'v1', resource: 'cronjobs' };
export const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };

/** A Job condition as the API server admits it (type and status set) and the job controller writes it. */
export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** status.conditions (validation requires each condition's type and status). */
export function jobConditions(job: Job): JobCondition[] {
  const c = job.status?.conditions;
  return Array.isArray(c) ? (c as JobCondition[]) : [];
}

/** FinishedCondition: the Complete or Failed condition that is True, if any. */
export function finishedCondition(job: Job): JobCondition | undefined {
  return jobConditions(job).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/** IsJobFinished. */
export function isJobFinished(job: Job): boolean {
  return finishedCondition(job) !== undefined;
}

/** IsJobSucceeded. */
export function isJobSucceeded(job: Job): boolean {
  return jobConditions(job).some((c) => c.type === 'Complete' && c.status === 'True');
}
