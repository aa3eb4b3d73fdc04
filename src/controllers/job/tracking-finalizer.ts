// The batch.kubernetes.io/job-tracking finalizer: a finished pod keeps it until the Job's status
// has counted it, and the controller remembers the removals it issued until it sees them.
import { hasFinalizer } from '../../api/meta/object.js';
import type { Pod } from '../../api/types.js';

export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';

export function hasTrackingFinalizer(pod: Pod): boolean {
  return hasFinalizer(pod, JOB_TRACKING_FINALIZER);
}

export function removeTrackingFinalizerPatch(pod: Pod): unknown {
  if (!hasTrackingFinalizer(pod)) return undefined;
  return { metadata: { [`$deleteFromPrimitiveList/finalizers`]: [JOB_TRACKING_FINALIZER] } };
}

/** uidTrackingExpectations: the pods whose finalizer removal the controller issued but has not seen yet. */
export class FinalizerExpectations {
  private readonly store = new Map<string, Set<string>>();

  expectRemoved(jobKey: string, uids: string[]): void {
    let s = this.store.get(jobKey);
    if (!s) this.store.set(jobKey, (s = new Set()));
    for (const u of uids) s.add(u);
  }

  observed(jobKey: string, uid: string): void {
    this.store.get(jobKey)?.delete(uid);
  }

  expected(jobKey: string): Set<string> {
    return new Set(this.store.get(jobKey) ?? []);
  }

  delete(jobKey: string): void {
    this.store.delete(jobKey);
  }
}
