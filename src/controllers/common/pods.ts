// Pod facts the workload controllers share (podutil and controller_utils in Kubernetes): readiness,
// availability after minReadySeconds, active pods, and the order in which pods are deleted.
import { annotationsOf, creationTimestampOf, isBeingDeleted } from '../../api/meta/object.js';
import type { Pod, PodCondition } from '../../api/types.js';
import { timeMs } from './time.js';

export function podPhase(pod: Pod): string {
  return pod.status?.phase ?? '';
}

export function podReadyCondition(pod: Pod): PodCondition | undefined {
  return (pod.status?.conditions ?? []).find((c) => c.type === 'Ready');
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return podReadyCondition(pod)?.status === 'True';
}

/** podutil.IsPodAvailable: ready for at least minReadySeconds at `nowMs`. */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  const c = podReadyCondition(pod);
  if (c?.status !== 'True') return false;
  if (!minReadySeconds) return true;
  const t = timeMs(c.lastTransitionTime);
  return t !== 0 && t + minReadySeconds * 1000 <= nowMs;
}

/** controller.IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = podPhase(pod);
  return phase !== 'Succeeded' && phase !== 'Failed' && !isBeingDeleted(pod);
}

export function filterActivePods<P extends Pod>(pods: P[]): P[] {
  return pods.filter(isPodActive);
}

function nodeName(pod: Pod): string {
  return pod.spec?.nodeName ?? '';
}

function maxContainerRestarts(pod: Pod): number {
  let max = 0;
  for (const cs of pod.status?.containerStatuses ?? []) max = Math.max(max, cs.restartCount ?? 0);
  return max;
}

function deletionCost(pod: Pod): number {
  const v = annotationsOf(pod)['controller.kubernetes.io/pod-deletion-cost'];
  if (v === undefined) return 0;
  const n = Number(v);
  return Number.isInteger(n) ? n : 0;
}

const phaseOrdinal: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** afterOrZero: true when t1 is zero or after t2 (empty times sort first). */
function afterOrZero(t1: number, t2: number): boolean {
  if (t1 === 0 || t2 === 0) return t1 === 0;
  return t1 > t2;
}

/**
 * controller.ActivePodsWithRanks.Less: negative when a is less valuable than b (deleted first).
 * Unassigned < assigned; Pending < Unknown < Running; not ready < ready; lower deletion cost
 * first; more pods on the same node (higher rank) first; ready for less time first; more restarts
 * first; newer (or no creation time) first.
 */
export function comparePodsForDeletion(a: Pod, b: Pod, rankA = 0, rankB = 0): number {
  const less = (x: boolean): number => (x ? -1 : 1);
  const na = nodeName(a);
  const nb = nodeName(b);
  if (na !== nb && (na === '' || nb === '')) return less(na === '');
  const pa = phaseOrdinal[podPhase(a)] ?? 0;
  const pb = phaseOrdinal[podPhase(b)] ?? 0;
  if (pa !== pb) return less(pa < pb);
  const ra = isPodReady(a);
  const rb = isPodReady(b);
  if (ra !== rb) return less(!ra);
  const ca = deletionCost(a);
  const cb = deletionCost(b);
  if (ca !== cb) return less(ca < cb);
  if (rankA !== rankB) return less(rankA > rankB);
  if (ra && rb) {
    const ta = timeMs(podReadyCondition(a)?.lastTransitionTime);
    const tb = timeMs(podReadyCondition(b)?.lastTransitionTime);
    if (ta !== tb) return less(afterOrZero(ta, tb));
  }
  const xa = maxContainerRestarts(a);
  const xb = maxContainerRestarts(b);
  if (xa !== xb) return less(xa > xb);
  const cta = timeMs(creationTimestampOf(a));
  const ctb = timeMs(creationTimestampOf(b));
  if (cta !== ctb) return less(afterOrZero(cta, ctb));
  return 0;
}

/**
 * The `count` least valuable of `pods`, ranked by how many of `relatedPods` (the pods of the owner
 * and its siblings) share each pod's node, as the ReplicaSet controller's getPodsToDelete.
 */
export function podsToDelete<P extends Pod>(pods: P[], relatedPods: readonly Pod[], count: number): P[] {
  if (count >= pods.length) return [...pods];
  const onNode = new Map<string, number>();
  for (const p of relatedPods) {
    if (!isPodActive(p)) continue;
    const n = nodeName(p);
    onNode.set(n, (onNode.get(n) ?? 0) + 1);
  }
  const ranked = pods.map((p) => ({ p, rank: onNode.get(nodeName(p)) ?? 0 }));
  ranked.sort((x, y) => comparePodsForDeletion(x.p, y.p, x.rank, y.rank));
  return ranked.slice(0, count).map((r) => r.p);
}
