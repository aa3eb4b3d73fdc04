// batch/v1 (k8s.io/api/batch/v1): Job and CronJob, the storage version of both. batch/v1beta1 and
// batch/v2alpha1 derive their CronJob structs from these. Field numbers are those of batch/v1
// generated.proto. Defaults are set by ./defaults.ts.
import { PodTemplateSpec } from '../core/v1/pod.js';
import { ObjectReference } from '../core/v1/references.js';
import { LabelSelector, ListMeta, ObjectMeta } from '../meta/v1.js';
import { field, listOf, struct, t, typeMetaFields } from '../schema/dsl.js';

const G = 'io.k8s.api.batch.v1.';

// ---- Job ----

export const PodFailurePolicyOnExitCodesRequirement = struct(G + 'PodFailurePolicyOnExitCodesRequirement', {
  // `json:"containerName"`: null when unset.
  containerName: field(t.string, 1, { pointer: true, omitempty: false }),
  operator: field(t.string, 2, { omitempty: false, required: true, enum: ['In', 'NotIn'] }),
  values: field(listOf(t.int32), 3, { omitempty: false, required: true, listType: 'set' }),
});

export const PodFailurePolicyOnPodConditionsPattern = struct(G + 'PodFailurePolicyOnPodConditionsPattern', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  /** Defaulted to True. */
  status: field(t.string, 2, { omitempty: false, required: true }),
});

export const PodFailurePolicyRule = struct(G + 'PodFailurePolicyRule', {
  action: field(t.string, 1, { omitempty: false, required: true, enum: ['Count', 'FailIndex', 'FailJob', 'Ignore'] }),
  // Neither has omitempty: null when unset.
  onExitCodes: field(PodFailurePolicyOnExitCodesRequirement, 2, { pointer: true, omitempty: false }),
  onPodConditions: field(listOf(PodFailurePolicyOnPodConditionsPattern), 3, { omitempty: false, listType: 'atomic' }),
});

export const PodFailurePolicy = struct(G + 'PodFailurePolicy', {
  rules: field(listOf(PodFailurePolicyRule), 1, { omitempty: false, required: true, listType: 'atomic' }),
});

export const SuccessPolicyRule = struct(G + 'SuccessPolicyRule', {
  succeededIndexes: field(t.string, 1, { pointer: true }),
  succeededCount: field(t.int32, 2, { pointer: true }),
});

export const SuccessPolicy = struct(G + 'SuccessPolicy', {
  rules: field(listOf(SuccessPolicyRule), 1, { omitempty: false, required: true, listType: 'atomic' }),
});

export const JobSpec = struct(G + 'JobSpec', {
  parallelism: field(t.int32, 1, { pointer: true }),
  completions: field(t.int32, 2, { pointer: true }),
  activeDeadlineSeconds: field(t.int64, 3, { pointer: true }),
  podFailurePolicy: field(PodFailurePolicy, 11, { pointer: true }),
  successPolicy: field(SuccessPolicy, 16, { pointer: true }),
  backoffLimit: field(t.int32, 7, { pointer: true }),
  backoffLimitPerIndex: field(t.int32, 12, { pointer: true }),
  maxFailedIndexes: field(t.int32, 13, { pointer: true }),
  selector: field(LabelSelector, 4, { pointer: true }),
  manualSelector: field(t.bool, 5, { pointer: true }),
  template: field(PodTemplateSpec, 6, { omitempty: false, required: true }),
  ttlSecondsAfterFinished: field(t.int32, 8, { pointer: true }),
  completionMode: field(t.string, 9, { pointer: true, enum: ['Indexed', 'NonIndexed'] }),
  suspend: field(t.bool, 10, { pointer: true }),
  podReplacementPolicy: field(t.string, 14, { pointer: true, enum: ['Failed', 'TerminatingOrFailed'] }),
  managedBy: field(t.string, 15, { pointer: true }),
});

export const UncountedTerminatedPods = struct(G + 'UncountedTerminatedPods', {
  succeeded: field(listOf(t.string), 1, { listType: 'set' }),
  failed: field(listOf(t.string), 2, { listType: 'set' }),
});

export const JobCondition = struct(G + 'JobCondition', {
  type: field(t.string, 1, { omitempty: false, required: true }),
  status: field(t.string, 2, { omitempty: false, required: true }),
  lastProbeTime: field(t.time, 3),
  lastTransitionTime: field(t.time, 4),
  reason: field(t.string, 5),
  message: field(t.string, 6),
});

export const JobStatus = struct(G + 'JobStatus', {
  conditions: field(listOf(JobCondition), 1, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'atomic' }),
  startTime: field(t.time, 2, { pointer: true }),
  completionTime: field(t.time, 3, { pointer: true }),
  active: field(t.int32, 4),
  succeeded: field(t.int32, 5),
  failed: field(t.int32, 6),
  terminating: field(t.int32, 11, { pointer: true }),
  completedIndexes: field(t.string, 7),
  failedIndexes: field(t.string, 10, { pointer: true }),
  uncountedTerminatedPods: field(UncountedTerminatedPods, 8, { pointer: true }),
  ready: field(t.int32, 9, { pointer: true }),
});

export const Job = struct(G + 'Job', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(JobSpec, 2),
  status: field(JobStatus, 3),
});

export const JobList = struct(G + 'JobList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Job), 2, { omitempty: false, required: true }),
});

// ---- CronJob ----

export const JobTemplateSpec = struct(G + 'JobTemplateSpec', {
  metadata: field(ObjectMeta, 1),
  spec: field(JobSpec, 2),
});

export const CronJobSpec = struct(G + 'CronJobSpec', {
  schedule: field(t.string, 1, { omitempty: false, required: true }),
  timeZone: field(t.string, 8, { pointer: true }),
  startingDeadlineSeconds: field(t.int64, 2, { pointer: true }),
  concurrencyPolicy: field(t.string, 3, { enum: ['Allow', 'Forbid', 'Replace'] }),
  suspend: field(t.bool, 4, { pointer: true }),
  jobTemplate: field(JobTemplateSpec, 5, { omitempty: false, required: true }),
  successfulJobsHistoryLimit: field(t.int32, 6, { pointer: true }),
  failedJobsHistoryLimit: field(t.int32, 7, { pointer: true }),
});

export const CronJobStatus = struct(G + 'CronJobStatus', {
  active: field(listOf(ObjectReference), 1, { listType: 'atomic' }),
  lastScheduleTime: field(t.time, 4, { pointer: true }),
  lastSuccessfulTime: field(t.time, 5, { pointer: true }),
});

export const CronJob = struct(G + 'CronJob', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(CronJobSpec, 2),
  status: field(CronJobStatus, 3),
});

export const CronJobList = struct(G + 'CronJobList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(CronJob), 2, { omitempty: false, required: true }),
});
