// A Job's pods as the controller counts them: phase, failed (or deleted before success), terminating.
import type { KubeObject } from '../../client/types.js';
import { meta } from '../common/objects.js';
import { onlyReplaceFailedPods } from './spec.js';

export function podPhaseOf(pod: KubeObject): string {
  return String((pod.status as { phase?: string } | undefined)?.phase ?? '');
}

/** isPodFailed: Failed, or (unless only failed pods are replaced) deleted before it succeeded. */
export function isPodFailed(pod: KubeObject, job: KubeObject): boolean {
  const phase = podPhaseOf(pod);
  if (phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return meta(pod).deletionTimestamp !== undefined && meta(pod).deletionTimestamp !== null && phase !== 'Succeeded';
}

/** controller.CountTerminatingPods. */
export function countTerminatingPods(pods: KubeObject[]): number {
  return pods.filter((p) => meta(p).deletionTimestamp && podPhaseOf(p) !== 'Succeeded' && podPhaseOf(p) !== 'Failed').length;
}
