// A Job's pods as the controller counts them: phase, failed (or deleted before success), terminating.
import { isBeingDeleted } from '../../api/meta/object.js';
import type { Job, Pod } from '../../api/types.js';
import { onlyReplaceFailedPods } from './spec.js';

export function podPhaseOf(pod: Pod): string {
  return String(pod.status?.phase ?? '');
}

/** isPodFailed: Failed, or (unless only failed pods are replaced) deleted before it succeeded. */
export function isPodFailed(pod: Pod, job: Job): boolean {
  const phase = podPhaseOf(pod);
  if (phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  const deletion = pod.metadata?.deletionTimestamp;
  return deletion !== undefined && deletion !== null && phase !== 'Succeeded';
}

/** controller.CountTerminatingPods. */
export function countTerminatingPods(pods: Pod[]): number {
  return pods.filter((p) => isBeingDeleted(p) && podPhaseOf(p) !== 'Succeeded' && podPhaseOf(p) !== 'Failed').length;
}
