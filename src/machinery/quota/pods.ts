// The pods' quota evaluator (pkg/quota/v1/evaluator/core/pods.go): what a pod counts against a
// quota (its object count and, while it is not terminal, its compute requests and limits), the
// scopes it is in, and the constraint that quotas on cpu/memory require each container to say them.
import type { Container, Pod } from '../../api/types.js';
import { isExtendedResourceName } from '../validation/resource-names.js';
import { add, max, one, resourceList, type ResourceList } from './resources.js';

/** podComputeUsageHelper: the quota names of a set of requests and limits. */
export function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', one()]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [r, q] of requests) {
    if (r.startsWith('hugepages-')) {
      out.set(r, q);
      out.set(`requests.${r}`, q);
    }
    if (isExtendedResourceName(r)) out.set(`requests.${r}`, q);
  }
  return out;
}

export type Part = 'requests' | 'limits';
const partOf = (c: Container, part: Part): ResourceList => resourceList(c.resources?.[part]);

/**
 * resourcehelper.PodRequests / PodLimits: the containers' sum, at least the largest init step
 * (sidecars, init containers with restartPolicy Always, keep running beside the rest), plus overhead.
 */
export function podResources(pod: Pod, part: Part, withOverhead = true): ResourceList {
  let total: ResourceList = new Map();
  for (const c of pod.spec?.containers ?? []) total = add(total, partOf(c, part));
  let sidecars: ResourceList = new Map();
  let initMax: ResourceList = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    let step = partOf(c, part);
    if (c.restartPolicy === 'Always') {
      total = add(total, step);
      sidecars = add(sidecars, step);
      step = sidecars;
    } else {
      step = add(step, sidecars);
    }
    initMax = max(initMax, step);
  }
  total = max(total, initMax);
  if (!withOverhead) return total;
  const overhead = resourceList(pod.spec?.overhead);
  // Overhead counts only for what the pod states at all (limits: where a limit is set).
  for (const [k, q] of overhead) if (part === 'requests' || total.has(k)) total.set(k, (total.get(k) ?? q.sub(q)).add(q));
  return total;
}

/** QuotaV1Pod: whether the pod still uses compute (not terminal, not past its deletion grace). */
export function podUsesCompute(pod: Pod, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const deletion = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (typeof deletion === 'string' && typeof grace === 'number' && now > Date.parse(deletion) + grace * 1000) return false;
  return true;
}

/** PodUsageFunc. */
export function podUsage(pod: Pod, now: number): ResourceList {
  const base: ResourceList = new Map([['count/pods', one()]]);
  if (!podUsesCompute(pod, now)) return base;
  return add(base, computeUsage(podResources(pod, 'requests'), podResources(pod, 'limits')));
}

function isBestEffort(pod: Pod): boolean {
  if (pod.status?.qosClass) return pod.status.qosClass === 'BestEffort';
  const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  return all.every((c) => ['requests', 'limits'].every((p) => !['cpu', 'memory'].some((r) => c.resources?.[p as Part]?.[r] !== undefined)));
}

function usesCrossNamespaceAffinity(pod: Pod): boolean {
  const a = pod.spec?.affinity;
  const terms = [
    ...(a?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => w.podAffinityTerm),
    ...(a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => w.podAffinityTerm),
  ];
  return terms.some((t) => t && ((t.namespaces ?? []).length > 0 || (t.namespaceSelector !== undefined && t.namespaceSelector !== null)));
}

export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values: readonly string[];
}

/** podMatchesScopeFunc. */
export function podMatchesScope(req: ScopeRequirement, pod: Pod): boolean {
  const deadline = pod.spec?.activeDeadlineSeconds;
  switch (req.scopeName) {
    case 'Terminating':
      return typeof deadline === 'number' && deadline >= 0;
    case 'NotTerminating':
      return typeof deadline !== 'number';
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const name = pod.spec?.priorityClassName ?? '';
      // The selector matches the pod's priorityClassName as a label value (an empty name does not exist).
      switch (req.operator) {
        case 'Exists':
          return name !== '';
        case 'DoesNotExist':
          return name === '';
        case 'In':
          return name !== '' && req.values.includes(name);
        case 'NotIn':
          return name === '' || !req.values.includes(name);
      }
      return false;
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespaceAffinity(pod);
  }
  return false;
}

/** The resources whose quotas require every container to state them (validationSet). */
const REQUIRED_PER_CONTAINER = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** podEvaluator.Constraints: '' or Kubernetes' "must specify <resource> for: <containers>; ..." */
export function podConstraints(required: readonly string[], pod: Pod): string {
  const wanted = required.filter((r) => REQUIRED_PER_CONTAINER.has(r));
  const missing = new Map<string, Set<string>>();
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const usage = computeUsage(partOf(c, 'requests'), partOf(c, 'limits'));
    for (const r of wanted) {
      if (usage.has(r)) continue;
      if (!missing.has(r)) missing.set(r, new Set());
      missing.get(r)!.add(c.name ?? "");
    }
  }
  return [...missing.keys()]
    .sort()
    .map((r) => `must specify ${r} for: ${[...missing.get(r)!].sort().join(',')}`)
    .join('; ');
}
