// batch/v1 Job: pkg/apis/batch/validation and pkg/registry/batch/job/strategy.go. A Job without
// manualSelector gets a generated selector on its own uid and the matching pod labels
// (batch.kubernetes.io/controller-uid and job-name, plus the legacy unprefixed ones), and the
// batch.kubernetes.io/job-tracking annotation (as the v1.26 vectors show).
import { annotationsOf, labelsOf, nameOf, uidOf } from '../../../../api/meta/object.js';
import type { Job } from '../../../../api/types.js';
import { isDNS1123Label } from '../../../../machinery/validation/names.js';
import {
  child,
  index,
  isObj,
  key,
  labelSelectorAsSelector,
  list,
  num,
  obj,
  optNum,
  optObj,
  optStr,
  selectorMatches,
  semanticEqual,
  str,
  stringMap,
  validateImmutableField,
  validateImmutableSelector,
  validateLabelSelector,
  validateNonnegativeField,
  invalidStringMap,
  type Obj,
} from '../../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { goLabelSelector, rawError } from '../../../../machinery/validation/go-syntax.js';
import type { ResourceStrategy, StrategyContext } from '../../../strategy.js';
import { podWarnings } from '../../pod-template-warnings.js';
import { cloneJson } from '../../../meta.js';
import { validateJobSpecCommon } from '../job-spec.js';

export const ControllerUidLabel = 'batch.kubernetes.io/controller-uid';
export const JobNameLabel = 'batch.kubernetes.io/job-name';
export const LegacyControllerUidLabel = 'controller-uid';
export const LegacyJobNameLabel = 'job-name';
export const JobTrackingAnnotation = 'batch.kubernetes.io/job-tracking';

/** ValidateJobSpec: the common part, a selector, and the template's labels matching it. */
export function validateJobSpec(spec: Obj, path = 'spec'): FieldError[] {
  const errs = validateJobSpecCommon(spec, path);
  if (!isObj(spec.selector)) errs.push(fieldError.required(child(path, 'selector')));
  else errs.push(...validateLabelSelector(spec.selector, child(path, 'selector')));
  const sel = labelSelectorAsSelector(spec.selector);
  const labels = stringMap(obj(obj(spec.template).metadata).labels);
  if (sel && !selectorMatches(sel, labels)) errs.push(invalidStringMap(child(path, 'template', 'metadata', 'labels'), obj(obj(spec.template).metadata).labels, '`selector` does not match template `labels`'));
  return errs;
}

/** ValidateHasLabel on the pod template's metadata. */
function validateHasLabel(meta: Obj, path: string, k: string, expected: string): FieldError[] {
  const labels = stringMap(meta.labels);
  if (!Object.prototype.hasOwnProperty.call(labels, k)) return [fieldError.required(key(child(path, 'labels'), k), `must be '${expected}'`)];
  if (labels[k] !== expected) return [fieldError.invalidMap(key(child(path, 'labels'), k), labels, `must be '${expected}'`)];
  return [];
}

/** ValidateGeneratedSelector: a generated selector and the pod labels must be the job's own. */
function validateGeneratedSelector(job: Obj): FieldError[] {
  const spec = obj(job.spec);
  if (spec.manualSelector === true || !isObj(spec.selector)) return [];
  const uid = uidOf(job);
  const name = nameOf(job);
  const errs: FieldError[] = [];
  if (uid === '') errs.push(fieldError.required('metadata.uid'));
  const tMeta = obj(obj(spec.template).metadata);
  const tPath = 'spec.template.metadata';
  errs.push(...validateHasLabel(tMeta, tPath, LegacyControllerUidLabel, uid), ...validateHasLabel(tMeta, tPath, LegacyJobNameLabel, name));
  const expected: Record<string, string> = { [LegacyControllerUidLabel]: uid, [LegacyJobNameLabel]: name };
  // The prefixed labels are required of jobs whose selector was generated with them (v1.27+);
  // jobs created before (selector on the legacy label only) keep validating, as Kubernetes allows.
  if (Object.prototype.hasOwnProperty.call(obj(spec.selector.matchLabels), ControllerUidLabel)) {
    errs.push(...validateHasLabel(tMeta, tPath, ControllerUidLabel, uid), ...validateHasLabel(tMeta, tPath, JobNameLabel, name));
    expected[ControllerUidLabel] = uid;
    expected[JobNameLabel] = name;
  }
  const sel = labelSelectorAsSelector(spec.selector);
  if (sel && !selectorMatches(sel, expected)) errs.push(rawError('FieldValueInvalid', 'spec.selector', goLabelSelector(spec.selector), '`selector` not auto-generated'));
  return errs;
}

/** ValidateJob minus ObjectMeta. */
export function validateJob(job: Obj): FieldError[] {
  const errs = validateGeneratedSelector(job);
  const spec = obj(job.spec);
  errs.push(...validateJobSpec(spec));
  const completions = optNum(spec.completions);
  if (spec.completionMode === 'Indexed' && completions !== undefined && completions > 0) {
    const name = nameOf(job);
    const hostname = `${name}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) errs.push(fieldError.invalid('metadata.name', name, `will not able to create pod with invalid DNS label: ${hostname}`));
  }
  return errs;
}

/** The template with the fields a suspended, never-started job may change taken from `from`. */
function withSchedulingDirectives(template: Obj, from: Obj): Obj {
  const t = cloneJson(template);
  const meta = obj(t.metadata);
  const fromMeta = obj(from.metadata);
  meta.labels = fromMeta.labels;
  meta.annotations = fromMeta.annotations;
  t.metadata = meta;
  const spec = obj(t.spec);
  const fromSpec = obj(from.spec);
  spec.nodeSelector = fromSpec.nodeSelector;
  spec.tolerations = fromSpec.tolerations;
  spec.schedulingGates = fromSpec.schedulingGates;
  const affinity = isObj(spec.affinity) ? { ...spec.affinity } : undefined;
  const fromAffinity = obj(fromSpec.affinity);
  if (affinity) {
    affinity.nodeAffinity = fromAffinity.nodeAffinity;
    spec.affinity = Object.values(affinity).every((v) => v === undefined || v === null) && !isObj(fromSpec.affinity) ? undefined : affinity;
  } else if (isObj(fromSpec.affinity)) {
    spec.affinity = { nodeAffinity: fromAffinity.nodeAffinity };
  }
  t.spec = spec;
  return t;
}

/** ValidateJobUpdate minus ObjectMeta. */
export function validateJobUpdate(job: Obj, old: Obj): FieldError[] {
  const spec = obj(job.spec);
  const oldSpec = obj(old.spec);
  const errs = validateJobSpec(spec);
  errs.push(...validateImmutableField(optNum(spec.completions) ?? null, optNum(oldSpec.completions) ?? null, 'spec.completions'));
  errs.push(...validateImmutableSelector(spec.selector, oldSpec.selector, 'spec.selector'));
  const mutableDirectives = oldSpec.suspend === true && obj(old.status).startTime === undefined;
  const oldTemplate = mutableDirectives ? withSchedulingDirectives(obj(oldSpec.template), obj(spec.template)) : obj(oldSpec.template);
  if (!semanticEqual(spec.template, oldTemplate)) errs.push(rawError('FieldValueInvalid', 'spec.template', 'core.PodTemplateSpec{...}', 'field is immutable'));
  errs.push(...validateImmutableField(optStr(spec.completionMode) ?? null, optStr(oldSpec.completionMode) ?? null, 'spec.completionMode'));
  if (!semanticEqual(spec.podFailurePolicy, oldSpec.podFailurePolicy)) {
    errs.push(rawError('FieldValueInvalid', 'spec.podFailurePolicy', isObj(spec.podFailurePolicy) ? 'batch.PodFailurePolicy{...}' : '"null"', 'field is immutable'));
  }
  return errs;
}

/** validateJobStatus. */
export function validateJobStatus(job: Obj): FieldError[] {
  const status = obj(job.status);
  const errs: FieldError[] = [];
  for (const f of ['active', 'succeeded', 'failed']) errs.push(...validateNonnegativeField(num(status[f]), child('status', f)));
  const ready = optNum(status.ready);
  if (ready !== undefined) errs.push(...validateNonnegativeField(ready, 'status.ready'));
  const uncounted = optObj(status.uncountedTerminatedPods);
  if (uncounted) {
    const seen = new Set<string>();
    for (const which of ['succeeded', 'failed']) {
      list(uncounted[which]).forEach((v, i) => {
        const p = index(child('status.uncountedTerminatedPods', which), i);
        const uid = str(v);
        if (uid === '') errs.push(fieldError.invalid(p, uid, 'must not be empty'));
        else if (seen.has(uid)) errs.push(fieldError.duplicate(p, uid));
        else seen.add(uid);
      });
    }
  }
  return errs;
}

/** generateSelector: the job's own uid selects its pods; the template carries the labels. */
function generateSelector(job: Job, uid: string): void {
  const name = nameOf(job);
  const spec = (job.spec ??= {});
  const template = (spec.template ??= {});
  const labels = ((template.metadata ??= {}).labels ??= {});
  for (const [k, v] of [
    [ControllerUidLabel, uid],
    [JobNameLabel, name],
    [LegacyControllerUidLabel, uid],
    [LegacyJobNameLabel, name],
  ] as const) {
    if (!Object.hasOwn(labels, k)) labels[k] = v;
  }
  const matchLabels = ((spec.selector ??= {}).matchLabels ??= {});
  if (!Object.hasOwn(matchLabels, ControllerUidLabel)) matchLabels[ControllerUidLabel] = uid;
}

/**
 * Job create preparation. The generated labels use the job's uid: an existing metadata.uid is
 * used, else one is assigned here from ctx.newUid (the store must keep it).
 */
export function prepareJobForCreate(job: Job, ctx: Pick<StrategyContext, 'newUid'>): void {
  const meta = (job.metadata ??= {});
  if (uidOf(job) === '') meta.uid = ctx.newUid();
  if (job.spec?.manualSelector !== true) generateSelector(job, uidOf(job));
  // SetDefaults_Job copies the template's labels to a job without labels; Kubernetes applies it
  // again when it reads the object back, so the generated labels show up there too.
  const templateLabels = labelsOf(job.spec?.template ?? {});
  if (Object.keys(labelsOf(job)).length === 0 && Object.keys(templateLabels).length > 0) meta.labels = { ...templateLabels };
  meta.annotations = { ...annotationsOf(job), [JobTrackingAnnotation]: '' };
}

export const jobStrategy: ResourceStrategy<Job> = {
  hasStatus: true,
  tracksGeneration: true,
  warnings: (job) => podWarnings(obj(obj(job.spec).template), 'spec.template'),
  prepareForCreate: (job, ctx) => prepareJobForCreate(job, ctx),
  prepareForUpdate(job, old) {
    job.status = cloneJson(old.status);
  },
  validate: (job) => validateJob(job),
  validateUpdate: (job, old) => validateJobUpdate(job, old),
  prepareForStatusUpdate(job, old) {
    job.spec = cloneJson(old.spec);
  },
  validateStatusUpdate: (job) => validateJobStatus(job),
};
