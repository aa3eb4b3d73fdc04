// batch/v2alpha1 (k8s.io/api/batch/v2alpha1): CronJob as it was when that version was last built
// (Kubernetes 1.20): no spec.timeZone and no status.lastSuccessfulTime. Its JobTemplateSpec embeds
// batch/v1's JobSpec as it is.
import { VersionDeriver } from '../schema/derive.js';
import { field } from '../schema/dsl.js';
import * as v1 from './v1.js';

const d = new VersionDeriver('io.k8s.api.batch.v1.', 'io.k8s.api.batch.v2alpha1.', [v1.JobSpec]);

export const JobTemplateSpec = d.struct(v1.JobTemplateSpec);
export const CronJobSpec = d.struct(v1.CronJobSpec, { remove: ['timeZone'] });
export const CronJobStatus = d.struct(v1.CronJobStatus, { remove: ['lastSuccessfulTime'] });
export const CronJob = d.struct(v1.CronJob, {
  add: { spec: field(CronJobSpec, 2), status: field(CronJobStatus, 3) },
});
export const CronJobList = d.struct(v1.CronJobList);
