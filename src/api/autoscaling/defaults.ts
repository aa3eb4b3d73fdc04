// Server-side defaults of HorizontalPodAutoscaler per version: pkg/apis/autoscaling/v2/defaults.go
// (minReplicas 1, a CPU utilization metric of 80% when there are none, every unset field of a
// given behavior filled from the default scaling rules) and pkg/apis/autoscaling/v1/defaults.go
// (minReplicas 1 only: v1's CPU default is applied in conversion, which sees the metrics annotation).
import { child, isNil, isObj, orDefault, type Obj } from '../go-json.js';
import type { KubeObject } from '../schema/kind.js';
import { cpuUtilizationMetric, DEFAULT_CPU_UTILIZATION } from './conversion.js';

/** The scale-up rules a behavior gets for what it leaves unset (GenerateHPAScaleUpRules). */
export const defaultScaleUpRules = (): Obj => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
});

/** GenerateHPAScaleDownRules: no stabilization window (the controller's flag decides it). */
export const defaultScaleDownRules = (): Obj => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
});

/** copyHPAScalingRules: the set fields of `from` over the defaults (a present `policies`, even empty, replaces theirs). */
function withDefaults(from: unknown, defaults: Obj): Obj {
  if (!isObj(from)) return defaults;
  const out = defaults;
  for (const k of ['stabilizationWindowSeconds', 'selectPolicy', 'policies', 'tolerance']) if (!isNil(from[k])) out[k] = from[k];
  return out;
}

export function defaultHorizontalPodAutoscalerV2(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  orDefault(spec, 'minReplicas', 1);
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) spec.metrics = [cpuUtilizationMetric(DEFAULT_CPU_UTILIZATION)];
  if (isObj(spec.behavior)) {
    spec.behavior.scaleUp = withDefaults(spec.behavior.scaleUp, defaultScaleUpRules());
    spec.behavior.scaleDown = withDefaults(spec.behavior.scaleDown, defaultScaleDownRules());
  }
}

export function defaultHorizontalPodAutoscalerV1(obj: KubeObject): void {
  orDefault(child(obj, 'spec'), 'minReplicas', 1);
}
