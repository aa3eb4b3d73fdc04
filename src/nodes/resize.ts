// In-place resize (InPlacePodVerticalScaling, beta and on in 1.33) as the kubelet's allocation
// manager decides it: a pod's new cpu/memory is allocated when it fits the node (else the
// PodResizePending condition, Infeasible or Deferred, and the old resources stay), and a container
// whose changed resource has resizePolicy RestartContainer is restarted. Pure.
import { parseQuantity } from '../api/meta/quantity.js';
import type { Container, Pod } from '../api/types.js';

/** The cpu and memory of one container (what a resize changes; what containerStatuses[].resources reports). */
export interface ContainerResources {
  requests?: Record<string, string>;
  limits?: Record<string, string>;
}

const RESIZABLE = ['cpu', 'memory'] as const;

export function containerResources(c: Container): ContainerResources | undefined {
  const pick = (l: Record<string, string> | null | undefined) => {
    const out: Record<string, string> = {};
    for (const k of RESIZABLE) if (l?.[k] !== undefined) out[k] = l[k]!;
    return Object.keys(out).length > 0 ? out : undefined;
  };
  const requests = pick(c.resources?.requests);
  const limits = pick(c.resources?.limits);
  if (!requests && !limits) return undefined;
  return { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) };
}

/** The containers a resize applies to: the regular ones and the sidecars. */
export function resizableContainers(pod: Pod): Container[] {
  return [...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'), ...(pod.spec?.containers ?? [])];
}

/** A pod's resources by container, as the node allocated them. */
export type Allocation = ReadonlyMap<string, ContainerResources | undefined>;

export function allocationOf(pod: Pod): Map<string, ContainerResources | undefined> {
  return new Map(resizableContainers(pod).map((c) => [c.name ?? '', containerResources(c)]));
}

export function sameAllocation(a: Allocation, b: Allocation): boolean {
  if (a.size !== b.size) return false;
  for (const [name, r] of a) if (JSON.stringify(r) !== JSON.stringify(b.get(name))) return false;
  return true;
}

/** cpu (millicores) and memory (bytes) requested by an allocation (a limit alone counts as the request, as the API server defaults it). */
export function requestsOf(a: Allocation): { cpu: number; memory: number } {
  let cpu = 0;
  let memory = 0;
  for (const r of a.values()) {
    const q = (k: 'cpu' | 'memory') => parseQuantity(r?.requests?.[k] ?? r?.limits?.[k] ?? '0');
    cpu += q('cpu')?.milliValue() ?? 0;
    memory += q('memory')?.value() ?? 0;
  }
  return { cpu, memory };
}

export type ResizeDecision = { allocate: true } | { allocate: false; reason: 'Infeasible' | 'Deferred'; message: string };

/** The kubelet's canResizePod: more than the node's allocatable is Infeasible, more than is left beside the other pods Deferred. */
export function decideResize(requested: { cpu: number; memory: number }, othersUsed: { cpu: number; memory: number }, allocatable: { cpu: number; memory: number }): ResizeDecision {
  if (requested.memory > allocatable.memory) return { allocate: false, reason: 'Infeasible', message: `Node didn't have enough capacity: memory, requested: ${requested.memory}, capacity: ${allocatable.memory}` };
  if (requested.cpu > allocatable.cpu) return { allocate: false, reason: 'Infeasible', message: `Node didn't have enough capacity: cpu, requested: ${requested.cpu}, capacity: ${allocatable.cpu}` };
  for (const r of ['cpu', 'memory'] as const) {
    if (requested[r] + othersUsed[r] > allocatable[r]) {
      return { allocate: false, reason: 'Deferred', message: `Node didn't have enough resource: ${r}, requested: ${requested[r]}, used: ${othersUsed[r]}, capacity: ${allocatable[r]}` };
    }
  }
  return { allocate: true };
}

/** The containers a newly allocated resize restarts: a changed cpu or memory whose resizePolicy is RestartContainer. */
export function containersToRestart(pod: Pod, from: Allocation, to: Allocation): string[] {
  const out: string[] = [];
  for (const c of resizableContainers(pod)) {
    const name = c.name ?? '';
    const a = from.get(name);
    const b = to.get(name);
    const changed = RESIZABLE.filter((k) => a?.requests?.[k] !== b?.requests?.[k] || a?.limits?.[k] !== b?.limits?.[k]);
    if (changed.some((k) => (c.resizePolicy ?? []).some((p) => p.resourceName === k && p.restartPolicy === 'RestartContainer'))) out.push(name);
  }
  return out;
}
