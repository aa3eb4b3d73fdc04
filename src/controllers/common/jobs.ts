// batch/v1 Job facts the job, cronjob and ttl-after-finished controllers share
// (pkg/controller/job/util in Kubernetes).
import type { KubeObject, ResourceRef } from '../../client/types.js';

export const JOBS: ResourceRef = { group: 'batch', version: 'v1', resource: 'jobs' };
export const CRONJOBS: ResourceRef = { group: 'batch', version: 'v1', resource: 'cronjobs' };
export const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods' };

export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export function jobConditions(job: KubeObject): JobCondition[] {
  const c = (job.status as { conditions?: unknown } | undefined)?.conditions;
  return Array.isArray(c) ? (c as JobCondition[]) : [];
}

/** FinishedCondition: the Complete or Failed condition that is True, if any. */
export function finishedCondition(job: KubeObject): JobCondition | undefined {
  return jobConditions(job).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/** IsJobFinished. */
export function isJobFinished(job: KubeObject): boolean {
  return finishedCondition(job) !== undefined;
}

/** IsJobSucceeded. */
export function isJobSucceeded(job: KubeObject): boolean {
  return jobConditions(job).some((c) => c.type === 'Complete' && c.status === 'True');
}
