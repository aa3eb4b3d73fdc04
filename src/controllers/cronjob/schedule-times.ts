// pkg/controller/cronjob/utils.go's schedule times: the missed ones, the next one to start, the
// next requeue, and the schedule with its time zone.
import { creationTimestampOf } from '../../api/meta/object.js';
import type { CronJob } from '../../api/types.js';
import type { EventRecorder } from '../../client/types.js';
import { isKnownTimeZone } from '../../machinery/cron.js';
import { timeMs } from '../common/time.js';
import { specOf } from './cronjob.js';
import type { Schedule } from './schedule.js';

/** nextScheduleDelta: requeue a little after the schedule time. */
export const NEXT_SCHEDULE_DELTA_MS = 100;

export type Missed = 'none' | 'few' | 'many';

/**
 * mostRecentScheduleTime: the earliest time considered (last schedule, creation, or the starting
 * deadline), the most recent unmet schedule time at or before `now` (undefined if none), how
 * many were missed, and an error for schedules whose two next times are less than a second apart
 * (or that never fire).
 */
export function mostRecentScheduleTime(
  cj: CronJob,
  now: number,
  sched: Schedule,
  includeStartingDeadlineSeconds: boolean,
): { earliest: number; mostRecent?: number; missed: Missed; error?: string } {
  const status = cj.status ?? {};
  const spec = specOf(cj);
  let earliest = timeMs(creationTimestampOf(cj));
  if (status.lastScheduleTime) earliest = timeMs(status.lastScheduleTime);
  if (includeStartingDeadlineSeconds && typeof spec.startingDeadlineSeconds === 'number') {
    const deadline = now - spec.startingDeadlineSeconds * 1000;
    if (deadline > earliest) earliest = deadline;
  }
  const t1 = sched.next(earliest);
  const t2 = t1 === undefined ? undefined : sched.next(t1);
  // Go's zero time is before every time: a schedule that never fires falls through to the error.
  if (t1 !== undefined && now < t1) return { earliest, missed: 'none' };
  if (t1 !== undefined && t2 !== undefined && now < t2) return { earliest, mostRecent: t1, missed: 'none' };
  const between = t1 !== undefined && t2 !== undefined ? Math.round((t2 - t1) / 1000) : 0;
  if (between < 1) return { earliest, missed: 'none', error: 'time difference between two schedules is less than 1 second' };
  const elapsed = Math.trunc((now - t1!) / 1000);
  const missedCount = Math.trunc(elapsed / between) + 1;
  let mostRecent: number | undefined;
  const potentialEarliest = t1! + (missedCount - 2) * between * 1000;
  for (let t = sched.next(potentialEarliest); t !== undefined && t <= now; t = sched.next(t)) mostRecent = t;
  const missed: Missed = missedCount > 100 ? 'many' : missedCount > 0 ? 'few' : 'none';
  return { earliest, mostRecent, missed };
}

/** nextScheduleTimeDuration: how long until the sync after the next schedule time (ms). */
export function nextScheduleTimeDuration(cj: CronJob, now: number, sched: Schedule): number {
  const r = mostRecentScheduleTime(cj, now, sched, false);
  let from: number;
  if (r.error !== undefined) from = now;
  else if (r.mostRecent === undefined) from = r.missed === 'none' ? r.earliest : now;
  else from = r.mostRecent;
  const next = sched.next(from);
  // A schedule that never fires again: look again in a day (Go would compute a huge negative wait).
  if (next === undefined) return 24 * 3_600_000;
  return next + NEXT_SCHEDULE_DELTA_MS - now;
}

/** nextScheduleTime: the unmet schedule time to start now, if any; warns of too many missed ones. */
export function nextScheduleTime(cj: CronJob, now: number, sched: Schedule, recorder: EventRecorder): { time?: number; error?: string } {
  const r = mostRecentScheduleTime(cj, now, sched, true);
  if (r.mostRecent === undefined || r.mostRecent > now) return { error: r.error };
  if (r.missed === 'many') {
    recorder.event(cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
  }
  return { time: r.mostRecent, error: r.error };
}

/** formatSchedule: spec.timeZone becomes a TZ= prefix; a TZ in the schedule itself is warned about. */
export function formatSchedule(cj: CronJob, recorder: EventRecorder | undefined): string {
  const spec = specOf(cj);
  const schedule = spec.schedule ?? '';
  if (schedule.includes('TZ')) {
    recorder?.event(
      cj,
      'Warning',
      'UnsupportedSchedule',
      `CRON_TZ or TZ used in schedule ${JSON.stringify(schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
    );
    return schedule;
  }
  if (typeof spec.timeZone === 'string') {
    if (!isKnownTimeZone(spec.timeZone)) return schedule;
    return `TZ=${spec.timeZone} ${schedule}`;
  }
  return schedule;
}

