// batch/v1beta1 (k8s.io/api/batch/v1beta1): CronJob, the same structs as batch/v1 under the
// v1beta1 names. Its JobTemplateSpec embeds batch/v1's JobSpec as it is. Only the defaults differ
// from batch/v1 (none: both default the history limits to 3 and 1).
import { VersionDeriver } from '../schema/derive.js';
import * as v1 from './v1.js';

const d = new VersionDeriver('io.k8s.api.batch.v1.', 'io.k8s.api.batch.v1beta1.', [v1.JobSpec]);

export const JobTemplateSpec = d.struct(v1.JobTemplateSpec);
export const CronJob = d.struct(v1.CronJob);
export const CronJobList = d.struct(v1.CronJobList);
