// The batch kinds in every served version: Job (batch/v1), CronJob (batch/v1 storage,
// batch/v1beta1, batch/v2alpha1).
import type { KindVersion } from '../schema/kind.js';
import { batchV1beta1Conversion, batchV2alpha1Conversion } from './conversion.js';
import { batchV1beta1Defaults, batchV1Defaults, batchV2alpha1Defaults } from './defaults.js';
import * as v1 from './v1.js';
import * as v1beta1 from './v1beta1.js';
import * as v2alpha1 from './v2alpha1.js';

const G = 'batch';
const jobNames = { kind: 'Job', resource: 'jobs', singular: 'job', categories: ['all'], namespaced: true } as const;
const cronJobNames = { kind: 'CronJob', resource: 'cronjobs', singular: 'cronjob', shortNames: ['cj'], categories: ['all'], namespaced: true } as const;

export const batchKinds: readonly KindVersion[] = [
  { group: G, version: 'v1', ...jobNames, type: v1.Job, list: v1.JobList, storage: true, defaults: batchV1Defaults.job, subresources: { status: true } },
  { group: G, version: 'v1', ...cronJobNames, type: v1.CronJob, list: v1.CronJobList, storage: true, defaults: batchV1Defaults.cronJob, subresources: { status: true } },
  { group: G, version: 'v1beta1', ...cronJobNames, type: v1beta1.CronJob, list: v1beta1.CronJobList, storage: false, defaults: batchV1beta1Defaults.cronJob, toHub: batchV1beta1Conversion.cronJob.toHub, fromHub: batchV1beta1Conversion.cronJob.fromHub, subresources: { status: true } },
  { group: G, version: 'v2alpha1', ...cronJobNames, type: v2alpha1.CronJob, list: v2alpha1.CronJobList, storage: false, defaults: batchV2alpha1Defaults.cronJob, toHub: batchV2alpha1Conversion.cronJob.toHub, fromHub: batchV2alpha1Conversion.cronJob.fromHub, subresources: { status: true } },
];
