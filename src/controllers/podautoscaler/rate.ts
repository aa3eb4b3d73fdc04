// How far and how fast an HPA may move its target (horizontal.go's normalization): the
// recommendation is stabilized over recent ones (a window per direction), then limited by the
// scaling policies over recent scale events — or, for an HPA without `behavior`, by the older
// rules (downscale stabilization from --horizontal-pod-autoscaler-downscale-stabilization, at most
// doubling, at least 4). Each step says why in the AbleToScale and ScalingLimited conditions.
import type { HPAScalingRules } from '../../api/types.js';

export interface Timestamped {
  value: number;
  at: number;
}

export interface Limited {
  replicas: number;
  reason: string;
  message: string;
}

const WITHIN = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };

/** stabilizeRecommendationWithBehaviors: within the windows, up to the lowest recent and down to the highest recent recommendation. */
export function stabilize(history: Timestamped[], desired: number, current: number, upWindowS: number, downWindowS: number, now: number): Limited {
  const upCutoff = now - upWindowS * 1000;
  const downCutoff = now - downWindowS * 1000;
  let up = desired;
  let down = desired;
  let oldIndex = -1;
  history.forEach((rec, i) => {
    if (rec.at > upCutoff) up = Math.min(rec.value, up);
    if (rec.at > downCutoff) down = Math.max(rec.value, down);
    if (rec.at < upCutoff && rec.at < downCutoff) oldIndex = i;
  });
  let replicas = current;
  if (replicas < up) replicas = up;
  if (replicas > down) replicas = down;
  if (oldIndex >= 0) history[oldIndex] = { value: desired, at: now };
  else history.push({ value: desired, at: now });
  return desired >= current
    ? { replicas, reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
    : { replicas, reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };
}

/** The older stabilization (no `behavior`): the highest recommendation of the downscale window. */
export function stabilizeLegacy(history: Timestamped[], desired: number, windowMs: number, now: number): number {
  const cutoff = now - windowMs;
  let max = desired;
  let oldIndex = -1;
  history.forEach((rec, i) => {
    if (rec.at > cutoff) max = Math.max(max, rec.value);
    else oldIndex = i;
  });
  if (oldIndex >= 0) history[oldIndex] = { value: desired, at: now };
  else history.push({ value: desired, at: now });
  return max;
}

export interface ScaleEvent {
  change: number;
  at: number;
}

const changeIn = (periodS: number, events: readonly ScaleEvent[], now: number): number => events.filter((e) => e.at > now - periodS * 1000).reduce((n, e) => n + e.change, 0);

/** calculateScaleUpLimitWithScalingRules. */
function scaleUpLimit(current: number, up: readonly ScaleEvent[], down: readonly ScaleEvent[], rules: HPAScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const minChange = rules.selectPolicy === 'Min';
  let result = minChange ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  for (const p of rules.policies ?? []) {
    const start = current - changeIn(p?.periodSeconds ?? 0, up, now) + changeIn(p?.periodSeconds ?? 0, down, now);
    const proposed = p?.type === 'Pods' ? start + (p.value ?? 0) : Math.ceil(start * (1 + (p?.value ?? 0) / 100));
    result = minChange ? Math.min(result, proposed) : Math.max(result, proposed);
  }
  return result;
}

/** calculateScaleDownLimitWithBehaviors. */
function scaleDownLimit(current: number, up: readonly ScaleEvent[], down: readonly ScaleEvent[], rules: HPAScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const minChange = rules.selectPolicy === 'Min';
  let result = minChange ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
  for (const p of rules.policies ?? []) {
    const start = current - changeIn(p?.periodSeconds ?? 0, up, now) + changeIn(p?.periodSeconds ?? 0, down, now);
    const proposed = p?.type === 'Pods' ? start - (p.value ?? 0) : Math.trunc(start * (1 - (p?.value ?? 0) / 100));
    result = minChange ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

export interface RateArgs {
  current: number;
  desired: number;
  min: number;
  max: number;
  scaleUp: HPAScalingRules;
  scaleDown: HPAScalingRules;
  upEvents: readonly ScaleEvent[];
  downEvents: readonly ScaleEvent[];
  now: number;
}

/** convertDesiredReplicasWithBehaviorRate. */
export function limitByPolicies(a: RateArgs): Limited {
  if (a.desired > a.current) {
    const limit = Math.max(a.current, scaleUpLimit(a.current, a.upEvents, a.downEvents, a.scaleUp, a.now));
    const [maximum, reason, message] =
      a.max > limit ? [limit, 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate'] : [a.max, 'TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
    if (a.desired > maximum) return { replicas: maximum, reason, message };
  } else if (a.desired < a.current) {
    const limit = Math.min(a.current, scaleDownLimit(a.current, a.upEvents, a.downEvents, a.scaleDown, a.now));
    const [minimum, reason, message] =
      a.min < limit ? [limit, 'ScaleDownLimit', 'the desired replica count is decreasing faster than the maximum scale rate'] : [a.min, 'TooFewReplicas', 'the desired replica count is less than the minimum replica count'];
    if (a.desired < minimum) return { replicas: minimum, reason, message };
  }
  return { replicas: a.desired, ...WITHIN };
}

/** convertDesiredReplicasWithRules (no `behavior`): at most max(2 × current, 4), within min and max. */
export function limitLegacy(current: number, desired: number, min: number, max: number): Limited {
  const scaleUpLimit = Math.max(2 * current, 4);
  const [maximum, reason, message] =
    max > scaleUpLimit ? [scaleUpLimit, 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate'] : [max, 'TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
  if (desired < min) return { replicas: min, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
  if (desired > maximum) return { replicas: maximum, reason, message };
  return { replicas: desired, ...WITHIN };
}
