// metav1.Condition lists as apimachinery's meta.SetStatusCondition keeps them: one entry per type,
// lastTransitionTime moving only when the status changes.
import type { Condition } from '../types.js';

/** The condition of `type`, if present. */
export function findStatusCondition(conditions: readonly (Condition | null | undefined)[] | null | undefined, type: string): Condition | undefined {
  return (conditions ?? []).find((c): c is Condition => c?.type === type);
}

/**
 * Sets `next` in `conditions` (in place): added with `lastTransitionTime` (or `now`) when absent;
 * otherwise status, reason, message and observedGeneration are updated, and lastTransitionTime
 * only when the status changes. Returns whether anything changed.
 */
export function setStatusCondition(conditions: Condition[], next: Omit<Condition, 'lastTransitionTime'> & { lastTransitionTime?: string }, now: string): boolean {
  const existing = findStatusCondition(conditions, next.type ?? '');
  if (!existing) {
    conditions.push({ ...next, lastTransitionTime: next.lastTransitionTime || now });
    return true;
  }
  let changed = false;
  if (existing.status !== next.status) {
    existing.status = next.status;
    existing.lastTransitionTime = next.lastTransitionTime || now;
    changed = true;
  }
  if (existing.reason !== next.reason) {
    existing.reason = next.reason;
    changed = true;
  }
  if (existing.message !== next.message) {
    existing.message = next.message;
    changed = true;
  }
  if ((existing.observedGeneration ?? 0) !== (next.observedGeneration ?? 0)) {
    existing.observedGeneration = next.observedGeneration;
    changed = true;
  }
  return changed;
}
