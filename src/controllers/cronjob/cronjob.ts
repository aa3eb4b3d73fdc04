// A CronJob's spec and status as the controller reads and writes them.
import type { KubeObject } from '../../client/types.js';

export interface CronJobSpec {
  schedule?: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: string;
  suspend?: boolean;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
  jobTemplate?: { metadata?: Record<string, unknown>; spec?: Record<string, unknown> };
}

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
}

export interface CronJobStatus {
  active?: ObjectReference[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

export const specOf = (cj: KubeObject): CronJobSpec => (cj.spec ?? {}) as CronJobSpec;
export function statusOf(cj: KubeObject): CronJobStatus {
  cj.status ??= {};
  return cj.status as CronJobStatus;
}

