// The Job a CronJob starts for a schedule time (pkg/controller/cronjob/utils.go's getJobFromTemplate2),
// and the reference to it its status keeps.
import type { KubeObject } from '../../client/types.js';
import { newControllerRef } from '../common/controller-ref.js';
import { meta } from '../common/objects.js';
import { specOf, type ObjectReference } from './cronjob.js';
import { formatRFC3339In } from './schedule.js';

export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** getJobName: the cronjob's name and the scheduled time in minutes since the epoch. */
export function jobName(cj: KubeObject, scheduledMs: number): string {
  return `${meta(cj).name}-${Math.floor(scheduledMs / 60_000)}`;
}

/** getJobFromTemplate2. */
export function jobFromTemplate(cj: KubeObject, scheduledMs: number): KubeObject {
  const spec = specOf(cj);
  const tmeta = (spec.jobTemplate?.metadata ?? {}) as { labels?: Record<string, string>; annotations?: Record<string, string> };
  const tz = spec.timeZone && spec.timeZone !== 'Local' ? spec.timeZone : 'UTC';
  const annotations = { ...(tmeta.annotations ?? {}), [SCHEDULED_TIMESTAMP_ANNOTATION]: formatRFC3339In(scheduledMs, tz) };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName(cj, scheduledMs),
      namespace: meta(cj).namespace,
      labels: { ...(tmeta.labels ?? {}) },
      annotations,
      ownerReferences: [newControllerRef(cj, 'batch/v1', 'CronJob')],
    },
    spec: structuredClone(spec.jobTemplate?.spec ?? {}),
  };
}

/** ref.GetReference of a Job. */
export function jobReference(job: KubeObject): ObjectReference {
  const m = meta(job);
  return { kind: 'Job', namespace: m.namespace ?? undefined, name: m.name ?? undefined, uid: m.uid ?? undefined, apiVersion: 'batch/v1', resourceVersion: m.resourceVersion ?? undefined };
}

