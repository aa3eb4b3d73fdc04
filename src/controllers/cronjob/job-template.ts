// The Job a CronJob starts for a schedule time (pkg/controller/cronjob/utils.go's getJobFromTemplate2),
// and the reference to it its status keeps.
import { metadataOf, nameOf } from '../../api/meta/object.js';
import type { CronJob, Job, ObjectReference } from '../../api/types.js';
import { newControllerRef } from '../common/controller-ref.js';
import { specOf } from './cronjob.js';
import { formatRFC3339In } from './schedule.js';

export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** getJobName: the cronjob's name and the scheduled time in minutes since the epoch. */
export function jobName(cj: CronJob, scheduledMs: number): string {
  return `${nameOf(cj)}-${Math.floor(scheduledMs / 60_000)}`;
}

/** getJobFromTemplate2. */
export function jobFromTemplate(cj: CronJob, scheduledMs: number): Job {
  const spec = specOf(cj);
  const tmeta = spec.jobTemplate?.metadata ?? {};
  const tz = spec.timeZone && spec.timeZone !== 'Local' ? spec.timeZone : 'UTC';
  const annotations = { ...(tmeta.annotations ?? {}), [SCHEDULED_TIMESTAMP_ANNOTATION]: formatRFC3339In(scheduledMs, tz) };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName(cj, scheduledMs),
      namespace: metadataOf(cj).namespace,
      labels: { ...(tmeta.labels ?? {}) },
      annotations,
      ownerReferences: [newControllerRef(cj, 'batch/v1', 'CronJob')],
    },
    spec: structuredClone(spec.jobTemplate?.spec ?? {}),
  };
}

/** ref.GetReference of a Job. */
export function jobReference(job: Job): ObjectReference {
  const m = metadataOf(job);
  return { kind: 'Job', namespace: m.namespace ?? undefined, name: m.name ?? undefined, uid: m.uid ?? undefined, apiVersion: 'batch/v1', resourceVersion: m.resourceVersion ?? undefined };
}

