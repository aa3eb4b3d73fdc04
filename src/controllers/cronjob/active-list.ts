// status.active: the Jobs of a CronJob that are running.
import type { CronJob } from '../../api/types.js';
import { statusOf } from './cronjob.js';

export function inActiveList(cj: CronJob, uid: string): boolean {
  return (statusOf(cj).active ?? []).some((r) => r.uid === uid);
}

export function inActiveListByName(cj: CronJob, namespace: string, name: string): boolean {
  return (statusOf(cj).active ?? []).some((r) => r.name === name && r.namespace === namespace);
}

export function deleteFromActiveList(cj: CronJob, uid: string): void {
  const status = statusOf(cj);
  if (!status.active) return;
  const rest = status.active.filter((r) => r.uid !== uid);
  // Go's omitempty: an emptied list is not written.
  if (rest.length > 0) status.active = rest;
  else delete status.active;
}
