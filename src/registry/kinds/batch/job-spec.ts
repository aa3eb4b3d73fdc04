// The job spec rules a Job and a CronJob's job template share (pkg/apis/batch/validation
// validateJobSpec): non-negative counts, completion modes, pod failure policies, and a pod template
// that restarts OnFailure or Never.
import { isQualifiedName } from '../../../machinery/validation/names.js';
import { child, index, isObj, list, num, obj, objs, optNum, optObj, optStr, str, validateNonnegativeField, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { validatePodTemplateSpec } from '../../podspec/index.js';

const maxParallelismForIndexedJob = 100000;
const maxPodFailurePolicyRules = 20;
const maxOnExitCodesValues = 255;
const maxOnPodConditionsPatterns = 20;

function validatePodFailurePolicy(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = objs(obj(spec.podFailurePolicy).rules);
  const rulesPath = child(path, 'rules');
  if (rules.length > maxPodFailurePolicyRules) errs.push(fieldError.tooMany(rulesPath, rules.length, maxPodFailurePolicyRules));
  const tSpec = obj(obj(spec.template).spec);
  const containerNames = new Set([...objs(tSpec.containers), ...objs(tSpec.initContainers)].map((c) => str(c.name)));
  const actions = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
  rules.forEach((rule, i) => {
    const rp = index(rulesPath, i);
    const action = str(rule.action);
    if (action === '') errs.push(fieldError.required(child(rp, 'action'), `valid values: [${actions.map((a) => JSON.stringify(a)).join(' ')}]`));
    else if (!actions.includes(action)) errs.push(fieldError.notSupported(child(rp, 'action'), action, actions));
    const onExitCodes = optObj(rule.onExitCodes);
    const onPodConditions = objs(rule.onPodConditions);
    if (onExitCodes) {
      const ep = child(rp, 'onExitCodes');
      const op = str(onExitCodes.operator);
      if (op === '') errs.push(fieldError.required(child(ep, 'operator'), 'valid values: ["In" "NotIn"]'));
      else if (op !== 'In' && op !== 'NotIn') errs.push(fieldError.notSupported(child(ep, 'operator'), op, ['In', 'NotIn']));
      const cn = optStr(onExitCodes.containerName);
      if (cn !== undefined && !containerNames.has(cn)) errs.push(fieldError.invalid(child(ep, 'containerName'), cn, 'must be one of the container or initContainer names in the pod template'));
      const values = list(onExitCodes.values).map((v) => num(v));
      const vp = child(ep, 'values');
      if (values.length === 0) errs.push(fieldError.invalid(vp, values, 'at least one value is required'));
      else if (values.length > maxOnExitCodesValues) errs.push(fieldError.tooMany(vp, values.length, maxOnExitCodesValues));
      const seen = new Set<number>();
      let ordered = true;
      values.forEach((v, j) => {
        if (op === 'In' && v === 0) errs.push(fieldError.invalid(index(vp, j), v, 'must not be 0 for the In operator'));
        if (seen.has(v)) errs.push(fieldError.duplicate(index(vp, j), v));
        seen.add(v);
        if (j > 0 && values[j - 1]! > v) ordered = false;
      });
      if (!ordered) errs.push({ type: 'FieldValueInvalid', field: vp, badValue: { kind: 'raw', text: `[]int32{${values.join(', ')}}` }, detail: 'must be ordered' });
    }
    if (onPodConditions.length > 0) {
      const cp = child(rp, 'onPodConditions');
      if (onPodConditions.length > maxOnPodConditionsPatterns) errs.push(fieldError.tooMany(cp, onPodConditions.length, maxOnPodConditionsPatterns));
      onPodConditions.forEach((pattern, j) => {
        const pp = index(cp, j);
        const type = str(pattern.type);
        errs.push(...isQualifiedName(type).map((msg) => fieldError.invalid(child(pp, 'type'), type, msg)));
        const status = str(pattern.status);
        if (status === '') errs.push(fieldError.required(child(pp, 'status'), 'valid values: ["False" "True" "Unknown"]'));
        else if (!['False', 'True', 'Unknown'].includes(status)) errs.push(fieldError.notSupported(child(pp, 'status'), status, ['False', 'True', 'Unknown']));
      });
    }
    if (onExitCodes && onPodConditions.length > 0) errs.push(fieldError.invalidOmit(rp, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!onExitCodes && onPodConditions.length === 0) errs.push(fieldError.invalidOmit(rp, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errs;
}

/** validateJobSpec: the parts a CronJob's job template shares with a Job. */
export function validateJobSpecCommon(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) {
    const v = optNum(spec[f]);
    if (v !== undefined) errs.push(...validateNonnegativeField(v, child(path, f)));
  }
  const mode = optStr(spec.completionMode);
  if (mode !== undefined) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(fieldError.notSupported(child(path, 'completionMode'), mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (optNum(spec.completions) === undefined) errs.push(fieldError.required(child(path, 'completions'), 'when completion mode is Indexed'));
      const parallelism = optNum(spec.parallelism);
      if (parallelism !== undefined && parallelism > maxParallelismForIndexedJob) {
        errs.push(fieldError.invalid(child(path, 'parallelism'), parallelism, `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`));
      }
    }
  }
  if (isObj(spec.podFailurePolicy)) errs.push(...validatePodFailurePolicy(spec, child(path, 'podFailurePolicy')));
  errs.push(...validatePodTemplateSpec(spec.template, child(path, 'template')));
  const restartPolicy = str(obj(obj(spec.template).spec).restartPolicy);
  const rp = child(path, 'template', 'spec', 'restartPolicy');
  if (restartPolicy === 'Always' || restartPolicy === '') errs.push(fieldError.required(rp, 'valid values: "OnFailure", "Never"'));
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(fieldError.notSupported(rp, restartPolicy, ['OnFailure', 'Never']));
  else if (isObj(spec.podFailurePolicy) && restartPolicy !== 'Never') errs.push(fieldError.invalid(rp, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}
