// pkg/apis/autoscaling/validation for HorizontalPodAutoscaler (autoscaling/v2 objects, the
// storage version): the scale target, the replica bounds, each metric by its source type, and the
// scaling behavior. HPAScaleToZero is off in 1.33: minReplicas 0 is accepted only on an update of
// an autoscaler that already has it.
import type { HorizontalPodAutoscaler } from '../../../api/types.js';
import { parseQuantity } from '../../../api/meta/quantity.js';
import { child, index, isObj, num, obj, objs, optNum, str, validateNonnegativeField, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { rawError } from '../../../machinery/validation/go-syntax.js';
import { isDNS1123Label, isValidPathSegmentName } from '../../../machinery/validation/names.js';
import { goQuantity, validateContainerResourceName } from '../../podspec/resource-names.js';

const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

/** ValidateCrossVersionObjectReference. */
export function validateCrossVersionObjectReference(ref: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name']) {
    const v = str(ref[key]);
    if (v === '') errs.push(fieldError.required(child(path, key)));
    else for (const msg of isValidPathSegmentName(v)) errs.push(fieldError.invalid(child(path, key), v, msg));
  }
  return errs;
}

function validateSpec(spec: Obj, minReplicasLowerBound: number): FieldError[] {
  const errs: FieldError[] = [];
  const min = optNum(spec.minReplicas);
  const max = num(spec.maxReplicas);
  if (min !== undefined && min < minReplicasLowerBound) errs.push(fieldError.invalid('spec.minReplicas', min, `must be greater than or equal to ${minReplicasLowerBound}`));
  if (max < 1) errs.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(fieldError.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(obj(spec.scaleTargetRef), 'spec.scaleTargetRef'));
  errs.push(...validateMetrics(objs(spec.metrics), 'spec.metrics', min));
  if (isObj(spec.behavior)) {
    errs.push(...validateScalingRules(spec.behavior.scaleUp, 'spec.behavior.scaleUp'), ...validateScalingRules(spec.behavior.scaleDown, 'spec.behavior.scaleDown'));
  }
  return errs;
}

function validateMetrics(metrics: Obj[], path: string, minReplicas: number | undefined): FieldError[] {
  const errs: FieldError[] = [];
  metrics.forEach((m, i) => errs.push(...validateMetricSpec(m, index(path, i))));
  const scalesToZeroBy = metrics.some((m) => m.type === 'Object' || m.type === 'External');
  if (minReplicas === 0 && !scalesToZeroBy) errs.push(fieldError.forbidden(path, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  return errs;
}

function validateScalingRules(rules: unknown, path: string): FieldError[] {
  if (!isObj(rules)) return [];
  const errs: FieldError[] = [];
  const window = optNum(rules.stabilizationWindowSeconds);
  if (window !== undefined && window < 0) errs.push(fieldError.invalid(child(path, 'stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(fieldError.invalid(child(path, 'stabilizationWindowSeconds'), window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (typeof rules.selectPolicy === 'string' && !SELECT_POLICIES.includes(rules.selectPolicy)) errs.push(fieldError.notSupported(child(path, 'selectPolicy'), rules.selectPolicy, SELECT_POLICIES));
  const policies = objs(rules.policies);
  const policiesPath = child(path, 'policies');
  if (policies.length === 0) errs.push(fieldError.required(policiesPath, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const pp = index(policiesPath, i);
    const type = str(p.type);
    if (!POLICY_TYPES.includes(type)) errs.push(fieldError.notSupported(child(pp, 'type'), type, POLICY_TYPES));
    if (num(p.value) <= 0) errs.push(fieldError.invalid(child(pp, 'value'), num(p.value), 'must be greater than zero'));
    const period = num(p.periodSeconds);
    if (period <= 0) errs.push(fieldError.invalid(child(pp, 'periodSeconds'), period, 'must be greater than zero'));
    if (period > MAX_PERIOD_SECONDS) errs.push(fieldError.invalid(child(pp, 'periodSeconds'), period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return errs;
}

/** The metric sources a MetricSpec may hold, in the order validateMetricSpec looks at them. */
const SOURCES = [
  ['object', validateObjectSource],
  ['external', validateExternalSource],
  ['pods', validatePodsSource],
  ['resource', validateResourceSource],
  ['containerResource', validateContainerResourceSource],
] as const;
const EXPECTED: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };

function validateMetricSpec(m: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(m.type);
  if (type === '') errs.push(fieldError.required(child(path, 'type'), 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errs.push(fieldError.notSupported(child(path, 'type'), type, METRIC_SOURCE_TYPES));
  const present: string[] = [];
  for (const [key, validate] of SOURCES) {
    if (!isObj(m[key])) continue;
    present.push(key);
    // Only the first source present is validated.
    if (present.length === 1) errs.push(...validate(m[key] as Obj, child(path, key)));
  }
  const expected = EXPECTED[type];
  if (expected === undefined) errs.push(fieldError.notSupported(child(path, 'type'), type, METRIC_SOURCE_TYPES));
  else if (!isObj(m[expected])) errs.push(fieldError.required(child(path, expected), 'must populate information for the given metric source'));
  if (present.length !== 1) {
    // Go ranges over a set: the order of these errors is random there; sorted here.
    for (const key of present.filter((k) => k !== expected).sort()) errs.push(fieldError.forbidden(child(path, key), 'must populate the given metric source only'));
  }
  return errs;
}

const has = (v: unknown): boolean => v !== undefined && v !== null;

function validateObjectSource(src: Obj, path: string): FieldError[] {
  const target = obj(src.target);
  const errs = [...validateCrossVersionObjectReference(obj(src.describedObject), child(path, 'describedObject')), ...validateMetricIdentifier(obj(src.metric), child(path, 'metric')), ...validateMetricTarget(target, child(path, 'target'))];
  if (!has(target.value) && !has(target.averageValue)) errs.push(fieldError.required(child(path, 'target', 'averageValue'), 'must set either a target value or averageValue'));
  return errs;
}

function validateExternalSource(src: Obj, path: string): FieldError[] {
  const target = obj(src.target);
  const errs = [...validateMetricIdentifier(obj(src.metric), child(path, 'metric')), ...validateMetricTarget(target, child(path, 'target'))];
  if (!has(target.value) && !has(target.averageValue)) errs.push(fieldError.required(child(path, 'target', 'averageValue'), 'must set either a target value for metric or a per-pod target'));
  if (has(target.value) && has(target.averageValue)) errs.push(fieldError.forbidden(child(path, 'target', 'value'), 'may not set both a target value for metric and a per-pod target'));
  return errs;
}

function validatePodsSource(src: Obj, path: string): FieldError[] {
  const target = obj(src.target);
  const errs = [...validateMetricIdentifier(obj(src.metric), child(path, 'metric')), ...validateMetricTarget(target, child(path, 'target'))];
  if (!has(target.averageValue)) errs.push(fieldError.required(child(path, 'target', 'averageValue'), 'must specify a positive target averageValue'));
  return errs;
}

/** The checks a resource and a container resource target share. */
function utilizationXorValue(target: Obj, path: string): FieldError[] {
  if (!has(target.averageUtilization) && !has(target.averageValue)) return [fieldError.required(child(path, 'target', 'averageUtilization'), 'must set either a target raw value or a target utilization')];
  if (has(target.averageUtilization) && has(target.averageValue)) return [fieldError.forbidden(child(path, 'target', 'averageValue'), 'may not set both a target raw value and a target utilization')];
  return [];
}

function validateResourceSource(src: Obj, path: string): FieldError[] {
  const target = obj(src.target);
  const errs: FieldError[] = [];
  if (str(src.name) === '') errs.push(fieldError.required(child(path, 'name'), 'must specify a resource name'));
  errs.push(...validateMetricTarget(target, child(path, 'target')), ...utilizationXorValue(target, path));
  return errs;
}

function validateContainerResourceSource(src: Obj, path: string): FieldError[] {
  const target = obj(src.target);
  const errs: FieldError[] = [];
  const name = str(src.name);
  if (name === '') errs.push(fieldError.required(child(path, 'name'), 'must specify a resource name'));
  else errs.push(...validateContainerResourceName(name, child(path, 'name')));
  const container = str(src.container);
  if (container === '') errs.push(fieldError.required(child(path, 'container'), 'must specify a container'));
  else for (const msg of isDNS1123Label(container)) errs.push(fieldError.invalid(child(path, 'container'), container, msg));
  errs.push(...validateMetricTarget(target, child(path, 'target')), ...utilizationXorValue(target, path));
  return errs;
}

/** A positive Quantity, or the error Kubernetes gives (its value printed as %#v of the Quantity). */
function positiveQuantity(v: unknown, path: string): FieldError[] {
  if (!has(v)) return [];
  const q = typeof v === 'string' ? parseQuantity(v) : undefined;
  if (q && q.sign() === 1) return [];
  return [q ? rawError('FieldValueInvalid', path, goQuantity(q), 'must be positive') : fieldError.invalid(path, v, 'must be positive')];
}

function validateMetricTarget(mt: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(mt.type);
  if (type === '') errs.push(fieldError.required(child(path, 'type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(fieldError.invalid(child(path, 'type'), type, 'must be either Utilization, Value, or AverageValue'));
  errs.push(...positiveQuantity(mt.value, child(path, 'value')), ...positiveQuantity(mt.averageValue, child(path, 'averageValue')));
  const utilization = optNum(mt.averageUtilization);
  if (utilization !== undefined && utilization < 1) errs.push(fieldError.invalid(child(path, 'averageUtilization'), utilization, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(id: Obj, path: string): FieldError[] {
  const name = str(id.name);
  if (name === '') return [fieldError.required(child(path, 'name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => fieldError.invalid(child(path, 'name'), name, msg));
}

/** ValidateHorizontalPodAutoscaler (ObjectMeta aside). */
export function validateHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler): FieldError[] {
  return validateSpec(obj(hpa.spec), 1);
}

/** ValidateHorizontalPodAutoscalerUpdate: minReplicas 0 stays allowed once the old object has it. */
export function validateHorizontalPodAutoscalerUpdate(hpa: HorizontalPodAutoscaler, old: HorizontalPodAutoscaler): FieldError[] {
  return validateSpec(obj(hpa.spec), old.spec?.minReplicas === 0 ? 0 : 1);
}

/** ValidateHorizontalPodAutoscalerStatusUpdate. */
export function validateHorizontalPodAutoscalerStatus(hpa: HorizontalPodAutoscaler): FieldError[] {
  const status = obj(hpa.status);
  return [...validateNonnegativeField(num(status.currentReplicas), 'status.currentReplicas'), ...validateNonnegativeField(num(status.desiredReplicas), 'status.desiredReplicas')];
}
