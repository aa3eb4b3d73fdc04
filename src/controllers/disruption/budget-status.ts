// What a PodDisruptionBudget's status says, computed as Kubernetes' disruption controller does:
// healthy pods (ready, not being deleted, not recently evicted), the evictions the API server has
// recorded and not yet seen happen (status.disruptedPods, kept for DeletionTimeout), and the
// DisruptionAllowed condition (component-helpers' pdbhelper).
import { findStatusCondition, setStatusCondition } from '../../api/meta/conditions.js';
import { isBeingDeleted, metadataOf, nameOf } from '../../api/meta/object.js';
import type { Condition, Pod, PodDisruptionBudget, PodDisruptionBudgetStatus } from '../../api/types.js';
import { semanticEqual } from '../common/objects.js';
import { isPodReady } from '../common/pods.js';
import { rfc3339, timeMs } from '../common/time.js';

/** How long after an eviction the pod is expected to show its deletionTimestamp. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const SUFFICIENT_PODS = 'SufficientPods';
export const INSUFFICIENT_PODS = 'InsufficientPods';
export const SYNC_FAILED = 'SyncFailed';

export interface DisruptedPods {
  /** The recorded evictions still pending (pod name → eviction time). */
  pods: Record<string, string>;
  /** The earliest moment one of them expires: the budget is checked again then. */
  recheckAtMs?: number;
  /** Pods recorded as evicted that were not deleted in time. */
  notDeleted: Pod[];
}

/** buildDisruptedPodMap: keeps the recorded evictions of live pods that have not timed out. */
export function pendingDisruptions(pods: readonly Pod[], pdb: PodDisruptionBudget, nowMs: number): DisruptedPods {
  const recorded = pdb.status?.disruptedPods ?? {};
  const out: DisruptedPods = { pods: {}, notDeleted: [] };
  for (const pod of pods) {
    if (isBeingDeleted(pod)) continue;
    const at = recorded[nameOf(pod)];
    if (at === undefined || at === null) continue;
    const expected = timeMs(at) + DELETION_TIMEOUT_MS;
    if (expected < nowMs) {
      out.notDeleted.push(pod);
      continue;
    }
    out.pods[nameOf(pod)] = at;
    if (out.recheckAtMs === undefined || expected < out.recheckAtMs) out.recheckAtMs = expected;
  }
  return out;
}

/** countHealthyPods: ready, not being deleted, and not just evicted. */
export function countHealthyPods(pods: readonly Pod[], disrupted: Readonly<Record<string, string>>, nowMs: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (isBeingDeleted(pod)) continue;
    const at = disrupted[nameOf(pod)];
    if (at !== undefined && timeMs(at) + DELETION_TIMEOUT_MS > nowMs) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** pdbhelper.UpdateDisruptionAllowedCondition. */
export function updateDisruptionAllowedCondition(status: PodDisruptionBudgetStatus, nowMs: number): void {
  const conditions: Condition[] = (status.conditions ?? []).filter((c): c is Condition => c != null);
  const allowed = (status.disruptionsAllowed ?? 0) > 0;
  setStatusCondition(
    conditions,
    { type: DISRUPTION_ALLOWED, status: allowed ? 'True' : 'False', reason: allowed ? SUFFICIENT_PODS : INSUFFICIENT_PODS, message: '', observedGeneration: status.observedGeneration ?? 0 },
    rfc3339(nowMs),
  );
  status.conditions = conditions;
}

/** pdbhelper.ConditionsAreUpToDate. */
export function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const status = pdb.status ?? {};
  const cond = findStatusCondition(status.conditions, DISRUPTION_ALLOWED);
  if (!cond || (status.observedGeneration ?? 0) !== (metadataOf(pdb).generation ?? 0)) return false;
  return (status.disruptionsAllowed ?? 0) > 0 ? cond.status === 'True' && cond.reason === SUFFICIENT_PODS : cond.status === 'False' && cond.reason === INSUFFICIENT_PODS;
}

export interface BudgetCounts {
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  disruptedPods: Record<string, string>;
}

/**
 * The status the budget should have (updatePdbStatus), or undefined when it already has it. No
 * disruption is allowed while the budget expects no pods, so that pods appearing before the next
 * sync are protected.
 */
export function desiredStatus(pdb: PodDisruptionBudget, counts: BudgetCounts, nowMs: number): PodDisruptionBudgetStatus | undefined {
  const generation = metadataOf(pdb).generation ?? 0;
  let disruptionsAllowed = counts.currentHealthy - counts.desiredHealthy;
  if (counts.expectedPods <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const cur = pdb.status ?? {};
  if (
    (cur.currentHealthy ?? 0) === counts.currentHealthy &&
    (cur.desiredHealthy ?? 0) === counts.desiredHealthy &&
    (cur.expectedPods ?? 0) === counts.expectedPods &&
    (cur.disruptionsAllowed ?? 0) === disruptionsAllowed &&
    semanticEqual(cur.disruptedPods ?? {}, counts.disruptedPods) &&
    (cur.observedGeneration ?? 0) === generation &&
    conditionsAreUpToDate(pdb)
  ) {
    return undefined;
  }
  const next: PodDisruptionBudgetStatus = {
    observedGeneration: generation,
    ...(Object.keys(counts.disruptedPods).length > 0 ? { disruptedPods: counts.disruptedPods } : {}),
    disruptionsAllowed,
    currentHealthy: counts.currentHealthy,
    desiredHealthy: counts.desiredHealthy,
    expectedPods: counts.expectedPods,
    conditions: structuredClone(cur.conditions ?? []),
  };
  updateDisruptionAllowedCondition(next, nowMs);
  return next;
}

/** failSafe: no disruption allowed, and the condition says why the budget could not be computed. */
export function failSafeStatus(pdb: PodDisruptionBudget, err: Error, nowMs: number): PodDisruptionBudgetStatus {
  const status = structuredClone(pdb.status ?? {});
  status.disruptionsAllowed = 0;
  const conditions: Condition[] = (status.conditions ?? []).filter((c): c is Condition => c != null);
  setStatusCondition(conditions, { type: DISRUPTION_ALLOWED, status: 'False', reason: SYNC_FAILED, message: err.message, observedGeneration: status.observedGeneration ?? 0 }, rfc3339(nowMs));
  status.conditions = conditions;
  return status;
}
