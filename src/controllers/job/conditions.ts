// A Job's conditions: new ones with their times, and setting one only when it changes.
import type { Job, JobCondition } from '../../api/types.js';
import { rfc3339 } from '../common/time.js';
import { jobStatus } from './spec.js';

export function newCondition(type: string, status: string, reason: string, message: string, now: number): JobCondition {
  const t = rfc3339(now);
  return { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
}

export function findCondition(job: Job, type: string): JobCondition | undefined {
  return (jobStatus(job).conditions ?? []).find((c) => c.type === type);
}

/** ensureJobConditionStatus: sets a condition's status, reason and message; returns whether it changed. */
export function ensureCondition(job: Job, type: string, status: string, reason: string, message: string, now: number): boolean {
  const st = jobStatus(job);
  const list = st.conditions ?? [];
  const i = list.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = list[i]!;
    if (c.status !== status || c.reason !== reason || c.message !== message) {
      list[i] = newCondition(type, status, reason, message, now);
      st.conditions = list;
      return true;
    }
    return false;
  }
  if (status !== 'False') {
    st.conditions = [...list, newCondition(type, status, reason, message, now)];
    return true;
  }
  return false;
}
