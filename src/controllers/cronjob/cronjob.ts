// A CronJob's spec and status as the controller reads and writes them.
import type { CronJob, CronJobSpec, CronJobStatus } from '../../api/types.js';

export const specOf = (cj: CronJob): CronJobSpec => cj.spec ?? {};

/** status, created when absent (the controller writes into it). */
export function statusOf(cj: CronJob): CronJobStatus {
  return (cj.status ??= {});
}
