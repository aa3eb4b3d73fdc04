// pkg/controller/job/backoff_utils.go: the Job controller's per-Job record of pod failures since
// the last success, and the exponential back-off (10 s doubling, at most 6 min) before new pods.
import type { Pod } from '../../api/types.js';
import { timeMs } from '../common/time.js';
import { podReadyCondition } from '../common/pods.js';

export const DEFAULT_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 6 * 60_000;

export interface BackoffRecord {
  key: string;
  failuresAfterLastSuccess: number;
  lastFailureTime?: number;
}

/** getFinishedTime: the latest container finish, else the Ready=False transition, else deletion, else creation. */
export function podFinishedTime(pod: Pod): number {
  let latest = 0;
  for (const cs of pod.status?.containerStatuses ?? []) {
    const t = timeMs(cs.state?.terminated?.finishedAt);
    if (t === 0) {
      latest = 0;
      break;
    }
    if (t > latest) latest = t;
  }
  if (latest !== 0) return latest;
  const ready = podReadyCondition(pod);
  if (ready && ready.status === 'False' && timeMs(ready.lastTransitionTime) !== 0) return timeMs(ready.lastTransitionTime);
  const del = timeMs(pod.metadata?.deletionTimestamp);
  if (del !== 0) return del;
  return timeMs(pod.metadata?.creationTimestamp);
}

export class BackoffStore {
  private readonly records = new Map<string, BackoffRecord>();

  update(r: BackoffRecord): void {
    this.records.set(r.key, { ...r });
  }

  remove(key: string): void {
    this.records.delete(key);
  }

  /** newBackoffRecord: the stored record advanced by pods that newly succeeded or failed. */
  newRecord(key: string, newSucceeded: Pod[], newFailed: Pod[]): BackoffRecord {
    const old = this.records.get(key);
    const r: BackoffRecord = old ? { ...old } : { key, failuresAfterLastSuccess: 0 };
    const failedTimes = newFailed.map(podFinishedTime).sort((a, b) => a - b);
    const succeededTimes = newSucceeded.map(podFinishedTime).sort((a, b) => a - b);
    if (succeededTimes.length === 0) {
      if (failedTimes.length === 0) return r;
      r.failuresAfterLastSuccess += failedTimes.length;
      r.lastFailureTime = failedTimes[failedTimes.length - 1];
      return r;
    }
    r.failuresAfterLastSuccess = 0;
    r.lastFailureTime = undefined;
    const lastSuccess = succeededTimes[succeededTimes.length - 1]!;
    for (let i = failedTimes.length - 1; i >= 0; i--) {
      const t = failedTimes[i]!;
      if (t <= lastSuccess) break;
      r.lastFailureTime ??= t;
      r.failuresAfterLastSuccess++;
    }
    return r;
  }
}

/** getRemainingTimeForFailuresCount: how long new pods must still wait (ms), 0 for none. */
export function remainingBackoffMs(r: BackoffRecord, now: number, base = DEFAULT_POD_FAILURE_BACKOFF_MS, max = MAX_POD_FAILURE_BACKOFF_MS): number {
  if (r.failuresAfterLastSuccess === 0 || r.lastFailureTime === undefined) return 0;
  let backoff = base;
  for (let i = 1; i < r.failuresAfterLastSuccess; i++) {
    backoff *= 2;
    if (backoff >= max) {
      backoff = max;
      break;
    }
  }
  const elapsed = now - r.lastFailureTime;
  return backoff < elapsed ? 0 : backoff - elapsed;
}
