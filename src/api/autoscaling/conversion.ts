// HorizontalPodAutoscaler between autoscaling/v2 (the hub) and autoscaling/v1, as
// pkg/apis/autoscaling/v1/conversion.go does it. v1 has one metric (a CPU utilization target)
// and no conditions or behavior; everything else travels in annotations of the v1 object:
// - `autoscaling.alpha.kubernetes.io/metrics`: the metrics other than CPU utilization, as a
//   JSON list of v1 MetricSpecs;
// - `autoscaling.alpha.kubernetes.io/current-metrics`: status.currentMetrics (all of them), v1 MetricStatuses;
// - `autoscaling.alpha.kubernetes.io/conditions`: status.conditions;
// - `autoscaling.alpha.kubernetes.io/behavior`: spec.behavior, as Go writes Kubernetes' internal
//   type, which has no json tags (`{"ScaleUp":{"StabilizationWindowSeconds":0,...}}`).
// Writes in v1 read them back (malformed ones are ignored) and they are never stored. A v1 object
// with no metric at all gets CPU utilization 80%, the v1 API's implicit default.
import { conversion, type ConversionSteps } from '../conversion/hub-and-spoke.js';
import { isNil, isObj, objects, removeAnnotation, setAnnotation, type Obj } from '../go-json.js';
import { annotationOf } from '../meta/object.js';
import { conditionJson, metricSpecFromV1, metricSpecToV1, metricStatusFromV1, metricStatusToV1 } from './v1-metrics.js';

export const HUB = 'autoscaling/v2';
export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
const ROUND_TRIP_ANNOTATIONS = [METRIC_SPECS_ANNOTATION, BEHAVIOR_ANNOTATION, METRIC_STATUSES_ANNOTATION, CONDITIONS_ANNOTATION];

/** autoscaling.DefaultCPUUtilization. */
export const DEFAULT_CPU_UTILIZATION = 80;

/** The CPU utilization target metric (v2 form). */
export function cpuUtilizationMetric(percent: number): Obj {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: percent } } };
}

const isCpuResource = (m: Obj): m is Obj & { resource: Obj } => m.type === 'Resource' && isObj(m.resource) && m.resource.name === 'cpu';
const isCpuUtilizationTarget = (m: Obj): boolean => isCpuResource(m) && isObj(m.resource.target) && !isNil(m.resource.target.averageUtilization);

// ---- spec.behavior in the internal type's JSON (Go field names; nil pointers and slices are null) ----

const INTERNAL_RULES = [
  ['StabilizationWindowSeconds', 'stabilizationWindowSeconds'],
  ['SelectPolicy', 'selectPolicy'],
  ['Policies', 'policies'],
  ['Tolerance', 'tolerance'],
] as const;
const INTERNAL_POLICY = [
  ['Type', 'type'],
  ['Value', 'value'],
  ['PeriodSeconds', 'periodSeconds'],
] as const;
const INTERNAL_BEHAVIOR = [
  ['ScaleUp', 'scaleUp'],
  ['ScaleDown', 'scaleDown'],
] as const;

function rulesToInternal(r: unknown): Obj | null {
  if (!isObj(r)) return null;
  const out: Obj = {};
  for (const [go, json] of INTERNAL_RULES) {
    if (json === 'policies') {
      out[go] = Array.isArray(r.policies) ? objects(r, 'policies').map((p) => Object.fromEntries(INTERNAL_POLICY.map(([g, j]) => [g, p[j] ?? (j === 'type' ? '' : 0)]))) : null;
    } else out[go] = r[json] ?? null;
  }
  return out;
}

export function behaviorToInternalJson(behavior: Obj): string {
  return JSON.stringify(Object.fromEntries(INTERNAL_BEHAVIOR.map(([go, json]) => [go, rulesToInternal(behavior[json])])));
}

/** encoding/json matches keys case-insensitively. */
function lookup(o: Obj, goName: string): unknown {
  if (goName in o) return o[goName];
  const k = Object.keys(o).find((key) => key.toLowerCase() === goName.toLowerCase());
  return k === undefined ? undefined : o[k];
}

function rulesFromInternal(r: unknown): Obj | undefined {
  if (!isObj(r)) return undefined;
  const out: Obj = {};
  for (const [go, json] of INTERNAL_RULES) {
    const v = lookup(r, go);
    if (isNil(v)) continue;
    out[json] = json === 'policies' && Array.isArray(v) ? v.filter(isObj).map((p) => Object.fromEntries(INTERNAL_POLICY.map(([g, j]) => [j, lookup(p, g) ?? (j === 'type' ? '' : 0)]))) : v;
  }
  return out;
}

/** The behavior an annotation carries, or undefined when it is malformed or empty (both rules nil). */
export function behaviorFromInternalJson(text: string): Obj | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObj(parsed)) return undefined;
  const out: Obj = {};
  for (const [go, json] of INTERNAL_BEHAVIOR) {
    const rules = rulesFromInternal(lookup(parsed, go));
    if (rules) out[json] = rules;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** A JSON list annotation, or undefined when malformed (Kubernetes ignores those). */
function parseList(text: string | undefined): Obj[] | undefined {
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    if (v === null) return [];
    return Array.isArray(v) ? v.map((x) => (isObj(x) ? x : {})) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * DropRoundTripHorizontalPodAutoscalerAnnotations: no version but v1 carries them, and v2 drops
 * them in both directions (so they are never stored).
 */
export function dropRoundTripAnnotations(obj: Obj): void {
  for (const key of ROUND_TRIP_ANNOTATIONS) removeAnnotation(obj, key);
}

// ---- the two directions ----

/** v2 → v1 (Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler). */
function toV1(obj: Obj): void {
  dropRoundTripAnnotations(obj);
  const spec = isObj(obj.spec) ? obj.spec : {};
  const status = isObj(obj.status) ? obj.status : {};
  const metrics = objects(spec, 'metrics');
  const currentMetrics = objects(status, 'currentMetrics');
  const conditions = objects(status, 'conditions');

  const v1Spec: Obj = { scaleTargetRef: spec.scaleTargetRef ?? {} };
  if (!isNil(spec.minReplicas)) v1Spec.minReplicas = spec.minReplicas;
  v1Spec.maxReplicas = spec.maxReplicas ?? 0;
  const cpu = metrics.find(isCpuResource);
  if (cpu && isCpuUtilizationTarget(cpu)) v1Spec.targetCPUUtilizationPercentage = (cpu.resource.target as Obj).averageUtilization;

  const v1Status: Obj = {};
  for (const k of ['observedGeneration', 'lastScaleTime']) if (!isNil(status[k])) v1Status[k] = status[k];
  v1Status.currentReplicas = status.currentReplicas ?? 0;
  v1Status.desiredReplicas = status.desiredReplicas ?? 0;
  // The last CPU resource status with a utilization wins, as the Go loop (no break) leaves it.
  for (const m of currentMetrics) {
    if (isCpuResource(m) && isObj(m.resource.current) && !isNil(m.resource.current.averageUtilization)) {
      v1Status.currentCPUUtilizationPercentage = m.resource.current.averageUtilization;
    }
  }

  const otherMetrics = metrics.filter((m) => !isCpuUtilizationTarget(m)).map(metricSpecToV1);
  if (otherMetrics.length > 0) setAnnotation(obj, METRIC_SPECS_ANNOTATION, JSON.stringify(otherMetrics));
  if (currentMetrics.length > 0) setAnnotation(obj, METRIC_STATUSES_ANNOTATION, JSON.stringify(currentMetrics.map(metricStatusToV1)));
  if (conditions.length > 0) setAnnotation(obj, CONDITIONS_ANNOTATION, JSON.stringify(conditions.map(conditionJson)));
  if (isObj(spec.behavior)) setAnnotation(obj, BEHAVIOR_ANNOTATION, behaviorToInternalJson(spec.behavior));
  obj.spec = v1Spec;
  obj.status = v1Status;
}

/** v1 → v2 (Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler). */
function fromV1(obj: Obj): void {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const status = isObj(obj.status) ? obj.status : {};
  const v2Spec: Obj = { scaleTargetRef: spec.scaleTargetRef ?? {} };
  if (!isNil(spec.minReplicas)) v2Spec.minReplicas = spec.minReplicas;
  v2Spec.maxReplicas = spec.maxReplicas ?? 0;
  let metrics: Obj[] = isNil(spec.targetCPUUtilizationPercentage) ? [] : [cpuUtilizationMetric(spec.targetCPUUtilizationPercentage as number)];

  const v2Status: Obj = {};
  for (const k of ['observedGeneration', 'lastScaleTime', 'currentReplicas', 'desiredReplicas']) if (!isNil(status[k])) v2Status[k] = status[k];
  if (!isNil(status.currentCPUUtilizationPercentage)) {
    v2Status.currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }];
  }

  const other = parseList(annotationOf(obj, METRIC_SPECS_ANNOTATION));
  if (other) metrics = [...other.map(metricSpecFromV1), ...metrics];
  const behaviorText = annotationOf(obj, BEHAVIOR_ANNOTATION);
  const behavior = behaviorText === undefined ? undefined : behaviorFromInternalJson(behaviorText);
  if (behavior) v2Spec.behavior = behavior;
  const current = parseList(annotationOf(obj, METRIC_STATUSES_ANNOTATION));
  if (current) v2Status.currentMetrics = current.map(metricStatusFromV1);
  if (metrics.length === 0) metrics = [cpuUtilizationMetric(DEFAULT_CPU_UTILIZATION)];
  const conditions = parseList(annotationOf(obj, CONDITIONS_ANNOTATION));
  if (conditions) v2Status.conditions = conditions.map(conditionJson);

  v2Spec.metrics = metrics;
  dropRoundTripAnnotations(obj);
  obj.spec = v2Spec;
  obj.status = v2Status;
}

const v1Steps: ConversionSteps = { toHub: fromV1, fromHub: toV1 };

export const autoscalingV1Conversion = { horizontalPodAutoscaler: conversion(HUB, 'autoscaling/v1', v1Steps) } as const;

