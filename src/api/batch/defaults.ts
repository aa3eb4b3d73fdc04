// Server-side defaults of Job and CronJob per version (Kubernetes' pkg/apis/batch/<version>
// SetDefaults_*, then the pod template's defaults). CronJob's job template gets only the pod
// template's and the pod-failure-policy pattern's defaults, not SetDefaults_Job (it is not a Job).
//
// | CronJob | batch/v1 | batch/v1beta1 | batch/v2alpha1 |
// |---|---|---|---|
// | concurrencyPolicy / suspend | Allow / false | Allow / false | Allow / false |
// | successfulJobsHistoryLimit / failedJobsHistoryLimit | 3 / 1 | 3 / 1 | unset |
import { defaultPodTemplateSpec } from '../core/v1/defaults.js';
import type { KubeObject } from '../schema/kind.js';
import { KUBERNETES_1_34, type WorkloadFeatures } from '../features.js';
import { child, isNil, isObj, objects, orDefault, unset, type Obj } from '../go-json.js';

const MAX_INT32 = 2147483647;

/** SetDefaults_PodFailurePolicyOnPodConditionsPattern: a pattern's status defaults to True. */
function defaultPodFailurePolicy(jobSpec: Obj): void {
  const policy = jobSpec.podFailurePolicy;
  if (!isObj(policy)) return;
  for (const rule of objects(policy, 'rules'))
    for (const pattern of objects(rule, 'onPodConditions')) if (unset(pattern.status)) pattern.status = 'True';
}

/** batch/v1 Job. */
export function defaultJob(obj: KubeObject, features: WorkloadFeatures = KUBERNETES_1_34): void {
  const spec = child(obj, 'spec');
  // A non-parallel job may leave both unset: both become 1. Otherwise only parallelism defaults.
  if (isNil(spec.completions) && isNil(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  orDefault(spec, 'parallelism', 1);
  if (isNil(spec.backoffLimit)) spec.backoffLimit = isNil(spec.backoffLimitPerIndex) ? 6 : MAX_INT32;
  const template = child(spec, 'template');
  const labels = isObj(template.metadata) ? template.metadata.labels : undefined;
  if (isObj(labels)) {
    const meta = child(obj, 'metadata');
    if ((!isObj(meta.labels) || Object.keys(meta.labels).length === 0) && Object.keys(labels).length > 0)
      meta.labels = { ...labels };
  }
  orDefault(spec, 'completionMode', 'NonIndexed');
  orDefault(spec, 'suspend', false);
  defaultPodFailurePolicy(spec);
  if (features.jobPodReplacementPolicy && isNil(spec.podReplacementPolicy))
    spec.podReplacementPolicy = isObj(spec.podFailurePolicy) ? 'Failed' : 'TerminatingOrFailed';
  if (features.jobManualSelectorDefault) orDefault(spec, 'manualSelector', false);
  defaultPodTemplateSpec(template);
}

function cronJobDefaulter(historyLimits: boolean) {
  return (obj: KubeObject): void => {
    const spec = child(obj, 'spec');
    if (unset(spec.concurrencyPolicy)) spec.concurrencyPolicy = 'Allow';
    orDefault(spec, 'suspend', false);
    if (historyLimits) {
      orDefault(spec, 'successfulJobsHistoryLimit', 3);
      orDefault(spec, 'failedJobsHistoryLimit', 1);
    }
    const jobSpec = child(child(spec, 'jobTemplate'), 'spec');
    defaultPodFailurePolicy(jobSpec);
    defaultPodTemplateSpec(child(jobSpec, 'template'));
  };
}

export const batchV1Defaults = { job: defaultJob, cronJob: cronJobDefaulter(true) } as const;
export const batchV1beta1Defaults = { cronJob: cronJobDefaulter(true) } as const;
export const batchV2alpha1Defaults = { cronJob: cronJobDefaulter(false) } as const;
