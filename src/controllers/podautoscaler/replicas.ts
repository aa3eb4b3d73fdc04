// The replica calculator of the HPA (replica_calculator.go) for resource metrics: pods grouped
// into ready, unready (pending, or CPU samples taken before they settled), missing (no sample) and
// ignored (failed or being deleted); the usage ratio over the ready pods decides, within the
// tolerance; missing and unready pods are then counted conservatively (missing ones as using the
// target on a scale-down and nothing on a scale-up, unready ones as nothing on a scale-up), and no
// proposal may flip the direction of the change.
import { isBeingDeleted, nameOf } from '../../api/meta/object.js';
import { parseQuantity } from '../../api/meta/quantity.js';
import type { Pod } from '../../api/types.js';
import { timeMs } from '../common/time.js';

export interface PodMetric {
  /** milli-units (millicores, millibytes), as the metrics client sums them. */
  value: number;
  timestamp: number;
  windowMs: number;
}

export interface CalculatorOptions {
  tolerance: number;
  cpuInitializationMs: number;
  initialReadinessDelayMs: number;
  now: number;
}

export class ReplicaCalcError extends Error {}

function groupPods(pods: readonly Pod[], metrics: Map<string, PodMetric>, resource: string, o: CalculatorOptions) {
  let ready = 0;
  const unready = new Set<string>();
  const missing = new Set<string>();
  const ignored = new Set<string>();
  for (const pod of pods) {
    const name = nameOf(pod);
    if (isBeingDeleted(pod) || pod.status?.phase === 'Failed') {
      ignored.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      unready.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      missing.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const cond = (pod.status?.conditions ?? []).find((c) => c?.type === 'Ready');
      const start = timeMs(pod.status?.startTime);
      let isUnready: boolean;
      if (!cond || start === 0) isUnready = true;
      else if (start + o.cpuInitializationMs > o.now) {
        // still starting: a sample from before it settled (one window after its last transition) does not count
        isUnready = cond.status === 'False' || metric.timestamp < timeMs(cond.lastTransitionTime) + metric.windowMs;
      } else {
        isUnready = cond.status === 'False' && start + o.initialReadinessDelayMs > timeMs(cond.lastTransitionTime);
      }
      if (isUnready) {
        unready.add(name);
        continue;
      }
    }
    ready++;
  }
  return { ready, unready, missing, ignored };
}

/** calculatePodRequests: each pod's request of the resource (milli), over its containers or one of them. */
export function podRequests(pods: readonly Pod[], container: string, resource: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const pod of pods) {
    let sum = 0;
    for (const c of pod.spec?.containers ?? []) {
      if (container !== '' && c.name !== container) continue;
      const request = c.resources?.requests?.[resource];
      const q = typeof request === 'string' ? parseQuantity(request) : undefined;
      if (!q) throw new ReplicaCalcError(`missing request for ${resource} in container ${c.name} of Pod ${nameOf(pod)}`);
      sum += q.milliValue();
    }
    out.set(nameOf(pod), sum);
  }
  return out;
}

/** GetResourceUtilizationRatio: usage ratio, utilization (%) and the average raw usage. */
function utilizationRatio(metrics: Map<string, PodMetric>, requests: Map<string, number>, target: number): { ratio: number; utilization: number; average: number } {
  let used = 0;
  let requested = 0;
  let n = 0;
  for (const [name, m] of metrics) {
    const r = requests.get(name);
    if (r === undefined) continue;
    used += m.value;
    requested += r;
    n++;
  }
  if (requested === 0) throw new ReplicaCalcError('no metrics returned matched known pods');
  const utilization = Math.trunc((used * 100) / requested);
  return { ratio: utilization / target, utilization, average: Math.trunc(used / n) };
}

/** GetMetricUsageRatio: the average usage against the target. */
function usageRatio(metrics: Map<string, PodMetric>, target: number): { ratio: number; average: number } {
  let used = 0;
  for (const m of metrics.values()) used += m.value;
  const average = Math.trunc(used / metrics.size);
  return { ratio: average / target, average };
}

export interface Proposal {
  replicas: number;
  /** For a utilization target, the current utilization (%). */
  utilization?: number;
  /** The average usage per pod (milli). */
  average: number;
}

/**
 * GetResourceReplicas (a utilization target, `targetUtilization` %) or GetRawResourceReplicas (an
 * average value target, `targetAverage` milli).
 */
export function resourceReplicas(
  current: number,
  target: { utilization: number } | { average: number },
  resource: string,
  container: string,
  pods: readonly Pod[],
  fetched: Map<string, PodMetric>,
  o: CalculatorOptions,
): Proposal {
  if (pods.length === 0) throw new ReplicaCalcError('no pods returned by selector while calculating replica count');
  const metrics = new Map(fetched);
  const { ready, unready, missing, ignored } = groupPods(pods, metrics, resource, o);
  for (const name of [...ignored, ...unready]) metrics.delete(name);
  if (metrics.size === 0) throw new ReplicaCalcError('did not receive metrics for targeted pods (pods might be unready)');
  const requests = 'utilization' in target ? podRequests(pods, container, resource) : undefined;
  const compute = (): { ratio: number; average: number; utilization?: number } =>
    requests && 'utilization' in target ? utilizationRatio(metrics, requests, target.utilization) : usageRatio(metrics, (target as { average: number }).average);
  const first = compute();
  const result = (replicas: number): Proposal => ({ replicas, average: first.average, ...(first.utilization !== undefined ? { utilization: first.utilization } : {}) });
  const scaleUpWithUnready = unready.size > 0 && first.ratio > 1;
  if (!scaleUpWithUnready && missing.size === 0) {
    if (Math.abs(1 - first.ratio) <= o.tolerance) return result(current);
    return result(Math.ceil(first.ratio * ready));
  }
  if (missing.size > 0) {
    for (const name of missing) {
      let value = 0;
      if (first.ratio < 1) value = requests && 'utilization' in target ? Math.trunc((requests.get(name)! * Math.max(100, target.utilization)) / 100) : (target as { average: number }).average;
      if (first.ratio !== 1) metrics.set(name, { value, timestamp: 0, windowMs: 0 });
    }
  }
  if (scaleUpWithUnready) for (const name of unready) metrics.set(name, { value: 0, timestamp: 0, windowMs: 0 });
  const next = compute();
  if (Math.abs(1 - next.ratio) <= o.tolerance || (first.ratio < 1 && next.ratio > 1) || (first.ratio > 1 && next.ratio < 1)) return result(current);
  const replicas = Math.ceil(next.ratio * metrics.size);
  if ((next.ratio < 1 && replicas > current) || (next.ratio > 1 && replicas < current)) return result(current);
  return result(replicas);
}
